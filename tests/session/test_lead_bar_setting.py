"""One bar for every verdict (frontier/leads.py ``LeadBar.new_evidence``, docs/DESIGN.md
§11.10): by default a verdict's lead must score as well as a link that brought new evidence;
``lead_bar_new_evidence`` off judges a verdict other than ``coverage_reached`` by the links that
found on-topic pages, as before. Both crawl, record and replay alike."""

from __future__ import annotations

import pytest

from pagesift_ui.demo import build_site
from pagesift_ui.session import CrawlConfig, CrawlSession, VerdictFate
from pagesift_ui.session.whatif import what_if
from tests.fakes import demo_seed, demo_source

SITE = build_site("university", 0)


def _crawl(**settings: object) -> CrawlSession:
    config = CrawlConfig.from_mapping({
        "seed_url": demo_seed(SITE), "query": SITE.query, "delay_s": 0.0, "limit": 150,
        "stop_on_verdict": False, **settings})
    session = CrawlSession(config, demo_source(SITE))
    session.run()
    return session


@pytest.mark.parametrize("new_evidence", [True, False])
def test_the_what_if_replay_judges_each_verdict_as_the_crawl_did(new_evidence: bool) -> None:
    with _crawl(lead_bar_new_evidence=new_evidence) as session:
        recorded = [(r.step, r.verdict_fate is VerdictFate.NO_STOP)
                    for r in session.steps if r.verdict is not None
                    and r.verdict_fate is not VerdictFate.STOPPED]
        replayed = [(v.step, v.stood) for v in what_if(session).verdicts]
        assert recorded and replayed[:len(recorded)] == recorded


def test_each_step_says_which_bar_judged_its_head() -> None:
    with _crawl() as new, _crawl(lead_bar_new_evidence=False) as old:
        assert [r.url for r in new.steps] == [r.url for r in old.steps]  # no page moves
        judged = [r.lead_why for r in new.steps if r.lead_why.startswith("the next 5 links")]
        assert judged and all("links that led to pages with new evidence" in why
                              for why in judged)
        assert any("links that led to on-topic pages" in r.lead_why for r in old.steps)
