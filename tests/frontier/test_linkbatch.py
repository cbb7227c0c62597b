"""Scoring a queue at once: the floats of one link at a time (frontier/linkbatch.py)."""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from functools import partial
from typing import Any

import numpy as np
import numpy.typing as npt
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier.linkbatch import (
    LINK_COLUMNS,
    LinkColumns,
    PartialSums,
    column_row,
    score_batch,
    score_queued,
)
from pagesift_ui.frontier.links import (
    LinkSignal,
    explain_with,
    score,
    score_with,
)
from pagesift_ui.frontier.model import PRIOR_WEIGHTS
from pagesift_ui.frontier.queue import BestFirst, ColumnView, Offer, Packing, RowScores

U = "https://www.uni.localhost"
# weights chosen so coverages are exact: Σw = 2 (as in test_links.py)
TERM_WEIGHTS = (1.0, 0.25, 0.75)


def _random_signals(rng: random.Random, n: int, n_terms: int) -> list[LinkSignal]:
    def mask() -> int:
        return rng.randrange(1 << n_terms) if rng.random() < 0.6 else 0

    return [
        LinkSignal(
            f"{U}/p{i}", depth=rng.randrange(12), parent_relevance=rng.random(),
            parent_is_hub=rng.random() < 0.3, anchor_mask=mask(), locator_mask=mask(),
            context_mask=mask(), furniture=rng.random() < 0.2, dated=rng.random() < 0.1,
            section=rng.random() < 0.2, portal=rng.random() < 0.05,
            other_language=rng.random() < 0.1, group=rng.randrange(-1, 6),
            # a lift by meaning on some links (LinkMeaning's: weighted, six decimals)
            meaning=round(rng.uniform(0.0, 0.5), 6) if rng.random() < 0.4 else 0.0,
        )
        for i in range(n)
    ]


@pytest.mark.parametrize("n_terms", [1, 3, 9, 16])
def test_score_batch_equals_score_exactly(n_terms: int) -> None:
    rng = random.Random(n_terms)
    signals = _random_signals(rng, 2000, n_terms)
    term_weights = [rng.uniform(0.15, 1.0) for _ in range(n_terms)]
    link_weights = [rng.uniform(0.0, 3.0) for _ in range(5)]
    # five groups with credit, one (id 5) not known to the credits yet, and none (-1)
    credits = np.array([rng.random() for _ in range(5)])
    for portal_open in (False, True):
        for english in (False, True):
            expected = [score(s, link_weights, term_weights, portal_open, english, credits)
                        for s in signals]
            got = score_batch(signals, link_weights, term_weights, portal_open, english,
                              credits)
            assert got.tolist() == expected  # the very same floats


@pytest.mark.parametrize("n_terms", [1, 4, 12])
def test_a_links_score_is_its_explanations_final_score_exactly(n_terms: int) -> None:
    rng = random.Random(100 + n_terms)
    signals = _random_signals(rng, 1000, n_terms)
    term_weights = [rng.uniform(0.15, 1.0) for _ in range(n_terms)]
    link_weights = [rng.uniform(-1.0, 3.0) for _ in range(5)]
    for portal_open in (False, True):
        for english in (False, True):
            for signal in signals:
                credit, share = rng.random(), rng.random()
                explained = explain_with(signal, link_weights, term_weights, portal_open,
                                         english, credit, share)
                assert score_with(signal, link_weights, term_weights, portal_open, english,
                                  credit, share) == explained.score  # the very same float
                assert explained.steps[-1].score == explained.score


def test_score_batch_of_nothing_is_empty() -> None:
    assert score_batch([], PRIOR_WEIGHTS, TERM_WEIGHTS, False, True).shape == (0,)


def test_score_batch_on_100k_packed_signals_is_shaped_and_non_negative() -> None:
    # Speed is measured by benchmarks/bench_scoring.py, never asserted here (shared machines).
    signals = _random_signals(random.Random(1), 100_000, 12)
    columns = LinkColumns.from_signals(signals)
    scores = score_batch(columns, PRIOR_WEIGHTS, [0.5] * 12, True, True)
    assert scores.shape == (100_000,) and np.all(scores >= 0)


