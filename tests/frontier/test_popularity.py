"""Topical popularity: a target's share of the weight of the pages read that link to it,
each page weighing its relevance, at least MIN_RELEVANCE (frontier/siblings.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier.adaptive import MIN_RELEVANCE
from pagesift_ui.frontier.siblings import NO_GROUP, Popularity

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


@given(_pages)
def test_shares_are_the_numbers_share_gives_and_lie_in_the_unit_interval(
    pages: list[tuple[float, list[str]]],
) -> None:
    popularity = Popularity()
    ids = _read(popularity, pages)
    shares = popularity.shares()
    for target in ids.values():
        assert shares[target] == popularity.share(target)  # the same float
        assert 0.0 <= shares[target] < 1.0
