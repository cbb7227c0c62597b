"""A relabel replaces the crawler's verdict on a page in every statistic that used it."""

from __future__ import annotations

import functools
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.demo import build_site
from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE, Adaptive
from pagesift_ui.frontier.harvest import Harvest
from pagesift_ui.frontier.leads import LeadBar
from pagesift_ui.frontier.model import LinkModel
from pagesift_ui.frontier.urls import clean, dedupe_key
from pagesift_ui.session import (
    CrawlConfig,
    CrawlSession,
    OverrideKind,
    StepOutcome,
    StepRecord,
)
from pagesift_ui.session.bundle import bundle_json, load_bundle, session_bundle
from pagesift_ui.session.config import Strategy
from pagesift_ui.session.record import Override
from pagesift_ui.session.relabel import rebuild_model, replay_leads
from pagesift_ui.session.rules import (
    evidence_markdown,
    labelled_relevance,
    replay_rules,
)
from pagesift_ui.session.state import signal_of
from pagesift_ui.session.views import live_wilson_table, replayed_wilson_table
from pagesift_ui.store import RecordingSink, ReplaySource, drive
from pagesift_ui.store.replay import check_rebuilt
from tests.fakes import DictSource, demo_seed, demo_source


def _session(name: str, **settings: Any) -> CrawlSession:
    site = _site(name)
    config = CrawlConfig(seed_url=demo_seed(site), query=site.query, **settings)
    return CrawlSession(config, demo_source(site))


@functools.cache
def _site(name: str) -> Any:
    return build_site(name)


def rules_state(adaptive: Adaptive) -> tuple[Any, ...]:
    return (adaptive.evidence, adaptive.stale, adaptive.cold, adaptive.sources,
            adaptive.collected, adaptive.last_fresh, frozenset(adaptive._seen),
            adaptive.coverage(), adaptive.covered())


def model_state(model: LinkModel) -> tuple[Any, ...]:
    return (model.weights, model.posterior_mean, model.standard_error, model.intercept,
            model.samples)


def harvest_state(harvest: Harvest) -> tuple[Any, ...]:
    return harvest.parts(), harvest.total


def leads_state(leads: LeadBar) -> tuple[Any, ...]:
    return (leads.bar(), leads.covered_bar(), len(leads), leads.judged, bytes(leads._read),
            leads._read_relevant, leads._fresh_count, leads._graced)


def everything(session: CrawlSession) -> tuple[Any, ...]:
    state = session.state
    return (rules_state(state.adaptive), model_state(state.focus.model), leads_state(state.leads),
            harvest_state(state.subtrees), harvest_state(state.clusters),
            [(e.key, e.score) for e in state.queue.entries()], session.relevant_pages,
            session.summary()["coverage"], [r.to_dict() for r in session.pages()])


@pytest.fixture(scope="module")
def university() -> Iterator[CrawlSession]:
    with _session("university", limit=60) as session:
        session.run()
        yield session


def _observed(session: CrawlSession) -> list[StepRecord]:
    return [r for r in session.steps if r.relevance is not None]


# -- the replay the relabel rests on ------------------------------------------------------


@pytest.mark.parametrize(("name", "settings"), [
    ("university", {}), ("helpdesk", {}), ("needle", {}), ("multilingual", {}),
    ("university", {"stop_on_verdict": False, "limit": 80}),
    ("needle", {"stop_on_verdict": False, "limit": 40}),
    ("university", {"link_blocks_as_evidence": True}),
    ("helpdesk", {"link_blocks_as_evidence": True}),
])
def test_replaying_the_records_gives_back_the_live_rules_and_harvests(
    name: str, settings: dict[str, Any]
) -> None:
    with _session(name, **settings) as session:
        session.run()
        if session.stop_reason is not None and session.stop_reason.value != "limit_reached":
            session.forgive()
            session.run(max_steps=10)
        replayed = replay_rules(session.config, session.steps, session.overrides, {})
        state = session.state
        assert rules_state(replayed.adaptive) == rules_state(state.adaptive)
        assert harvest_state(replayed.subtrees) == harvest_state(state.subtrees)
        assert harvest_state(replayed.clusters) == harvest_state(state.clusters)
        assert replayed.fresh == {r.step: r.fresh for r in _observed(session)}
        rebuilt = rebuild_model(state.focus.model, session._samples, {})
        assert model_state(rebuilt) == model_state(state.focus.model)
        leads = replay_leads(state.leads, session.steps, {}, replayed.fresh)
        assert leads_state(leads) == leads_state(state.leads)