def test_one_links_score_reads_credits_one_at_a_time_and_equals_the_batch() -> None:
    from pagesift_ui.frontier.popularity import Popularity
    from pagesift_ui.frontier.siblings import SiblingCredit

    siblings, popularity = SiblingCredit(), Popularity()
    popularity.page_read(0.5)
    signals = []
    for n in range(6):
        group = siblings.group("p", n % 2, f"k{n}")
        target = popularity.linked("p", f"k{n}")
        signals.append(LinkSignal(f"{U}/x{n}", depth=1, parent_relevance=0.3, group=group,
                                  target=target, anchor_mask=n % 3))
    siblings.observe("k0", 0.7)
    popularity.page_read(0.5)
    popularity.linked("q", "k1")
    one = [explain_with(s, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True, siblings.credit(s.group),
                        popularity.share(s.target)).score for s in signals]
    batch = score_batch(signals, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True, siblings.credits(),
                        popularity.shares())
    assert batch.tolist() == one  # the very same floats
    assert siblings.credit(0) == pytest.approx(0.35)
    assert popularity.share(1) == pytest.approx(2 / 3)


@pytest.mark.parametrize("n_terms", [2, 9])
def test_score_batch_of_queued_columns_equals_score_exactly(n_terms: int) -> None:
    # the columns a queue keeps (LINK_COLUMNS, column_row), every id known to the credits
    # (score_batch's one-gather path) and negative weights (raw clipped at 0)
    rng = random.Random(100 + n_terms)
    signals = [replace(s, target=rng.randrange(-1, 4))
               for s in _random_signals(rng, 2000, n_terms)]
    term_weights = [rng.uniform(0.15, 1.0) for _ in range(n_terms)]
    link_weights = [rng.uniform(-2.0, 3.0) for _ in range(5)]
    credits = np.array([rng.random() for _ in range(6)])
    shares = np.array([rng.random() for _ in range(4)])
    queue = BestFirst(Packing(LINK_COLUMNS, column_row))
    for i, signal in enumerate(signals):
        queue.offer(f"k{i}", signal.url, signal.depth, 0.0, signal, len(signals))
    for portal_open, english in [(p, e) for p in (False, True) for e in (False, True)]:
        expected = [score(s, link_weights, term_weights, portal_open, english, credits,
                          shares) for s in signals]
        queue.rescore_columns(partial(_batch_of_columns, link_weights, term_weights,
                                      portal_open, english, credits, shares))
        got = [entry.score for entry in (queue.get(f"k{i}") for i in range(len(signals)))
               if entry is not None]
        assert got == expected  # the very same floats


def _batch_of_columns(
    link_weights: list[float], term_weights: list[float], portal_open: bool, english: bool,
    credits: npt.NDArray[np.float64], shares: npt.NDArray[np.float64],
    columns: Mapping[str, npt.NDArray[Any]],
) -> npt.NDArray[np.float64]:
    return score_batch(LinkColumns.from_columns(columns), link_weights, term_weights,
                       portal_open, english, credits, shares)


_CHANGES = st.sampled_from(["offer", "offer", "update", "drop", "shares", "credits", "weights",
                            "terms", "portal", "share", "credit", "pin", "other", "objects",
                            "families", "family"])


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 2**32), n_terms=st.sampled_from([2, 9]),
       changes=st.lists(_CHANGES, max_size=30), view=st.booleans())
