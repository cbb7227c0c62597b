"""The pending-lead bar (docs/DESIGN.md §11.10): a verdict is forgiven while the best queued
link scores at least the lowest score of a link that led to an on-topic page."""

from __future__ import annotations

from pagesift_ui.frontier.leads import LeadBar


def test_no_bar_before_a_link_has_found_an_on_topic_page() -> None:
    bar = LeadBar()
    lead = bar.judge(0.9, "http://e.edu/a")
    assert bar.bar() is None and not lead.pending
    assert "no link has led to an on-topic page yet" in lead.why


def test_the_bar_is_the_lowest_score_of_the_links_that_found_on_topic_pages() -> None:
    bar = LeadBar()
    for score in (0.46, 0.21, 0.34):
        bar.found_on_topic(score)
    assert bar.bar() == 0.21 and len(bar) == 3
    at_bar = bar.judge(0.21, "http://e.edu/b")
    below = bar.judge(0.2, "http://e.edu/c")
    assert at_bar.pending and not below.pending
    assert at_bar.why == ("the best queued link scores 0.21 (http://e.edu/b), at least 0.21, the "
                          "lowest score of the 3 links that led to on-topic pages")
    assert below.why == ("the best queued link scores 0.2 (http://e.edu/c), below 0.21, the "
                         "lowest score of the 3 links that led to on-topic pages")


def test_a_zero_score_or_no_queued_link_is_never_a_lead() -> None:
    bar = LeadBar()
    bar.found_on_topic(0.0)
    assert not bar.judge(0.0, "http://e.edu/d").pending
    assert not bar.judge(None, "").pending
