"""A queued link's offers, and the best of them as they score now (frontier/offers.py)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import numpy.typing as npt
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import offers as offers_module
from pagesift_ui.frontier.linkbatch import LinkColumns, score_batch
from pagesift_ui.frontier.links import LinkSignal, link_signal, score
from pagesift_ui.frontier.offers import MAX_OFFERS, LinkOffers
from pagesift_ui.frontier.query import Query

QUERY = Query("event loop scheduling")
HOST = "docs.localhost"
WEIGHTS = (2.0, 1.5, 1.0, 0.5, 0.5)


def signal(anchor: str, parent: float, depth: int = 1, url: str = "a.html") -> LinkSignal:
    return link_signal(QUERY, f"http://{HOST}/{url}", anchor, "", depth, parent, False, HOST)


def by_parent(columns: LinkColumns) -> npt.NDArray[np.float64]:
    """A scorer that ranks by the parent feature alone: what the tests move."""
    return np.asarray(columns.parent, dtype=np.float64)


def batch(columns: LinkColumns) -> npt.NDArray[np.float64]:
    return score_batch(columns, WEIGHTS, (1.0,) * len(QUERY), False, True)


def test_a_link_met_once_has_no_offers_and_its_first_offer_joins_when_met_again() -> None:
    offers = LinkOffers()
    first, second = signal("Preface", 0.2), signal("Event loop", 0.1)
    assert len(offers) == 0 and offers.offers("k") == []
    offers.offer("k", second, first)
    assert offers.offers("k") == [first, second] and len(offers) == 1


def test_the_best_offer_is_the_best_under_the_scorer_now_not_the_first_nor_the_last() -> None:
    offers = LinkOffers()
    low, high, last = signal("Preface", 0.1), signal("Appendix", 0.7), signal("Notes", 0.3)
    offers.offer("k", high, low)
    offers.offer("k", last, low)
    assert offers.best(lambda key: True, by_parent) == [("k", high)]


def test_the_offers_are_ranked_as_the_queue_scores_them_at_one_depth() -> None:
    # the parent page's offer scores more at its own depth 1 than the words' at 20; at one
    # depth, the one the link is queued at, the words' offer scores more: the depth decay
    # decides nothing between a link's offers
    offers = LinkOffers()
    near, words = signal("Preface", 0.9, depth=1), signal("Event loop scheduling", 0.0, depth=20)
    offers.offer("k", words, near)

    def one(s: LinkSignal, depth: int) -> float:
        return score(replace(s, depth=depth), WEIGHTS, (1.0,) * len(QUERY), False, True)

    assert one(near, 1) > one(words, 20) and one(words, 1) > one(near, 1)
    assert offers.best(lambda key: True, batch) == [("k", words)]


def test_an_equal_offer_is_kept_once_and_at_most_max_offers_are_kept() -> None:
    offers = LinkOffers()
    first = signal("Preface", 0.0)
    offers.offer("k", first, first)
    offers.offer("k", signal("Preface", 0.0), first)  # another page's equal offer
    assert offers.offers("k") == [first]
    for n in range(1, MAX_OFFERS + 10):
        offers.offer("k", signal("Preface", n / 100), first)
    assert len(offers.offers("k")) == MAX_OFFERS


def test_a_link_no_longer_queued_is_forgotten_and_ties_go_to_the_earlier_offer() -> None:
    offers = LinkOffers()
    a, b = signal("A", 0.5), signal("B", 0.5)
    offers.offer("gone", b, a)
    offers.offer("kept", b, a)
    assert offers.best(lambda key: key != "gone", by_parent) == [("kept", a)]
    assert offers.offers("gone") == [] and len(offers) == 1


def _replay(events: list[tuple[int, int, bool]]) -> tuple[LinkOffers, dict[str, list[LinkSignal]]]:
    offers = LinkOffers()
    plain: dict[str, list[LinkSignal]] = {}
    for key_number, parent, gone in events:
        key = f"k{key_number}"
        if gone:
            offers.forget(key)
            plain.pop(key, None)
            continue
        new = signal("Entry", parent / 40, url=f"{key}.html")
        first = signal("Entry", 0.0, url=f"{key}.html")
        offers.offer(key, new, first)
        kept = plain.setdefault(key, [first])
        if new not in kept and len(kept) < MAX_OFFERS:
            kept.append(new)
    return offers, plain


@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 30), st.integers(0, 40), st.booleans()),
                min_size=1, max_size=400))
def test_best_is_the_first_maximum_of_the_kept_offers_through_forgetting_and_compaction(
    events: list[tuple[int, int, bool]],
) -> None:
    # a link's offers, its forgetting and the rows' compaction (past 8 rows here, 1,024 in a
    # crawl) against a plain dict of lists
    compact_at, offers_module._COMPACT_AT = offers_module._COMPACT_AT, 8
    try:
        offers, plain = _replay(events)
    finally:
        offers_module._COMPACT_AT = compact_at
    for key, kept in plain.items():
        assert offers.offers(key) == kept
    bests = dict(offers.best(lambda key: True, by_parent))
    assert set(bests) == set(plain)
    for key, kept in plain.items():
        top = max(s.parent_relevance for s in kept)
        assert bests[key] is next(s for s in kept if s.parent_relevance == top)


def test_a_relabelled_pages_offers_take_its_new_relevance_and_lose_it_again() -> None:
    # a user's label moves the parent relevance of the links read on that page (DESIGN
    # §12.3); the offers kept must follow, or the next best offer would bring the old back
    offers = LinkOffers()
    here = replace(signal("Entry", 0.1), parent="http://docs.localhost/p.html")
    there = replace(signal("Entry", 0.3, url="b.html"), parent="http://docs.localhost/q.html")
    offers.offer("k", here, there)
    assert offers.best(lambda key: True, by_parent) == [("k", there)]
    assert offers.relink({"http://docs.localhost/p.html": 0.9}) == 1
    [(_, best)] = offers.best(lambda key: True, by_parent)
    assert best.parent_relevance == 0.9 and best.parent == "http://docs.localhost/p.html"
    assert offers.relink({"http://docs.localhost/p.html": 0.1}) == 1
    assert offers.best(lambda key: True, by_parent) == [("k", there)]
    assert offers.offers("k") == [there, here]
