"""The live panel: a fragment holding the headline metrics and the latest explanation, and
one holding the four charts. While Run is on, one run of the first lasts ``RUN_SPAN_S``: it
steps the session in slices of ``STEP_BUDGET_S`` and redraws the tiles and the latest step in
place after each slice, so the crawl goes at nearly the engine's own pace and the numbers move
every second; between two such runs the chart fragment, queued behind it, redraws the charts
(docs/DESIGN.md §14.1-14.3: each redraw of the charts costs headless Chromium more than a
slice, and each fragment run ends with Streamlit's work between runs). Pause still ends a run
within one step: between steps the slice reads session state, Streamlit's yield point, where a
pending click ends the run."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import plotly.graph_objects as go
import streamlit as st
from streamlit.delta_generator import DeltaGenerator

from components.charts import (
    DEFAULT_WINDOW,
    FOREST_SORTS,
    coverage_figure,
    forest_figure,
    stale_cold_figure,
    switch_counts,
    weights_figure,
)
from components.decision_log import explain_step, md_escape
from components.metrics import headline_metrics, render_metrics
from components.persist import fall_back_unsaved
from components.replay import render_replay_status
from components.runner import RunMode, TickEnd, TickResult, advance
from components.state import AnySession, StateKey, add_flash, is_live, one_run_at_a_time
from components.whatif import WhatIfMark, chart_marks
from pagesift_ui.demo import lesson_of, lesson_step
from pagesift_ui.frontier.model import FEATURE_NAMES
from pagesift_ui.frontier.stats import z_one_sided
from pagesift_ui.session import CrawlConfig, CrawlSession, PartStats, StepRecord
from pagesift_ui.store import StoreError

__all__ = ["CHART_TICK_S", "RUN_SPAN_S", "STEP_BUDGET_S", "TICK_S", "build_figures",
           "render_live"]

logger = logging.getLogger(__name__)

TICK_S = 1.0
#: One slice of steps between two redraws of the tiles: they move about once a second
STEP_BUDGET_S = 0.9
#: One run of the stepping fragment while Run is on: slices until this is spent. Each
#: fragment run costs a gap between steps (the run's end, the chart fragment queued behind
#: it, the next run's start: ~0.15 s), so three seconds of slices, one gap per chart redraw,
#: rather than one gap a second (issue 15; DECISIONS)
RUN_SPAN_S = 3.0
#: While Run is on the charts are redrawn every 3 s, not every tick: headless Chromium's
#: renderer spent ~1 s of work on each redraw of the four plotly charts (CDP task time 19.8 s
#: in a 12 s window, 7.7 s with no charts) and, on two cores, took the CPU the steps need
#: (issue 15; DECISIONS)
CHART_TICK_S = 3.0
WINDOW_OPTIONS = (100, 250, 500, 1000, 2000)
CHART_KEYS = ("chart_coverage", "chart_stale", "chart_weights", "chart_forest")
CAPTIONS = {
    "chart_coverage": "Bars: new relevant blocks per query term (green once at target); dashed: "
                      "evidence per term. Covered = coverage ≥ threshold and ≥ 2 source pages.",
    "chart_stale": "A verdict fires when its counter reaches its dashed line; markers show "
                   "what became of it; dotted purple lines are your overrides.",
    # the band's z is the session's (one-sided for δ): filled in by chart_caption
    "chart_weights": "Orange: weight in use; blue: posterior mean ±{z:.2f}·se (one-sided z "
                     "for δ = {delta:g}); dashed: prior. The weight in use switches (red) "
                     "only when the mean leaves that band.",
    "chart_forest": "Share of fresh pages per subtree with its Wilson interval; grey band: the "
                    "rest of the site. Dry (red) = entirely below the rest: its links are set "
                    "aside until it is not.",
}


def chart_caption(key: str, config: CrawlConfig) -> str:
    """The caption under a live chart; the weight chart's names the band its legend draws
    (it said "Z1·se" beside a legend of "±1.64·se")."""
    return CAPTIONS[key].format(z=z_one_sided(config.delta), delta=config.delta)


@dataclass(frozen=True, slots=True)
class ChartOptions:
    """The chart widgets' values: steps drawn, the weight chart's feature, the forest's sort."""

    window: int
    feature: str
    sort_by: str


#: ``ss["fig_memo"]``: each chart's memo key (what its figure is drawn from) and the figures.
FigureMemo = tuple[dict[str, object], dict[str, go.Figure]]


def _build_figure(
    key: str, session: AnySession, options: ChartOptions, marks: Sequence[WhatIfMark],
    wilson: Sequence[PartStats],
) -> go.Figure:
    steps, config, overrides = session.steps, session.config, session.overrides
    if key == "chart_coverage":
        return coverage_figure(steps, config)
    if key == "chart_stale":
        return stale_cold_figure(steps, config, overrides, options.window, marks)
    if key == "chart_weights":
        return weights_figure(steps, config, options.feature, overrides, options.window)
    return forest_figure(wilson, options.sort_by)


