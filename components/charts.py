"""Figure builders: pure functions from step records (and overrides) to plotly figures.

No Streamlit here, so every chart is testable on synthetic records. Traces are built from
numpy arrays (docs/DESIGN.md §14.5) as plain dicts, and the figure without plotly's
per-property validation (``components.plain``: the same JSON, ~1/8 of the build time);
time charts draw at most the last ``window`` steps so a 2,000-step session stays fast.
Overrides are drawn half a step after the step they followed (``Override.step`` counts the
steps completed when the user acted).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

from components.labels import STOP_REASONS, SUBTREE_STATES, VERDICT_FATES
from components.plain import Trace, bar, plain_figure, scatter, text
from pagesift_ui.frontier.adaptive import (
    COLD_PATIENCE,
    MIN_SOURCES,
    StopReason,
    covered_stale_limit,
)
from pagesift_ui.frontier.model import FEATURE_NAMES
from pagesift_ui.frontier.stats import z_one_sided
from pagesift_ui.session import (
    CrawlConfig,
    Override,
    OverrideKind,
    PartStats,
    StepRecord,
    VerdictFate,
)

__all__ = [
    "CHART_HEIGHT",
    "DEFAULT_WINDOW",
    "FOREST_SORTS",
    "LEGEND_ROW_PX",
    "MAX_FOREST_ROWS",
    "VerdictMark",
    "coverage_figure",
    "forest_figure",
    "legend_room",
    "marker_symbols",
    "stale_cold_figure",
    "switch_counts",
    "threshold_line",
    "verdict_marks",
    "weight_switches",
    "weights_figure",
]

DEFAULT_WINDOW = 500
MAX_FOREST_ROWS = 40
FOREST_SORTS = ("pages", "estimate", "name")
OVERRIDE_COLOUR = "#9467bd"
WHATIF_COLOUR = "#e377c2"
#: The legend sits below the plot, anchored to the bottom of the figure (``yref``
#: "container"): plotly then grows the bottom margin by the legend's height, so the legend
#: never covers the data nor the x-axis title, however many rows it wraps into at 1280 px.
#: Entries 120 px wide (plotly gives every entry of a wrapped legend the widest one's width
#: otherwise): two columns in a half-width chart at 1280 px, three at 1920.
LEGEND_BELOW = {"orientation": "h", "yref": "container", "y": 0, "yanchor": "bottom",
                "xref": "container", "x": 0, "xanchor": "left", "font": {"size": 10},
                "entrywidth": 120, "itemsizing": "constant", "traceorder": "normal"}
CHART_HEIGHT = 360
#: A legend row's height at LEGEND_BELOW's font, and the rows CHART_HEIGHT already leaves
#: room for: two columns in a half-width chart at 1280 px, so two rows are four entries.
LEGEND_ROW_PX = 20
LEGEND_ROWS_IN_HEIGHT = 2


def legend_room(entries: int) -> int:
    """Pixels to add to CHART_HEIGHT so a legend of ``entries`` below the plot (two per row,
    the narrowest layout) leaves the plot the height it has with two rows."""
    rows = -(-entries // 2)
    return LEGEND_ROW_PX * max(0, rows - LEGEND_ROWS_IN_HEIGHT)


_LAYOUT = {
    "height": CHART_HEIGHT,
    "margin": {"l": 10, "r": 10, "t": 40, "b": 10},
    "legend": LEGEND_BELOW,
    "hovermode": "closest",
}
#: A forest label's longest part name; longer names are cut in the middle (full in hover),
#: so the labels leave the plot most of a half-width column at 1280 px.
FOREST_LABEL_CHARS = 26


def threshold_line(
    y: float, text: str, line: dict[str, object], position: str = "top left",
    font_size: int | None = None,
) -> tuple[dict[str, object], dict[str, object]]:
    """The layout shape and annotation ``fig.add_hline(y, line=…, annotation_text=text,
    annotation_position=position, annotation_font_size=font_size)`` adds, as plain dicts for
    the figure's constructor: ``add_hline`` validates the whole layout again on each call,
    ~10 ms apiece (issue 15; docs/DECISIONS.md). ``position``: "top|bottom left|right"."""
    vertical, side = position.split()
    shape: dict[str, object] = {"type": "line", "xref": "x domain", "x0": 0, "x1": 1,
                                "yref": "y", "y0": y, "y1": y, "line": line}
    annotation: dict[str, object] = {
        "text": text, "showarrow": False, "xref": "x domain", "x": 0 if side == "left" else 1,
        "xanchor": side, "yref": "y", "y": y,
        "yanchor": "bottom" if vertical == "top" else "top"}
    if font_size is not None:
        annotation["font"] = {"size": font_size}
    return shape, annotation


def lines_layout(
    lines: Sequence[tuple[dict[str, object], dict[str, object]]],
) -> dict[str, list[dict[str, object]]]:
    """The ``shapes`` and ``annotations`` of a layout holding ``lines`` (``threshold_line``)."""
    return {"shapes": [shape for shape, _ in lines],
            "annotations": [annotation for _, annotation in lines]}


def stop_rule_lines(patience: int) -> list[tuple[dict[str, object], dict[str, object]]]:
    """The levels of the stale and cold counters at which the stop rules fire (§5), as
    dashed lines: the live chart and the what-if chart draw the same ones."""
    return [
        threshold_line(level, f"{label}: {level}",
                       {"dash": "dash", "color": colour, "width": 1}, "top left", 10)
        for level, label, colour in (
            (covered_stale_limit(patience), "coverage_reached once covered", "#2ca02c"),
            (patience, "saturated", "#d62728"),
            (COLD_PATIENCE * patience, "no_relevant_pages (cold)", "#7f7f7f"),
        )
    ]


@dataclass(frozen=True, slots=True)
class VerdictMark:
    """One stop verdict that fired, what became of it (``fate``), and the
    value of its counter when it fired (``level``: stale, or cold for no_relevant_pages)."""

    step: int
    reason: StopReason
    fate: VerdictFate
    level: int


def _fired_level(record: StepRecord) -> int:
    """The counter's value when the verdict fired (before any forgiveness reset it)."""
    if record.verdict is StopReason.NO_RELEVANT_PAGES:
        return record.verdict_cold
    return record.verdict_stale


