"""The best-first queue (docs/DESIGN.md §9) with template demotion (§10) and user overrides."""

from __future__ import annotations

import math
from itertools import pairwise

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from pagesift_ui.frontier.queue import (
    DIVERSITY_RATIO,
    MAX_SCORE,
    BestFirst,
    ColumnView,
    Entry,
    Offer,
    Packing,
    RowScores,
    cluster_key,
    default_cap,
)

BIG_ROOM = 1_000_000
NO_CAP = 10**9


def never(cluster: str) -> bool:
    return False


def queue_of(*links: tuple[str, float]) -> BestFirst:
    """A queue holding ``links`` (url, score) offered in this order; key = url."""
    queue = BestFirst()
    for url, score in links:
        assert queue.offer(url, url, 1, score, {"url": url}, BIG_ROOM) == (Offer.QUEUED, None)
    return queue


def pop_all_best_first(queue: BestFirst) -> list[str]:
    popped = []
    while (entry := queue.pop_diverse({}, NO_CAP, never)) is not None:
        popped.append(entry.key)
    return popped


# --- helpers ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("url", "cluster"),
    [
        ("https://www.e.edu/news/2024/x", "e.edu/news"),
        ("https://E.EDU/News", "e.edu/News"),
        ("https://e.edu", "e.edu/"),
        ("https://e.edu/", "e.edu/"),
        ("http://lib.e.edu:8080//a/b?q=1", "lib.e.edu/a"),
    ],
)
def test_cluster_key_is_host_without_www_and_first_segment(url: str, cluster: str) -> None:
    assert cluster_key(url) == cluster


def test_cluster_key_rejects_a_relative_url() -> None:
    with pytest.raises(ValueError, match="absolute http"):
        cluster_key("/news/x")


@pytest.mark.parametrize(("limit", "cap"), [(0, 3), (1, 3), (12, 3), (13, 4), (100, 25)])
def test_default_cap_is_a_quarter_of_the_limit_but_at_least_three(limit: int, cap: int) -> None:
    assert default_cap(limit) == cap


def test_default_cap_rejects_a_negative_limit() -> None:
    with pytest.raises(ValueError, match="limit must be an integer ≥ 0, got -1"):
        default_cap(-1)


# --- offer and ordering ----------------------------------------------------------------------


def test_pops_by_score_then_discovery_order() -> None:
    queue = queue_of(("https://a.com/1", 0.2), ("https://a.com/2", 0.9), ("https://a.com/3", 0.2))
    queue.offer("https://a.com/4", "https://a.com/4", 1, 0.9, None, BIG_ROOM)
    assert pop_all_best_first(queue) == [
        "https://a.com/2",
        "https://a.com/4",
        "https://a.com/1",
        "https://a.com/3",
    ]


def test_nan_negative_and_minus_inf_scores_count_as_zero() -> None:
    queue = queue_of(("https://a.com/nan", math.nan), ("https://a.com/neg", -3.0))
    queue.offer("https://a.com/ninf", "https://a.com/ninf", 0, -math.inf, None, BIG_ROOM)
    assert [entry.score for entry in queue.entries()] == [0.0, 0.0, 0.0]
    assert pop_all_best_first(queue) == [
        "https://a.com/nan",
        "https://a.com/neg",
        "https://a.com/ninf",
    ]


def test_plus_inf_is_stored_as_the_largest_float_and_pops_first() -> None:
    queue = queue_of(("https://a.com/1", 5.0), ("https://a.com/2", math.inf))
    assert queue.peek_score() == MAX_SCORE
    assert pop_all_best_first(queue) == ["https://a.com/2", "https://a.com/1"]


def test_scores_whose_sum_overflows_are_kept_as_they_are() -> None:
    # two finite scores near the largest float sum to inf: the quick all-finite check must
    # take that as "look closer", not as a fault (hypothesis found the overflow warning)
    from pagesift_ui.frontier.queue_values import as_scores

    big = MAX_SCORE * 0.75
    scores = as_scores(np.array([big, big, -1.0, math.nan, math.inf]))
    assert scores.tolist() == [big, big, 0.0, 0.0, MAX_SCORE]


