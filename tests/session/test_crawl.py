"""CrawlSession over the fixture website (tests/fixture_site.py), served in memory."""

from __future__ import annotations

import json
from urllib.parse import urlsplit

import pytest

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import (
    CrawlConfig,
    CrawlSession,
    OverrideKind,
    SessionDone,
    StepOutcome,
    StepRecord,
)
from tests.fakes import FIXTURE_ORIGIN, DictSource, fixture_source, policy_for, redirect

RELEVANT = {"/help/refund-policy", "/help/refunds", "/help/returns"}


_OPEN: list[CrawlSession] = []


@pytest.fixture(autouse=True)
def _close_sessions() -> object:
    yield
    while _OPEN:
        _OPEN.pop().close()


def make_session(**settings: object) -> CrawlSession:
    values = {
        "seed_url": FIXTURE_ORIGIN + "/",
        "query": "refund policy",
        "limit": 40,
        "delay_s": 0.0,
        "read_timeout_s": 1.0,
        **settings,
    }
    config = CrawlConfig.from_mapping(values)
    session = CrawlSession(config, fixture_source(policy=policy_for(config)))
    _OPEN.append(session)
    return session


def path(url: str) -> str:
    return urlsplit(url).path


def test_crawls_the_fixture_site_to_a_stop_with_relevant_pages_first() -> None:
    session = make_session()
    records = session.run()
    assert session.done
    assert session.stop_reason is StopReason.COVERAGE_REACHED
    assert records[-1].verdict == "coverage_reached" and records[-1].stopped
    fetched = [path(r.final_url) for r in records if r.outcome is StepOutcome.FETCHED]
    assert RELEVANT <= set(fetched)
    last_relevant = max(fetched.index(p) for p in RELEVANT)
    irrelevant = [i for i, p in enumerate(fetched) if p in {"/about", "/team", "/careers"}]
    assert all(i > last_relevant for i in irrelevant), fetched
    assert session.stop_step == len(records)
    with pytest.raises(SessionDone):
        session.step()


def test_every_step_record_is_json_and_round_trips() -> None:
    session = make_session(limit=6)
    for record in session.run():
        text = json.dumps(record.to_dict(), allow_nan=False)
        assert StepRecord.from_dict(json.loads(text)) == record
    first = session.steps[0]
    assert first.step == 1 and first.depth == 0 and first.link is None
    assert first.terms == ("refund", "policy")
    assert len(first.link_weights) == 5 and first.prior == (2.0, 1.5, 1.0, 0.5, 0.5)
    second = session.steps[1]
    assert second.link is not None
    names = [f["name"] for f in second.link["features"]]
    # the link model's five, then the terms that are not learned (frontier/siblings.py,
    # frontier/families.py, frontier/meaning.py)
    assert names[:5] == ["anchor", "locator", "context", "parent", "phrase"]
    assert {"popularity", "family"} <= set(names[5:]) <= {"siblings", "popularity", "family",
                                                          "meaning"}
    assert second.relevance_detail is not None and second.subtree_stats is not None


def test_the_limit_stops_the_crawl() -> None:
    session = make_session(limit=3)
    session.run()
    assert session.stop_reason is StopReason.LIMIT_REACHED
    assert session.pages_scheduled == 3
    assert session.steps[-1].verdict == "limit_reached"


def test_errors_are_recorded_and_the_crawl_goes_on() -> None:
    session = make_session(limit=80, stop_on_verdict=False)
    records = session.run()
    by_path = {path(r.url): r for r in records}
    assert by_path["/broken"].outcome is StepOutcome.ERROR
    assert by_path["/broken"].status == 500 and by_path["/broken"].error_kind == "http_status"
    assert "/files/report.pdf" not in by_path, "binary links are skipped before fetching"
    assert all("/private/" not in r.url for r in records), "robots.txt disallows /private/"
    skipped = {path(url): reason for r in records for url, reason in r.links["skipped"]}
    assert skipped["/files/report.pdf"].startswith("binary file")
    assert "disallowed by robots.txt" in skipped.values()
    assert records[-1].stopped


def test_no_stop_records_the_first_verdict_and_crawls_to_the_limit() -> None:
    session = make_session(limit=15, stop_on_verdict=False)
    records = session.run()
    assert session.stop_reason in (StopReason.LIMIT_REACHED, StopReason.EXHAUSTED)
    assert session.first_verdict is StopReason.COVERAGE_REACHED
    verdict_step = session.stop_step
    assert verdict_step is not None and verdict_step < len(records)
    assert records[verdict_step - 1].forgiven
    assert "--no-stop" in records[verdict_step - 1].forgiven_why


def test_forgive_continues_past_a_verdict() -> None:
    session = make_session()
    session.run()
    steps_before = len(session.steps)
    event = session.forgive()
    assert event.kind is OverrideKind.FORGIVE and event.step == steps_before
    assert not session.done and session.stop_reason is None
    record = session.step()
    assert record.step == steps_before + 1
    with pytest.raises(ValueError, match="nothing to forgive"):
        make_session().forgive()


