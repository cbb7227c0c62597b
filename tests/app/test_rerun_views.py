"""The views a rerun keeps instead of rebuilding (issue 15): the pages table appended step by
step, the decision log explaining only the page it shows, the tables drawn only while their
view is open. Every kept view must equal its full rebuild; these are equality tests, the
speed is measured by ``benchmarks/bench_ui.py``."""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from components.charts import marker_symbols, stale_cold_figure, verdict_marks
from components.decision_log import (
    LOG_ENTRIES,
    kept_log_markdown,
    log_entries,
    log_markdown,
    log_pages,
)
from components.labels import STOP_REASONS
from components.live import ChartOptions, _memo_figures, build_figures
from components.tables import PAGE_COLUMNS, PagesTable, kept_pages, pages_frame
from pagesift_ui.demo import shared_demo
from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE
from pagesift_ui.session import CrawlConfig, CrawlSession, StepOutcome
from pagesift_ui.session.bundle import bundle_json, load_bundle, session_bundle
from pagesift_ui.session.views import page_rows
from tests.app.test_app import drawn

APP = Path(__file__).resolve().parents[2] / "app.py"


def _session(limit: int = 60) -> CrawlSession:
    # room for LOG_ENTRIES + 4 steps: duplicates are refunded, and the university demo
    # fetches few since its printer copies are learned (frontier/copyparams.py)
    server = shared_demo("university")
    return CrawlSession(CrawlConfig.from_mapping({
        "seed_url": server.seed_url, "query": server.site.query, "limit": limit,
        "stop_on_verdict": False}))


@pytest.fixture
def session() -> Iterator[CrawlSession]:
    with _session() as crawl:
        yield crawl


def _fetched_url(session: CrawlSession, newest: bool = False) -> str:
    steps = reversed(session.steps) if newest else iter(session.steps)
    return next(r.final_url for r in steps
                if r.outcome is StepOutcome.FETCHED and r.relevance is not None)


def test_page_rows_from_a_start_are_the_tail_of_all_rows(session: CrawlSession) -> None:
    session.run(max_steps=12)
    session.relabel(_fetched_url(session), True)
    everything = page_rows(session)
    for start in (0, 1, 5, 12):
        assert page_rows(session, start) == everything[start:]


def test_the_kept_pages_table_equals_a_rebuild_after_every_step(session: CrawlSession) -> None:
    ss: dict[str, Any] = {"session_serial": 1}
    kept = kept_pages(ss, session)
    assert kept.rows == () and list(kept.frame().columns) == list(PAGE_COLUMNS)
    for _ in range(15):
        session.step()
        kept = kept_pages(ss, session)
        assert kept.rows == tuple(session.pages())
        pd.testing.assert_frame_equal(kept.frame(), pages_frame(session.pages()))
    assert kept_pages(ss, session) is kept  # no new step: nothing rebuilt
    assert kept.frame()["step"].tolist() == list(range(15, 0, -1))


def test_the_kept_pages_table_follows_a_relabel_of_an_older_page(
    session: CrawlSession,
) -> None:
    ss: dict[str, Any] = {"session_serial": 1}
    session.run(max_steps=10)
    before = kept_pages(ss, session).frame()
    url = _fetched_url(session)  # the oldest page: its row is not among the new ones
    session.relabel(url, False)
    session.step()
    after = kept_pages(ss, session).frame()
    pd.testing.assert_frame_equal(after, pages_frame(session.pages()))
    assert set(after[after["url"] == url]["user_label"]) == {"irrelevant"}
    assert set(before[before["url"] == url]["user_label"]) == {""}
    session.unlabel(url)
    pd.testing.assert_frame_equal(kept_pages(ss, session).frame(), pages_frame(session.pages()))