def test_labelled_relevance_replaces_only_a_disagreeing_verdict() -> None:
    assert labelled_relevance(0.02, None) == 0.02
    assert labelled_relevance(0.02, True) == EVIDENCE_RELEVANCE
    assert labelled_relevance(0.40, True) == 0.40
    assert labelled_relevance(0.40, False) == 0.0
    assert labelled_relevance(0.10, False) == 0.10  # already not relevant
    assert labelled_relevance(EVIDENCE_RELEVANCE, False) == 0.0


# -- relabel: replace, idempotent, undo ---------------------------------------------------


def _irrelevant_page_with_terms(session: CrawlSession) -> StepRecord:
    """A fetched page the crawler did not count relevant (below EVIDENCE_RELEVANCE) whose
    blocks name a query term, not the seed; the least relevant such page first."""
    terms = session.state.query
    observed = _observed(session)[1:]
    for record in sorted(observed, key=lambda r: r.relevance if r.relevance is not None else 0):
        assert record.relevance is not None
        if record.relevance < EVIDENCE_RELEVANCE and any(
            terms.hit_mask(block) for block in evidence_markdown(
                record.markdown, session.config.link_blocks_as_evidence).split("\n\n")
        ):
            return record
    raise AssertionError("no irrelevant page naming a query term")


def test_relabel_relevant_replaces_the_verdict_everywhere_and_is_idempotent(
    university: CrawlSession,
) -> None:
    session = university
    original = everything(session)
    record = _irrelevant_page_with_terms(session)
    first = session.relabel(record.final_url, True)
    once = everything(session)
    assert once != original
    changes = first.changes
    assert changes is not None and changes["label"] is True
    assert changes["crawler_relevant"] is False and changes["learned"] is True
    before, after = changes["before"], changes["after"]
    assert after["relevant_pages"] == before["relevant_pages"] + 1
    assert sum(after["evidence"]) > sum(before["evidence"])
    assert after["coverage"] >= before["coverage"]
    assert after["link_weights"] == list(session.state.focus.model.weights)
    assert "relevant pages" in first.note and "→" in first.note
    assert "coverage" in first.note
    second = session.relabel(record.final_url, True)
    assert everything(session) == once  # two clicks = one label
    assert second.changes is not None and second.changes["before"] == second.changes["after"]
    assert second.note.endswith("nothing changed")
    assert [o.kind for o in session.overrides[-2:]] == [OverrideKind.RELABEL] * 2
    undo = session.unlabel(record.final_url)
    assert undo.value is None and record.final_url not in session.labels
    assert everything(session) == original  # exactly, floats included
    assert undo.changes is not None and undo.changes["after"] == changes["before"]