def test_already_queued_re_ranks_only_when_the_new_score_is_higher() -> None:
    queue = queue_of(("https://a.com/1", 0.5), ("https://a.com/2", 0.4))
    lower = queue.offer("https://a.com/2", "https://a.com/2", 3, 0.1, "low", BIG_ROOM)
    assert lower == (Offer.ALREADY_QUEUED, None)
    assert queue.get("https://a.com/2") == Entry(
        key="https://a.com/2", url="https://a.com/2", depth=1, score=0.4,
        signal={"url": "https://a.com/2"}, seq=1, pinned=False, template="a.com/#",
        cluster="a.com/2",
    )  # fmt: skip
    equal = queue.offer("https://a.com/2", "https://a.com/2", 0, 0.4, "same", BIG_ROOM)
    assert equal == (Offer.ALREADY_QUEUED, None)
    assert queue.get("https://a.com/2").signal == {"url": "https://a.com/2"}  # type: ignore[union-attr]
    higher = queue.offer("https://a.com/2", "https://a.com/2", 2, 0.8, "high", BIG_ROOM)
    assert higher == (Offer.ALREADY_QUEUED, None)
    entry = queue.get("https://a.com/2")
    assert entry is not None
    assert (entry.score, entry.signal, entry.depth, entry.seq) == (0.8, "high", 2, 1)
    assert pop_all_best_first(queue) == ["https://a.com/2", "https://a.com/1"]


def test_a_full_queue_evicts_the_worst_and_returns_its_key() -> None:
    queue = queue_of(("https://a.com/1", 0.5), ("https://a.com/2", 0.1), ("https://a.com/3", 0.3))
    outcome = queue.offer("https://a.com/4", "https://a.com/4", 1, 0.2, None, 3)
    assert outcome == (Offer.EVICTED, "https://a.com/2")
    assert "https://a.com/2" not in queue and len(queue) == 3
    # The caller forgot the evicted key: it may come back once there is room.
    back = queue.offer("https://a.com/2", "https://a.com/2", 1, 0.1, None, 4)
    assert back == (Offer.QUEUED, None)


def test_eviction_among_equal_worst_scores_removes_the_latest_discovered() -> None:
    queue = queue_of(("https://a.com/1", 0.1), ("https://a.com/2", 0.1), ("https://a.com/3", 0.9))
    assert queue.offer("https://a.com/4", "https://a.com/4", 1, 0.5, None, 3) == (
        Offer.EVICTED,
        "https://a.com/2",
    )


def test_a_full_queue_rejects_a_link_that_is_not_strictly_better() -> None:
    queue = queue_of(("https://a.com/1", 0.5), ("https://a.com/2", 0.2))
    assert queue.offer("https://a.com/3", "https://a.com/3", 1, 0.2, None, 2) == (
        Offer.REJECTED,
        None,
    )
    assert queue.offer("https://a.com/4", "https://a.com/4", 1, 0.9, None, 0) == (
        Offer.REJECTED,
        None,
    )
    assert [entry.key for entry in queue.entries()] == ["https://a.com/1", "https://a.com/2"]


def test_no_room_rejects_even_an_empty_queue() -> None:
    queue = BestFirst()
    assert queue.offer("k", "https://a.com/", 0, 1.0, None, 0) == (Offer.REJECTED, None)
    assert queue.offer("k", "https://a.com/", 0, 1.0, None, -2) == (Offer.REJECTED, None)
    assert len(queue) == 0 and queue.pop_diverse({}, 3, never) is None