def verdict_marks(
    steps: Sequence[StepRecord], overrides: Sequence[Override], config: CrawlConfig
) -> list[VerdictMark]:
    """Every step whose record carries a verdict, with its fate."""
    user_forgiven = {o.step for o in overrides if o.kind is OverrideKind.FORGIVE}
    marks = []
    for r in steps:
        if r.verdict is None:
            continue
        fate = r.verdict_fate
        if fate is not VerdictFate.NO_STOP and fate is not VerdictFate.AUTO_FORGIVEN:
            stood = r.step not in user_forgiven
            fate = VerdictFate.STOPPED if stood else VerdictFate.USER_FORGIVEN
        marks.append(VerdictMark(r.step, r.verdict, fate, _fired_level(r)))
    return marks


def _override_trace(overrides: Sequence[Override], first: int, top: float) -> Trace | None:
    """All overrides as one trace of vertical segments (cheaper than one shape each)."""
    shown = [o for o in overrides if o.step + 1 >= first]
    if not shown:
        return None
    xs = np.repeat(np.array([o.step + 0.5 for o in shown], dtype=float), 3)
    ys = np.tile(np.array([0.0, top, np.nan]), len(shown))
    texts = np.repeat(np.array([f"{o.kind.value} {o.target}".strip() for o in shown]), 3)
    return scatter(
        x=xs, y=ys, mode="lines", name="override", hovertext=texts, hoverinfo="text",
        line={"color": OVERRIDE_COLOUR, "dash": "dot", "width": 1.5},
    )


def _step_axis(x: np.ndarray) -> dict[str, object]:
    """Whole step numbers on the x axis (one tick per step while there are few)."""
    axis: dict[str, object] = {"title": text("step"), "tickformat": "d"}
    if len(x) and int(x[-1]) - int(x[0]) < 10:
        axis["dtick"] = 1
    return axis


def _window(steps: Sequence[StepRecord], window: int) -> Sequence[StepRecord]:
    return steps[-window:] if window > 0 else steps