def build_figures(
    session: AnySession, window: int, feature: str, sort_by: str,
    marks: Sequence[WhatIfMark] = (),
) -> dict[str, go.Figure]:
    """The four live charts of a session (live or imported), keyed by their chart keys;
    ``marks``: the what-if panel's steps, on the stale/cold chart."""
    options, wilson = ChartOptions(window, feature, sort_by), session.wilson_table()
    return {key: _build_figure(key, session, options, marks, wilson) for key in CHART_KEYS}


def _coverage_inputs(steps: Sequence[StepRecord]) -> tuple[object, ...] | None:
    """What the coverage chart reads: the last record's evidence, terms and coverage."""
    if not steps:
        return None
    last = steps[-1]
    return (tuple(last.terms), tuple(last.evidence), tuple(last.term_weights), last.coverage,
            last.sources, last.covered)


def _figure_keys(
    serial: int, session: AnySession, options: ChartOptions, marks: tuple[WhatIfMark, ...],
    wilson: Sequence[PartStats],
) -> dict[str, object]:
    """Each chart's memo key: what its figure is drawn from. The time charts change with
    every step or override; the coverage chart only when the last step's evidence or
    coverage differs, the forest when the Wilson table does (a duplicate, an error, a page
    past saturation leave them as they were: issue 15)."""
    history = (serial, len(session.steps), len(session.overrides), options.window)
    return {
        "chart_coverage": (serial, session.config.adaptive, _coverage_inputs(session.steps)),
        "chart_stale": (*history, marks),
        "chart_weights": (*history, options.feature),
        "chart_forest": (serial, options.sort_by, tuple(wilson)),
    }


def _memo_figures(
    ss: MutableMapping[StateKey, Any], session: AnySession, options: ChartOptions
) -> dict[str, go.Figure]:
    """Rebuild a figure only when what it is drawn from changed (memo in session state;
    ``st.cache_data`` would pickle each hit, ~15 ms per figure: docs/DESIGN.md §14.4)."""
    wilson, marks = session.wilson_table(), chart_marks(ss, session)
    keys = _figure_keys(int(ss.get("session_serial", 0)), session, options, marks, wilson)
    memo: FigureMemo | None = ss.get("fig_memo")
    old_keys, old = memo if memo is not None else ({}, {})
    if old_keys == keys:
        return old
    figures = {key: old[key] if key in old and old_keys.get(key) == keys[key]
               else _build_figure(key, session, options, marks, wilson) for key in CHART_KEYS}
    ss["fig_memo"] = (keys, figures)
    return figures


def _chart_options(
    session: AnySession, rows: Sequence[Sequence[DeltaGenerator]]
) -> ChartOptions:
    """Each chart's option sits right above it (widgets in the fragment rerun only it)."""
    window = rows[0][1].select_slider("Steps drawn", WINDOW_OPTIONS, value=DEFAULT_WINDOW,
                                      key="history_window")
    counts = switch_counts(session.steps, window)
    feature = rows[1][0].radio(
        "Feature", FEATURE_NAMES, key="weight_feature", horizontal=True,
        format_func=lambda f: f"{f} ({counts[f]}↕)" if counts[f] else f)
    sort_by = rows[1][1].radio("Sort subtrees by", FOREST_SORTS, key="forest_sort",
                               horizontal=True)
    return ChartOptions(window, feature or FEATURE_NAMES[0], sort_by or FOREST_SORTS[0])


class SummarySlots:
    """Where the tiles and the latest step are drawn, so one run of the fragment can redraw
    them in place after each slice of steps (an element's key may appear once a run); the
    latest step's box is made when there is a step to show."""

    def __init__(self) -> None:
        self._replay, self._tiles = st.empty(), st.empty()
        self._latest: DeltaGenerator | None = None

    def draw(self, ss: MutableMapping[StateKey, Any], session: AnySession) -> None:
        """The replay's label, the tiles across the whole width (four a row: whole labels
        at 1280 px), then the latest step's explanation."""
        with self._replay.container():
            render_replay_status(ss)
        with self._tiles.container():
            render_metrics(headline_metrics(session.summary(), session.steps, session.config))
        if session.steps:
            if self._latest is None:
                self._latest = st.container(border=True, height=140, key="latest").empty()
            latest = explain_step(session.steps[-1], session.config, verdict_first=True)
            self._latest.markdown(f"**Latest.** {md_escape(latest)}")


