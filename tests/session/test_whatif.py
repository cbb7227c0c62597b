"""What-if stops: the stop rules replayed over the recorded steps, with no network."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest

from pagesift_ui.demo import DemoSite, build_site
from pagesift_ui.frontier.adaptive import AdaptiveOptions, StopReason
from pagesift_ui.session import CrawlConfig, CrawlSession, VerdictFate
from pagesift_ui.session.bundle import bundle_json, load_bundle, session_bundle
from pagesift_ui.session.whatif import RULES, found_by, what_if
from tests.fakes import demo_seed, demo_source


@functools.cache
def _site(name: str) -> DemoSite:
    return build_site(name)


def truth(site: DemoSite) -> set[str]:
    return {f"http://{host}{path}" for host, path in site.relevant}


def crawl(name: str, **settings: Any) -> CrawlSession:
    site = _site(name)
    config = CrawlConfig(seed_url=demo_seed(site), query=site.query, **settings)
    with CrawlSession(config, demo_source(site)) as session:
        session.run()
    return session


def _forgiven_then_on(name: str) -> CrawlSession:
    session = crawl(name, limit=60)
    session.forgive()
    session.run()
    return session


CRAWLS = {
    "university": lambda: crawl("university"),
    "helpdesk": lambda: crawl("helpdesk"),
    "needle": lambda: crawl("needle"),
    "multilingual": lambda: crawl("multilingual"),
    "university --no-stop": lambda: crawl("university", limit=150, stop_on_verdict=False),
    "needle --no-stop": lambda: crawl("needle", limit=60, stop_on_verdict=False),
    "helpdesk forgiven": lambda: _forgiven_then_on("helpdesk"),
}


@pytest.fixture(scope="module", params=sorted(CRAWLS))
def session(request: pytest.FixtureRequest) -> Iterator[CrawlSession]:
    yield CRAWLS[request.param]()


def _actual_verdicts(session: CrawlSession) -> list[tuple[int, StopReason, bool]]:
    return [(v.step, v.reason, v.fate is not VerdictFate.AUTO_FORGIVEN)
            for v in session.verdicts]


def test_own_options_reproduce_every_verdict_exactly(session: CrawlSession) -> None:
    result = what_if(session)
    assert session.verdicts
    assert [(v.step, v.reason, v.stood) for v in result.verdicts] == _actual_verdicts(session)
    # a budget end overrides a forgiven verdict in the last record (docs/DESIGN.md §11.1)
    shown = [v for v in result.verdicts if session.steps[v.step - 1].verdict in RULES]
    assert [(v.stale, v.cold) for v in shown] == [
        (r.verdict_stale, r.verdict_cold) for r in session.steps if r.verdict in RULES]
    assert (result.stop_step, result.stop_reason) == (session.stop_step,
                                                      session.first_verdict)
    assert result.actual_step == session.stop_step
    assert result.same_pages_until is None and result.lead_recorded
    assert result.notes == ()
    for point, record in zip(result.points, session.steps, strict=True):
        # a standing verdict's point keeps the counters it fired with (a --no-stop record
        # shows them reset)
        counters = ((record.verdict_stale, record.verdict_cold) if point.stood
                    else (record.stale, record.cold))
        assert (point.coverage, point.covered, (point.stale, point.cold)) == (
            record.coverage, record.covered, counters), record.step


@pytest.mark.parametrize("options", [AdaptiveOptions(patience=3), AdaptiveOptions(patience=8),
                                     AdaptiveOptions(patience=12)])
def test_other_options_give_the_verdicts_a_crawl_with_them_gives(
    options: AdaptiveOptions,
) -> None:
    # the stop options never change which page comes next, so a crawl with other options is
    # the recorded one with other verdicts; the replay rebuilds the pending-lead bar, which
    # asks more once a verdict has fired (frontier/leads.py), and judges each recorded head
    # against it (on this demo no fate hangs on that; test_lead_bar_real_site.py has one)
    recorded = CRAWLS["university --no-stop"]()
    other = crawl("university", limit=150, stop_on_verdict=False, adaptive=options)
    assert [r.url for r in other.steps] == [r.url for r in recorded.steps]
    result = what_if(recorded, options)
    assert [(v.step, v.reason, v.stood) for v in result.verdicts] == [
        (v.step, v.reason, v.fate is not VerdictFate.AUTO_FORGIVEN) for v in other.verdicts]
    assert [v.step for v in result.verdicts] != [v.step for v in recorded.verdicts]


def test_an_imported_bundle_replays_like_the_live_session(session: CrawlSession) -> None:
    view = load_bundle(bundle_json(session_bundle(session)))
    assert what_if(view) == what_if(session)


def test_each_rule_reports_its_first_standing_step_and_what_was_found() -> None:
    session = CRAWLS["university --no-stop"]()
    site = _site("university")
    result = what_if(session, truth=truth(site))
    standing: dict[StopReason, int] = {}
    for verdict in session.verdicts:
        if verdict.fate is VerdictFate.NO_STOP:
            standing.setdefault(verdict.reason, verdict.step)
    for rule in RULES:
        assert result.rule(rule).step == standing.get(rule)
    first = result.rule(StopReason.COVERAGE_REACHED)
    assert first.found is not None and first.step is not None
    record = session.steps[first.step - 1]
    assert first.found.pages == record.pages_fetched
    assert first.found.relevant_pages == record.relevant_pages
    assert first.found.recall is not None and 0 < first.found.recall <= 1
    assert first.found == found_by(session, first.step, truth=truth(site))


def test_less_patience_stops_earlier_and_more_patience_later() -> None:
    session = crawl("helpdesk", stop_on_verdict=False)
    answers = truth(_site("helpdesk"))
    own = what_if(session, truth=answers)
    eager = what_if(session, AdaptiveOptions(patience=2), truth=answers)
    # helpdesk's next answers come well after the own stop (step 10, recall 0.625): under the
    # p-norm relevance (docs/DESIGN.md §7) a patience of 20 reaches all of them by step 47,
    # while 12 and 15 still stop at steps 13 and 15 with the recall of 5
    patient = what_if(session, AdaptiveOptions(patience=20), truth=answers)
    assert patient.found is not None and patient.stop_step is not None
    assert own.stop_step is not None and patient.stop_step > own.stop_step
    assert patient.found.recall is not None and own.found is not None
    assert own.found.recall is not None and patient.found.recall > own.found.recall
    assert own.stop_step is not None and eager.stop_step is not None
    assert eager.stop_step < own.stop_step
    assert eager.found is not None and own.found is not None
    assert eager.found.pages <= own.found.pages
    assert eager.found.recall is not None and own.found.recall is not None
    assert eager.found.recall <= own.found.recall
    assert eager.actual == own.actual  # the session's own stop, beside it


def test_a_stricter_coverage_never_stands_and_the_crawl_would_go_on() -> None:
    session = crawl("helpdesk")
    strict = what_if(session, AdaptiveOptions(evidence_per_term=50, patience=50))
    assert strict.stop_step is None and strict.stop_reason is None
    assert all(result.step is None for result in strict.rules)
    assert any("gone on past the recording" in note for note in strict.notes)


def test_a_limit_reached_recording_ends_at_the_limit_when_no_verdict_stands() -> None:
    session = crawl("university", limit=20, stop_on_verdict=False)
    assert session.stop_reason is StopReason.LIMIT_REACHED
    result = what_if(session, AdaptiveOptions(patience=100, evidence_per_term=100))
    steps = len(session.steps)  # ≥ 20: duplicates are steps, not pages
    assert (result.stop_step, result.stop_reason) == (steps, StopReason.LIMIT_REACHED)


def test_another_min_gain_says_from_where_the_replay_is_an_estimate() -> None:
    session = CRAWLS["university --no-stop"]()
    result = what_if(session, AdaptiveOptions(min_gain=0.5))
    assert result.same_pages_until is not None
    assert any(f"From step {result.same_pages_until} on" in note for note in result.notes)


def test_needle_has_no_truth_to_recall() -> None:
    session = crawl("needle")
    result = what_if(session, truth=set())
    assert result.found is not None and result.found.recall is None
    assert result.rule(StopReason.NO_RELEVANT_PAGES).step == session.stop_step


def test_an_older_bundle_without_pending_leads_says_what_is_not_available(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a crawl as they were made before: link destinations counted, no pending-lead record
    monkeypatch.setattr("pagesift_ui.session.stepping.evidence_markdown",
                        lambda text, link_blocks: text)
    live = crawl("university", limit=150, stop_on_verdict=False)
    bundle = session_bundle(live)
    for step in bundle["steps"]:
        del step["lead_pending"]
    old = load_bundle(bundle_json(bundle))
    assert all(record.lead_pending is None for record in old.steps)
    result = what_if(old)
    assert not result.lead_recorded
    assert any(note.startswith("Not available for this bundle") for note in result.notes)
    assert [(v.step, v.reason, v.stood) for v in result.verdicts] == _actual_verdicts(live)


def test_options_must_be_adaptive_options() -> None:
    session = crawl("needle")
    with pytest.raises(ValueError, match="AdaptiveOptions"):
        what_if(session, {"patience": 3})  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="step must be"):
        found_by(session, 0)
    # one URL, not a collection of them: read as its characters it was "not an absolute URL: h"
    with pytest.raises(ValueError, match="truth must be a collection of URLs, got the one"):
        what_if(session, truth="http://www.needle.localhost/")


def test_labels_are_applied_from_the_first_step() -> None:
    session = crawl("helpdesk")
    relevant = next(r for r in session.steps[1:] if r.fresh)
    session.relabel(relevant.final_url, False)
    labelled = what_if(session)
    plain = what_if(session, use_labels=False)
    assert plain.verdicts == what_if(_unlabelled(session)).verdicts
    assert labelled.same_pages_until == relevant.step
    assert any("label" in note for note in labelled.notes)
    assert labelled.actual is not None and plain.actual is not None
    assert labelled.actual.relevant_pages == plain.actual.relevant_pages - 1


def _unlabelled(session: CrawlSession) -> Any:
    bundle = session_bundle(session)
    bundle["labels"] = {}
    bundle["overrides"] = []
    return load_bundle(bundle_json(bundle))


def test_records_of_steps_without_a_page_hold_no_lead() -> None:
    session = crawl("university", limit=40)
    kinds = {(r.relevance is not None, r.lead_pending is not None) for r in session.steps}
    assert kinds <= {(True, True), (False, False)}
    assert any(r.lead_pending for r in session.steps)
