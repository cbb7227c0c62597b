"""Thin evidence is not saturation (frontier/leads.py, docs/DESIGN.md §11.10): a
``saturated`` verdict while under three quarters of the query's terms have any evidence is
forgiven; the setting ``forgive_thin_evidence`` off, or lead forgiveness off, lets it stand.
On the small generated site of the one-source grace, with a query half of whose terms no
page says."""

from __future__ import annotations

from typing import Any

import pytest

from pagesift_ui.cli.options import summary_lines
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.frontier.leads import THIN_EVIDENCE_SHARE, thin_evidence
from pagesift_ui.session import VerdictFate
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.whatif import what_if
from tests.session.test_one_source_grace import _session, _verdicts
from tests.session.test_ranking import ORIGIN, QUERY

# the topic page evidences "event", "loop" and "scheduling"; no page says the other three
HALF_SAID = QUERY + " quasar nebula pulsar"


def test_the_share_and_the_reason_it_gives() -> None:
    assert THIN_EVIDENCE_SHARE == 0.75
    assert thin_evidence(StopReason.SATURATED, (4, 1, 0, 0)) == (
        "only 2 of the query's 4 terms have any evidence, under 75%: nothing new on a topic "
        "barely found does not say the relevant part is read, so this verdict is forgiven")
    assert thin_evidence(StopReason.SATURATED, (4, 1, 2, 0)) == ""  # 3 of 4: not thin
    assert thin_evidence(StopReason.COVERAGE_REACHED, (4, 0, 0, 0)) == ""
    assert thin_evidence(StopReason.NO_RELEVANT_PAGES, (0, 0, 0, 0)) == ""


def test_a_saturated_verdict_on_half_the_terms_is_forgiven_and_the_crawl_reads_on() -> None:
    with _session(HALF_SAID) as session:
        assert session.steps[-1].evidence[:3] != (0, 0, 0)
        assert session.steps[-1].evidence[3:] == (0, 0, 0)
        # the one-source grace at 7, thin evidence at 12: the crawl reads the whole site
        # (16 pages) instead of standing at step 12
        assert _verdicts(session.steps) == [(7, "saturated", VerdictFate.AUTO_FORGIVEN),
                                            (12, "saturated", VerdictFate.AUTO_FORGIVEN),
                                            (16, "exhausted", VerdictFate.STOPPED)]
        assert session.stop_reason is StopReason.EXHAUSTED
        assert session.steps[11].forgiven_why.endswith(
            "; but only 3 of the query's 6 terms have any evidence, under 75%: nothing new on "
            "a topic barely found does not say the relevant part is read, so this verdict is "
            "forgiven")
        replayed = what_if(session)
        assert [(v.step, v.stood) for v in replayed.verdicts] == [(7, False), (12, False)]


@pytest.mark.parametrize("settings", [{"forgive_thin_evidence": False},
                                      {"forgive_leads": False}])
def test_off_the_verdict_stands_as_before(settings: dict[str, Any]) -> None:
    with _session(HALF_SAID, **settings) as session:
        stood = 12 if settings.get("forgive_leads", True) else 7
        assert _verdicts(session.steps)[-1] == (stood, "saturated", VerdictFate.STOPPED)
        assert session.stop_step == stood
        assert what_if(session).verdicts[-1].stood


def test_a_query_the_pages_cover_is_not_thin() -> None:
    with _session(QUERY) as session:
        assert session.stop_reason is StopReason.SATURATED and session.stop_step == 12


def test_a_config_recorded_before_the_setting_lets_thin_verdicts_stand() -> None:
    recorded = CrawlConfig.from_mapping({"seed_url": ORIGIN + "/", "query": HALF_SAID}).to_dict()
    assert recorded["forgive_thin_evidence"] is True
    del recorded["forgive_thin_evidence"]
    assert CrawlConfig.from_recorded(recorded).forgive_thin_evidence is False


def test_the_cli_summary_lists_each_verdict_and_why_it_was_forgiven() -> None:
    with _session(HALF_SAID) as session:
        lines = summary_lines(session)
    verdicts = [line for line in lines if line.startswith("  verdict at step")]
    assert [line.split(":")[0] for line in verdicts] == [
        "  verdict at step 7", "  verdict at step 12"]
    assert verdicts[1].startswith("  verdict at step 12: saturated, forgiven: ")
    assert verdicts[1].endswith("; but only 3 of the query's 6 terms have any evidence, under "
                                "75%: nothing new on a topic barely found does not say the "
                                "relevant part is read, so this verdict is forgiven")
    with _session(HALF_SAID, forgive_thin_evidence=False) as session:
        # a verdict that stood says why (the pending-lead answer its step recorded)
        assert any(line.startswith("  verdict at step 12: saturated, stopped: the next 5 links")
                   for line in summary_lines(session))
