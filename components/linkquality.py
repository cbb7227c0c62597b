"""The Link model page: how well the link model predicted, as a session went.

Before it learns from a fetched page the link model predicts P(relevant) for the link that
led there (``StepRecord.predicted``); the label is what it is then taught. These prequential
pairs (``frontier/prequential.py``, via ``sweep.results.model_curve``) are scored against
the prior-only model's predictions of the same links: log-loss, Brier score and AUC,
cumulatively and over a moving window, and a reliability (calibration) chart.
The figures and the table are pure functions of the points; ``render_link_quality`` draws.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from components.compare_set import Compared
from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE
from pagesift_ui.frontier.prequential import BINS, WINDOW, ReliabilityBin
from pagesift_ui.session import ReadableSession
from pagesift_ui.sweep.results import ModelPoint, calibration, model_curve

__all__ = [
    "METRICS",
    "calibration_figure",
    "quality_figure",
    "quality_frame",
    "render_link_quality",
]

#: (title, ModelPoint attribute prefix) of the three scores; lower is better but for AUC.
METRICS = (("Log-loss", "log_loss"), ("Brier score", "brier"), ("AUC", "auc"))
MODEL_COLOUR, PRIOR_COLOUR = "#1f77b4", "#7f7f7f"
OPEN_SESSION = "(the explorer's session)"


def _values(points: Sequence[ModelPoint], name: str) -> np.ndarray:
    return np.array([np.nan if (v := getattr(p, name)) is None else v for p in points],
                    dtype=float)


def quality_figure(points: Sequence[ModelPoint], window: int) -> go.Figure:
    """Three panels (log-loss, Brier, AUC) over the steps: the model and the prior-only
    model, cumulative (solid) and over the last ``window`` labelled links (dotted)."""
    fig = make_subplots(rows=1, cols=3, shared_xaxes="all",
                        subplot_titles=[title for title, _ in METRICS],
                        horizontal_spacing=0.07)
    x = np.array([p.step for p in points], dtype=np.int64)
    for col, (_, name) in enumerate(METRICS, start=1):
        for label, attribute, colour, dash in (
                ("model", name, MODEL_COLOUR, "solid"),
                ("prior only", f"prior_{name}", PRIOR_COLOUR, "solid"),
                (f"model, last {window}", f"window_{name}", MODEL_COLOUR, "dot"),
                (f"prior only, last {window}", f"window_prior_{name}", PRIOR_COLOUR, "dot")):
            fig.add_trace(go.Scatter(
                x=x, y=_values(points, attribute), mode="lines", name=label,
                legendgroup=label, showlegend=col == 1, line={"color": colour, "dash": dash},
                meta={"metric": name, "series": attribute}), row=1, col=col)
        fig.update_xaxes(title_text="step", row=1, col=col)
    fig.update_yaxes(range=[-0.02, 1.02], row=1, col=3)
    fig.update_layout(height=380, margin={"l": 10, "r": 10, "t": 40, "b": 10},
                      legend={"orientation": "h", "yref": "container", "y": 0,
                              "yanchor": "bottom", "x": 0})
    return fig


def calibration_figure(model: Sequence[ReliabilityBin], prior: Sequence[ReliabilityBin]
                       ) -> go.Figure:
    """Observed share of relevant links against the mean prediction per bin (a perfectly
    calibrated model lies on the diagonal); marker size grows with the bin's count."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0.0, 1.0], y=[0.0, 1.0], mode="lines", name="calibrated",
                             line={"color": "#bbbbbb", "dash": "dash"}, hoverinfo="skip"))
    for label, bins, colour in (("model", model, MODEL_COLOUR),
                                ("prior only", prior, PRIOR_COLOUR)):
        full = [b for b in bins if b.count]
        counts = np.array([b.count for b in full], dtype=float)
        fig.add_trace(go.Scatter(
            x=np.array([b.mean_predicted for b in full], dtype=float),
            y=np.array([b.observed for b in full], dtype=float),
            mode="lines+markers", name=label, line={"color": colour},
            marker={"size": 6 + 14 * np.sqrt(counts / counts.max()) if len(full) else 6},
            customdata=counts,
            hovertemplate="predicted %{x:.2f}, observed %{y:.2f} (%{customdata} links)"))
    fig.update_layout(title="Calibration (reliability)", height=380,
                      xaxis={"title": "mean predicted P(relevant)", "range": [-0.02, 1.02]},
                      yaxis={"title": "share relevant", "range": [-0.02, 1.02]},
                      margin={"l": 10, "r": 10, "t": 40, "b": 10},
                      legend={"orientation": "h", "yref": "container", "y": 0,
                              "yanchor": "bottom", "x": 0})
    return fig