def _charts(session: AnySession) -> None:
    option_rows: list[Sequence[DeltaGenerator]] = []
    chart_rows: list[Sequence[DeltaGenerator]] = []
    for _ in range(2):
        option_rows.append(st.columns(2, vertical_alignment="bottom"))
        chart_rows.append(st.columns(2))
    options = _chart_options(session, option_rows)
    figures = _memo_figures(st.session_state, session, options)
    columns = [column for row in chart_rows for column in row]
    for column, key in zip(columns, CHART_KEYS, strict=True):
        column.plotly_chart(figures[key], key=key, width="stretch")
        column.caption(chart_caption(key, session.config))


def _tick(ss: MutableMapping[StateKey, Any], session: CrawlSession, mode: RunMode) -> TickResult:
    """One tick; a bug in a step ends the run with a message instead of spinning the timer,
    and a failed save ends it with the crawl switched to unsaved. Run to the lesson ends at
    the step where the lesson happens (``Lesson.reached``)."""
    lesson = lesson_of(ss.get("lesson") or "")
    pause_on_forgiven = bool(ss.get("pause_forgiven"))

    def yield_point() -> None:
        # any session-state access is a Streamlit yield point: with a click pending (Pause)
        # it raises Streamlit's rerun, ending the tick between two steps (§14.2)
        ss.get("running")

    try:
        return advance(session, mode, STEP_BUDGET_S, pause_on_forgiven=pause_on_forgiven,
                       until=lesson.reached if lesson is not None else None,
                       yield_point=yield_point)
    except StoreError as exc:
        fall_back_unsaved(ss, exc)
        return TickResult(0, TickEnd.SAVE_FAILED, f"saving failed: {exc}")
    except Exception as exc:  # the UI edge: show it, log it with its traceback, stop the run
        logger.exception("a run tick failed")
        return TickResult(0, TickEnd.ERROR, f"error: {exc}")


def _pause_message(
    ss: MutableMapping[StateKey, Any], session: CrawlSession, result: TickResult
) -> tuple[str, str] | None:
    """Why Run paused; None when the crawl stopped (the verdict banner says why) — except
    after Run to the lesson, which says the lesson happened and what to watch."""
    if result.end is TickEnd.ERROR:
        return "error", f"Run stopped by an {result.message}"
    lesson = lesson_of(ss.get("lesson") or "")
    if lesson is not None and result.end in (TickEnd.REACHED, TickEnd.STOPPED):
        ss["lesson"] = None
        step = lesson_step(session, lesson)
        if step is None:
            return "warning", (f"The crawl stopped ({session.stop_reason}) before the lesson "
                               f"({lesson.reason.value}): other settings than the lesson's?")
        return "success", (f"Lesson reached at step {step}: {lesson.reason.value}. What to "
                           f"watch: {lesson.watch}")
    if result.end is TickEnd.VERDICT:
        return "info", (f"{result.message} Press Run to go on, or Run to stop to run "
                        "through such verdicts.")
    return None


def _run_span(
    ss: MutableMapping[StateKey, Any], session: CrawlSession, slots: SummarySlots,
    clock: Callable[[], float] = time.perf_counter,
) -> None:
    """Slices of steps for about ``RUN_SPAN_S``, the tiles redrawn after each: one fragment
    run instead of one a second (docs/DESIGN.md §14.3). A slice that ends Run (a stop, a
    pause at a verdict, an error) switches the timer off with a full rerun."""
    mode = RunMode(ss.get("run_mode", RunMode.RUN.value))
    started = clock()
    while True:
        result = _tick(ss, session, mode)
        if not result.keep_running:
            ss["running"] = False
            message = _pause_message(ss, session, result)
            if message:
                add_flash(ss, *message)
            st.rerun()
        slots.draw(ss, session)
        if clock() - started + STEP_BUDGET_S > RUN_SPAN_S:
            return


def render_live(running: bool) -> None:
    """The live panel: the tiles and the latest step in one fragment, which steps the
    session while Run is on (runs of ``RUN_SPAN_S``, restarted by a ``TICK_S`` timer), and
    the four charts in another, redrawn every ``CHART_TICK_S`` while Run is on, between two
    runs of the first (docs/DESIGN.md §14.3)."""

    @st.fragment(run_every=TICK_S if running else None)
    def live_panel() -> None:
        ss = st.session_state
        with one_run_at_a_time(ss):  # a fragment's own run is a script run too
            session: AnySession | None = ss.get("session")
            if session is None:
                return
            slots = SummarySlots()
            slots.draw(ss, session)  # what is there now, before the first slice
            if ss.get("running") and is_live(session):
                _run_span(ss, session, slots)

    @st.fragment(run_every=CHART_TICK_S if running else None)
    def chart_panel() -> None:
        with one_run_at_a_time(st.session_state):
            session: AnySession | None = st.session_state.get("session")
            if session is not None:
                _charts(session)

    live_panel()
    chart_panel()
