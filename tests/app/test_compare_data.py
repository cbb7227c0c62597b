"""The data behind the Compare, Sweeps and Link model pages, on hand-made records and tables:
exact numbers, worked out by hand in the comments."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import pandas as pd
import pytest

from components.compare_charts import (
    StopMark,
    XAxis,
    compare_figure,
    differences_frame,
    recall_missing,
    series_of,
    stop_marks,
    summary_frame,
    uses_recall,
)
from components.compare_set import Compared, Origin, add_compared, saved_view
from components.linkquality import quality_frame
from components.sweepview import grid_keys, grid_label, heatmap_figure, key_of_event
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import CrawlConfig, Override, OverrideKind, VerdictFate
from pagesift_ui.session.view import SessionView
from pagesift_ui.store import SessionInfo, SessionStatus, StoredSession
from pagesift_ui.store.replay import SessionEvent
from pagesift_ui.sweep.results import (
    heatmap_grid,
    metric_columns,
    model_curve,
    session_curve,
    swept_settings,
)
from tests.app.test_components import CONFIG, SEED, make_record

# -- sweep tables -------------------------------------------------------------------------


def cells() -> pd.DataFrame:
    """Two strategies × two patiences × two queries; one cell failed, one lacks a value."""
    rows = [
        ("a", "ok", "q1", "focused", 3, 0.5), ("b", "ok", "q2", "focused", 3, 0.25),
        ("c", "ok", "q1", "thompson", 3, 0.75), ("d", "ok", "q2", "thompson", 3, None),
        ("e", "ok", "q1", "focused", 5, 1.0), ("f", "failed", "q2", "focused", 5, 0.0),
        ("g", "ok", "q1", "thompson", 5, 0.125), ("h", "ok", "q2", "thompson", 5, 0.375),
    ]
    frame = pd.DataFrame(rows, columns=["cell_id", "status", "query", "strategy", "patience",
                                        "harvest"])
    frame["limit"] = 20  # the same everywhere: not swept
    frame["elapsed_s"] = 1.5
    return frame


def test_swept_settings_and_metrics_of_a_cells_table() -> None:
    table = cells()
    assert swept_settings(table) == ["query", "patience", "strategy"]
    assert metric_columns(table) == ["harvest"]  # elapsed_s and the settings are not metrics


def test_the_heatmap_grid_aggregates_and_filters_exactly() -> None:
    grid = heatmap_grid(cells(), "strategy", "patience", "harvest", "mean")
    assert (grid.x_values, grid.y_values) == (("focused", "thompson"), ("3", "5"))
    # patience 3: focused (0.5 + 0.25) / 2, thompson 0.75 (d has no value);
    # patience 5: focused 1.0 (f failed), thompson (0.125 + 0.375) / 2
    assert grid.values == ((0.375, 0.75), (1.0, 0.25))
    assert grid.cell_ids == ((("a", "b"), ("c", "d")), (("e",), ("g", "h")))
    only = heatmap_grid(cells(), "strategy", "patience", "harvest", "max", {"query": "q2"})
    assert only.values == ((0.25, None), (None, 0.375))
    assert only.cell_ids == ((("b",), ("d",)), ((), ("h",)))
    assert grid_keys(only) == ["0,0", "0,1", "1,1"]
    assert grid_label(only, "0,1") == "patience=3 · strategy=thompson → – (1 cell)"
    assert grid_label(grid, "1,1") == "patience=5 · strategy=thompson → 0.25 (2 cells)"
    with pytest.raises(ValueError, match="two different settings"):
        heatmap_grid(cells(), "strategy", "strategy", "harvest")
    with pytest.raises(ValueError, match="aggregate must be one of"):
        heatmap_grid(cells(), "strategy", "patience", "harvest", "sum")


def test_the_heatmap_figure_and_a_click_on_it() -> None:
    grid = heatmap_grid(cells(), "strategy", "patience", "harvest", "max", {"query": "q2"})
    heat, markers = heatmap_figure(grid).data
    assert np.array_equal(np.asarray(heat.z), [[0.25, np.nan], [np.nan, 0.375]],
                          equal_nan=True)
    assert list(markers.customdata) == ["0,0", "0,1", "1,0", "1,1"]
    assert key_of_event({"selection": {"points": [{"customdata": "1,1"}]}}, grid) == "1,1"
    # no customdata: the point's x and y; a cell with nothing behind it is no pick
    assert key_of_event({"selection": {"points": [{"x": "thompson", "y": "3"}]}},
                        grid) == "0,1"
    assert key_of_event({"selection": {"points": [{"x": "focused", "y": "5"}]}},
                        grid) is None
    assert key_of_event({"selection": {"points": []}}, grid) is None
    assert key_of_event(None, grid) is None


# -- curves of sessions -------------------------------------------------------------------


def records() -> list[Any]:
    """Five steps: relevant pages 0, 1, 1, 2, 2 of pages 1, 2, 2 (a duplicate), 3, 4; a
    saturated verdict recorded at step 3 (the crawl went on), the limit at step 5."""
    pages, relevant = (1, 2, 2, 3, 4), (0, 1, 1, 2, 2)
    out = []
    for step, (n, r) in enumerate(zip(pages, relevant, strict=True), start=1):
        out.append(make_record(step, url=f"{SEED}p{step}", final_url=f"{SEED}p{step}",
                               pages_fetched=n, relevant_pages=r, coverage=step / 10,
                               posterior_mean=(2.0 + step, 1.5, 1.0, 0.5, 0.5)))
    out[2] = make_record(3, url=f"{SEED}p3", final_url=f"{SEED}p3", pages_fetched=2,
                         relevant_pages=1, coverage=0.3, verdict=StopReason.SATURATED,
                         verdict_fate=VerdictFate.NO_STOP,
                         posterior_mean=(5.0, 1.5, 1.0, 0.5, 0.5))
    out[4] = make_record(5, url=f"{SEED}p5", final_url=f"{SEED}p5", pages_fetched=4,
                         relevant_pages=2, coverage=0.5, verdict=StopReason.LIMIT_REACHED,
                         verdict_fate=VerdictFate.STOPPED, stopped=True,
                         posterior_mean=(7.0, 1.5, 1.0, 0.5, 0.5))
    return out


def view(config: CrawlConfig = CONFIG) -> SessionView:
    final = {"stop_reason": "limit_reached", "first_verdict": "saturated", "stop_step": 3}
    return SessionView(config, records(), [], {}, final, {})


def test_session_curve_counts_recall_harvest_and_the_stop() -> None:
    truth = [f"{SEED}p2", f"{SEED}p4", f"{SEED}elsewhere", f"{SEED}p9"]
    curve = session_curve(records(), truth)
    assert [p.recall for p in curve] == [0.0, 0.25, 0.25, 0.5, 0.5]
    assert [p.harvest for p in curve] == [0.0, 0.5, 0.5, 2 / 3, 0.5]
    assert [p.stopped for p in curve] == [False, False, False, False, True]
    assert [p.recall for p in session_curve(records())] == [None] * 5


def test_series_marks_the_own_stop_and_the_later_end() -> None:
    entry = Compared("k", "a", Origin.BUNDLE, view(), (0.0, 0.25, 0.25, 0.5, 0.5))
    assert stop_marks(entry) == (StopMark(3, StopReason.SATURATED, end=False),
                                 StopMark(5, StopReason.LIMIT_REACHED, end=True))
    series = series_of(entry, XAxis.PAGES, recall=True)
    assert series.x == (1, 2, 2, 3, 4) and series.found == (0.0, 0.25, 0.25, 0.5, 0.5)
    assert series.coverage == (0.1, 0.2, 0.3, 0.4, 0.5)
    assert [w[0] for w in series.weights] == [3.0, 4.0, 5.0, 6.0, 7.0]
    relevant = series_of(entry, XAxis.STEP, recall=False)
    assert relevant.x == (1, 2, 3, 4, 5) and relevant.found == (0.0, 1.0, 1.0, 2.0, 2.0)
    fig = compare_figure([series], XAxis.PAGES, True, "anchor")
    stops = [t for t in fig.data if t.name == "a: stops" and t.meta["panel"] == 0]
    assert list(stops[0].x) == [2, 4] and list(stops[0].y) == [0.25, 0.5]
    assert list(stops[0].marker.symbol) == ["x", "square-open"]
    with pytest.raises(ValueError, match="feature must be one of"):
        compare_figure([series], XAxis.PAGES, True, "depth")


def test_recall_is_drawn_only_when_every_session_has_it() -> None:
    with_truth = Compared("k1", "a", Origin.BUNDLE, view(), (0.0,) * 5)
    without = Compared("k2", "b", Origin.BUNDLE, view(), None)
    assert uses_recall([with_truth]) and not uses_recall([with_truth, without])
    assert not uses_recall([])
    # a mixed table keeps the recall columns, empty for the session without: the page
    # shows "—" there and says why
    assert recall_missing([with_truth, without])
    assert not recall_missing([with_truth]) and not recall_missing([without])
    with pytest.raises(ValueError, match="no truth"):
        series_of(without, XAxis.PAGES, recall=True)


def test_summary_and_setting_differences_tables() -> None:
    other = CrawlConfig.from_mapping({**CONFIG.to_dict(), "limit": 30,
                                      "prior_weights": [1.0, 1.5, 1.0, 0.5, 0.25],
                                      "dispersion_cap": 4})
    entries = [Compared("k1", "a", Origin.BUNDLE, view(), (0.0, 0.25, 0.25, 0.5, 0.5)),
               Compared("k2", "b", Origin.SAVED, view(other), None)]
    (first, second) = summary_frame(entries).to_dict("records")
    assert first == {"session": "a", "from": "bundle", "query": CONFIG.query, "steps": 5,
                     "pages": 4,
                     "relevant pages": 2, "harvest": 0.5, "stop step": 3,
                     "stop reason": "saturated", "recall at stop": 0.25,
                     "final recall": 0.5, "coverage": 0.5, "ended": "limit_reached"}
    assert pd.isna(second["recall at stop"]) and second["from"] == "saved"
    assert differences_frame(entries).to_dict("records") == [
        {"setting": "limit", "a": str(CONFIG.limit), "b": "30"},
        {"setting": "dispersion_cap", "a": "auto", "b": "4"},
        {"setting": "prior_weights", "a": "2, 1.5, 1, 0.5, 0.5", "b": "1, 1.5, 1, 0.5, 0.25"},
    ]
    assert differences_frame(entries[:1]).empty
    # without any truth set the recall columns are left out ("None" in every row)
    assert "final recall" not in summary_frame(entries[1:]).columns
    assert "recall at stop" not in summary_frame(entries[1:]).columns


def test_a_saved_session_reads_its_stop_off_its_records() -> None:
    steps = records()
    # a verdict the crawler forgave itself at step 2 does not count as the stop
    steps[1] = make_record(2, pages_fetched=2, relevant_pages=1,
                           verdict=StopReason.COVERAGE_REACHED,
                           verdict_fate=VerdictFate.AUTO_FORGIVEN)
    info = SessionInfo("s1", 0.0, 0.0, "q", SEED, "", 5, SessionStatus.DONE, "limit_reached")
    saved = StoredSession(info, CONFIG, tuple(steps), (), ())
    got = saved_view(saved)
    assert (got.stop_step, got.first_verdict, got.stop_reason) == (
        3, StopReason.SATURATED, StopReason.LIMIT_REACHED)


def test_a_saved_session_whose_budget_was_raised_stops_at_its_new_budget() -> None:
    # raised 2 -> 5 pages: Compare read "stop step 2 · limit_reached" for it, where the
    # bundle, the CLI and the explorer said 5 (found by using the app)
    steps = [make_record(step, url=f"{SEED}p{step}", final_url=f"{SEED}p{step}",
                         pages_fetched=step, pages_scheduled=step) for step in range(1, 6)]
    for step in (2, 5):
        steps[step - 1] = make_record(step, url=f"{SEED}p{step}", pages_fetched=step,
                                      pages_scheduled=step, verdict=StopReason.LIMIT_REACHED,
                                      verdict_fate=VerdictFate.STOPPED, stopped=True)
    raised = Override(2, OverrideKind.RAISE_LIMIT, "5", note="page budget raised from 2 to 5")
    info = SessionInfo("s1", 0.0, 0.0, "q", SEED, "", 5, SessionStatus.DONE, "limit_reached")
    config = CrawlConfig.from_mapping({**CONFIG.to_dict(), "limit": 2})
    got = saved_view(StoredSession(info, config, tuple(steps), (SessionEvent(2, raised),), ()))
    assert (got.stop_step, got.first_verdict) == (5, StopReason.LIMIT_REACHED)
    entries = [Compared("k1", "raised", Origin.SAVED, got, None),
               Compared("k2", "plain", Origin.BUNDLE, view(config), None)]
    # the budget each ran to, not the config's first one
    assert {"setting": "limit", "raised": "5", "plain": "2"} in (
        differences_frame(entries).to_dict("records"))


def test_a_name_taken_by_another_source_gets_a_number() -> None:
    state: dict[str | int, Any] = {}
    for key in ("k1", "k2", "k3"):
        add_compared(state, Compared(key, "cell", Origin.CELL, view()))
    add_compared(state, Compared("k2", "cell", Origin.CELL, view()))  # k2 again: replaced
    assert [(e.key, e.name) for e in state["compare"]] == [
        ("k1", "cell"), ("k3", "cell (3)"), ("k2", "cell (2)")]


# -- link-model quality -------------------------------------------------------------------


def test_the_link_model_scores_against_the_prior_only_model() -> None:
    # two labelled links: predicted 0.8 (relevant) and 0.4 (not); the prior-only model
    # 0.5 and 0.5. The seed (no prediction) is left out.
    steps = [make_record(1, predicted=None, prior_predicted=None),
             make_record(2, predicted=0.8, prior_predicted=0.5, relevance=0.9),
             make_record(3, predicted=0.4, prior_predicted=0.5, relevance=0.0)]
    points = model_curve(steps, window=1)
    assert [(p.step, p.n) for p in points] == [(2, 1), (3, 2)]
    last = points[-1]
    assert last.log_loss == pytest.approx(-(math.log(0.8) + math.log(0.6)) / 2, abs=1e-15)
    assert last.brier == pytest.approx((0.2 ** 2 + 0.4 ** 2) / 2, abs=1e-15)  # 0.1
    assert (last.auc, last.prior_auc) == (1.0, 0.5)  # the prior's tie counts ½
    assert last.prior_log_loss == pytest.approx(math.log(2), abs=1e-15)
    assert last.prior_brier == 0.25
    # the window of 1 holds the last link only: −ln 0.6; one class, so no AUC
    assert last.window_log_loss == pytest.approx(-math.log(0.6), abs=1e-15)
    assert last.window_auc is None and last.window_prior_brier == 0.25
    table = quality_frame(points, 1).fillna(-1.0)  # -1: undefined (one class)
    assert table.to_dict("records") == [
        {"score": "Log-loss", "model": 0.367, "prior only": 0.6931,
         "model, last 1": 0.5108, "prior only, last 1": 0.6931},
        {"score": "Brier score", "model": 0.1, "prior only": 0.25,
         "model, last 1": 0.16, "prior only, last 1": 0.25},
        {"score": "AUC", "model": 1.0, "prior only": 0.5,
         "model, last 1": -1.0, "prior only, last 1": -1.0},
    ]


def test_sessions_past_the_palette_are_told_apart_by_their_dash() -> None:
    # sessions 1, 11 and 21 were drawn in one colour and one dash
    entries = [Compared(f"k{i}", f"s{i}", Origin.BUNDLE, view(), None) for i in range(21)]
    fig = compare_figure([series_of(e, XAxis.STEP, recall=False) for e in entries],
                         XAxis.STEP, False)
    lines = {t.name: (t.line.color, t.line.dash) for t in fig.data
             if t.mode == "lines" and t.meta == {"panel": 0}}
    assert len(set(lines.values())) == 21
    assert lines["s0"][0] == lines["s10"][0] == lines["s20"][0]
    assert fig.layout.height > compare_figure([series_of(entries[0], XAxis.STEP, False)],
                                              XAxis.STEP, False).layout.height


def test_two_sessions_on_one_path_are_both_seen() -> None:
    # the second run's line lay exactly over the first's: a class thought it had no data
    # (found by teaching with the app); the one drawn first is drawn wider
    entries = [Compared(f"k{i}", f"s{i}", Origin.BUNDLE, view(), None) for i in range(2)]
    fig = compare_figure([series_of(e, XAxis.STEP, recall=False) for e in entries],
                         XAxis.STEP, False)
    widths = [t.line.width for t in fig.data if t.mode == "lines" and t.meta == {"panel": 0}]
    assert widths == [3.5, 2.0]