def test_the_kept_pages_table_starts_again_for_a_new_session(session: CrawlSession) -> None:
    ss: dict[str, Any] = {"session_serial": 1}
    session.run(max_steps=8)
    assert len(kept_pages(ss, session).rows) == 8
    with _session() as other:
        other.run(max_steps=3)
        ss["session_serial"] = 2
        kept = kept_pages(ss, other)
        assert kept.rows == tuple(other.pages())
        pd.testing.assert_frame_equal(kept.frame(), pages_frame(other.pages()))


def test_the_kept_pages_table_of_an_imported_session_with_labels(
    session: CrawlSession,
) -> None:
    session.run(max_steps=10)
    session.relabel(_fetched_url(session, newest=True), True)
    view = load_bundle(bundle_json(session_bundle(session)))
    ss: dict[str, Any] = {"session_serial": 3}
    kept = kept_pages(ss, view)
    assert kept.rows == tuple(view.pages()) == tuple(session.pages())
    pd.testing.assert_frame_equal(kept.frame(), pages_frame(view.pages()))


def test_pages_table_appended_row_by_row_equals_one_built_at_once(
    session: CrawlSession,
) -> None:
    session.run(max_steps=12)
    rows = session.pages()
    table = PagesTable((1, 1, 0))
    for row in rows:
        table = table.extended([row])
    pd.testing.assert_frame_equal(table.frame(), pages_frame(rows))
    pd.testing.assert_frame_equal(PagesTable((1, 1, 0)).extended(rows[:5]).extended(rows[5:])
                                  .frame(), pages_frame(rows))


def test_the_log_pages_together_are_the_whole_log_with_overrides(
    session: CrawlSession,
) -> None:
    session.run(max_steps=9)
    session.pin(session.frontier(1)[0].key)
    session.run(max_steps=8)
    session.relabel(_fetched_url(session), True)
    session.step()
    steps, overrides, config = session.steps, session.overrides, session.config
    whole = log_entries(steps, overrides, config, n=1_000)
    assert len(whole) == len(steps) + len(overrides) == 20
    assert log_pages(steps, overrides, n=6) == 4
    paged = [e for page in range(4) for e in log_entries(steps, overrides, config, n=6,
                                                         page=page)]
    assert paged == whole
    assert log_entries(steps, overrides, config, n=6, page=4) == []
    assert log_entries(steps, overrides, config, n=6) == whole[:6]


def test_the_kept_log_equals_a_rebuild_after_steps_overrides_and_pages(
    session: CrawlSession,
) -> None:
    ss: dict[str, Any] = {"session_serial": 1}

    def check(crawl: CrawlSession, page: int = 0) -> None:
        steps, overrides, config = crawl.steps, crawl.overrides, crawl.config
        assert kept_log_markdown(ss, steps, overrides, config, page) == log_markdown(
            log_entries(steps, overrides, config, page=page))

    check(session)  # no steps yet
    for _ in range(3):
        session.step()
        check(session)
    session.run(max_steps=LOG_ENTRIES)
    check(session)
    check(session, 1)  # an older page, its entries explained and kept too
    session.pin(session.frontier(1)[0].key)
    check(session)
    session.relabel(_fetched_url(session), True)  # an override's note says what changed
    session.step()
    check(session)
    check(session, 1)
    with _session() as other:
        other.run(max_steps=4)
        ss["session_serial"] = 2  # another session: nothing kept from the first
        check(other)


def test_the_log_is_one_markdown_text_a_paragraph_an_entry() -> None:
    text = log_markdown([("step", "Step 2: fetched /a_b"), ("override", "you pinned *x*"),
                         ("step", "Step 1: a\n\ntitle")])
    assert text.split("\n\n") == ["Step 2: fetched /a\\_b", "**you pinned \\*x\\***",
                                  "Step 1: a title"]


@pytest.fixture
def at() -> Iterator[AppTest]:
    app = AppTest.from_file(str(APP), default_timeout=60)
    app.run()
    yield app
    session = app.session_state["session"] if "session" in app.session_state else None
    if isinstance(session, CrawlSession):
        session.close()