def stale_cold_figure(
    steps: Sequence[StepRecord],
    config: CrawlConfig,
    overrides: Sequence[Override] = (),
    window: int = DEFAULT_WINDOW,
    marks: Sequence[tuple[int, str]] = (),
) -> go.Figure:
    """Stale and cold counters over steps against the thresholds that make the verdicts fire;
    ``marks`` are (step, label) of the what-if panel, drawn as dotted pink lines."""
    shown = _window(steps, window)
    patience = config.adaptive.patience
    x = np.fromiter((r.step for r in shown), dtype=np.int64, count=len(shown))
    stale = np.fromiter((r.stale for r in shown), dtype=np.int64, count=len(shown))
    cold = np.fromiter((r.cold for r in shown), dtype=np.int64, count=len(shown))
    mode = "lines+markers" if len(x) <= 100 else "lines"  # dots show each step's value
    traces: list[Trace] = [
        scatter(x=x, y=stale, name="stale", mode=mode, marker={"size": 4},
                line={"shape": "hv", "color": "#1f77b4"}),
        scatter(x=x, y=cold, name="cold", mode=mode, marker={"size": 4},
                line={"shape": "hv", "color": "#17becf"}),
    ]
    lines = stop_rule_lines(patience)
    first = int(x[0]) if len(x) else 1
    traces.extend(_verdict_traces(verdict_marks(shown, overrides, config)))
    top = float(COLD_PATIENCE * patience + 1)
    override = _override_trace(overrides, first, top)
    if override is not None:
        traces.append(override)
    for step, label in marks:
        if step >= first:
            traces.append(scatter(x=[step, step], y=[0.0, top], mode="lines", name=label,
                                  hoverinfo="name", line={"color": WHATIF_COLOUR,
                                                          "dash": "dot", "width": 1.5}))
    return plain_figure(traces, {
        "title": text("Stale and cold counters"), "xaxis": _step_axis(x),
        "yaxis": {"title": text("pages in a row"), "rangemode": "tozero"}, **_LAYOUT,
        **lines_layout(lines)})


def marker_symbols(symbols: Sequence[str]) -> str | list[str]:
    """A trace's marker symbols: one for all its points when they share it (the usual case:
    every verdict of a crawl past its stop is the same rule), else one a point. Plotly checks
    a list of symbols element by element against its ~500 names (a third of the stale chart's
    build with 120 verdict marks in its window; issue 15); the points are drawn the same."""
    if symbols and all(symbol == symbols[0] for symbol in symbols):
        return symbols[0]
    return list(symbols)


def _verdict_traces(marks: Sequence[VerdictMark]) -> list[Trace]:
    traces = []
    for fate, label in VERDICT_FATES.items():
        chosen = [m for m in marks if m.fate is fate]
        if not chosen:
            continue
        y = np.array([m.level for m in chosen])
        traces.append(scatter(
            x=np.array([m.step for m in chosen]), y=y, mode="markers",
            name=label.words, legendgroup="verdict",
            marker={"size": 12, "color": label.colour,
                    "symbol": marker_symbols([STOP_REASONS[m.reason].symbol for m in chosen])},
            hovertext=np.array([f"step {m.step}: {m.reason} ({label.words})" for m in chosen]),
            hoverinfo="text",
        ))
    return traces


def weight_switches(used: np.ndarray) -> np.ndarray:
    """Row indices where the weight in use differs from the row before."""
    if used.shape[0] < 2:
        return np.zeros(0, dtype=np.int64)
    return np.flatnonzero(np.diff(used) != 0) + 1