@pytest.mark.parametrize(
    ("key", "url", "depth", "score", "message"),
    [
        ("", "https://a.com/", 0, 1.0, "key must be a non-empty string"),
        ("k", "https://a.com/", -1, 1.0, "depth must be an integer ≥ 0, got -1"),
        ("k", "https://a.com/", 0, "high", "score must be a number, got 'high'"),
        ("k", "/relative", 0, 1.0, "absolute http"),
    ],
)
def test_offer_rejects_bad_arguments_with_a_specific_message(
    key: str, url: str, depth: int, score: float, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        BestFirst().offer(key, url, depth, score, None, BIG_ROOM)


# --- pop_diverse (docs/DESIGN.md §9) --------------------------------------------------------------

# Hand-worked: top = x1 (0.9) in cluster a.com/x, so thr = 0.5 × 0.9 = 0.45.
X1, X2 = "https://a.com/x/1", "https://a.com/x/2"
Y1, Z, C = "https://b.com/y/1", "https://a.com/z", "https://c.com/"
LINKS = ((X1, 0.9), (X2, 0.8), (Y1, 0.5), (Z, 0.45), (C, 0.3))


def test_pop_diverse_pops_the_top_when_no_rule_fires() -> None:
    assert queue_of(*LINKS).pop_diverse({"a.com/x": 2}, 3, never).key == X1  # 2 < cap 3


def test_pop_diverse_pops_the_top_when_its_cluster_is_proven_even_at_cap() -> None:
    entry = queue_of(*LINKS).pop_diverse({"a.com/x": 9}, 3, {"a.com/x", "a.com/z"}.__contains__)
    assert entry.key == X1


def test_pop_diverse_prefers_a_proven_cluster_at_or_above_the_threshold() -> None:
    # a.com/z scores exactly thr (0.45) and is proven; c.com/ is proven but below thr.
    queue = queue_of(*LINKS)
    assert queue.pop_diverse({}, NO_CAP, {"a.com/z", "c.com/"}.__contains__).key == Z


def test_pop_diverse_ignores_proven_clusters_below_the_threshold() -> None:
    assert queue_of(*LINKS).pop_diverse({}, NO_CAP, {"c.com/"}.__contains__).key == X1


def test_pop_diverse_leaves_a_cluster_at_cap_for_the_best_other_cluster() -> None:
    assert queue_of(*LINKS).pop_diverse({"a.com/x": 3}, 3, never).key == Y1


def test_pop_diverse_keeps_the_top_at_cap_when_no_other_cluster_reaches_thr() -> None:
    queue = queue_of((X1, 0.9), (X2, 0.8), (C, 0.3))
    assert queue.pop_diverse({"a.com/x": 5}, 3, never).key == X1


def test_pop_diverse_counts_a_cluster_missing_from_scheduled_as_zero() -> None:
    assert queue_of(*LINKS).pop_diverse({"b.com/y": 50}, 1, never).key == X1


def test_an_all_zero_site_is_crawled_breadth_first_and_dispersed_at_cap() -> None:
    queue = queue_of(("https://a.com/s/1", 0.0), ("https://a.com/s/2", 0.0), (C, 0.0))
    assert queue.pop_diverse({}, 3, never).key == "https://a.com/s/1"
    assert queue.pop_diverse({"a.com/s": 3}, 3, never).key == C
    assert queue.pop_diverse({"a.com/s": 3}, 3, never).key == "https://a.com/s/2"


def test_pop_diverse_asks_proven_once_per_cluster() -> None:
    asked: list[str] = []

    def proven(cluster: str) -> bool:
        asked.append(cluster)
        return False

    queue_of(*LINKS, ("https://b.com/y/2", 0.6)).pop_diverse({}, NO_CAP, proven)
    assert sorted(asked) == sorted(set(asked))
    assert set(asked) == {"a.com/x", "b.com/y", "a.com/z"}  # c.com/ (0.3) is below thr


def test_demoted_templates_are_served_after_all_other_links() -> None:
    queue = queue_of(("https://a.com/cal/1", 0.9), ("https://a.com/cal/2", 0.8), (C, 0.1))
    demoted = frozenset({"a.com/cal/#"})
    assert [e.key for e in queue.top(3, demoted)] == [
        C,
        "https://a.com/cal/1",
        "https://a.com/cal/2",
    ]
    popped = [queue.pop_diverse({}, NO_CAP, never, demoted).key for _ in range(3)]
    assert popped == [C, "https://a.com/cal/1", "https://a.com/cal/2"]
    assert queue.pop_diverse({}, NO_CAP, never, demoted) is None


def test_dispersion_rules_apply_among_demoted_links_once_only_they_are_left() -> None:
    queue = queue_of(("https://a.com/cal/1", 0.9), ("https://b.com/cal/1", 0.6))
    demoted = frozenset({"a.com/cal/#", "b.com/cal/#"})
    assert queue.pop_diverse({"a.com/cal": 3}, 3, never, demoted).key == "https://b.com/cal/1"


# --- user overrides, rescoring, views --------------------------------------------------------


def test_pinned_links_pop_first_in_pin_order_before_any_rule() -> None:
    queue = queue_of(*LINKS)
    assert queue.pin(C) and queue.pin(Z) and queue.pin(C)  # re-pinning keeps the order
    assert not queue.pin("https://nowhere.com/")
    assert [e.key for e in queue.top(3)] == [C, Z, X1]
    assert queue.get(C).pinned  # type: ignore[union-attr]
    assert queue.pop_diverse({}, NO_CAP, {"a.com/x"}.__contains__).key == C
    assert queue.pop_diverse({}, NO_CAP, never).key == Z
    assert queue.pop_diverse({}, NO_CAP, never).key == X1


def test_a_pinned_link_is_never_evicted() -> None:
    queue = queue_of(("https://a.com/1", 0.9), ("https://a.com/2", 0.1))
    queue.pin("https://a.com/2")
    assert queue.offer("https://a.com/3", "https://a.com/3", 1, 0.5, None, 2) == (
        Offer.REJECTED,
        None,
    )
    queue.pin("https://a.com/1")
    assert queue.offer("https://a.com/3", "https://a.com/3", 1, 5.0, None, 2)[0] is Offer.REJECTED


def test_drop_removes_a_link_and_returns_its_entry() -> None:
    queue = queue_of(*LINKS)
    queue.pin(Y1)
    dropped = queue.drop(Y1)
    assert dropped is not None and (dropped.key, dropped.score, dropped.pinned) == (Y1, 0.5, True)
    assert Y1 not in queue and queue.get(Y1) is None and queue.drop(Y1) is None
    assert [e.key for e in queue.top(2)] == [X1, X2]


def test_rescore_reorders_and_leaves_seeds_alone() -> None:
    queue = BestFirst()
    queue.offer("seed", "https://a.com/", 0, 0.7, None, BIG_ROOM)
    for i, score in enumerate([0.9, 0.8, 0.1]):
        queue.offer(f"k{i}", f"https://a.com/{i}", 1, score, np.array([float(i)]), BIG_ROOM)
    received: list[list[object]] = []

    def score_fn(signals: list[object]) -> np.ndarray:
        received.append(signals)
        return np.concatenate(signals) * 0.5  # k0 → 0, k1 → 0.5, k2 → 1.0

    queue.rescore(score_fn)
    assert len(received[0]) == 3  # the seed's None signal is not passed
    assert [(e.key, e.score) for e in queue.entries()] == [
        ("k2", 1.0), ("seed", 0.7), ("k1", 0.5), ("k0", 0.0),
    ]  # fmt: skip
    assert [e.seq for e in queue.entries()] == [3, 0, 2, 1]


def test_rescore_sanitises_scores_and_checks_their_number() -> None:
    queue = queue_of(("https://a.com/1", 0.5), ("https://a.com/2", 0.4))
    queue.rescore(lambda signals: [math.nan, -1.0])
    assert [e.score for e in queue.entries()] == [0.0, 0.0]
    with pytest.raises(ValueError, match=r"score_fn returned \(1,\) scores for 2 signals"):
        queue.rescore(lambda signals: [1.0])


def test_views_do_not_pop() -> None:
    queue = queue_of(*LINKS)
    assert queue.peek_score() == 0.9 and len(queue) == 5 and X2 in queue
    assert [e.key for e in queue.top(2)] == [X1, X2]
    assert queue.top(0) == [] and len(queue.top(99)) == 5
    assert [e.key for e in queue.entries()] == [X1, X2, Y1, Z, C]
    assert len(queue) == 5 and BestFirst().peek_score() is None


def test_top_breaks_ties_by_discovery_among_many_equal_scores() -> None:
    queue = queue_of(*((f"https://a.com/{i}", 0.5 if i % 7 else 1.0) for i in range(300)))
    expected = [f"https://a.com/{i}" for i in range(0, 300, 7)]
    expected += [f"https://a.com/{i}" for i in range(300) if i % 7][: 50 - len(expected)]
    assert [e.key for e in queue.top(50)] == expected


def test_storage_grows_and_compacts_without_losing_entries() -> None:
    queue = queue_of(*((f"https://h{i % 9}.com/s/{i}", (i * 37 % 101) / 100) for i in range(3000)))
    expected = [e.key for e in queue.entries()]
    for _ in range(2500):
        queue.pop_diverse({}, NO_CAP, never)
    assert [e.key for e in queue.entries()] == expected[2500:]
    assert all(queue.get(key).key == key for key in expected[2500:])  # type: ignore[union-attr]


# --- properties ------------------------------------------------------------------------------

scores = st.one_of(st.floats(allow_nan=True, allow_infinity=True), st.sampled_from([0.0, 0.5]))


@given(st.lists(st.tuples(st.integers(0, 30), scores), max_size=60), st.integers(-1, 8))
def test_the_queue_never_exceeds_room(offers: list[tuple[int, float]], room: int) -> None:
    queue = BestFirst()
    for i, score in offers:
        queue.offer(f"k{i}", f"https://h{i % 4}.com/{i}", 1, score, None, room)
        assert len(queue) <= max(room, 0)


@given(st.lists(st.tuples(st.integers(0, 40), scores), max_size=60))
def test_without_dispersion_pops_are_non_increasing_and_unique(
    offers: list[tuple[int, float]],
) -> None:
    queue = BestFirst()
    for i, score in offers:
        queue.offer(f"k{i}", f"https://h{i % 4}.com/{i}", 1, score, None, BIG_ROOM)
    popped = []
    while (entry := queue.pop_diverse({}, NO_CAP, never)) is not None:
        popped.append(entry)
    assert len({e.key for e in popped}) == len(popped)
    assert all((a.score, -a.seq) > (b.score, -b.seq) for a, b in pairwise(popped))


KEYS = [f"https://h{i % 3}.com/s{i % 2}/{i}" for i in range(12)]
ROOM = 6


def _clean_score(score: float) -> float:
    return 0.0 if math.isnan(score) or score < 0 else min(score, MAX_SCORE)


class QueueMachine(RuleBasedStateMachine):
    """BestFirst against a model dict: key → [score, seq, signal]."""

    def __init__(self) -> None:
        super().__init__()
        self.queue = BestFirst()
        self.model: dict[str, list] = {}
        self.pins: list[str] = []
        self.popped: set[str] = set()
        self.next_seq = 0

    def _best(self, keys: list[str]) -> str:
        return min(keys, key=lambda k: (-self.model[k][0], self.model[k][1]))

    @rule(i=st.integers(0, len(KEYS) - 1), score=scores, seeded=st.booleans())
    def offer(self, i: int, score: float, seeded: bool) -> None:
        key, value, signal = KEYS[i], _clean_score(score), (None if seeded else i)
        if key in self.popped:
            return  # a fetched link is never offered again by the crawl
        outcome = self.queue.offer(key, key, 1, score, signal, ROOM)
        if key in self.model:
            expected = (Offer.ALREADY_QUEUED, None)
            if value > self.model[key][0]:
                self.model[key][0], self.model[key][2] = value, signal
        elif len(self.model) < ROOM:
            expected = (Offer.QUEUED, None)
        else:
            unpinned = [k for k in self.model if k not in self.pins]
            worst = min(unpinned, key=lambda k: (self.model[k][0], -self.model[k][1]), default=None)
            if worst is None or value <= self.model[worst][0]:
                expected = (Offer.REJECTED, None)
            else:
                expected = (Offer.EVICTED, worst)
                del self.model[worst]
        if expected[0] in (Offer.QUEUED, Offer.EVICTED):
            self.model[key] = [value, self.next_seq, signal]
            self.next_seq += 1
        assert outcome == expected

    @precondition(lambda self: bool(self.model))
    @rule(
        proven=st.sets(st.sampled_from(["h0.com/s0", "h0.com/s1", "h1.com/s0", "h2.com/s1"])),
        at_cap=st.sets(st.sampled_from(["h0.com/s0", "h1.com/s1", "h2.com/s0"])),
    )
    def pop(self, proven: set[str], at_cap: set[str]) -> None:
        scheduled = dict.fromkeys(at_cap, 3)
        expected = self._reference_pop(scheduled, proven)
        entry = self.queue.pop_diverse(scheduled, 3, proven.__contains__)
        assert entry is not None and entry.key == expected
        assert entry.key not in self.popped
        self.popped.add(entry.key)
        del self.model[entry.key]
        if entry.key in self.pins:
            self.pins.remove(entry.key)

    def _reference_pop(self, scheduled: dict[str, int], proven: set[str]) -> str:
        """Spec §9 written plainly over the model."""
        if self.pins:
            return self.pins[0]
        top = self._best(list(self.model))
        cluster = cluster_key(top)
        if cluster in proven:
            return top
        threshold = DIVERSITY_RATIO * self.model[top][0]
        eligible = [k for k in self.model if self.model[k][0] >= threshold]
        in_proven = [k for k in eligible if cluster_key(k) in proven]
        if in_proven:
            return self._best(in_proven)
        others = [k for k in eligible if cluster_key(k) != cluster]
        return self._best(others) if scheduled.get(cluster, 0) >= 3 and others else top

    @rule(i=st.integers(0, len(KEYS) - 1))
    def pin(self, i: int) -> None:
        key = KEYS[i]
        assert self.queue.pin(key) == (key in self.model)
        if key in self.model and key not in self.pins:
            self.pins.append(key)

    @rule(i=st.integers(0, len(KEYS) - 1))
    def drop(self, i: int) -> None:
        entry = self.queue.drop(KEYS[i])
        assert (entry is not None) == (KEYS[i] in self.model)
        self.model.pop(KEYS[i], None)
        if KEYS[i] in self.pins:
            self.pins.remove(KEYS[i])

    @rule(factor=st.sampled_from([0.0, 0.5, 2.0]), shift=st.sampled_from([-1.0, 0.0, 0.25]))
    def rescore(self, factor: float, shift: float) -> None:
        def score_fn(signals: list[object]) -> list[float]:
            return [factor * int(signal) + shift for signal in signals]  # type: ignore[call-overload]

        self.queue.rescore(score_fn)
        for values in self.model.values():
            if values[2] is not None:
                values[0] = _clean_score(factor * values[2] + shift)

    @rule(excluded=st.sets(st.sampled_from(sorted({cluster_key(k) for k in KEYS}))))
    def first_outside(self, excluded: set[str]) -> None:
        # the default part of a URL is its cluster; the head is read from the columns
        asked: list[str] = []

        def is_excluded(part: str) -> bool:
            asked.append(part)
            return part in excluded

        unpinned = sorted((k for k in self.model if k not in self.pins),
                          key=lambda k: (-self.model[k][0], self.model[k][1]))
        expected = next((k for k in self.pins + unpinned if cluster_key(k) not in excluded),
                        None)
        head = self.queue.first_outside(is_excluded)
        assert (None if head is None else head.key) == expected
        assert len(asked) == len(set(asked))  # once per part met

    @rule(ends=st.sets(st.sampled_from("0123456789")))
    def entries_where(self, ends: set[str]) -> None:
        unpinned = sorted((k for k in self.model if k not in self.pins),
                          key=lambda k: (-self.model[k][0], self.model[k][1]))
        expected = [k for k in self.pins + unpinned if k[-1] in ends]
        got = self.queue.entries_where(lambda url: url[-1] in ends)
        assert [e.key for e in got] == expected
        assert got == [e for e in self.queue.entries() if e.url[-1] in ends]

    @invariant()
    def matches_the_model(self) -> None:
        assert len(self.queue) == len(self.model) <= ROOM
        unpinned = sorted(
            (k for k in self.model if k not in self.pins),
            key=lambda k: (-self.model[k][0], self.model[k][1]),
        )
        entries = self.queue.entries()
        assert [e.key for e in entries] == self.pins + unpinned
        assert all(e.score == self.model[e.key][0] for e in entries)


TestQueueMachine = QueueMachine.TestCase
TestQueueMachine.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)