def test_relabel_irrelevant_then_back_to_the_crawlers_own_verdict_restores_exactly(
    university: CrawlSession,
) -> None:
    session = university
    original = everything(session)
    relevant = [r for r in _observed(session)[1:]
                if r.relevance is not None and r.relevance >= EVIDENCE_RELEVANCE and r.fresh]
    record = relevant[0]
    live_summary_before = session.summary()
    event = session.relabel(record.final_url, False)
    assert event.changes is not None
    before, after = event.changes["before"], event.changes["after"]
    assert after["relevant_pages"] == before["relevant_pages"] - 1
    assert before["fresh"] is True and after["fresh"] is False
    assert after["subtree_hits"] == before["subtree_hits"] - 1
    row = next(r for r in session.pages() if r.url == record.final_url)
    assert row.relevant is False and row.fresh is False and row.user_label is False
    # the headline rates read the same labels as the pages table
    rows = [r for r in session.pages() if r.outcome is StepOutcome.FETCHED]
    summary = session.summary()
    assert summary["fresh_rate"] == sum(r.fresh for r in rows) / len(rows)
    assert summary["fresh_rate"] < live_summary_before["fresh_rate"]
    assert summary["harvest_rate"] == summary["relevant_pages"] / summary["pages_fetched"]
    assert summary["harvest_rate"] < live_summary_before["harvest_rate"]
    assert session.state.focus.model.weights == tuple(after["link_weights"])
    back = session.relabel(record.final_url, True)
    assert back.note.startswith("labelled relevant, as the crawler judged it")
    assert everything(session)[:-1] == original[:-1]  # the pages table shows the label
    session.unlabel(record.final_url)
    assert everything(session) == original


def test_a_label_moves_the_bar_later_verdicts_are_judged_by() -> None:
    # a page that brought new evidence set the lowest score of such links (§11.10's bar);
    # labelled not relevant it brings none, and the bar no longer counts its link
    with _session("university", limit=60) as session:
        session.run()
        fresh = [r for r in _observed(session) if r.link is not None and r.fresh]
        lowest = min(fresh, key=lambda r: r.score)
        before = session.state.leads.covered_bar()
        assert before == lowest.score
        session.relabel(lowest.final_url, False)
        still_fresh = {r.step for r in session.pages() if r.fresh}
        after = session.state.leads.covered_bar()
        # the bar is the lowest of the links whose pages are fresh under the label, a page
        # made fresh by it included (with less collected, a later page's gain can pass)
        linked = [r for r in _observed(session) if r.link is not None]
        assert after == min(r.score for r in linked if r.step in still_fresh)
        assert after is not None and after > before
        session.unlabel(lowest.final_url)
        assert session.state.leads.covered_bar() == before


def test_the_summary_reads_the_counters_a_label_moved_before_the_next_step() -> None:
    # the Stale and Cold tiles read the summary: a label that makes the last pages stale
    # shows now, not one step later when a record carries it
    with _session("university", limit=60) as session:
        session.run(max_steps=20)
        last = session.steps[-1]
        assert session.summary()["stale"] == last.stale
        fresh = [r for r in _observed(session) if r.fresh]
        session.relabel(fresh[-1].final_url, False)  # the last page that brought evidence
        summary = session.summary()
        assert summary["stale"] > last.stale  # the pages since the one before it are stale
        assert (summary["stale"], summary["cold"]) == (session.state.adaptive.stale,
                                                       session.state.adaptive.cold)
        assert session.steps[-1] is last


def test_relabelling_the_seed_changes_no_link_weight_and_says_so(
    university: CrawlSession,
) -> None:
    session = university
    seed = session.steps[0]
    weights = session.state.focus.model.weights
    event = session.relabel(seed.final_url, True)
    assert event.changes is not None and event.changes["learned"] is False
    assert session.state.focus.model.weights == weights
    assert "nothing to relearn" in event.note
    assert "learned from it" not in event.note
    session.unlabel(seed.final_url)


def test_relabel_refuses_a_url_that_was_not_fetched(university: CrawlSession) -> None:
    with pytest.raises(ValueError, match="not a fetched page"):
        university.relabel("http://www.uni.localhost/never", True)


@pytest.mark.parametrize("label", ["no", "yes", 0, 1, 0.5])
def test_relabel_takes_only_true_false_or_none(university: CrawlSession, label: Any) -> None:
    # "no" is truthy: read as a truth value it labelled the page relevant
    seed = university.steps[0]
    overrides = len(university.overrides)
    with pytest.raises(ValueError, match=r"relevant must be True, False or None, got "):
        university.relabel(seed.final_url, label)
    assert len(university.overrides) == overrides and seed.final_url not in university.labels


