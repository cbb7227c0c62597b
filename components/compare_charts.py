"""The Compare page's data and figures: pure functions from compared sessions to plain
series, tables and plotly figures (no Streamlit, so each is testable on its own).

All sessions share one figure of four panels with one x axis (pages fetched or steps): what
was found, harvest, coverage and a link weight. "What was found" is recall when every session
has a truth, and relevant pages otherwise: a panel never mixes the two units.
"""

from __future__ import annotations

import enum
import json
from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
from plotly.colors import qualitative
from plotly.subplots import make_subplots

from components.compare_set import Compared
from components.labels import STOP_REASONS
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.frontier.model import FEATURE_NAMES
from pagesift_ui.session.views import harvest_rate, page_budget
from pagesift_ui.sweep.results import setting_differences

__all__ = [
    "PANELS",
    "Series",
    "StopMark",
    "XAxis",
    "compare_figure",
    "differences_frame",
    "recall_missing",
    "series_of",
    "stop_marks",
    "summary_frame",
    "uses_recall",
]

#: The four panels, left to right and top to bottom (the first is "Relevant pages" without
#: a truth for every session).
PANELS = ("Recall", "Harvest", "Coverage", "Link weight")
COLOURS = qualitative.Plotly
#: The line dash of the first ten sessions, the next ten, …: with more sessions than
#: colours, sessions 1, 11 and 21 were drawn alike.
DASHES = ("solid", "dash", "dot", "dashdot")
#: Line widths (px): the last session's, the step added for each one drawn before it, the
#: widest.
LINE_WIDTH, LINE_STEP, MAX_LINE_WIDTH = 2.0, 1.5, 6.0
FIGURE_HEIGHT = 640


class XAxis(enum.StrEnum):
    """What the shared x axis counts."""

    PAGES = "pages fetched"
    STEP = "step"


@dataclass(frozen=True, slots=True)
class StopMark:
    """Where a session stopped: ``end`` False for the first verdict that stood (the
    session's own stop), True for where it ended when that came later or for another
    reason (a crawl that recorded its verdicts and went on to the limit)."""

    step: int
    reason: StopReason
    end: bool


@dataclass(frozen=True, slots=True)
class Series:
    """One session's curves, step by step: ``x`` on the shared axis, ``found`` (recall or
    relevant pages), ``harvest``, ``coverage`` and ``weights`` (the weights the model has
    learned, its posterior mean, one tuple per step in ``FEATURE_NAMES`` order: the weights
    in use move only when the model switches one, so the panel drew every crawl flat at its
    prior)."""

    name: str
    steps: tuple[int, ...]
    x: tuple[int, ...]
    found: tuple[float, ...]
    harvest: tuple[float, ...]
    coverage: tuple[float, ...]
    weights: tuple[tuple[float, ...], ...]
    marks: tuple[StopMark, ...]

    def at(self, step: int) -> int:
        """The index of ``step`` in the series; raises ``ValueError`` if it has none."""
        return self.steps.index(step)


def uses_recall(entries: Sequence[Compared]) -> bool:
    """Recall is drawn when every session has it."""
    return bool(entries) and all(e.recall is not None for e in entries)


def recall_missing(entries: Sequence[Compared]) -> bool:
    """Some sessions have a truth and some do not: the summary keeps the recall columns,
    empty for the sessions without."""
    return any(e.recall is not None for e in entries) and not uses_recall(entries)


def stop_marks(entry: Compared) -> tuple[StopMark, ...]:
    session = entry.session
    marks = []
    if session.stop_step is not None and session.first_verdict is not None:
        marks.append(StopMark(session.stop_step, session.first_verdict, end=False))
    last = session.steps[-1].step if session.steps else None
    ended = session.stop_reason
    if ended is not None and last is not None and (
            not marks or (marks[0].step, marks[0].reason) != (last, ended)):
        marks.append(StopMark(last, ended, end=True))
    return tuple(marks)