def _signal_row(signal: object) -> tuple[int]:
    return (int(signal),)  # type: ignore[call-overload]


class PackedQueueMachine(QueueMachine):
    """The same, on a queue with packed columns: rescores of some rows (RowScores) and of
    every row keep the kept head and low end right (pops, evictions and the order)."""

    def __init__(self) -> None:
        super().__init__()
        self.queue = BestFirst(Packing((("value", "int64", 0),), _signal_row,
                                       indexed=("value",)))

    @rule(values=st.sets(st.integers(0, len(KEYS) - 1)), score=scores)
    def rescore_rows(self, values: set[int], score: float) -> None:
        def score_fn(columns: ColumnView) -> RowScores:
            rows = columns.rows_with("value", sorted(values))
            assert rows is not None
            # only the live rows with a signal are indexed, each once
            assert sorted(columns["value"][rows].tolist()) == sorted(
                v[2] for v in self.model.values() if v[2] is not None and v[2] in values)
            return RowScores(rows, np.full(len(rows), score))

        self.queue.rescore_columns(score_fn)
        for entry in self.model.values():
            if entry[2] is not None and entry[2] in values:
                entry[0] = _clean_score(score)

    @rule(factor=st.sampled_from([0.0, 0.5, 2.0]), shift=st.sampled_from([-1.0, 0.0, 0.25]))
    def rescore_columns(self, factor: float, shift: float) -> None:
        self.queue.rescore_columns(lambda columns: factor * columns["value"] + shift)
        for values in self.model.values():
            if values[2] is not None:
                values[0] = _clean_score(factor * values[2] + shift)

    @invariant()
    def pops_the_head_and_evicts_the_worst(self) -> None:
        # the kept head is the best entry, pins ignored (peek_score reads it)
        best = max((v[0] for v in self.model.values()), default=None)
        assert self.queue.peek_score() == best