def _rounded(value: float | None) -> float | None:
    return None if value is None else round(value, 4)


def quality_frame(points: Sequence[ModelPoint], window: int) -> pd.DataFrame:
    """The scores after the last labelled link: model and prior-only, overall and over the
    last ``window`` (rounded to 4 places)."""
    last = points[-1]
    rows: list[dict[str, Any]] = []
    for title, name in METRICS:
        rows.append({
            "score": title,
            "model": _rounded(getattr(last, name)),
            "prior only": _rounded(getattr(last, f"prior_{name}")),
            f"model, last {window}": _rounded(getattr(last, f"window_{name}")),
            f"prior only, last {window}": _rounded(getattr(last, f"window_prior_{name}")),
        })
    return pd.DataFrame.from_records(rows)


def _sessions() -> dict[str, ReadableSession]:
    """The explorer's session, then every session on the Compare page, by name."""
    ss = st.session_state
    out: dict[str, ReadableSession] = {}
    if ss.get("session") is not None:
        out[OPEN_SESSION] = ss["session"]
    entries: Sequence[Compared] = ss.get("compare") or ()
    out.update({entry.name: entry.session for entry in entries})
    return out


def _points(session: ReadableSession, window: int) -> list[ModelPoint]:
    """Memoized per session object, step count and window: the cumulative scores cost
    O(n²) and the page reruns with every widget change."""
    ss = st.session_state
    key = (id(session), len(session.steps), window)
    memo = ss.get("quality_memo")
    if memo is not None and memo[0] == key:
        points: list[ModelPoint] = memo[1]
        return points
    points = model_curve(session.steps, window)
    ss["quality_memo"] = (key, points)
    return points


def render_link_quality() -> None:
    ss = st.session_state
    st.title("Link-model quality")
    sessions = _sessions()
    if not sessions:
        st.info("Start a crawl in the explorer, or add sessions on the Compare page.")
        return
    if ss.get("quality_pick") not in sessions:
        ss["quality_pick"] = next(iter(sessions))
    left, right = st.columns([3, 1])
    name = left.selectbox("Session", list(sessions), key="quality_pick")
    # the default set as state, not as the widget's value: both warned on every change of
    # the session picker ("created with a default value but also had its value set")
    ss.setdefault("quality_window", WINDOW)
    window = int(right.number_input("Moving window (links)", min_value=1, max_value=1000,
                                    step=10, key="quality_window"))
    session = sessions[name]
    points = _points(session, window)
    if not points:
        st.info("No link was predicted and then learned yet: the first fetched page after "
                "the seed gives the first pair.")
        return
    n = points[-1].n
    # which "relevant", and which labels: the page read the tiles' ≥ 0.15 and the user's
    # labels into it, and neither holds here (found by using the app)
    st.caption(f"{n} link{'s' * (n != 1)} predicted, then learned. A link counts as relevant "
               f"when its page read as on topic (relevance ≥ {MIN_RELEVANCE:g}, the link "
               "model's own label, docs/DESIGN.md §11.9), not the tiles' relevant pages (≥ "
               f"{EVIDENCE_RELEVANCE:g}). The scores are of the predictions made during the "
               "crawl against what the model was taught then: your labels rebuild the model "
               "from the step they are given on, not the predictions it made before. Lower "
               "log-loss and Brier score are better; AUC is the chance that a relevant link "
               "was predicted above an irrelevant one (½: no better than a coin), None until "
               "both kinds were seen (in the window, for its columns).")
    st.dataframe(quality_frame(points, window), key="quality_table", hide_index=True,
                 width="stretch")
    st.plotly_chart(quality_figure(points, window), key="quality_chart", width="stretch")
    bins = (calibration(session.steps, BINS), calibration(session.steps, BINS, prior=True))
    st.plotly_chart(calibration_figure(*bins), key="quality_calibration", width="stretch")
