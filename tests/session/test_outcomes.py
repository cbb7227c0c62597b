"""Every outcome that leaves the session is an enum, and serialises to the documented words."""

from __future__ import annotations

import json

import pytest

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import CrawlConfig, CrawlSession, Skip, SkipReason
from pagesift_ui.session.bundle import bundle_json, load_bundle, session_bundle
from pagesift_ui.session.enqueue import LinkTally
from pagesift_ui.session.record import PartStats, StepRecord, SubtreeState, Verdict, VerdictFate
from tests.fakes import FIXTURE_ORIGIN, fixture_source, policy_for


def crawl(**settings: object) -> CrawlSession:
    values = {"seed_url": FIXTURE_ORIGIN + "/", "query": "refund policy", "limit": 40,
              "delay_s": 0.0, **settings}
    config = CrawlConfig.from_mapping(values)
    return CrawlSession(config, fixture_source(policy=policy_for(config)))


def test_verdicts_are_typed_and_summarised_in_the_documented_words() -> None:
    with crawl() as session:
        session.run()
        last = session.steps[-1]
        assert last.verdict is StopReason.COVERAGE_REACHED
        assert all(r.verdict is None or isinstance(r.verdict, StopReason) for r in session.steps)
        assert session.verdicts[-1] == Verdict(last.step, StopReason.COVERAGE_REACHED,
                                               VerdictFate.STOPPED, last.lead_why)
        # a covered query's verdict: judged against the links that found new evidence
        assert last.lead_why.startswith("the query is covered; the next 5 links to fetch score ")
        session.forgive()
        assert session.verdicts[-1].fate is VerdictFate.USER_FORGIVEN
        assert session.summary()["verdicts"][-1] == [last.step, "coverage_reached",
                                                     "forgiven by the user"]
        data = last.to_dict()
        assert (data["verdict"], data["verdict_fate"]) == ("coverage_reached", "stopped")
        assert StepRecord.from_dict(json.loads(json.dumps(data))) == last


def test_no_stop_verdicts_are_recorded_with_their_fate() -> None:
    with crawl(limit=15, stop_on_verdict=False) as session:
        session.run()
    fates = {v.fate for v in session.verdicts}
    assert VerdictFate.NO_STOP in fates and VerdictFate.STOPPED not in fates
    texts = {text for _, _, text in session.summary()["verdicts"]}
    assert "recorded (no-stop)" in texts
    assert all(t == "recorded (no-stop)" or t.startswith("forgiven: ") for t in texts)


@pytest.mark.parametrize(
    ("verdict", "text"),
    [
        (Verdict(3, StopReason.SATURATED, VerdictFate.STOPPED), "stopped"),
        (Verdict(3, StopReason.SATURATED, VerdictFate.AUTO_FORGIVEN, "a link is queued"),
         "forgiven: a link is queued"),
        (Verdict(3, StopReason.SATURATED, VerdictFate.NO_STOP), "recorded (no-stop)"),
        (Verdict(3, StopReason.SATURATED, VerdictFate.USER_FORGIVEN), "forgiven by the user"),
    ],
)
def test_a_verdict_row_keeps_the_bundle_words(verdict: Verdict, text: str) -> None:
    assert verdict.to_list() == [3, "saturated", text]


def test_subtree_states_are_an_enum_and_serialise_as_words() -> None:
    with crawl(limit=8) as session:
        session.run()
        part = session.wilson_table()[0].part
        session.force_dry(part)
        rows = {row.part: row for row in session.wilson_table()}
    assert rows[part].state is SubtreeState.DRY and rows[part].forced is SubtreeState.DRY
    assert all(isinstance(row.state, SubtreeState) for row in rows.values())
    assert {row.forced for p, row in rows.items() if p != part} == {None}
    data = rows[part].to_dict()
    assert (data["state"], data["forced"]) == ("dry", "dry")
    assert PartStats.from_dict(data) == rows[part]
    other = next(row for p, row in rows.items() if p != part).to_dict()
    assert other["forced"] == "" and PartStats.from_dict(other).forced is None
    stats = session.steps[-1].subtree_stats
    assert stats is not None and isinstance(stats.state, SubtreeState)


def test_skip_reasons_are_an_enum_with_the_record_words() -> None:
    tally = LinkTally(found=3)
    tally.skip("http://a.test/x.pdf", Skip(SkipReason.URL_HYGIENE, "binary file (.pdf)"))
    tally.skip("http://b.test/", Skip(SkipReason.OUT_OF_SCOPE))
    tally.skip("http://a.test/p", Skip(SkipReason.ROBOTS_UNCHECKED, "timed out"))
    tally.reject("http://a.test/late")
    data = tally.to_dict()
    assert data["skipped"] == [["http://a.test/x.pdf", "binary file (.pdf)"],
                               ["http://b.test/", "out of scope"],
                               ["http://a.test/p", "robots.txt could not be checked: timed out"]]
    assert data["skipped_by_reason"] == {
        "binary file (.pdf)": 1, "out of scope": 1, "queue full": 1,
        "robots.txt could not be checked: timed out": 1,
    }
    assert data["rejected"] == [["http://a.test/late",
                                 "queue full and the score is not above the worst queued"]]
    assert [reason for _, reason in ((u, s.reason) for u, s in tally.skipped)] == [
        SkipReason.URL_HYGIENE, SkipReason.OUT_OF_SCOPE, SkipReason.ROBOTS_UNCHECKED]


def test_a_bundle_loads_its_outcomes_back_as_enums_and_re_exports_the_same_bytes() -> None:
    with crawl(limit=10) as session:
        session.run()
        session.force_dry(session.wilson_table()[0].part)
        first = bundle_json(session_bundle(session))
    view = load_bundle(first)
    assert bundle_json(session_bundle(view)) == first
    assert [r.verdict for r in view.steps] == [r.verdict for r in session.steps]
    assert any(isinstance(r.verdict, StopReason) for r in view.steps)
    assert all(isinstance(r.subtree_stats.state, SubtreeState)
               for r in view.steps if r.subtree_stats is not None)
    assert view.wilson_table() == session.wilson_table()
    assert view.pages() == session.pages()