#: Each table's first columns (AppTest's dataframes carry no key).
_TABLES = {"frontier": ["rank", "pinned"], "pages": ["step", "url"], "subtrees": ["part", "pages"]}


def _tables(at: AppTest) -> dict[str, pd.DataFrame]:
    return {name: frame.value for frame in at.dataframe for name, first in _TABLES.items()
            if frame.value.columns.tolist()[:2] == first}


def _open(at: AppTest, view: str) -> None:
    at.session_state["view"] = view  # what clicking the tab does (a keyed st.tabs)
    at.run()
    assert not at.exception


def test_the_views_are_drawn_only_while_open(at: AppTest) -> None:
    at.button(key="start").click().run()
    for _ in range(3):
        at.button(key="step").click().run()
    assert not at.exception
    session = at.session_state["session"]
    assert _tables(at) == {}
    assert any("Step 2: fetched" in m.value for m in at.markdown)  # the log, open first
    picks = ("queue_pick", "relabel_pick", "inspect_pick", "subtree_pick")
    assert not any(drawn(at, pick) for pick in picks)
    for view, table, pick in (("Pages", "pages", "relabel_pick"),
                              ("Frontier", "frontier", "queue_pick"),
                              ("Subtrees", "subtrees", "subtree_pick"),
                              ("Page inspector", None, "inspect_pick")):
        _open(at, view)
        assert list(_tables(at)) == ([table] if table else [])
        assert not any("Step 2: fetched" in m.value for m in at.markdown)
        assert [p for p in picks if drawn(at, p)] == [pick]  # its own override widgets
    _open(at, "Pages")
    shown = _tables(at)["pages"]
    assert shown["step"].tolist() == [3, 2, 1]
    assert shown["url"].tolist() == pages_frame(session.pages())["url"].tolist()


def test_a_views_picks_outlive_another_open_view(at: AppTest) -> None:
    at.button(key="start").click().run()
    for _ in range(4):
        at.button(key="step").click().run()
    session = at.session_state["session"]
    oldest = _fetched_url(session)
    _open(at, "Pages")
    at.selectbox(key="relabel_pick").set_value(oldest).run()
    _open(at, "Page inspector")
    first = next(r.step for r in session.steps if r.outcome is StepOutcome.FETCHED)
    at.selectbox(key="inspect_pick").set_value(first).run()
    _open(at, "Decision log")
    at.button(key="step").click().run()  # a step while both views are closed
    at.run()
    _open(at, "Pages")
    assert at.selectbox(key="relabel_pick").value == oldest
    at.button(key="label_relevant").click().run()
    assert session.labels.get(oldest) is True  # the kept pick is the one relabelled
    _open(at, "Page inspector")
    assert at.selectbox(key="inspect_pick").value == first


def test_marking_a_page_relevant_moves_the_frontier_and_the_log_says_how(at: AppTest) -> None:
    at.button(key="start").click().run()
    for _ in range(6):
        at.button(key="step").click().run()
    session = at.session_state["session"]
    off_topic = next(r.final_url for r in session.steps[1:]
                     if r.outcome is StepOutcome.FETCHED and r.relevance is not None
                     and r.relevance < EVIDENCE_RELEVANCE)
    _open(at, "Frontier")
    before = _tables(at)["frontier"]["score"].tolist()
    _open(at, "Pages")
    at.selectbox(key="relabel_pick").set_value(off_topic).run()
    at.button(key="label_relevant").click().run()
    assert not at.exception
    _open(at, "Frontier")
    assert _tables(at)["frontier"]["score"].tolist() != before  # the queue moved with it
    _open(at, "Decision log")
    assert any("queue rescored (" in m.value and off_topic in m.value for m in at.markdown)
    _open(at, "Pages")
    at.button(key="label_remove").click().run()
    _open(at, "Frontier")
    assert _tables(at)["frontier"]["score"].tolist() == before  # and back, exactly


