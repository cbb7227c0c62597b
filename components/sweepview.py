"""The Sweeps page: a results folder's metric as a heatmap over two swept settings.

The other swept settings are either fixed to one value or aggregated over (mean, median …),
chosen explicitly. A click on a heatmap cell picks it (plotly's point selection, on an
invisible marker at each cell's centre: plotly selects scatter points, not heatmap bricks);
the "Cell" select box picks the same without a click. The picked cell's sessions open in the
Compare page, or one of them in the explorer (read-only, like an uploaded bundle).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import plotly.graph_objects as go
import streamlit as st

from components.compare_set import add_compared, cell_entry, remember_folder
from components.decision_log import md_escape
from components.pages import Page, request_page
from components.persist import Recording
from components.sidebar import show_settings
from components.state import add_flash, set_session
from pagesift_ui.errors import PagesiftError
from pagesift_ui.sweep.results import (
    AGGREGATES,
    DIMENSIONS,
    HeatmapGrid,
    SweepResults,
    cell_session,
    cell_snapshot,
    heatmap_grid,
    load_results,
    metric_columns,
    swept_settings,
)

__all__ = [
    "ALL",
    "PREFERRED_METRICS",
    "axis_choices",
    "grid_keys",
    "grid_label",
    "heatmap_figure",
    "key_of_event",
    "key_of_point",
    "render_sweeps",
]

logger = logging.getLogger(__name__)

#: The filter choice that aggregates over a setting instead of fixing it.
ALL = "(all: aggregate)"
PREFERRED_METRICS = ("recall_at_stop", "harvest", "pages_to_90")
HEATMAP_HEIGHT = 420


def axis_choices(cells: pd.DataFrame) -> list[str]:
    """The settings a heatmap axis can be: the swept ones first, then the other dimensions."""
    swept = swept_settings(cells)
    return [*swept, *(d for d in DIMENSIONS if d in cells.columns and d not in swept)]


def heatmap_figure(grid: HeatmapGrid) -> go.Figure:
    """The grid as a heatmap with its values written in, and one invisible marker per cell
    (``customdata`` = its key, ``i,j``) for a click to select."""
    z = np.array([[np.nan if v is None else v for v in row] for row in grid.values],
                 dtype=float)
    text = [["" if v is None else f"{v:.3g}" for v in row] for row in grid.values]
    fig = go.Figure(go.Heatmap(
        z=z, x=list(grid.x_values), y=list(grid.y_values), text=text,
        texttemplate="%{text}", colorscale="Viridis", hoverongaps=False,
        # a count is of cells, not of the metric's values (found by using the app)
        colorbar={"title": {"text": grid.metric if grid.aggregate != "count"
                            else f"cells with {grid.metric}"}}, name=grid.metric))
    xs, ys, keys = [], [], []
    for i, y in enumerate(grid.y_values):
        for j, x in enumerate(grid.x_values):
            xs.append(x)
            ys.append(y)
            keys.append(f"{i},{j}")
    fig.add_trace(go.Scatter(
        x=xs, y=ys, customdata=keys, mode="markers", name="cells", showlegend=False,
        marker={"size": 28, "symbol": "square", "color": "rgba(0,0,0,0)",
                "line": {"width": 0}},
        selected={"marker": {"color": "rgba(255,255,255,0.35)"}},
        unselected={"marker": {"opacity": 1.0}},
        hovertemplate=f"{grid.x}=%{{x}}<br>{grid.y}=%{{y}}<extra>click to pick</extra>"))
    title = f"{grid.metric} ({grid.aggregate} over the other settings)"
    fig.update_layout(title=title, height=HEATMAP_HEIGHT, clickmode="event+select",
                      dragmode=False, margin={"l": 10, "r": 10, "t": 50, "b": 10},
                      xaxis={"title": grid.x, "type": "category"},
                      yaxis={"title": grid.y, "type": "category"})
    return fig


def grid_keys(grid: HeatmapGrid) -> list[str]:
    """The keys (``i,j``) of the cells that have finished sweep cells behind them."""
    return [f"{i},{j}" for i, row in enumerate(grid.cell_ids)
            for j, ids in enumerate(row) if ids]


def _indices(key: str) -> tuple[int, int]:
    i, j = key.split(",")
    return int(i), int(j)


def grid_label(grid: HeatmapGrid, key: str) -> str:
    """``patience=3 · strategy=thompson → 0.75 (2 cells)``."""
    i, j = _indices(key)
    value = grid.values[i][j]
    shown = "–" if value is None else f"{value:.4g}"
    n = len(grid.cell_ids[i][j])
    return (f"{grid.y}={grid.y_values[i]} · {grid.x}={grid.x_values[j]} → {shown} "
            f"({n} cell{'s' if n != 1 else ''})")


def key_of_point(point: Mapping[str, Any], grid: HeatmapGrid) -> str | None:
    """The grid key of a selected plotly point: its ``customdata``, else its x and y."""
    custom = point.get("customdata")
    if isinstance(custom, list | tuple):
        custom = custom[0] if custom else None
    if isinstance(custom, str) and custom in grid_keys(grid):
        return custom
    x, y = str(point.get("x")), str(point.get("y"))
    if x in grid.x_values and y in grid.y_values:
        key = f"{grid.y_values.index(y)},{grid.x_values.index(x)}"
        return key if key in grid_keys(grid) else None
    return None


def key_of_event(event: Mapping[str, Any] | None, grid: HeatmapGrid) -> str | None:
    """The grid key of the first point of a plotly selection event (None: no usable one)."""
    points = ((event or {}).get("selection") or {}).get("points") or []
    return key_of_point(points[0], grid) if points else None


# -- callbacks ----------------------------------------------------------------------------


def _open_folder(folder: str) -> None:
    ss = st.session_state
    ss["sweep_error"] = None
    if not folder.strip():
        # an empty field opened the app's working folder (". holds no sweep results")
        ss["sweep_error"] = "Type the results folder (the --out folder of pagesift-ui sweep)."
        return
    path = Path(folder.strip()).expanduser()
    try:
        ss["sweep_results"] = load_results(path)
    except PagesiftError as exc:  # BundleError
        ss["sweep_error"] = str(exc)
        return
    remember_folder(ss, path)
    ss["sweep_known"] = str(path)
    ss["sweep_pick"] = None
    # another sweep: its own swept settings on the axes, not the last one's (x and y stayed
    # on settings this one does not sweep, a 1×1 heatmap: found by using the app)
    for key in [key for key in ss if str(key).startswith(("sweep_x", "sweep_y",
                                                          "sweep_filter_"))]:
        del ss[key]


def on_open_typed() -> None:
    _open_folder(st.session_state.get("sweep_folder") or "")


def on_open_known() -> None:
    known = st.session_state.get("sweep_known")
    if known:
        _open_folder(known)


def on_heatmap_select() -> None:
    """A click on the heatmap: pick the cell under it (the select box shows it)."""
    ss = st.session_state
    grid: HeatmapGrid | None = ss.get("sweep_grid")
    key = key_of_event(ss.get("sweep_heatmap"), grid) if grid is not None else None
    if key is not None:
        ss["sweep_pick"] = key


def _picked_ids() -> tuple[str, ...]:
    ss = st.session_state
    grid: HeatmapGrid | None = ss.get("sweep_grid")
    key = ss.get("sweep_pick")
    if grid is None or not key or key not in grid_keys(grid):
        return ()
    i, j = _indices(key)
    return grid.cell_ids[i][j]


def on_compare_cells() -> None:
    ss = st.session_state
    results: SweepResults = ss["sweep_results"]
    swept = swept_settings(results.cells)
    try:
        for cell_id in _picked_ids():
            add_compared(ss, cell_entry(results, cell_id, swept))
    except (PagesiftError, KeyError) as exc:
        ss["sweep_error"] = f"A cell cannot be compared: {exc}"
        return
    request_page(ss, Page.COMPARE)


def on_explore_cell() -> None:
    ss = st.session_state
    results: SweepResults = ss["sweep_results"]
    cell_id = ss.get("sweep_cell")
    if not cell_id:
        return
    try:
        view = cell_session(results.folder, cell_id)
    except PagesiftError as exc:
        ss["sweep_error"] = str(exc)
        return
    # the cell's snapshot, read again, is what "Replay with these settings" plays: a cell
    # opened in the explorer could not be replayed (the thirtieth session's probe)
    try:
        snapshot = cell_snapshot(results, cell_id)
    except PagesiftError as exc:
        recording, replayable = None, f" It cannot be replayed: {exc}."
    else:
        origin = f"the snapshot of sweep cell {cell_id}"
        recording = Recording(snapshot.responses, view.config, origin)
        replayable = " Replay with these settings crawls its snapshot again, offline."
    set_session(ss, view, recording=recording)
    show_settings(ss, view.config)
    add_flash(ss, "success" if recording else "info",
              f"Opened sweep cell {cell_id} read-only: {len(view.steps)} steps.{replayable}")
    request_page(ss, Page.EXPLORER)


# -- drawing ------------------------------------------------------------------------------


def _keep_valid(key: str, options: Sequence[Any], default: Any) -> None:
    """A select box's value must be one of its options: the folder may have changed."""
    ss = st.session_state
    if ss.get(key) not in options:
        ss[key] = default


