"""The what-if replay kept between reruns (issue 15): given one record more at a time it
gives exactly what a replay of all the records gives."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from typing import Any

import pytest

from components.whatif import replay
from pagesift_ui.demo import build_site
from pagesift_ui.frontier.adaptive import AdaptiveOptions
from pagesift_ui.session import CrawlConfig, CrawlSession, StepOutcome
from pagesift_ui.session.rules import observed
from pagesift_ui.session.whatif import replay_of, what_if
from tests.fakes import demo_seed, demo_source


def _session(name: str = "university", **settings: Any) -> CrawlSession:
    site = build_site(name)
    config = CrawlConfig(seed_url=demo_seed(site), query=site.query, **settings)
    return CrawlSession(config, demo_source(site))


@pytest.fixture
def session() -> Iterator[CrawlSession]:
    with _session(limit=120, stop_on_verdict=False) as crawl:
        yield crawl


TRUTH = {"http://www.uni.example/admissions/fees"}
OTHER = AdaptiveOptions(coverage_threshold=0.5, evidence_per_term=2, patience=3, min_gain=0.1)


@pytest.mark.parametrize("options", [None, OTHER])
def test_a_replay_given_one_record_at_a_time_equals_a_whole_replay(
    session: CrawlSession, options: AdaptiveOptions | None,
) -> None:
    running = replay_of(session, options, truth=TRUTH)
    assert running.result(session) == what_if(session, options, truth=TRUTH)
    for _ in range(80):
        session.step()
        running.take(session.steps[-1])
        assert running.result(session) == what_if(session, options, truth=TRUTH)
    assert running.result(session).verdicts  # past its stop: the verdicts fired


def test_the_kept_replay_follows_steps_a_relabel_options_and_a_new_session(
    session: CrawlSession,
) -> None:
    ss: dict[str, Any] = {"session_serial": 1, "truth": TRUTH}
    own = session.config.adaptive
    for _ in range(30):
        session.step()
        assert replay(ss, session, own) == what_if(session, own, truth=TRUTH)
    kept = ss["whatif_replay"][1]
    session.run(max_steps=5)
    assert replay(ss, session, own) == what_if(session, own, truth=TRUTH)
    assert ss["whatif_replay"][1] is kept and kept.taken == 35  # five records taken
    url = next(r.final_url for r in session.steps
               if r.outcome is StepOutcome.FETCHED and r.relevance is not None)
    session.relabel(url, True)
    session.step()
    assert replay(ss, session, own) == what_if(session, own, truth=TRUTH)
    assert ss["whatif_replay"][1] is not kept  # the label holds from the first step
    assert replay(ss, session, OTHER) == what_if(session, OTHER, truth=TRUTH)
    with _session("helpdesk", limit=30) as other:
        other.run()
        ss["session_serial"] = 2
        ss["truth"] = None
        assert replay(ss, other, other.config.adaptive) == what_if(
            other, other.config.adaptive, truth=None)


def test_a_record_that_cannot_say_whether_a_lead_was_pending_replays_all_again(
    session: CrawlSession,
) -> None:
    ss: dict[str, Any] = {"session_serial": 1, "truth": TRUTH}
    own = session.config.adaptive
    session.run(max_steps=40)
    replay(ss, session, own)
    page = next(r for r in reversed(session.steps) if observed(r))
    session.steps.append(dataclasses.replace(page, step=len(session.steps) + 1,
                                             lead_pending=None))
    result = replay(ss, session, own)
    assert result == what_if(session, own, truth=TRUTH)
    assert not result.lead_recorded
