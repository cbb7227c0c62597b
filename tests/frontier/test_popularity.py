"""Topical popularity: a target's share of the weight of the pages read that link to it,
each page weighing its relevance, at least MIN_RELEVANCE, its plain part counted as far as
the site's popular pages proved relevant (hub trust; frontier/siblings.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE
from pagesift_ui.frontier.popularity import Popularity
from pagesift_ui.frontier.siblings import NO_GROUP

# one page read: its relevance and the targets it links to
_pages = st.lists(
    st.tuples(st.floats(0.0, 1.0), st.lists(st.sampled_from("abcde"), max_size=6)),
    min_size=1, max_size=12,
)


def _read(popularity: Popularity, pages: list[tuple[float, list[str]]]) -> dict[str, int]:
    ids: dict[str, int] = {}
    for at, (relevance, targets) in enumerate(pages):
        popularity.page_read(relevance)
        for target in targets:
            ids[target] = popularity.linked(f"page{at}", target)
    return ids


def test_the_page_its_relevant_pages_link_up_to_outranks_one_only_off_topic_pages_name() -> None:
    # a chapter page and a licence page, each linked from three of the six pages read
    popularity = Popularity()
    ids = _read(popularity, [
        (0.4, ["chapter"]), (0.3, ["chapter"]), (0.35, ["chapter"]),
        (0.0, ["licence"]), (0.01, ["licence"]), (0.02, ["licence"]),
    ])
    # weights: 1.05 for the chapter's pages, 3 × MIN_RELEVANCE = 0.15 for the others
    total = 1.05 + 0.15
    assert popularity.share(ids["chapter"]) == pytest.approx(1.05 / (total + total / 6))
    assert popularity.share(ids["licence"]) == pytest.approx(0.15 / (total + total / 6))


def test_with_equal_relevance_the_share_is_the_backlink_count_over_pages_plus_one() -> None:
    popularity = Popularity()
    ids = _read(popularity, [(0.2, ["toc", "a"]), (0.2, ["toc"]), (0.2, ["toc", "b"])])
    assert popularity.share(ids["toc"]) == pytest.approx(3 / 4)
    assert popularity.share(ids["a"]) == pytest.approx(1 / 4)


def test_pages_below_the_on_topic_bar_weigh_as_if_at_it() -> None:
    # relevance 0 and MIN_RELEVANCE give the same shares: below the bar relevance is noise
    low, at_bar = Popularity(), Popularity()
    ids_low = _read(low, [(0.0, ["x"]), (0.3, ["y"]), (0.01, ["x", "y"])])
    ids_bar = _read(at_bar, [(MIN_RELEVANCE, ["x"]), (0.3, ["y"]), (MIN_RELEVANCE, ["x", "y"])])
    assert low.share(ids_low["x"]) == at_bar.share(ids_bar["x"])
    assert low.share(ids_low["y"]) == at_bar.share(ids_bar["y"])


def test_a_page_linking_twice_counts_once_and_no_target_has_no_share() -> None:
    popularity = Popularity()
    popularity.page_read(0.5)
    popularity.linked("p", "t")
    target = popularity.linked("p", "t")
    assert popularity.share(target) == pytest.approx(0.5 / (0.5 + 0.5))
    assert popularity.share(NO_GROUP) == 0.0


def test_relevance_outside_the_unit_interval_is_refused() -> None:
    with pytest.raises(ValueError, match="relevance must be in"):
        Popularity().page_read(1.5)


def _read_keyed(popularity: Popularity, pages: list[tuple[str, float, list[str]]]
                ) -> dict[str, int]:
    """Pages read by key (the key they were linked by), each with its relevance and links."""
    ids: dict[str, int] = {}
    for key, relevance, targets in pages:
        popularity.page_read(relevance, key)
        for target in targets:
            ids[target] = popularity.linked(key, target)
    return ids


def test_hub_trust_starts_at_one_and_the_share_is_the_topical_share() -> None:
    popularity = Popularity()
    ids = _read_keyed(popularity, [("seed", 0.0, ["nav", "toc"]), ("nav", 0.0, ["nav"])])
    # the seed is no trial (nothing linked to it); "nav" had one backlink only: no trial
    assert popularity.hub_trust() == 1.0
    total = 2 * MIN_RELEVANCE
    assert popularity.share(ids["nav"]) == pytest.approx(total / (total + total / 2))


def test_a_popular_page_that_proves_off_topic_lowers_the_trust_in_backlink_counts() -> None:
    popularity = Popularity()
    ids = _read_keyed(popularity, [
        ("seed", 0.0, ["bugs", "licence", "chapter"]),
        ("entry", 0.6, ["bugs", "licence", "chapter"]),  # linked from nowhere: no trial
        ("bugs", 0.0, ["licence"]),  # two backlinks at 2 pages read: a trial of (2-1)/3
    ])
    assert popularity.hub_trust() == pytest.approx(1 / (1 + 1 / 3))
    # licence: linked from all three pages; chapter: from the seed and the relevant entry
    weights = MIN_RELEVANCE + 0.6 + MIN_RELEVANCE
    denominator = weights + weights / 3
    distrust = 1 - 1 / (1 + 1 / 3)
    licence = weights / denominator - distrust * 3 / 4
    chapter = (MIN_RELEVANCE + 0.6) / denominator - distrust * 2 / 4
    assert popularity.share(ids["licence"]) == pytest.approx(licence)
    assert popularity.share(ids["chapter"]) == pytest.approx(chapter)
    assert chapter > licence  # with full trust the licence's 0.750 beat the chapter's 0.696
    assert weights / denominator > (MIN_RELEVANCE + 0.6) / denominator


def test_a_popular_page_that_proves_relevant_keeps_the_trust() -> None:
    popularity = Popularity()
    _read_keyed(popularity, [
        ("seed", 0.0, ["toc"]), ("entry", 0.3, ["toc"]), ("toc", EVIDENCE_RELEVANCE, []),
    ])
    assert popularity.hub_trust() == 1.0


@given(_pages, st.lists(st.sampled_from("abcde"), min_size=1, max_size=12))
def test_shares_are_the_numbers_share_gives_and_lie_in_the_unit_interval(
    pages: list[tuple[float, list[str]]], keys: list[str],
) -> None:
    # pages read under the keys of targets (so some are trials of the hub trust)
    popularity = Popularity()
    ids = _read_keyed(popularity, [
        (keys[at % len(keys)], relevance, targets)
        for at, (relevance, targets) in enumerate(pages)])
    assert 0.0 < popularity.hub_trust() <= 1.0
    shares = popularity.shares()
    for target in ids.values():
        assert shares[target] == popularity.share(target)  # the same float
        assert 0.0 <= shares[target] < 1.0


# -- a user's label (session/relabel.py, docs/DESIGN.md §12.3) ------------------------------


@given(_pages, st.lists(st.sampled_from("abcde"), min_size=1, max_size=5, unique=True),
       st.dictionaries(st.sampled_from("abcde"), st.floats(0.0, 1.0), max_size=3))
def test_relabelled_shares_are_those_of_a_crawl_that_knew_the_labels_and_undoing_is_exact(
    pages: list[tuple[float, list[str]]], keys: list[str], labelled: dict[str, float],
) -> None:
    # each page read once, under the key of a target (so some are trials of the hub trust)
    read = [(key, relevance, targets)
            for key, (relevance, targets) in zip(keys, pages, strict=False)]
    popularity, twin = Popularity(), Popularity()
    ids = _read_keyed(popularity, read)
    twin_ids = _read_keyed(twin, [(key, labelled.get(key, relevance), targets)
                                  for key, relevance, targets in read])
    original = (popularity.shares().tolist(), popularity.hub_trust())
    popularity.relabel(labelled)
    assert popularity.hub_trust() == pytest.approx(twin.hub_trust())
    for name, target in ids.items():
        assert popularity.share(target) == pytest.approx(twin.share(twin_ids[name]))
    # every page its own relevance again: the same floats, not nearly
    popularity.relabel({key: relevance for key, relevance, _ in read})
    assert (popularity.shares().tolist(), popularity.hub_trust()) == original
    popularity.relabel(labelled)
    popularity.relabel({})
    assert (popularity.shares().tolist(), popularity.hub_trust()) == original


def test_a_page_labelled_relevant_lifts_what_it_links_to_and_the_trust_of_its_backlinks() -> None:
    popularity = Popularity()
    ids = _read_keyed(popularity, [
        ("seed", 0.0, ["bugs", "chapter"]),
        ("entry", 0.6, ["bugs", "chapter"]),
        ("bugs", 0.0, ["chapter"]),  # a trial of the hub trust, failed
    ])
    chapter, trust = popularity.share(ids["chapter"]), popularity.hub_trust()
    popularity.changed = False
    assert popularity.relabel({"bugs": EVIDENCE_RELEVANCE})
    assert popularity.changed
    assert popularity.hub_trust() == 1.0 > trust  # the trial is now a hit
    assert popularity.share(ids["chapter"]) > chapter
    popularity.changed = False
    assert not popularity.relabel({"bugs": EVIDENCE_RELEVANCE}) and not popularity.changed


def test_a_labelled_relevance_outside_the_unit_interval_is_refused() -> None:
    popularity = Popularity()
    _read_keyed(popularity, [("seed", 0.2, ["a"])])
    with pytest.raises(ValueError, match="relevance must be in"):
        popularity.relabel({"seed": 1.5})