def _folder_inputs() -> None:
    ss = st.session_state
    left, right = st.columns([3, 2])
    with left:
        st.text_input("Results folder", key="sweep_folder", on_change=on_open_typed,
                      placeholder="the --out folder of pagesift-ui sweep")
        st.button("Open", key="sweep_open", on_click=on_open_typed)
    with right:
        known = list(ss.get("sweep_folders") or ())
        if known:
            _keep_valid("sweep_known", known, known[0])
            st.selectbox("Opened before", known, key="sweep_known", on_change=on_open_known)
    error = ss.get("sweep_error")
    if error:
        st.error(md_escape(error))


def _choices(cells: pd.DataFrame) -> tuple[str, str, str, str, dict[str, str]] | None:
    """Metric, x, y, aggregate and the filters, from the select boxes."""
    metrics, axes = metric_columns(cells), axis_choices(cells)
    if not metrics or len(axes) < 2:
        st.warning("This sweep has no numeric metric or fewer than two settings.")
        return None
    default_metric = next((m for m in PREFERRED_METRICS if m in metrics), metrics[0])
    _keep_valid("sweep_metric", metrics, default_metric)
    _keep_valid("sweep_x", axes, axes[0])
    _keep_valid("sweep_y", axes, axes[1])
    _keep_valid("sweep_aggregate", AGGREGATES, AGGREGATES[0])
    a, b, c, d = st.columns(4)
    metric = a.selectbox("Metric", metrics, key="sweep_metric")
    x = b.selectbox("x setting", axes, key="sweep_x")
    y = c.selectbox("y setting", axes, key="sweep_y")
    aggregate = d.selectbox("Aggregate", AGGREGATES, key="sweep_aggregate",
                            help="over the cells that share an x and a y")
    filters: dict[str, str] = {}
    others = [s for s in swept_settings(cells) if s not in (x, y)]
    if others:
        columns = st.columns(len(others))
        for column, name in zip(columns, others, strict=True):
            values = [ALL, *dict.fromkeys(cells[name].astype(str))]
            _keep_valid(f"sweep_filter_{name}", values, ALL)
            value = column.selectbox(name, values, key=f"sweep_filter_{name}",
                                     help=f"one {name}, or aggregate over all of them")
            if value != ALL:
                filters[name] = value
    return metric, x, y, aggregate, filters