@pytest.mark.parametrize("part", ["", "x" * 3_000, None])
def test_a_subtree_override_needs_a_subtree_name(university: CrawlSession, part: Any) -> None:
    for override in (university.force_dry, university.keep_open, university.clear_subtree):
        with pytest.raises(ValueError, match="a subtree is a non-empty name"):
            override(part)


# -- what a label does to the queue (docs/DESIGN.md §8, §8a, §12.3) ------------------------


def _scores(session: CrawlSession) -> dict[str, float]:
    return {e.key: e.score for e in session.state.queue.entries()}


def _off_topic_page_with_queued_siblings(
    session: CrawlSession,
) -> tuple[StepRecord, list[str]]:
    """A fetched page below ``MIN_RELEVANCE`` (not the seed) listed beside queued links: the
    page and the keys of those links."""
    queued_by_group: dict[int, list[str]] = {}
    for entry in session.state.queue.entries():
        signal = signal_of(entry)
        if signal is not None and signal.group >= 0:
            queued_by_group.setdefault(signal.group, []).append(entry.key)
    siblings = session.state.focus.siblings
    for record in _observed(session)[1:]:
        assert record.relevance is not None
        if record.relevance >= MIN_RELEVANCE:
            continue
        groups = siblings.groups(dedupe_key(clean(record.url)))
        queued = [key for group in groups for key in queued_by_group.get(group, [])]
        if queued:
            return record, queued
    raise AssertionError("no off-topic page listed beside queued links")


def test_a_page_labelled_relevant_lifts_the_queued_entries_of_its_lists() -> None:
    # helpdesk: a help article read off topic, its list's other articles still queued
    with _session("helpdesk", limit=60) as session:
        session.run(max_steps=25)
        record, siblings = _off_topic_page_with_queued_siblings(session)
        before = _scores(session)
        event = session.relabel(record.final_url, True)
        after = _scores(session)
        assert event.changes is not None and event.changes["credits_moved"] is True
        assert event.changes["rescored"] is True
        assert all(after[key] > before[key] for key in siblings)
        assert "queue rescored (" in event.note and "sibling credit" in event.note
        session.unlabel(record.final_url)
        assert _scores(session) == before  # exactly, floats included


def test_a_page_labelled_relevant_lifts_the_queued_pages_named_like_it() -> None:
    # /misc-a.html names the topic in its anchor, is fetched first and reads off topic; its
    # name family's other page, /misc-b.html, is queued in a list of its own (no sibling
    # credit). Labelled relevant, the page lifts its family (frontier/families.py).
    from tests.session.test_ranking import ORIGIN, QUERY, off_topic_family_site
    pages = off_topic_family_site()
    config = CrawlConfig.from_mapping({"seed_url": ORIGIN + "/", "query": QUERY, "limit": 10,
                                       "delay_s": 0.0, "stop_on_verdict": False})
    source = DictSource({ORIGIN + path: html for path, html in pages.items()})
    with CrawlSession(config, source) as session:
        session.run(max_steps=2)
        assert session.steps[1].url == ORIGIN + "/misc-a.html"
        assert session.steps[1].relevance == 0.0
        before = _scores(session)
        event = session.relabel(ORIGIN + "/misc-a.html", True)
        after = _scores(session)
        assert event.changes is not None and event.changes["families_moved"] is True
        sibling, other = ORIGIN + "/misc-b.html", ORIGIN + "/guide.html"
        # both lose popularity (the labelled page weighs more among the pages read); only
        # the page named like it gains its family's credit
        assert before[sibling] == before[other] and after[sibling] > after[other]
        assert "family credit" in event.note
        assert event.changes["after"]["queue_head"] == sibling  # it overtook /guide.html
        session.unlabel(ORIGIN + "/misc-a.html")
        assert _scores(session) == before  # exactly, floats included