TestPackedQueueMachine = PackedQueueMachine.TestCase
TestPackedQueueMachine.settings = settings(max_examples=150, stateful_step_count=40,
                                           deadline=None)


def test_a_column_view_lists_the_rows_written_since_the_last_rescore() -> None:
    queue = BestFirst(Packing((("value", "int64", 0),), _signal_row, indexed=("value",)))
    seen: list[tuple[int, list[int] | None]] = []

    def record(columns: ColumnView) -> RowScores:
        written = columns.written()
        seen.append((columns.epoch, None if written is None else written.tolist()))
        assert columns.rows_with("missing", [1]) is None
        assert columns.rows_with("value", [-1]) is None
        return RowScores(np.zeros(0, dtype=np.intp), np.zeros(0))

    for i in range(3):
        queue.offer(f"k{i}", f"https://e.com/{i}", 1, 0.5, i, 10)
    queue.rescore_columns(record)
    queue.update("k1", 1, 0.7, 7)
    queue.rescore_columns(record)
    for i in range(3, 70):  # past 64 slots: the rows move, and which were written is lost
        queue.offer(f"k{i}", f"https://e.com/{i}", 1, 0.5, i, 100)
    queue.rescore_columns(record)
    assert seen == [(1, [0, 1, 2]), (2, [1]), (3, None)]


