"""A list's credit counts an entry that added on-topic text not read before, however small
beside what the crawl had collected (docs/DESIGN.md §8a; issue 11)."""

from __future__ import annotations

import pytest

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE
from pagesift_ui.frontier.urls import dedupe_key
from pagesift_ui.session import CrawlConfig, CrawlSession
from tests.fakes import DictSource, policy_for

ORIGIN = "http://l.example"
_CLAUSES = "".join(
    f"<p>Refund policy clause {i}: a refund of order {i} follows policy rule {i} within "
    f"{i + 3} days of delivery number {i * 7}.</p>" for i in range(80))
PAGES = {
    ORIGIN + "/": "<html><head><title>Home</title></head><body><main><h1>Guides</h1><ul>"
                  "<li><a href='/docs/a'>Alpha</a></li><li><a href='/docs/b'>Beta</a></li>"
                  "<li><a href='/docs/c'>Gamma</a></li><li><a href='/docs/d'>Delta</a></li>"
                  "</ul></main></body></html>",
    ORIGIN + "/docs/a": "<html><head><title>Refund policy</title></head><body><main>"
                        f"<h1>Refund policy</h1>{_CLAUSES}</main></body></html>",
    ORIGIN + "/docs/b": "<html><head><title>Store credit</title></head><body><main>"
                        "<h1>Store credit</h1><p>A store credit refund under the policy for "
                        "gift cards.</p></main></body></html>",
}


def test_a_small_new_answer_credits_its_list_though_the_crawl_has_read_much() -> None:
    # SQLite's Tools list: after 20k tokens were read, sqldiff.html (581 new tokens,
    # relevance 0.23) and dbhash.html (312, 0.20) were "not fresh" (under 5% of all
    # collected) and credited their list nothing; its next answer waited at rank 10
    config = CrawlConfig.from_mapping({"seed_url": ORIGIN + "/", "query": "refund policy",
                                       "delay_s": 0.0, "limit": 10, "stop_on_verdict": False,
                                       "allow_private": True})
    with CrawlSession(config, DictSource(PAGES, policy=policy_for(config))) as session:
        session.step()
        session.pin(dedupe_key(ORIGIN + "/docs/a"))
        big = session.step()
        session.pin(dedupe_key(ORIGIN + "/docs/b"))
        small = session.step()
        siblings = session.state.focus.siblings
        (group,) = siblings.groups(dedupe_key(ORIGIN + "/docs/c"))
        credit = siblings.credit(group)
    assert big.fresh and not small.fresh  # new text, under min_gain of what was collected
    assert small.evidence_added != (0, 0) and small.relevance is not None
    assert small.relevance >= EVIDENCE_RELEVANCE and big.relevance is not None
    # both answers count: (r_a + r_b) / (2 + 1); the small one counted 0 before
    assert credit == pytest.approx((big.relevance + small.relevance) / 3)
    assert credit > big.relevance / 3
