"""Relevant pages still coming forgive a verdict (frontier/leads.py, docs/DESIGN.md §11.10),
in a whole crawl: the university demo with patience 3, where the seed's rules call the query
covered at step 34 while the crawl is reading one relevant page after another."""

from __future__ import annotations

from typing import Any

from pagesift_ui.demo import build_site
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import CrawlConfig, CrawlSession, VerdictFate
from pagesift_ui.session.whatif import what_if
from tests.fakes import demo_seed, demo_source

SITE = build_site("university", 0)


def _crawl(**settings: Any) -> CrawlSession:
    config = CrawlConfig.from_mapping({
        "seed_url": demo_seed(SITE), "query": SITE.query, "delay_s": 0.0, "limit": 300,
        "adaptive": {"patience": 3}, **settings})
    session = CrawlSession(config, demo_source(SITE))
    session.run()
    return session


def test_a_covered_verdict_while_relevant_pages_come_is_forgiven_and_finds_more() -> None:
    with _crawl() as session:
        at_34 = session.steps[33]
        assert (at_34.verdict, at_34.verdict_fate) == (StopReason.COVERAGE_REACHED,
                                                       VerdictFate.AUTO_FORGIVEN)
        assert at_34.forgiven_why.endswith(
            "; but 3 of the last 3 pages read as relevant (≥ 0.15), at least the crawl's share "
            "so far (23 of 32): answers still come though they add no new evidence, so this "
            "verdict is forgiven")
        assert (session.stop_reason, session.stop_step) == (StopReason.COVERAGE_REACHED, 36)
        assert session.relevant_pages == 24
        replayed = what_if(session)  # the what-if replay judges it as the crawl did
        assert [(v.step, v.stood) for v in replayed.verdicts] == [(34, False), (36, True)]


def test_off_the_verdict_stands_where_the_seeds_rules_put_it() -> None:
    with _crawl(forgive_still_finding=False) as session:
        assert (session.stop_reason, session.stop_step) == (StopReason.COVERAGE_REACHED, 34)
        assert session.relevant_pages == 23
        assert session.steps[33].verdict_fate is VerdictFate.STOPPED
        assert [(v.step, v.stood) for v in what_if(session).verdicts] == [(34, True)]


def test_lead_forgiveness_off_turns_it_off_too() -> None:
    with _crawl(forgive_leads=False) as session:
        assert session.stop_step == 34  # where the seed's rules put it, as with the rule off