def test_the_log_pages_back_to_older_entries(at: AppTest) -> None:
    at.button(key="start").click().run()
    session = at.session_state["session"]
    # as Run would, past the demo's stop (~45 steps): the app shows what the session holds
    session.run(max_steps=55, until_stop=False)
    at.run()
    assert not at.exception
    first = _logged_steps(at)
    assert max(first) == 55 and 1 not in first
    at.number_input(key="log_page").set_value(2).run()
    second = _logged_steps(at)
    assert 1 in second and max(second) < min(first)  # older entries, none shown twice
    assert first | second == set(range(1, 56))  # every step is on one of the two pages


def _logged_steps(at: AppTest) -> set[int]:
    """The steps the decision log's page shows, by their "Step N: " entries (the latest
    step's summary above the log is on every page)."""
    text = "\n".join(m.value for m in at.markdown if not m.value.startswith("**Latest.**"))
    return {int(n) for n in re.findall(r"Step (\d+): ", text)}


def _specs(figures: dict[str, Any]) -> dict[str, str]:
    return {key: figure.to_json() for key, figure in figures.items()}


def test_the_memoised_figures_equal_a_full_build(session: CrawlSession) -> None:
    """After steps, an override, another option and another session: each chart rebuilt
    only when what it is drawn from changed is still the figure a full build gives."""
    ss: dict[str, Any] = {"session_serial": 1}
    options = ChartOptions(500, "anchor", "pages")

    def check(crawl: CrawlSession, chosen: ChartOptions) -> dict[str, Any]:
        memo = _memo_figures(ss, crawl, chosen)
        assert _specs(memo) == _specs(build_figures(crawl, chosen.window, chosen.feature,
                                                    chosen.sort_by))
        return memo

    for _ in range(6):
        session.step()
        check(session, options)
    first = check(session, options)
    assert check(session, options) is first  # nothing changed: nothing rebuilt
    session.force_dry(session.wilson_table()[0].part)
    check(session, options)
    session.relabel(_fetched_url(session), False)
    check(session, options)
    session.step()
    check(session, ChartOptions(100, "context", "name"))
    with _session() as other:
        other.run(max_steps=2)
        ss["session_serial"] = 2
        check(other, options)


def test_a_duplicate_step_keeps_the_coverage_and_forest_figures(session: CrawlSession) -> None:
    ss: dict[str, Any] = {"session_serial": 1}
    options = ChartOptions(500, "anchor", "pages")
    session.run(max_steps=5)
    before = dict(_memo_figures(ss, session, options))
    last = session.steps[-1]
    session.steps.append(dataclasses.replace(last, step=last.step + 1))  # same evidence
    after = _memo_figures(ss, session, options)
    assert after["chart_coverage"] is before["chart_coverage"]
    assert after["chart_forest"] is before["chart_forest"]
    assert after["chart_stale"] is not before["chart_stale"]
    assert _specs(after) == _specs(build_figures(session, 500, "anchor", "pages"))


def test_verdict_markers_keep_each_points_symbol() -> None:
    assert marker_symbols(["diamond", "diamond"]) == "diamond"
    assert marker_symbols(["diamond", "x", "diamond"]) == ["diamond", "x", "diamond"]
    assert marker_symbols([]) == []


def test_the_stale_chart_marks_every_verdict_with_its_rules_symbol() -> None:
    with _session(limit=60) as crawl:
        crawl.run(max_steps=60)
        marks = verdict_marks(crawl.steps, crawl.overrides, crawl.config)
        assert marks  # past its stop with Stop on verdict off: the verdicts keep firing
        figure = stale_cold_figure(crawl.steps, crawl.config, crawl.overrides, 500)
        drawn = {}
        for trace in figure.data:
            if trace.legendgroup == "verdict":
                symbols = trace.marker.symbol
                if isinstance(symbols, str):
                    symbols = [symbols] * len(trace.x)
                drawn.update(zip(trace.x.tolist(), symbols, strict=True))
        assert drawn == {m.step: STOP_REASONS[m.reason].symbol for m in marks}
