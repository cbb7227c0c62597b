"""The pending-lead bar (docs/DESIGN.md §11.10): a verdict is forgiven while the best queued
link scores at least the lowest score of a link that led to a page with new evidence; with
``new_evidence`` off (the rule before, kept for sessions recorded under it) a verdict other
than ``coverage_reached`` is judged by the links that led to on-topic pages (relevant pages,
once a verdict has fired); a saturated verdict on one source is forgiven once."""

from __future__ import annotations

import pytest

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.frontier.leads import LeadBar


def test_every_verdict_is_judged_by_the_links_that_brought_new_evidence() -> None:
    bar = LeadBar()
    assert bar.new_evidence
    none_yet = bar.judge(0.9, "http://e.edu/a", StopReason.SATURATED)
    assert not none_yet.pending and none_yet.why == (
        "no link has led to a page with new evidence yet, so no queued link is a proven lead "
        "to more")
    bar.found(0.5, 0.4, fresh=True)
    bar.found(0.3, 0.2, fresh=True)
    bar.found(0.1, 0.06)  # on topic, nothing new: no lead by it
    for reason in (StopReason.SATURATED, StopReason.NO_RELEVANT_PAGES, None):
        below = bar.judge(0.2, "http://e.edu/h", reason)
        assert not below.pending and below.why == (
            "the next 5 links to fetch score 0.2 on average (the first: http://e.edu/h), "
            "below 0.3, the lowest score of the 2 links that led to pages with new evidence")
        assert bar.judge(0.3, "http://e.edu/h", reason).pending
    assert bar.judge(0.2, "http://e.edu/h", StopReason.COVERAGE_REACHED).why.startswith(
        "the query is covered; the next 5 links to fetch score 0.2 on average")


def test_the_setting_is_checked() -> None:
    with pytest.raises(ValueError, match="new_evidence"):
        LeadBar(new_evidence=1)  # type: ignore[arg-type]


def test_no_bar_before_a_link_has_found_an_on_topic_page() -> None:
    bar = LeadBar(new_evidence=False)
    lead = bar.judge(0.9, "http://e.edu/a")
    assert bar.bar() is None and not lead.pending
    assert "no link has led to an on-topic page yet" in lead.why


def test_the_bar_is_the_lowest_score_of_the_links_that_found_on_topic_pages() -> None:
    bar = LeadBar(new_evidence=False)
    for score in (0.46, 0.21, 0.34):
        bar.found(score, 0.05)
    assert bar.bar() == 0.21 and len(bar) == 3
    at_bar = bar.judge(0.21, "http://e.edu/b")
    below = bar.judge(0.2, "http://e.edu/c")
    assert at_bar.pending and not below.pending
    assert at_bar.why == ("the next 5 links to fetch score 0.21 on average (the first: "
                          "http://e.edu/b), at least 0.21, the lowest score of the 3 links "
                          "that led to on-topic pages")
    assert below.why == ("the next 5 links to fetch score 0.2 on average (the first: "
                         "http://e.edu/c), below 0.21, the lowest score of the 3 links that "
                         "led to on-topic pages")


def test_a_zero_score_or_no_queued_link_is_never_a_lead() -> None:
    bar = LeadBar()
    bar.found(0.0, 0.5)
    assert not bar.judge(0.0, "http://e.edu/d").pending
    assert not bar.judge(None, "").pending


def test_a_link_to_a_page_below_on_topic_never_joins_the_bar() -> None:
    bar = LeadBar()
    bar.found(0.3, 0.049)
    assert bar.bar() is None and len(bar) == 0