def test_first_outside_takes_the_pins_first_then_the_best_outside_the_excluded_parts() -> None:
    queue = queue_of(("https://a.com/x/1", 0.9), ("https://a.com/x/2", 0.8),
                     ("https://b.com/y/3", 0.1), ("https://a.com/z/4", 0.5))
    assert queue.first_outside(lambda part: part == "a.com/x").key == "https://a.com/z/4"
    queue.pin("https://b.com/y/3")
    assert queue.first_outside(lambda part: False).key == "https://b.com/y/3"
    assert queue.first_outside(lambda part: part == "b.com/y").key == "https://a.com/x/1"
    assert queue.first_outside(lambda part: True) is None


def test_count_in_counts_the_live_entries_of_the_chosen_parts_asking_each_part_once() -> None:
    queue = queue_of(("https://a.com/x/1", 0.9), ("https://a.com/x/2", 0.8),
                     ("https://b.com/y/3", 0.1), ("https://a.com/z/4", 0.5))
    asked: list[str] = []

    def chosen(part: str) -> bool:
        asked.append(part)
        return part == "a.com/x"

    assert queue.count_in(chosen) == 2
    assert sorted(asked) == sorted(set(asked))  # once per part
    queue.drop("https://a.com/x/1")
    assert queue.count_in(chosen) == 1
    assert queue.count_in(lambda part: False) == 0
    assert BestFirst().count_in(lambda part: True) == 0


def test_first_outside_reads_the_part_the_queue_was_made_with() -> None:
    queue = BestFirst(part_of=lambda url: url.rsplit("/", 1)[0])
    for url, score in (("https://a.com/x/1", 0.9), ("https://a.com/x/y/2", 0.8)):
        queue.offer(url, url, 1, score, None, BIG_ROOM)
    assert queue.first_outside(lambda part: part == "https://a.com/x").key == (
        "https://a.com/x/y/2")
