"""The what-if panel: the four stop options as sliders, the stop rules replayed over the
session's recorded steps (``pagesift_ui.session.whatif``: no network, no refetch), and where
each rule would have fired beside the actual stop.

``whatif_frame`` and the two figure builders are pure (tested on synthetic results);
:func:`render_whatif` reads the sliders, keeps the replay in session state (a new step
replays its own record; a whole replay was ~0.25 s at 2,000 steps) and memoises what it
draws, and draws; the app draws it only while its tab is the open one (issue 15). Works
for live, resumed and imported sessions.
"""

from __future__ import annotations

from collections.abc import Collection, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from components.charts import (
    CHART_HEIGHT,
    LEGEND_BELOW,
    WHATIF_COLOUR,
    legend_room,
    lines_layout,
    marker_symbols,
    stop_rule_lines,
    threshold_line,
)
from components.labels import NO_VALUE, STOP_REASONS
from components.plain import Trace, plain_figure, scatter, text
from components.state import AnySession, StateKey, keep_values
from components.targets import demo_truth
from pagesift_ui.frontier.adaptive import COLD_PATIENCE, AdaptiveOptions, StopReason
from pagesift_ui.session import StepRecord
from pagesift_ui.session.whatif import Found, Replay, WhatIf, replay_of

__all__ = [
    "SLIDERS",
    "Slider",
    "WhatIfMark",
    "chart_marks",
    "chosen_options",
    "keep_sliders",
    "render_whatif",
    "replay",
    "whatif_coverage_figure",
    "whatif_frame",
    "whatif_marks",
    "whatif_stale_figure",
]

@dataclass(frozen=True, slots=True)
class Slider:
    """One stop option as a slider: its ``AdaptiveOptions`` field, widget key and range."""

    option: str
    key: str
    label: str
    low: float
    high: float
    step: float
    whole: bool = False

    def value(self, raw: object) -> int | float:
        number = float(raw) if isinstance(raw, int | float) else self.low
        return int(round(number)) if self.whole else number


SLIDERS = (
    Slider("coverage_threshold", "whatif_coverage_threshold", "Coverage threshold",
           0.05, 1.0, 0.05),
    Slider("evidence_per_term", "whatif_evidence_per_term", "Evidence per term", 1, 20, 1,
           whole=True),
    Slider("patience", "whatif_patience", "Patience", 1, 30, 1, whole=True),
    Slider("min_gain", "whatif_min_gain", "Minimum gain", 0.0, 0.5, 0.01),
)
ACTUAL_COLOUR = "#000000"

#: The replay's memo key: session serial, steps, overrides, options.
ReplayKey = tuple[int, int, int, AdaptiveOptions]
#: ``ss["whatif_memo"]``: the replay's key and the replay.
WhatIfMemo = tuple[ReplayKey, WhatIf]
#: A step the panel marks on a chart: (step, label).
WhatIfMark = tuple[int, str]


COLUMNS = ["", "rule", "step", "pages", "relevant pages", "answers found", "recall", "note"]


def _found_cells(found: Found | None) -> dict[str, Any]:
    """Steps, pages and relevant pages are kept apart (a duplicate is a step, not a page);
    answers found and recall only where the truth is known."""
    if found is None:
        return dict.fromkeys(COLUMNS[2:7])
    recall = None if found.recall is None else f"{found.recall:.0%}"
    return {"step": found.step, "pages": found.pages, "relevant pages": found.relevant_pages,
            "answers found": found.relevant_found, "recall": recall}


def whatif_frame(result: WhatIf, steps: int) -> pd.DataFrame:
    """One row for the actual stop, one for the what-if stop, one per stop rule: the step
    it fires and stands at, and what had been found by then (pages, relevant pages,
    recall where the truth is known)."""
    beyond = f"not within the {steps} recorded steps"
    rows = [
        {"": "actual stop", "rule": _reason(result.actual_reason),
         **_found_cells(result.actual), "note": "the first verdict that stood, or the end"},
        {"": "what-if stop", "rule": _reason(result.stop_reason),
         **_found_cells(result.found),
         "note": "" if result.stop_step is not None else f"would go on: {beyond}"},
    ]
    for rule in result.rules:
        if rule.step is None:
            note = beyond if rule.first_fired is None else (
                f"fired at {rule.first_fired}, always forgiven ({rule.forgiven}×)")
        else:
            note = f"forgiven {rule.forgiven}× before" if rule.forgiven else ""
        rows.append({"": "rule", "rule": rule.reason.value, **_found_cells(rule.found),
                     "note": note})
    frame = pd.DataFrame.from_records(rows, columns=COLUMNS)
    frame = frame.astype(dict.fromkeys(COLUMNS[2:6], "Int64"))
    if frame["recall"].isna().all():
        # no truth for this site: the columns would print "None" in every row
        return frame.drop(columns=["answers found", "recall"])
    return frame