def test_a_page_labelled_relevant_passes_its_labelled_relevance_to_the_links_read_on_it(
) -> None:
    # multilingual: an off-topic page whose links are still queued with its relevance
    with _session("multilingual", limit=60) as session:
        session.run(max_steps=25)
        pages = {dedupe_key(clean(r.final_url)): r for r in _observed(session)[1:]
                 if r.relevance is not None and r.relevance < MIN_RELEVANCE}
        read_on: dict[str, list[str]] = {}
        for entry in session.state.queue.entries():
            signal = signal_of(entry)
            if signal is not None and signal.parent in pages:
                read_on.setdefault(signal.parent, []).append(entry.key)
        assert read_on, "no queued link read on an off-topic page"
        page_key, keys = max(read_on.items(), key=lambda item: len(item[1]))
        record = pages[page_key]
        event = session.relabel(record.final_url, True)
        assert event.changes is not None and event.changes["parents_moved"] == len(keys)
        for key in keys:
            entry = session.state.queue.get(key)
            assert entry is not None
            signal = signal_of(entry)
            assert signal is not None and signal.parent_relevance == EVIDENCE_RELEVANCE
        assert f"parent feature of {len(keys)} queued link" in event.note
        session.unlabel(record.final_url)
        for key in keys:
            entry = session.state.queue.get(key)
            signal = None if entry is None else signal_of(entry)
            assert signal is not None and signal.parent_relevance == record.relevance


def test_a_page_labelled_not_relevant_no_longer_lifts_what_it_links_to(
    university: CrawlSession,
) -> None:
    session = university
    before = _scores(session)
    record = max((r for r in _observed(session)[1:] if r.relevance is not None),
                 key=lambda r: r.relevance or 0.0)
    assert record.relevance is not None and record.relevance >= EVIDENCE_RELEVANCE
    event = session.relabel(record.final_url, False)
    assert event.changes is not None and event.changes["shares_moved"] is True
    page_key = dedupe_key(clean(record.final_url))
    lowered = [e for e in session.state.queue.entries()
               if (signal := signal_of(e)) is not None and signal.parent == page_key]
    assert lowered, "no queued link read on the most relevant page"
    assert all(signal_of(e).parent_relevance == 0.0 for e in lowered)  # type: ignore[union-attr]
    assert all(e.score < before[e.key] for e in lowered)
    session.unlabel(record.final_url)
    assert _scores(session) == before


def test_a_breadth_first_relabel_says_the_order_does_not_change() -> None:
    with _session("helpdesk", limit=40, strategy=Strategy.BFS) as session:
        session.run(max_steps=12)
        record = next(r for r in _observed(session)[1:]
                      if r.relevance is not None and r.relevance < MIN_RELEVANCE)
        order = [e.key for e in session.state.queue.entries()]
        event = session.relabel(record.final_url, True)
        assert event.changes is not None and event.changes["rescored"] is False
        assert "(breadth-first: no order changes)" in event.note
        assert "queue rescored" not in event.note
        assert [e.key for e in session.state.queue.entries()] == order
        assert {e.score for e in session.state.queue.entries()} == {1.0}


# -- replays, bundles, views ----------------------------------------------------------------


def test_a_crawl_with_relabels_replays_exactly() -> None:
    site = _site("university")
    config = CrawlConfig(seed_url=demo_seed(site), query=site.query, limit=50)
    sink = RecordingSink()
    with CrawlSession(config, sink.record(demo_source(site)), sinks=[sink]) as live:
        live.run(max_steps=20)
        picked = _irrelevant_page_with_terms(live)
        live.relabel(picked.final_url, True)
        live.relabel(live.steps[3].final_url, False)
        live.relabel(picked.final_url, True)
        live.run(max_steps=15)
        live.unlabel(live.steps[3].final_url)
        live.run()
    with CrawlSession(config, ReplaySource(sink.answers)) as again:
        drive(again, sink.events)
        check_rebuilt(live.steps, again.steps)
        assert again.overrides == live.overrides
        assert everything(again) == everything(live)