def series_of(entry: Compared, x_axis: XAxis, recall: bool) -> Series:
    """``entry``'s curves; ``recall``: its recall (it must have one), else relevant pages."""
    steps = entry.steps
    if recall and entry.recall is None:
        raise ValueError(f"{entry.name} has no truth to measure recall against")
    found = (tuple(r if r is not None else 0.0 for r in entry.recall or ()) if recall
             else tuple(float(r.relevant_pages) for r in steps))
    return Series(
        name=entry.name,
        steps=tuple(r.step for r in steps),
        x=tuple(r.pages_fetched if x_axis is XAxis.PAGES else r.step for r in steps),
        found=found,
        harvest=tuple(harvest_rate(r.relevant_pages, r.pages_fetched) for r in steps),
        coverage=tuple(r.coverage for r in steps),
        weights=tuple(tuple(r.posterior_mean) for r in steps),
        marks=stop_marks(entry),
    )


def _panel_values(series: Series, panel: int, feature: int) -> tuple[float, ...]:
    if panel == 0:
        return series.found
    if panel == 1:
        return series.harvest
    if panel == 2:
        return series.coverage
    return tuple(w[feature] for w in series.weights)


def _symbol(mark: StopMark) -> str:
    """The reason's symbol, open where the crawl ended (a later end than its own stop)."""
    symbol = STOP_REASONS[mark.reason].symbol
    return f"{symbol}-open" if mark.end and not symbol.endswith("-open") else symbol


def _mark_trace(series: Series, values: Sequence[float], colour: str, panel: int
                ) -> go.Scatter | None:
    marks = [m for m in series.marks if m.step in series.steps]
    if not marks:
        return None
    index = [series.at(m.step) for m in marks]
    words = [f"{series.name}: {'ended' if m.end else 'stopped'} at step {m.step} "
             f"({m.reason.value})" for m in marks]
    return go.Scatter(
        x=np.array([series.x[i] for i in index]), y=np.array([values[i] for i in index]),
        mode="markers", name=f"{series.name}: stops", legendgroup=series.name,
        showlegend=False, hovertext=np.array(words), hoverinfo="text",
        marker={"size": 13, "color": colour, "line": {"width": 1.5, "color": "#222"},
                "symbol": [_symbol(m) for m in marks]},
        meta={"panel": panel, "steps": [m.step for m in marks],
              "reasons": [m.reason.value for m in marks]},
    )