def _reason(reason: StopReason | None) -> str:
    return reason.value if reason is not None else "—"


def whatif_marks(result: WhatIf) -> list[WhatIfMark]:
    """The steps to mark on the charts: each rule that would stand, and the actual stop."""
    marks: list[WhatIfMark] = [(r.step, f"what-if {STOP_REASONS[r.reason].words}")
                               for r in result.rules if r.step is not None]
    if result.actual_step is not None:
        marks.append((result.actual_step, f"actual {_words(result.actual_reason)}"))
    return marks


def _words(reason: StopReason | None) -> str:
    return STOP_REASONS[reason].words if reason is not None else "end"


def _mark_lines(result: WhatIf, top: float) -> list[Trace]:
    """Vertical lines: dotted pink where a rule would stand, solid black at the actual stop."""
    traces = []
    for step, label in whatif_marks(result):
        actual = label.startswith("actual")
        traces.append(scatter(
            x=[step, step], y=[0.0, top], mode="lines", name=label, hoverinfo="name",
            line={"color": ACTUAL_COLOUR if actual else WHATIF_COLOUR,
                  "dash": "solid" if actual else "dot", "width": 1.5},
        ))
    return traces


def _layout(
    title: str, y_title: str, lines: Sequence[tuple[dict[str, object], dict[str, object]]],
    traces: Sequence[Trace],
) -> dict[str, object]:
    """The figure's whole layout, for its constructor (``components.plain``: unvalidated).

    A what-if legend grows with the marks (one entry per rule that would stand): the figure
    grows with it, so the plot keeps its height (``legend_room``)."""
    entries = sum(1 for trace in traces if trace.get("showlegend", True))
    return {"title": text(title), "height": CHART_HEIGHT + legend_room(entries),
            "legend": LEGEND_BELOW,
            "margin": {"l": 10, "r": 10, "t": 40, "b": 10}, "hovermode": "closest",
            "xaxis": {"title": text("step"), "tickformat": "d"},
            "yaxis": {"title": text(y_title), "rangemode": "tozero"},
            **lines_layout(lines)}


def whatif_stale_figure(result: WhatIf) -> go.Figure:
    """The replay's stale and cold counters under the what-if options, against their
    thresholds, with its verdicts (filled: stood, open: forgiven) and the marks."""
    points = result.points
    x = np.fromiter((p.step for p in points), dtype=np.int64, count=len(points))
    stale = np.fromiter((p.stale for p in points), dtype=np.int64, count=len(points))
    cold = np.fromiter((p.cold for p in points), dtype=np.int64, count=len(points))
    patience = result.options.patience
    traces = [
        scatter(x=x, y=stale, name="stale (what-if)", mode="lines",
                line={"shape": "hv", "color": "#1f77b4"}),
        scatter(x=x, y=cold, name="cold (what-if)", mode="lines",
                line={"shape": "hv", "color": "#17becf"}),
    ]
    lines = stop_rule_lines(patience)
    for stood, name in ((True, "verdict stands"), (False, "forgiven (a lead was pending)")):
        chosen = [v for v in result.verdicts if v.stood is stood]
        if chosen:
            traces.append(scatter(
                x=np.array([v.step for v in chosen]),
                y=np.array([v.cold if v.reason is StopReason.NO_RELEVANT_PAGES else v.stale
                            for v in chosen]),
                mode="markers", name=name, cliponaxis=False,
                marker={"size": 10, "color": WHATIF_COLOUR,
                        "symbol": marker_symbols([STOP_REASONS[v.reason].symbol
                                                  + ("" if stood else "-open") for v in chosen])},
                hovertext=np.array([f"step {v.step}: {v.reason}" for v in chosen]),
                hoverinfo="text"))
    traces.extend(_mark_lines(result, float(COLD_PATIENCE * patience + 1)))
    return plain_figure(traces, _layout("What-if: stale and cold counters", "pages in a row",
                                        lines, traces))