def test_after_the_first_verdict_only_links_to_relevant_pages_lower_the_bar() -> None:
    # the tail of a finished pydocs crawl: each forgiven step fetched the head, its page was
    # barely on topic, and the bar followed the head down until nothing ever stood
    bar = LeadBar(new_evidence=False)
    bar.found(0.4, 0.3)
    bar.found(0.146, 0.06)  # on topic, before any verdict: joins
    bar.verdict_fired()
    assert bar.judged
    bar.found(0.12, 0.149)  # on topic, below EVIDENCE_RELEVANCE: the bar stays
    assert bar.bar() == 0.146 and len(bar) == 2
    assert not bar.judge(0.139, "http://e.edu/tail").pending
    assert bar.judge(0.139, "http://e.edu/tail").why == (
        "the next 5 links to fetch score 0.139 on average (the first: http://e.edu/tail), "
        "below 0.146, the lowest score of the 2 links that led to on-topic pages before the "
        "first verdict or to relevant pages since")
    bar.found(0.096, 0.15)  # a weak link that found a relevant page: the bar follows it
    assert bar.bar() == 0.096 and bar.judge(0.139, "http://e.edu/tail").pending


def test_the_judged_heads_score_is_kept_with_the_answer() -> None:
    bar = LeadBar()
    assert bar.judge(0.2, "http://e.edu/a").head == 0.2
    bar.found(0.3, 0.2)
    assert bar.judge(0.2, "http://e.edu/a").head == 0.2
    assert bar.judge(None, "").head is None


def test_a_saturated_verdict_on_one_source_is_graced_once() -> None:
    bar = LeadBar()
    assert bar.one_source_grace(StopReason.COVERAGE_REACHED, 1) == ""
    assert bar.one_source_grace(StopReason.SATURATED, 2) == ""  # MIN_SOURCES pages: a find
    assert bar.one_source_grace(StopReason.NO_RELEVANT_PAGES, 0) == ""
    why = bar.one_source_grace(StopReason.SATURATED, 1)
    assert why == ("only 1 page has given evidence so far, too little to call the relevant "
                   "part read: with one source the crawl waits 2 × patience pages with "
                   "nothing new, as it waits for a first find, so this verdict is forgiven "
                   "once")
    assert bar.one_source_grace(StopReason.SATURATED, 1) == ""  # once a crawl


def test_a_covered_querys_verdict_is_judged_against_the_links_that_found_new_evidence() -> None:
    # every term has its evidence: a link as weak as one that found an on-topic page proves
    # nothing more; only a link as strong as one that brought new evidence is a lead
    bar = LeadBar(new_evidence=False)
    bar.found(0.5, 0.4, fresh=True)
    bar.found(0.3, 0.2, fresh=True)
    bar.found(0.1, 0.06)  # on topic, nothing new
    assert bar.bar() == 0.1 and bar.covered_bar() == 0.3
    saturated = bar.judge(0.2, "http://e.edu/h", StopReason.SATURATED)
    covered = bar.judge(0.2, "http://e.edu/h", StopReason.COVERAGE_REACHED)
    assert saturated.pending and not covered.pending
    assert covered.why == ("the query is covered; the next 5 links to fetch score 0.2 on average "
                           "(the first: http://e.edu/h), below 0.3, the lowest score of the 2 "
                           "links that led to pages with new evidence")
    assert bar.judge(0.3, "http://e.edu/h", StopReason.COVERAGE_REACHED).pending
    assert bar.judge(0.2, "http://e.edu/h").pending  # no verdict: the on-topic bar


def test_a_covered_query_with_no_fresh_find_by_a_link_has_no_lead() -> None:
    bar = LeadBar()
    bar.found(0.5, 0.4)  # on topic, but no new evidence
    lead = bar.judge(0.9, "http://e.edu/h", StopReason.COVERAGE_REACHED)
    assert bar.covered_bar() is None and not lead.pending and lead.head == 0.9
    assert "no link has led to a page with new evidence yet" in lead.why


def test_a_lead_is_the_mean_of_the_next_five_links_to_fetch_a_missing_one_counting_zero() -> None:
    from pagesift_ui.frontier.leads import LEAD_LINKS, lead_score

    assert LEAD_LINKS == 5
    assert lead_score([1.0, 0.5, 0.5, 0.25, 0.25, 9.0]) == 0.5  # the sixth is not read
    assert lead_score([0.5]) == 0.1 and lead_score([]) == 0.0