def test_pin_makes_the_next_step_fetch_that_link() -> None:
    session = make_session()
    session.step()
    rows = session.frontier(50)
    last = rows[-1]
    assert rows[0].key != last.key
    event = session.pin(last.key)
    assert event.note == "pinned to the front: fetched next"
    # pins are served in pin order: a second one is not fetched next
    second = session.pin(rows[-2].key)
    assert second.note == "pinned: fetched after the 1 link pinned before it"
    assert session.frontier(1)[0].key == last.key and session.frontier(1)[0].pinned
    assert session.step().url == last.url
    assert session.step().url == rows[-2].url


def test_drop_and_force_dry_change_what_is_fetched() -> None:
    session = make_session()
    session.step()
    head = session.frontier(1)[0]
    session.drop(head.key)
    assert head.key not in {row.key for row in session.frontier(100)}
    nxt = session.frontier(1)[0]
    assert session.summary()["queue_in_dry"] == 0
    session.force_dry(nxt.subtree)
    # the Queue tile says how many queued links will be dropped, not fetched
    in_part = [row for row in session.frontier(1000) if row.subtree == nxt.subtree]
    assert session.summary()["queue_in_dry"] == len(in_part) > 0
    record = session.step()
    assert record.url != nxt.url
    assert nxt.url in record.dropped_dry or nxt.url not in {r.url for r in session.steps}
    kinds = [event.kind for event in session.overrides]
    assert kinds == [OverrideKind.DROP, OverrideKind.FORCE_DRY]
    with pytest.raises(ValueError, match="not in the queue"):
        session.drop("http://nowhere.invalid/")


@pytest.mark.parametrize("reopen", ["keep_open", "clear_subtree"])
def test_links_set_aside_in_a_dry_subtree_come_back_when_it_is_reopened(reopen: str) -> None:
    # force dry, then keep open or clear, lost the subtree's queued links for good (one of
    # the university demo's answers among them: found by using the app)
    session = make_session()
    session.step()
    head = session.frontier(1)[0]
    session.force_dry(head.subtree)
    record = session.step()
    assert head.url in record.dropped_dry
    assert head.key not in {row.key for row in session.frontier(1000)}
    set_aside = set(session.state.parked[head.subtree])
    assert head.key in set_aside
    event = getattr(session, reopen)(head.subtree)
    back = len(set_aside)
    assert event.note.endswith(
        f"; {back} link{'s' * (back != 1)} set aside while "
        f"{'they were' if back != 1 else 'it was'} in a dry subtree "
        f"{'are' if back != 1 else 'is'} queued again")
    queued = {row.key for row in session.frontier(1000)}
    assert set_aside <= queued
    assert session.state.parked == {} and session.state.parked_count == 0


def test_a_link_met_while_its_subtree_is_dry_is_queued_when_the_subtree_is_kept_open() -> None:
    # a link found while its subtree was dry was refused for good: keeping the subtree open
    # later could not bring it back unless a page linking it was read again
    origin = "http://d.example"
    pages = {
        origin + "/": "<html><head><title>Home</title></head><body><main><p>Start</p>"
                      "<a href='/guide/refunds'>refund policy</a> "
                      "<a href='/shop/cart'>cart</a></main></body></html>",
        origin + "/guide/refunds": "<html><head><title>Refunds</title></head><body><main>"
                                   "<h1>Refund policy</h1><p>Our refund policy.</p>"
                                   "<a href='/shop/returns'>return a parcel</a></main>"
                                   "</body></html>",
    }
    config = CrawlConfig.from_mapping({"seed_url": origin + "/", "query": "refund policy",
                                       "delay_s": 0.0, "limit": 10, "stop_on_verdict": False,
                                       "allow_private": True})
    with CrawlSession(config, DictSource(pages, policy=policy_for(config))) as session:
        session.step()
        session.force_dry("d.example/shop")
        record = session.step()
        assert record.url == origin + "/guide/refunds"
        assert [origin + "/shop/returns", "dry subtree"] in record.links["skipped"]
        assert origin + "/shop/returns" not in {row.url for row in session.frontier(10)}
        event = session.keep_open("d.example/shop")
        # /shop/cart stayed queued while dry (not popped): the one set aside is the new link
        assert event.note.endswith("; 1 link set aside while it was in a dry subtree is "
                                   "queued again")
        assert {row.url for row in session.frontier(10)} == {
            origin + "/shop/cart", origin + "/shop/returns"}


def test_stop_now_cancels() -> None:
    session = make_session()
    session.step()
    session.stop()
    assert session.done and session.stop_reason is StopReason.CANCELLED
    assert session.overrides[-1].kind is OverrideKind.STOP