def weights_figure(
    steps: Sequence[StepRecord],
    config: CrawlConfig,
    feature: str,
    overrides: Sequence[Override] = (),
    window: int = DEFAULT_WINDOW,
) -> go.Figure:
    """One link-model feature over steps: weight in use, posterior mean ± Z1·se, prior."""
    i = FEATURE_NAMES.index(feature)
    shown = _window(steps, window)
    n = len(shown)
    x = np.fromiter((r.step for r in shown), dtype=np.int64, count=n)
    used = np.fromiter((r.link_weights[i] for r in shown), dtype=float, count=n)
    mean = np.fromiter((r.posterior_mean[i] for r in shown), dtype=float, count=n)
    se = np.fromiter((r.standard_error[i] for r in shown), dtype=float, count=n)
    z = z_one_sided(config.delta)
    prior = shown[-1].prior[i] if n else config.prior_weights[i]
    traces: list[Trace] = [
        scatter(x=x, y=mean + z * se, mode="lines", line={"width": 0}, showlegend=False,
                hoverinfo="skip"),
        scatter(x=x, y=mean - z * se, mode="lines", line={"width": 0}, fill="tonexty",
                fillcolor="rgba(31,119,180,0.18)", name=f"±{z:.2f}·se", hoverinfo="skip"),
        scatter(x=x, y=mean, mode="lines", name="posterior mean", line={"color": "#1f77b4"}),
        scatter(x=x, y=used, mode="lines", name="weight in use",
                line={"shape": "hv", "color": "#ff7f0e", "width": 3}),
    ]
    switches = weight_switches(used)
    if len(switches):
        traces.append(scatter(x=x[switches], y=used[switches], mode="markers",
                              name="switched", marker={"size": 10, "color": "#d62728"}))
    prior_line = threshold_line(prior, f"prior {prior:g}",
                                {"dash": "dash", "color": "#555", "width": 1}, "top left")
    finite = np.concatenate([mean + z * se, used, [prior]]) if n else np.array([prior])
    override = _override_trace(overrides, int(x[0]) if n else 1, float(np.nanmax(finite)))
    if override is not None:
        traces.append(override)
    return plain_figure(traces, {"title": text(f"Link weight: {feature}"),
                                 "xaxis": _step_axis(x), "yaxis": {"title": text("weight")},
                                 **_LAYOUT, **lines_layout([prior_line])})


def coverage_figure(steps: Sequence[StepRecord], config: CrawlConfig) -> go.Figure:
    """Evidence per query term after the last step, against ``evidence_per_term``."""
    opts = config.adaptive
    traces: list[Trace] = []
    if steps:
        last = steps[-1]
        evidence = np.array(last.evidence, dtype=float)
        weights = np.array(last.term_weights, dtype=float)
        colours = np.where(evidence >= opts.evidence_per_term, "#2ca02c", "#ff7f0e")
        traces.append(bar(
            x=np.array(last.terms), y=evidence, marker={"color": colours}, name="evidence",
            hovertext=np.array([f"{t}: {e:g} blocks, term weight {w:.2f}"
                                for t, e, w in zip(last.terms, evidence, weights, strict=True)]),
            hoverinfo="text",
        ))
    line = threshold_line(opts.evidence_per_term, f"evidence per term: {opts.evidence_per_term}",
                          {"dash": "dash", "color": "#2ca02c"}, "top right")
    note = _coverage_note(steps[-1], config) if steps else "no page yet"
    return plain_figure(traces, {
        "title": {"text": "Evidence per term", "subtitle": {"text": note}},
        "yaxis": {"title": text("evidence blocks"), "rangemode": "tozero"},
        **_LAYOUT, "margin": {"l": 10, "r": 10, "t": 60, "b": 10}, "showlegend": False,
        **lines_layout([line])})


def _coverage_note(last: StepRecord, config: CrawlConfig) -> str:
    threshold = config.adaptive.coverage_threshold
    sources_ok = last.sources >= MIN_SOURCES
    state = "covered" if last.covered else "not covered yet"
    return (
        f"coverage {last.coverage:.0%} (needs {threshold:.0%}) · sources {last.sources}/"
        f"{MIN_SOURCES} {'met' if sources_ok else 'NOT met'} → {state}"
    )


def _sorted_parts(rows: Sequence[PartStats], sort_by: str) -> list[PartStats]:
    if sort_by == "estimate":
        return sorted(rows, key=lambda r: (-(r.hits / r.pages if r.pages else 0.0), r.part))
    if sort_by == "name":
        return sorted(rows, key=lambda r: r.part)
    return sorted(rows, key=lambda r: (-r.pages, r.part))


def _cut(name: str, limit: int = FOREST_LABEL_CHARS) -> str:
    """``name`` at most ``limit`` characters, cut in the middle (both ends tell a path)."""
    if len(name) <= limit:
        return name
    head = (limit - 1) // 2
    return f"{name[:head]}…{name[len(name) - (limit - 1 - head):]}"