def _picked(results: SweepResults, grid: HeatmapGrid) -> None:
    ss = st.session_state
    keys = grid_keys(grid)
    if ss.get("sweep_pick") not in keys:
        ss["sweep_pick"] = None
    st.selectbox("Cell", keys, key="sweep_pick", index=None,
                 format_func=lambda key: grid_label(grid, key),
                 placeholder="click a heatmap cell, or choose one here")
    ids = _picked_ids()
    if not ids:
        return
    rows = results.cells[results.cells["cell_id"].isin(ids)]
    shown = ["cell_id", grid.x, grid.y, *swept_settings(results.cells), grid.metric]
    st.dataframe(rows[list(dict.fromkeys(c for c in shown if c in rows.columns))],
                 key="sweep_cells", hide_index=True, width="stretch")
    _keep_valid("sweep_cell", list(ids), ids[0])
    left, middle, right = st.columns([2, 2, 3])
    left.button(f"Compare {len(ids)} session{'s' if len(ids) != 1 else ''}",
                key="sweep_compare", on_click=on_compare_cells, type="primary")
    right.selectbox("Cell to explore", list(ids), key="sweep_cell",
                    label_visibility="collapsed")
    middle.button("Open in the explorer", key="sweep_explore", on_click=on_explore_cell)


def render_sweeps() -> None:
    ss = st.session_state
    st.title("Sweeps")
    _folder_inputs()
    results: SweepResults | None = ss.get("sweep_results")
    if results is None:
        st.info("Open the results folder of `pagesift-ui sweep SPEC.toml --out FOLDER`.")
        return
    ok = int((results.cells["status"] == "ok").sum())
    st.caption(f"{md_escape(str(results.folder))}: {len(results.cells)} cells, {ok} finished "
               "well.")
    choices = _choices(results.cells)
    if choices is None:
        return
    metric, x, y, aggregate, filters = choices
    if x == y:
        st.warning("Choose two different settings for x and y.")
        return
    grid = heatmap_grid(results.cells, x, y, metric, aggregate, filters)
    if all(value is None for row in grid.values for value in row):
        # the grid was drawn empty, with no word why
        st.info(f"No finished cell of this choice has a value of {metric}: recall and pages "
                "to recall need a query with a truth file, and failed cells are left out.")
    ss["sweep_grid"] = grid  # what a click's callback reads the picked cell from
    st.plotly_chart(heatmap_figure(grid), key="sweep_heatmap", on_select=on_heatmap_select,
                    selection_mode="points", width="stretch")
    _picked(results, grid)