def test_relabel_changes_survive_the_bundle_and_old_overrides_still_load(
    university: CrawlSession,
) -> None:
    session = university
    record = _irrelevant_page_with_terms(session)
    event = session.relabel(record.final_url, True)
    text = bundle_json(session_bundle(session))
    view = load_bundle(text)
    assert view.overrides[-1] == event
    assert bundle_json(session_bundle(view)) == text
    assert [r.to_dict() for r in view.pages()] == [r.to_dict() for r in session.pages()]
    assert replayed_wilson_table(view) == live_wilson_table(session)
    session.unlabel(record.final_url)
    old = {"step": 3, "kind": "relabel", "target": "http://x/", "value": True,
           "note": "labelled relevant"}
    assert Override.from_dict(old) == Override(3, OverrideKind.RELABEL, "http://x/", True,
                                               "labelled relevant")
    assert "changes" not in Override.from_dict(old).to_dict()


# -- link destinations are not evidence -------------------------------------------------------


def test_evidence_markdown_keeps_labels_and_drops_destinations() -> None:
    for link_blocks in (True, False):
        assert evidence_markdown("See [Print this page](https://e.edu/fees/?print=1)",
                                 link_blocks) == "See Print this page"
        assert evidence_markdown("a [b \\[1\\]](http://x/(y)) c [d](http://z/)",
                                 link_blocks) == "a b [1] c d"
        assert evidence_markdown("no links [here] (at all)", link_blocks) == (
            "no links [here] (at all)")
    assert evidence_markdown("- [one](u1)\n\n- [two](u2)", True) == "- one\n\n- two"


def test_a_block_that_is_only_links_is_not_evidence_unless_asked() -> None:
    # a contents entry, a row of navigation, a heading that is a link: pages named, not read
    markdown = ("- [Refund policy](/refunds)\n\n[Home](/) | [Refunds](/r)\n\n"
                "## [Refunds](#refunds)\n\n![Refund form](/form.png)\n\n"
                "- [json](json.html) — a refund policy encoder\n\n"
                "Refunds: see [the policy](/p).\n\n1. [Refund policy](/r) (2024)")
    assert evidence_markdown(markdown, False).split("\n\n") == [
        "-", "-", "-", "-", "- json — a refund policy encoder", "Refunds: see the policy.",
        "-",  # numbers and marks outside the links are no prose either
    ]
    assert evidence_markdown(markdown, True).split("\n\n") == [
        "- Refund policy", "Home | Refunds", "## Refunds", "!Refund form",
        "- json — a refund policy encoder", "Refunds: see the policy.", "1. Refund policy (2024)",
    ]
    # the same blocks either way, so evidence_blocks indices point into the page's Markdown
    assert evidence_markdown("[a](x)\n\n\n\nb", False) == "-\n\n\n\nb"
    # link syntax in a code block is no trap: an empty label, a label across a blank line
    assert evidence_markdown("a\n[](x)\nb\n\nc", False) == "a\n \nb\n\nc"
    assert evidence_markdown("a\n[](x)\n[](y)\nb", False) == "a\n \n \nb"
    assert evidence_markdown("see [a\n\nb](x) c\n\nd", False) == "see [a\n\nb](x) c\n\nd"


def test_a_link_url_naming_a_query_term_is_not_evidence() -> None:
    seed = "http://club.example/"
    page = (
        "<html><head><title>{t}</title></head><body><main><h1>{t}</h1>{body}</main>"
        "</body></html>"
    )
    body = (
        "<p>Our tuition fees for the coming year are listed below, with a table of fees for "
        "each programme.</p>"
        '<p><a href="/fees/?print=1">Print this page</a></p>'
        '<p><a href="/tuition/fees/deadlines">Deadlines</a> for paying are in September.</p>'
        '<p>See <a href="/more">more</a>.</p>'
    )
    site = DictSource({seed: page.format(t="Tuition fees", body=body),
                       seed + "more": page.format(t="More", body="<p>Nothing.</p>")})
    config = CrawlConfig(seed_url=seed, query="tuition fees deadlines", limit=2)
    with CrawlSession(config, site) as session:
        first = session.run(max_steps=1)[0]
    # blocks: the heading, the prose, the print link, the deadlines line, "see more". The
    # heading and the prose name tuition and fees; the print link's URL names "fees" but its
    # text does not: no evidence; the deadlines line counts for "deadlines" (its text), not
    # for the tuition and fees of its URL. With destinations counted it would be (3, 4, 1).
    assert first.evidence_added == (2, 2, 1)
    assert first.evidence_blocks == (0, 1, 3)