def test_relabel_is_recorded_and_counts() -> None:
    session = make_session(limit=4)
    session.run()
    about = session.steps[0].final_url
    before = session.relevant_pages
    session.relabel(about, True)
    assert session.labels[about] is True
    assert session.relevant_pages == before + 1
    assert [p.user_label for p in session.pages() if p.url == about] == [True]
    with pytest.raises(ValueError, match="not a fetched page"):
        session.relabel("http://127.0.0.1:1/never", True)


def test_a_step_cut_off_after_its_page_was_counted_is_not_in_the_summary(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Ctrl-C while a page's links were being offered: the page was counted and its verdict
    # fired, but the step has no record; the summary said "N + 1 pages in N steps" and named
    # a verdict at a step no record, bundle or CSV had
    session = make_session(limit=12, stop_on_verdict=False)
    session.run(max_steps=4)
    recorded = session.summary()

    def cut_off(*args: object, **kwargs: object) -> object:
        raise KeyboardInterrupt

    monkeypatch.setattr(session, "_enqueue", cut_off)
    with pytest.raises(KeyboardInterrupt):
        session.step()
    assert session.pages_fetched == recorded["pages_fetched"] + 1  # the live counter moved
    assert session.interruption.startswith("step 5 was interrupted")
    summary = session.summary()
    assert summary["steps"] == 4
    for key in ("pages_fetched", "pages_scheduled", "relevant_pages", "coverage", "evidence",
                "queue_length", "verdicts", "stop_step", "harvest_rate", "fresh_rate"):
        assert summary[key] == recorded[key], key


def test_a_redirects_target_queued_from_another_page_is_not_fetched_again() -> None:
    # the university demo fetched /admissions/fees/international at step 6 (a redirect's
    # target) and again at step 14 from the queue, as a duplicate
    origin = "http://r.example"
    pages = {
        origin + "/": "<html><head><title>Home</title></head><body><main><p>Start</p>"
                      "<a href='/old-refunds'>refund policy</a> "
                      "<a href='/refunds'>the policy on a refund, again</a></main></body></html>",
        origin + "/old-refunds": redirect("/refunds"),
        origin + "/refunds": "<html><head><title>Refunds</title></head><body><main>"
                             "<h1>Refund policy</h1><p>Our refund policy.</p></main></body></html>",
    }
    config = CrawlConfig.from_mapping({"seed_url": origin + "/", "query": "refund policy",
                                       "delay_s": 0.0, "limit": 10, "stop_on_verdict": False,
                                       "allow_private": True})
    with CrawlSession(config, DictSource(pages, policy=policy_for(config))) as session:
        records = session.run()
    assert [(r.url, r.final_url) for r in records] == [
        (origin + "/", origin + "/"), (origin + "/old-refunds", origin + "/refunds")]


def test_a_crawl_its_budget_ended_goes_on_when_the_budget_is_raised() -> None:
    session = make_session(limit=4, stop_on_verdict=False)
    session.run()
    assert session.done and session.stop_reason is StopReason.LIMIT_REACHED
    assert (session.stop_step, session.first_verdict) == (4, StopReason.LIMIT_REACHED)
    event = session.raise_limit(7)
    assert (event.kind, event.target, event.step) == (OverrideKind.RAISE_LIMIT, "7", 4)
    assert event.note == "page budget raised from 4 to 7"
    # the end of a budget is not a verdict: the crawl's own stop is ahead again
    assert not session.done and session.stop_step is None and session.first_verdict is None
    records = session.run()
    assert records[-1].pages_scheduled == 7 and session.stop_reason is StopReason.LIMIT_REACHED
    assert session.limit == 7 and session.config.limit == 4  # the recorded settings stay


@pytest.mark.parametrize(("limit", "words"), [
    (4, "can only be raised: it is 4 pages, so give a number from 5 to 100,000"),
    (3, "can only be raised"),
    (100_001, "from 5 to 100,000"),
    (True, "a whole number of pages"),
    (5.0, "a whole number of pages"),
])
def test_a_budget_can_only_be_raised_to_a_whole_number(limit: object, words: str) -> None:
    session = make_session(limit=4)
    with pytest.raises(ValueError, match=words.replace("(", r"\(")):
        session.raise_limit(limit)  # type: ignore[arg-type]
    assert session.limit == 4 and session.overrides == []


def test_a_verdict_that_stood_is_not_undone_by_a_bigger_budget() -> None:
    session = make_session()
    session.run()
    assert session.stop_reason is StopReason.COVERAGE_REACHED
    session.raise_limit(80)
    assert session.done and session.stop_reason is StopReason.COVERAGE_REACHED
    session.forgive()
    assert not session.done


def test_a_pin_in_a_dry_subtree_says_it_is_set_aside_not_fetched_next() -> None:
    # "pinned to the front: fetched next", then the next step set it aside (found by using
    # the app)
    session = make_session()
    session.step()
    head = session.frontier(1)[0]
    session.force_dry(head.subtree)
    event = session.pin(head.key)
    assert event.note == (f"pinned: its subtree {head.subtree} is dry, so it is set aside "
                          "when its turn comes; keep the subtree open to fetch it")
    assert head.url in session.step().dropped_dry
