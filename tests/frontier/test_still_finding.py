"""Relevant pages still coming forgive a verdict (frontier/leads.py, ``LeadBar.still_finding``):
of the last ``patience`` pages read, at least one, and at least the share of every page read
so far, read as relevant (≥ EVIDENCE_RELEVANCE)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, StopReason
from pagesift_ui.frontier.leads import LeadBar


def _bar(relevances: list[float], **graces: bool | int) -> LeadBar:
    bar = LeadBar(**graces)  # type: ignore[arg-type]
    for relevance in relevances:
        bar.read(relevance)
    return bar


def test_no_window_before_patience_pages_are_read() -> None:
    assert _bar([0.9, 0.9]).still_finding(3) == ""


def test_a_window_with_no_relevant_page_forgives_nothing() -> None:
    assert _bar([0.9, 0.9, 0.1, 0.0, 0.149]).still_finding(3) == ""


def test_the_window_at_the_crawls_share_forgives_and_says_its_numbers() -> None:
    # 2 of the last 4 (0.5) against 4 of 8 (0.5): forgiven
    bar = _bar([0.2, 0.3, 0.0, 0.0, 0.0, EVIDENCE_RELEVANCE, 0.0, 0.5])
    assert bar.still_finding(4) == (
        "2 of the last 4 pages read as relevant (≥ 0.15), at least the crawl's share so far "
        "(4 of 8): answers still come though they add no new evidence, so this verdict is "
        "forgiven")


def test_a_window_below_the_crawls_share_forgives_nothing() -> None:
    # 1 of the last 4 (0.25) against 5 of 8 (0.625)
    assert _bar([0.5, 0.5, 0.5, 0.5, 0.0, 0.0, 0.2, 0.0]).still_finding(4) == ""


def test_the_grace_asks_it_only_when_on_and_after_the_other_graces() -> None:
    relevances, evidence = [0.5, 0.0, 0.5, 0.5, 0.5], (3, 3, 3, 3)
    off = _bar(relevances, thin=True)
    assert off.grace(StopReason.COVERAGE_REACHED, 5, evidence) == ""
    on = _bar(relevances, thin=True, finding=True, patience=3)
    assert on.grace(StopReason.COVERAGE_REACHED, 5, evidence).startswith(
        "3 of the last 3 pages read as relevant")
    # thin evidence speaks first where both would
    assert on.grace(StopReason.SATURATED, 5, (3, 0, 0, 0)).startswith(
        "only 1 of the query's 4 terms")


def test_the_bar_that_reads_pages_still_coming_asks_for_the_crawls_patience() -> None:
    with pytest.raises(ValueError, match="patience"):
        LeadBar(thin=True, finding=True)
    assert LeadBar(finding=False).patience == 0  # no window read: none needed


@pytest.mark.parametrize("options", [
    {"thin": 1}, {"finding": "yes"}, {"patience": -1}, {"patience": True}, {"patience": 2.0},
])
def test_the_graces_are_checked_when_the_bar_is_made(options: dict[str, object]) -> None:
    with pytest.raises(ValueError, match=next(iter(options))):
        LeadBar(**options)  # type: ignore[arg-type]


@pytest.mark.parametrize("patience", [0, -1, True, 2.0])
def test_patience_must_be_a_positive_integer(patience: object) -> None:
    with pytest.raises(ValueError, match="patience"):
        LeadBar().still_finding(patience)  # type: ignore[arg-type]


@given(st.lists(st.floats(0.0, 1.0), min_size=1, max_size=60), st.integers(1, 8))
def test_it_reads_only_which_pages_were_relevant(relevances: list[float], patience: int) -> None:
    """The answer depends on the relevant/not sequence alone: any relevance on the same side
    of EVIDENCE_RELEVANCE gives the same answer, and it forgives exactly when the window's
    share of relevant pages is positive and at least the whole crawl's."""
    flags = [r >= EVIDENCE_RELEVANCE for r in relevances]
    moved = [1.0 if flag else 0.0 for flag in flags]
    said = _bar(relevances).still_finding(patience)
    assert said == _bar(moved).still_finding(patience)
    window = flags[-patience:]
    expected = (len(flags) >= patience and any(window)
                and sum(window) * len(flags) >= sum(flags) * patience)
    assert bool(said) is expected