def test_a_contents_page_adds_evidence_only_for_its_prose() -> None:
    # issue 11, mechanism 6: a covered query kept finding "new evidence" in the entries of
    # long contents pages; an entry names a page, it is not content read
    seed = "http://docs.example/"
    entries = "".join(f'<li><a href="/tuition/{n}">Tuition fees {n}</a></li>' for n in range(8))
    body = (f"<p>Tuition fees are paid each term.</p><ul>{entries}</ul>"
            '<ul><li><a href="/deadlines">Deadlines</a> for tuition fees fall in May.</li></ul>')
    html = ("<html><head><title>Money</title></head><body><main><h1>Money</h1>"
            f"{body}</main></body></html>")
    added = {}
    for link_blocks in (False, True):
        config = CrawlConfig(seed_url=seed, query="tuition fees", limit=1,
                             link_blocks_as_evidence=link_blocks)
        with CrawlSession(config, DictSource({seed: html})) as session:
            added[link_blocks] = session.run(max_steps=1)[0].evidence_added
    # the paragraph and the entry with words after its link; the eight bare entries only
    # when asked (the heading "Money" names no term)
    assert added == {False: (2, 2), True: (10, 10)}


def test_a_config_recorded_before_the_setting_counts_link_blocks_as_it_did() -> None:
    with _session("helpdesk", limit=40, link_blocks_as_evidence=True) as live:
        live.run()
    bundle = session_bundle(live)
    del bundle["config"]["link_blocks_as_evidence"]
    old = load_bundle(bundle_json(bundle))
    assert old.config.link_blocks_as_evidence
    replayed = replay_rules(old.config, old.steps, old.overrides, {})
    assert rules_state(replayed.adaptive) == rules_state(live.state.adaptive)
    # a new config does not count them, and a recorded one keeps what it says
    assert not CrawlConfig.from_mapping({"seed_url": "http://a.example/", "query": "x"}) \
        .link_blocks_as_evidence
    assert not CrawlConfig.from_recorded(
        {**bundle["config"], "link_blocks_as_evidence": False}).link_blocks_as_evidence


def test_link_syntax_in_a_code_block_is_read_as_text() -> None:
    # a page about Markdown shows "[](x)" in a code block; the extractor keeps it as written
    seed = "http://club.example/"
    html = ("<html><head><title>Refund policy</title></head><body><main><h1>Refund policy"
            "</h1><p>Our refund policy for refunds.</p><pre>refund\n[](x)\npolicy</pre>"
            "</main></body></html>")
    config = CrawlConfig(seed_url=seed, query="refund policy", limit=1)
    with CrawlSession(config, DictSource({seed: html})) as session:
        first = session.run(max_steps=1)[0]
    assert "[](x)" in first.markdown
    # the heading, the paragraph and the code block each name both terms
    assert first.evidence_added == (3, 3) and first.evidence_blocks == (0, 1, 2)


# pieces of Markdown as pages and code blocks hold them: links, empty labels, stray brackets
_PIECES = st.sampled_from(["a", " ", "\n", "\n\n", "[", "]", "(", ")", "](x)", "[](x)",
                           "[a](x)", "[a b](x (y))", "\\[", "![i](p)", "- ",
                           "\n[](x)\n"])  # an empty link on a line of its own


@given(st.lists(_PIECES, max_size=24).map("".join), st.booleans())
def test_evidence_markdown_never_fails_and_without_link_blocks_keeps_the_blocks(
    markdown: str, link_blocks: bool
) -> None:
    out = evidence_markdown(markdown, link_blocks)
    if not link_blocks:
        assert len(out.split("\n\n")) == len(markdown.split("\n\n"))