def test_a_queue_rescored_with_kept_partial_sums_holds_the_floats_of_a_full_batch(
    seed: int, n_terms: int, changes: list[str], view: bool
) -> None:
    # score_queued makes again only the sums and scores whose inputs moved since its last
    # call (the queue keeps the other rows' floats: RowScores); every other change (and
    # every link queued, changed or moved since, and every score written by another
    # function) must be made again: each rescore is compared with score_batch from scratch.
    # With ``view`` the queue's ColumnView lists the written rows and a group's rows.
    rng = random.Random(seed)
    pool = [replace(s, target=rng.randrange(-1, 30)) for s in _random_signals(rng, 120, n_terms)]
    packing = Packing(LINK_COLUMNS, column_row, indexed=("group",) if view else ())
    queue, sums, queued = BestFirst(packing), PartialSums(), {}
    link_weights = [rng.uniform(-1.0, 3.0) for _ in range(5)]
    term_weights = [rng.uniform(0.15, 1.0) for _ in range(n_terms)]
    credits, shares = np.array([rng.random() for _ in range(6)]), np.zeros(30)
    families = np.zeros(0)  # the name families' credits by target: none known yet
    portal = False

    def offer() -> None:
        key = f"k{len(queued) + rng.randrange(1000)}"
        signal = pool[rng.randrange(len(pool))]
        if key not in queued and queue.offer(key, signal.url, signal.depth, 0.0, signal,
                                             80)[0] is not Offer.REJECTED:
            queued[key] = signal

    for _ in range(70):  # past 64 slots: the columns are moved once
        offer()
    for change in [*changes, "shares"]:
        if change == "offer":
            offer()
        elif change == "update" and queued:
            key = rng.choice(sorted(queued))
            queued[key] = replace(pool[rng.randrange(len(pool))], depth=rng.randrange(12))
            queue.update(key, queued[key].depth, 0.0, queued[key])
        elif change == "drop" and queued:
            queue.drop(key := rng.choice(sorted(queued)))
            del queued[key]
        elif change == "shares":
            shares = np.array([rng.random() for _ in range(30)])
        elif change == "credits":
            credits = np.append(credits, rng.random()) if rng.random() < 0.5 else credits * 0.5
        elif change == "share":  # one share moved: its rows only
            shares = shares.copy()
            shares[rng.randrange(len(shares))] = rng.random()
        elif change == "credit":  # one group's credit moved: its rows only
            credits = credits.copy()
            credits[rng.randrange(len(credits))] = rng.random()
        elif change == "families":  # every target's family credit (a table, then another)
            families = np.array([rng.random() for _ in range(30)])
        elif change == "family" and len(families):  # one family's targets moved
            families = families.copy()
            families[rng.sample(range(len(families)), 3)] = rng.random()
        elif change == "pin" and queued:
            queue.pin(rng.choice(sorted(queued)))
        elif change == "other":  # scores written by another function of the columns
            queue.rescore_columns(lambda columns: np.full(len(columns["depth"]), 0.5))
        elif change == "objects":  # and by a function of the signals
            queue.rescore(lambda signals: [0.25] * len(signals))
        elif change == "weights":
            link_weights[rng.randrange(5)] = rng.uniform(0.0, 3.0)
        elif change == "terms":
            term_weights[rng.randrange(n_terms)] = rng.uniform(0.15, 1.0)
        else:
            portal = not portal
        queued = {key: signal for key, signal in queued.items() if key in queue}
        queue.rescore_columns(partial(_queued_scores, sums, link_weights, term_weights,
                                      portal, credits, shares, families, view))
        keys = sorted(queued)
        expected = score_batch([queued[k] for k in keys], link_weights, term_weights, portal,
                               True, credits, shares, families)
        got = [entry.score for entry in map(queue.get, keys) if entry is not None]
        assert got == expected.tolist()  # the very same floats


def _queued_scores(
    sums: PartialSums, link_weights: list[float], term_weights: list[float], portal: bool,
    credits: npt.NDArray[np.float64], shares: npt.NDArray[np.float64],
    families: npt.NDArray[np.float64], view: bool, columns: ColumnView,
) -> npt.NDArray[np.float64] | RowScores:
    return score_queued(LinkColumns.from_columns(columns), sums, link_weights, term_weights,
                        portal, True, credits, shares, columns if view else None, families)
