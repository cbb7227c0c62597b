"""Adaptive stop rules (seed ``adaptive.rs``, docs/DESIGN.md §4): all four seed tests, same
numbers."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier.adaptive import (
    COLD_PATIENCE,
    EVIDENCE_RELEVANCE,
    MIN_RELEVANCE,
    MIN_SOURCES,
    Adaptive,
    AdaptiveOptions,
    StopReason,
)
from pagesift_ui.frontier.query import Query


def opts(threshold: float, per_term: int, patience: int) -> AdaptiveOptions:
    return AdaptiveOptions(
        coverage_threshold=threshold, evidence_per_term=per_term, patience=patience, min_gain=0.05
    )


def test_adaptive_stops_once_covered_and_nothing_new_comes() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 3, 5), len(q))
    assert a.observe(q, "Our refund policy.\n\nAnother refund policy line.", 1.0, False) is None
    assert a.coverage() < 1.0
    # covered, but pages still bring new content: go on
    assert a.observe(q, "The policy covers every refund.", 1.0, False) is None
    assert a.coverage() >= 1.0
    assert a.observe(q, "Refunds for gift cards: policy.", 1.0, False) is None
    # once covered, stop after ceil(5 / 2) = 3 pages with nothing new
    assert a.observe(q, "Our refund policy.", 1.0, False) is None
    assert a.observe(q, "Our refund policy.", 1.0, False) is None
    assert a.observe(q, "Our refund policy.", 1.0, False) == "coverage_reached"


def test_adaptive_stops_when_pages_add_nothing_new() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q))
    assert a.observe(q, "Refund policy text.", 1.0, False) is None
    assert a.observe(q, "Refund policy text.", 1.0, False) is None
    assert a.observe(q, "Refund policy text.", 1.0, False) == "saturated"


def test_irrelevant_pages_neither_count_as_evidence_nor_as_stale() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 1, 1), len(q))
    # a news page mentions "refund": low relevance, neither evidence nor "nothing new"
    assert a.observe(q, "A refund was mentioned in passing.", 0.03, False) is None
    assert a.evidence == [0, 0]
    assert a.observe(q, "Nothing here.", 0.0, False) is None
    # one page covers every term: a second page's evidence is still needed; once covered, one
    # page with nothing new (patience 1) stops
    assert a.observe(q, "Refund policy in full.", 0.9, False) is None
    assert a.observe(q, "The refund policy, again.", 0.9, False) is None
    assert a.observe(q, "Refund policy in full.", 0.9, False) == "coverage_reached"
    # after a find, irrelevant pages in a row: the relevant part is done; pages between the two
    # thresholds count for nothing
    a = Adaptive(opts(1.0, 100, 2), len(q))
    assert a.observe(q, "Refund policy in full.", 0.9, False) is None
    assert a.observe(q, "Team page.", 0.0, False) is None
    assert a.observe(q, "Refund mentioned once.", 0.1, False) is None
    assert a.evidence == [1, 1]
    assert a.observe(q, "Careers page.", 0.0, False) == "saturated"


def test_gives_up_when_only_blind_links_are_left_and_nothing_was_found() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q))
    # links with clues that led to useless pages: not blind
    for _ in range(10):
        assert a.observe(q, "Team page.", 0.0, False) is None
    # 3 blind pages, then one touching the topic: the count starts again
    for _ in range(3):
        assert a.observe(q, "About us.", 0.0, True) is None
    assert a.observe(q, "Refund mentioned once.", 0.1, True) is None
    for _ in range(3):
        assert a.observe(q, "Careers.", 0.0, True) is None
    assert a.observe(q, "Contact.", 0.0, True) == "no_relevant_pages"
    # with something found already, no giving up: it counts as "nothing new"
    a = Adaptive(opts(1.0, 100, 5), len(q))
    assert a.observe(q, "Refund policy in full.", 0.9, False) is None
    for _ in range(4):
        assert a.observe(q, "Careers.", 0.0, True) is None


def test_constants_match_the_seed() -> None:
    assert (MIN_RELEVANCE, EVIDENCE_RELEVANCE, COLD_PATIENCE, MIN_SOURCES) == (0.05, 0.15, 2, 2)
    assert [r.value for r in StopReason] == [
        "coverage_reached", "saturated", "no_relevant_pages", "limit_reached", "exhausted",
        "cancelled",
    ]
    assert StopReason("saturated") is StopReason.SATURATED


def test_options_defaults_and_validation() -> None:
    o = AdaptiveOptions()
    assert (o.coverage_threshold, o.evidence_per_term, o.patience, o.min_gain) == (1.0, 3, 5, 0.05)
    bad = [
        {"coverage_threshold": 0.0}, {"coverage_threshold": 1.01}, {"min_gain": -0.1},
        {"min_gain": 1.5}, {"evidence_per_term": 0}, {"patience": 0}, {"patience": 2.5},
        {"coverage_threshold": float("nan")},
    ]
    for kwargs in bad:
        with pytest.raises(ValueError, match=next(iter(kwargs))):
            AdaptiveOptions(**kwargs)
    with pytest.raises(AttributeError):
        o.patience = 3  # type: ignore[misc]


def test_forgive_resets_staleness_only_and_reset_cold_the_blind_count() -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, 100, 2), len(q))
    a.observe(q, "Refund policy text.", 1.0, False)
    a.observe(q, "Refund policy text.", 1.0, False)
    assert a.stale == 1
    a.forgive()
    assert a.stale == 0
    assert a.observe(q, "Refund policy text.", 1.0, False) is None
    b = Adaptive(opts(1.0, 100, 1), len(q))
    assert b.observe(q, "x", 0.0, True) is None
    assert b.observe(q, "x", 0.0, True) == "no_relevant_pages"
    b.forgive()
    assert b.cold == 2
    b.reset_cold()
    assert b.cold == 0 and b.observe(q, "x", 0.0, True) is None


page = st.tuples(
    st.sampled_from(["Refund policy.", "Our refund.", "Policy text.", "Team.", "Refund a\n\nb"]),
    st.sampled_from([0.0, 0.03, 0.1, 0.2, 0.9, 1.0]),
    st.booleans(),
)


@given(st.lists(page, max_size=40), st.integers(1, 5), st.integers(1, 4))
def test_invariants_hold_on_any_page_sequence(pages: list, per_term: int, patience: int) -> None:
    q = Query("refund policy")
    a = Adaptive(opts(1.0, per_term, patience), len(q))
    previous_evidence, previous_coverage = a.evidence, a.coverage()
    for markdown, relevance, blind in pages:
        a.observe(q, markdown, relevance, blind)
        assert 0.0 <= a.coverage() <= 1.0
        assert all(e >= p for e, p in zip(a.evidence, previous_evidence, strict=True))
        assert a.coverage() >= previous_coverage
        if a.covered():
            assert a.sources >= MIN_SOURCES
        previous_evidence, previous_coverage = a.evidence, a.coverage()