def whatif_coverage_figure(result: WhatIf, steps: Sequence[StepRecord]) -> go.Figure:
    """Coverage over the steps: the replay's against the what-if threshold, the recorded
    one (the crawl's own options) dashed, and the marks."""
    x = np.fromiter((p.step for p in result.points), dtype=np.int64, count=len(result.points))
    replayed = np.fromiter((p.coverage for p in result.points), dtype=float,
                           count=len(result.points))
    recorded = np.fromiter((r.coverage for r in steps), dtype=float, count=len(steps))
    traces = [
        scatter(x=np.fromiter((r.step for r in steps), dtype=np.int64, count=len(steps)),
                y=recorded, name="coverage (recorded)", mode="lines",
                line={"color": "#7f7f7f", "dash": "dash"}),
        scatter(x=x, y=replayed, name="coverage (what-if)", mode="lines",
                line={"color": "#2ca02c"}),
    ]
    threshold = result.options.coverage_threshold
    line = threshold_line(threshold, f"threshold {threshold:.0%}",
                          {"dash": "dash", "color": "#2ca02c", "width": 1}, "bottom right", 10)
    traces.extend(_mark_lines(result, 1.05))
    layout = _layout("What-if: coverage over the steps", "coverage", [line], traces)
    layout["yaxis"] = {"title": text("coverage"), "rangemode": "tozero", "range": [0, 1.08],
                       "tickformat": ".0%"}
    return plain_figure(traces, layout)


def _reset_sliders() -> None:
    """Put the sliders back to the session's own options (a button's callback)."""
    ss = st.session_state
    session: AnySession | None = ss.get("session")
    if session is not None:
        _set_sliders(ss, session.config.adaptive)


def _set_sliders(ss: MutableMapping[StateKey, Any], options: AdaptiveOptions) -> None:
    for slider in SLIDERS:
        ss[slider.key] = slider.value(getattr(options, slider.option))


def _options(ss: MutableMapping[StateKey, Any], session: AnySession) -> AdaptiveOptions:
    """The sliders' options. A new session puts them back to its own options; an own value
    outside a slider's range widens it."""
    own = session.config.adaptive
    serial = int(ss.get("session_serial", 0))
    if ss.get("whatif_serial") != serial:
        _set_sliders(ss, own)
        ss["whatif_serial"] = serial
    values: dict[str, int | float] = {}
    for column, slider in zip(st.columns(len(SLIDERS)), SLIDERS, strict=True):
        now = slider.value(ss.get(slider.key))
        low, high = slider.value(min(slider.low, now)), slider.value(max(slider.high, now))
        values[slider.option] = slider.value(column.slider(
            slider.label, min_value=low, max_value=high, step=slider.value(slider.step),
            key=slider.key))
    return AdaptiveOptions(
        coverage_threshold=float(values["coverage_threshold"]),
        evidence_per_term=int(values["evidence_per_term"]),
        patience=int(values["patience"]),
        min_gain=float(values["min_gain"]),
    )


def chosen_options(ss: MutableMapping[StateKey, Any], session: AnySession) -> AdaptiveOptions:
    """The options the sliders hold for this session (its own before the panel is drawn),
    read from session state: the live charts, drawn before the panel, mark the same ones."""
    own = session.config.adaptive
    if ss.get("whatif_serial") != int(ss.get("session_serial", 0)):
        return own
    try:
        return AdaptiveOptions(
            coverage_threshold=float(ss[SLIDERS[0].key]),
            evidence_per_term=int(ss[SLIDERS[1].key]),
            patience=int(ss[SLIDERS[2].key]),
            min_gain=float(ss[SLIDERS[3].key]),
        )
    except (KeyError, TypeError, ValueError):
        return own


def chart_marks(ss: MutableMapping[StateKey, Any], session: AnySession) -> tuple[WhatIfMark, ...]:
    """What the live stale/cold chart marks: the what-if steps, once the sliders differ
    from the session's own options (else the chart's verdict markers say it all)."""
    options = chosen_options(ss, session)
    if options == session.config.adaptive or not session.steps:
        return ()
    return tuple(whatif_marks(replay(ss, session, options)))


def _replay_key(ss: MutableMapping[StateKey, Any], session: AnySession,
                options: AdaptiveOptions) -> ReplayKey:
    return (int(ss.get("session_serial", 0)), len(session.steps), len(session.overrides),
            options)