def compare_figure(series: Sequence[Series], x_axis: XAxis, recall: bool,
                   feature: str = FEATURE_NAMES[0]) -> go.Figure:
    """The four panels on one shared x axis; each session one colour in every panel, its
    stops marked with the stop reason's symbol (an open symbol where it ended later)."""
    if feature not in FEATURE_NAMES:
        raise ValueError(f"feature must be one of {FEATURE_NAMES}, got {feature!r}")
    titles = ("Recall" if recall else "Relevant pages", "Harvest", "Coverage",
              f"Link weight learned: {feature}")
    fig = make_subplots(rows=2, cols=2, shared_xaxes="all", subplot_titles=titles,
                        vertical_spacing=0.1, horizontal_spacing=0.08)
    which = FEATURE_NAMES.index(feature)
    for n, one in enumerate(series):
        colour = COLOURS[n % len(COLOURS)]
        # past the palette the colours come round again: the dash tells those apart
        dash = DASHES[n // len(COLOURS) % len(DASHES)]
        # a session drawn earlier is drawn wider: two runs that took the same path showed one
        # line, the later hiding the first (found by teaching with the app)
        width = min(LINE_WIDTH + LINE_STEP * (len(series) - 1 - n), MAX_LINE_WIDTH)
        for panel in range(4):
            values = _panel_values(one, panel, which)
            cell = {"row": panel // 2 + 1, "col": panel % 2 + 1}
            fig.add_trace(go.Scatter(
                x=np.array(one.x), y=np.array(values, dtype=float), mode="lines",
                name=one.name, legendgroup=one.name, showlegend=panel == 0,
                line={"color": colour, "shape": "hv" if panel == 3 else "linear",
                      "dash": dash, "width": width},
                meta={"panel": panel}), **cell)
            mark = _mark_trace(one, values, colour, panel)
            if mark is not None:
                fig.add_trace(mark, **cell)
    for axis in ("xaxis3", "xaxis4"):
        fig.layout[axis].title = x_axis.value
    if recall:
        fig.update_yaxes(range=[-0.02, 1.02], row=1, col=1)
    fig.update_yaxes(range=[-0.02, 1.02], row=1, col=2)
    fig.update_yaxes(range=[-0.02, 1.02], row=2, col=1)
    # a legend row per five sessions below the panels, not squeezed out of them
    rows = -(-len(series) // 5)
    fig.update_layout(height=FIGURE_HEIGHT + max(0, rows - 2) * 24,
                      margin={"l": 10, "r": 10, "t": 40, "b": 10},
                      hovermode="closest",
                      legend={"orientation": "h", "yref": "container", "y": 0,
                              "yanchor": "bottom", "x": 0, "font": {"size": 11}})
    return fig


def _recall_at(entry: Compared, step: int | None) -> float | None:
    if entry.recall is None or not entry.recall:
        return None
    if step is None:
        return entry.recall[-1]
    steps = [r.step for r in entry.steps]
    return entry.recall[steps.index(step)] if step in steps else None


def summary_frame(entries: Sequence[Compared]) -> pd.DataFrame:
    """One row per session: where it stopped and what it had found by then and at the end."""
    rows = []
    for entry in entries:
        session, last = entry.session, entry.steps[-1] if entry.steps else None
        stop = session.stop_step
        rows.append({
            "session": entry.name,
            "from": entry.origin.value,
            # which question each session asked: names are file names, ids or cells
            "query": session.config.query,
            "steps": len(entry.steps),
            "pages": last.pages_fetched if last else 0,
            "relevant pages": last.relevant_pages if last else 0,
            "harvest": round(harvest_rate(last.relevant_pages, last.pages_fetched), 3)
            if last else 0.0,
            "stop step": stop,
            "stop reason": session.first_verdict.value if session.first_verdict else "",
            "recall at stop": _recall_at(entry, stop) if stop is not None else None,
            "final recall": _recall_at(entry, None),
            "coverage": round(last.coverage, 3) if last else 0.0,
            "ended": session.stop_reason.value if session.stop_reason else "",
        })
    frame = pd.DataFrame.from_records(rows)
    if rows and frame["final recall"].isna().all():
        # no session has a truth set: both columns would print "None" in every row
        return frame.drop(columns=["recall at stop", "final recall"])
    return frame


def _text(value: Any) -> str:
    """A setting as the table shows it: lists as ``2, 1.5, …``; None as "auto"."""
    if value is None:
        return "auto"
    if isinstance(value, list | tuple):
        return ", ".join(f"{v:g}" if isinstance(v, float) else str(v) for v in value)
    if isinstance(value, enum.Enum):
        return str(value.value)
    return value if isinstance(value, str) else json.dumps(value)


def differences_frame(entries: Sequence[Compared]) -> pd.DataFrame:
    """The settings in which the sessions differ: one row per setting, one column per
    session, every value as text (a column mixes kinds)."""
    # the budget each ran to: a raised budget (raise_limit) keeps the config's first one
    rows = setting_differences({e.name: replace(e.session.config, limit=page_budget(e.session))
                                for e in entries})
    names = [e.name for e in entries]
    return pd.DataFrame.from_records(
        [{"setting": row["setting"], **{n: _text(row[n]) for n in names}} for row in rows],
        columns=["setting", *names])