def forest_label(row: PartStats) -> str:
    """The y label: the part (cut to fit), its hits/pages, a forced state (unique per row:
    the counts and the part's ends tell two cut names apart in practice; the hover text
    has the full name)."""
    forced = f" [forced {row.forced}]" if row.forced else ""
    return f"{_cut(row.part)} ({row.hits}/{row.pages}){forced}"


def _forest_hover(row: PartStats) -> str:
    rate = row.hits / row.pages if row.pages else 0.0
    return (f"{row.part}: {row.hits}/{row.pages} = {rate:.2f}, interval {row.low:.2f}–"
            f"{row.high:.2f}; rest {row.rest_low:.2f}–{row.rest_high:.2f}")


def _rest_band(shown: Sequence[PartStats], labels: np.ndarray) -> Trace:
    """The rest of the site's interval per row, drawn as a thick translucent bar."""
    low = np.array([r.rest_low for r in shown], dtype=float)
    high = np.array([r.rest_high for r in shown], dtype=float)
    mid = (low + high) / 2
    return scatter(
        x=mid, y=labels, mode="markers", name="rest of the site", cliponaxis=False,
        marker={"size": 1, "color": "rgba(150,150,150,0.35)"},
        error_x={"type": "data", "symmetric": False, "array": high - mid,
                 "arrayminus": mid - low, "thickness": 12, "width": 0,
                 "color": "rgba(150,150,150,0.35)"},
        hovertext=np.array([f"rest: {a:.2f}–{b:.2f}" for a, b in zip(low, high, strict=True)]),
        hoverinfo="text",
    )


def forest_figure(rows: Sequence[PartStats], sort_by: str = "pages") -> go.Figure:
    """Wilson interval per subtree (coloured by state) against the rest of the site (grey).

    The figure grows 22 px per row, so 26+ subtrees keep a readable plot; points at 0 and 1
    are drawn whole (``cliponaxis`` off, a margin on the axis range).
    """
    if sort_by not in FOREST_SORTS:
        raise ValueError(f"sort_by must be one of {FOREST_SORTS}, got {sort_by!r}")
    shown = _sorted_parts(rows, sort_by)[:MAX_FOREST_ROWS]
    labels = np.array([forest_label(r) for r in shown])
    hover = np.array([_forest_hover(r) for r in shown])
    low = np.array([r.low for r in shown], dtype=float)
    high = np.array([r.high for r in shown], dtype=float)
    est = np.array([r.hits / r.pages if r.pages else 0.0 for r in shown], dtype=float)
    traces = [_rest_band(shown, labels)]
    for state, label in SUBTREE_STATES.items():
        pick = np.array([r.state == state for r in shown], dtype=bool)
        if not pick.any():
            continue
        traces.append(scatter(
            x=est[pick], y=labels[pick], mode="markers", name=label.words, cliponaxis=False,
            marker={"size": 9, "color": label.colour}, hovertext=hover[pick],
            hoverinfo="text",
            error_x={"type": "data", "symmetric": False, "array": high[pick] - est[pick],
                     "arrayminus": est[pick] - low[pick], "thickness": 2,
                     "color": label.colour},
        ))
    return plain_figure(traces, {
        # not "Harvest": the tile of that name is relevant pages ÷ pages (found by using
        # the app); this is the harvest statistics' hit rate, a page with new evidence
        "title": text("New evidence per subtree (Wilson interval)"),
        "xaxis": {"title": text("share of pages with new content"), "range": [-0.04, 1.04]},
        "yaxis": {"categoryorder": "array", "categoryarray": labels[::-1], "type": "category",
                  "tickfont": {"size": 10}},
        **_LAYOUT, "height": max(CHART_HEIGHT, 170 + 22 * len(shown))})


def switch_counts(steps: Sequence[StepRecord], window: int = DEFAULT_WINDOW) -> dict[str, int]:
    """How often each feature's weight in use switched within the drawn window."""
    shown = _window(steps, window)
    if len(shown) < 2:
        return dict.fromkeys(FEATURE_NAMES, 0)
    used = np.array([r.link_weights for r in shown], dtype=float)
    changed = (np.diff(used, axis=0) != 0).sum(axis=0)
    return {name: int(n) for name, n in zip(FEATURE_NAMES, changed, strict=True)}