def replay(ss: MutableMapping[StateKey, Any], session: AnySession,
           options: AdaptiveOptions) -> WhatIf:
    """``what_if`` memoised by session, steps, overrides and options; a new step replays
    only its own record (:func:`_kept_replay`)."""
    key = _replay_key(ss, session, options)
    memo: WhatIfMemo | None = ss.get("whatif_memo")
    if memo is not None and memo[0] == key:
        return memo[1]
    truth = ss.get("truth") or demo_truth(session.config.seed_url, session.config.query)
    result = _kept_replay(ss, session, options, truth).result(session)
    ss["whatif_memo"] = (key, result)
    return result


def _kept_replay(ss: MutableMapping[StateKey, Any], session: AnySession,
                 options: AdaptiveOptions, truth: Collection[str] | None) -> Replay:
    """The replay kept in ``ss["whatif_replay"]`` given the steps new since it was run, one
    record each (issue 15: replaying 2,000 records took ~0.2–0.3 s a step); replayed again
    from the first for another session, override (a relabel), option or answer key."""
    base = (int(ss.get("session_serial", 0)), id(session), len(session.overrides), options,
            truth)
    kept: tuple[object, Replay] | None = ss.get("whatif_replay")
    if kept is not None and kept[0] == base and kept[1].taken <= len(session.steps):
        running = kept[1]
        new = session.steps[running.taken:]
        if running.can_take(new):
            for record in new:
                running.take(record)
            return running
    running = replay_of(session, options, truth=truth)
    ss["whatif_replay"] = (base, running)
    return running


@dataclass(frozen=True, slots=True)
class WhatIfView:
    """What the panel draws from one replay: its table and its two figures."""

    frame: pd.DataFrame
    stale: go.Figure
    coverage: go.Figure


def _view(ss: MutableMapping[StateKey, Any], session: AnySession,
          options: AdaptiveOptions) -> tuple[WhatIf, WhatIfView]:
    """The replay and what is drawn from it, memoised with the replay's key
    (``ss["whatif_view_memo"]``): a rerun without a new step or override builds nothing."""
    result = replay(ss, session, options)
    key = _replay_key(ss, session, options)
    memo: tuple[ReplayKey, WhatIfView] | None = ss.get("whatif_view_memo")
    if memo is not None and memo[0] == key:
        return result, memo[1]
    view = WhatIfView(whatif_frame(result, len(session.steps)), whatif_stale_figure(result),
                      whatif_coverage_figure(result, session.steps))
    ss["whatif_view_memo"] = (key, view)
    return result, view


def keep_sliders(ss: MutableMapping[StateKey, Any]) -> None:
    """Keep the sliders' values over a run that does not draw the panel (its tab is not the
    open one): Streamlit drops the state of a widget not drawn in a run, and the live chart's
    what-if marks read them (:func:`chosen_options`)."""
    keep_values(ss, (slider.key for slider in SLIDERS))


def render_whatif(session: AnySession) -> None:
    """The panel: sliders, the table of stops, the notes and the two charts."""
    ss = st.session_state
    # "forgiven where a link with clues was pending" beside a lesson that turns lead
    # forgiveness off (found by teaching with the app): say which the replay does
    forgiving = ("with a verdict forgiven where a strong link was pending then, as the "
                 "crawler did" if session.config.forgive_leads else
                 "with no verdict forgiven for a pending link: lead forgiveness is off for "
                 "this session, as it was for the crawler")
    st.caption("Move the stop options: the stop rules are replayed over the recorded steps "
               f"(no network, no refetch), {forgiving}. With the session's own options the "
               "replay gives its own verdicts. Recall is shown for the demo sites, whose "
               "answers are known.")
    if not session.steps:
        st.info("No steps yet: the replay needs recorded steps.")
        return
    options = _options(ss, session)
    st.button("The session's own options", key="whatif_reset", on_click=_reset_sliders,
              help="put the sliders back to the options this crawl ran with")
    result, view = _view(ss, session, options)
    # a rule that never fired has no step, pages or recall: "—", not "None"
    st.dataframe(view.frame, key="whatif_table", hide_index=True, width="stretch",
                 placeholder=NO_VALUE)
    for note in result.notes:
        st.caption(note)
    left, right = st.columns(2)
    left.plotly_chart(view.stale, key="chart_whatif_stale", width="stretch")
    right.plotly_chart(view.coverage, key="chart_whatif_coverage", width="stretch")
    st.caption("Dotted pink: where each rule would fire and stand with these options; "
               "black: where the crawl actually stopped (its first verdict that stood).")
