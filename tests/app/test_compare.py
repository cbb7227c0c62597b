"""The Compare, Sweeps and Link model pages in AppTest, on real crawls of the demo web.

Saved sessions and bundles come from short crawls of the bundled university demo on
127.0.0.1; the sweep folder is written by the sweep's own cell runner and table writer
(``run_cell``, ``write_cell``, ``write_tables``: what a Dask worker and the client do, without
the cluster) over a snapshot of that demo. Pages are opened the way a callback opens them:
``goto`` in session state, honoured by ``app.py`` at the start of the next run.
"""

from __future__ import annotations

import base64
import dataclasses
import json
import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest
from streamlit.testing.v1 import AppTest

from components.export import export_json
from pagesift_ui.bench.truth import url_keys
from pagesift_ui.demo import shared_demo, start_demo
from pagesift_ui.errors import BundleError
from pagesift_ui.frontier.adaptive import MIN_RELEVANCE
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.bundle import load_bundle
from pagesift_ui.session.view import SessionView
from pagesift_ui.store import SessionStore, StoreSink, start_session
from pagesift_ui.sweep import load_spec, run_cell
from pagesift_ui.sweep.results import cell_snapshot, load_results
from pagesift_ui.sweep.tables import write_cell, write_tables
from tests.sweep.conftest import run_cli

APP = Path(__file__).resolve().parents[2] / "app.py"
SCENARIO = "university"
OTHER_QUERY = "library opening hours"


# -- fixtures and helpers -----------------------------------------------------------------


@pytest.fixture
def at() -> Iterator[AppTest]:
    app = AppTest.from_file(str(APP), default_timeout=60)
    app.run()
    assert not app.exception
    yield app
    session = app.session_state["session"] if "session" in app.session_state else None
    if isinstance(session, CrawlSession):
        session.close()


@pytest.fixture(scope="module")
def sweep_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """8 cells (2 queries × strategy × patience) of 15 pages on a 40-page snapshot."""
    folder = tmp_path_factory.mktemp("compare-sweep")
    snapshot, truth = folder / "uni.warc.gz", folder / "uni.truth"
    with start_demo(SCENARIO) as server:
        server.write_truth(truth)
        code, _, err = run_cli("snapshot", server.seed_url, "--out", str(snapshot),
                               "--limit", "40", "--quiet")
    assert code == 0, err
    (folder / "sweep.toml").write_text(f"""
[[snapshots]]
name = "{SCENARIO}"
path = "{snapshot}"

[[queries]]
name = "truth"
truth = "{truth}"

[[queries]]
name = "other"
text = "{OTHER_QUERY}"

[settings]
limit = 15
stop_on_verdict = false

[grid]
strategy = ["focused", "thompson"]
patience = [2, 4]
""", encoding="utf-8")
    spec = load_spec(folder / "sweep.toml")
    out = folder / "results"
    for cell in spec.cells:
        result = run_cell(cell, spec.payload(cell.snapshot_digest))
        assert result.ok, result.row["error"]
        write_cell(out, result)
    assert write_tables(out, spec)[0] == 8
    return out


def goto(at: AppTest, page: str) -> None:
    at.session_state["goto"] = page
    at.run()
    assert not at.exception


def array(value: Any) -> np.ndarray:
    """A plotly spec's array: a list, or numpy's ``{"dtype", "bdata", "shape"}`` form."""
    if isinstance(value, dict) and "bdata" in value:
        out = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        shape = value.get("shape")
        return out.reshape([int(n) for n in str(shape).split(",")]) if shape else out
    return np.asarray(value)


def spec_of(at: AppTest, key: str) -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(at.get_by_key(key).proto.spec)
    return spec


#: Each page's tables by their first column (AppTest gives a data frame no key).
FIRST_COLUMN = {"compare_differences": "setting", "compare_summary": "session",
                "sweep_cells": "cell_id", "quality_table": "score"}


def frame(at: AppTest, key: str) -> pd.DataFrame:
    (value,) = [d.value for d in at.dataframe
                if len(d.value.columns) and d.value.columns[0] == FIRST_COLUMN[key]]
    assert isinstance(value, pd.DataFrame)
    return value


def recall_by_hand(steps: list[StepRecord], truth: list[str]) -> list[float]:
    keys, found, out = url_keys(truth), set(), []
    for record in steps:
        found |= url_keys((record.url, record.final_url)) & keys
        out.append(len(found) / len(keys))
    return out


def saved_crawl(patience: int, steps: int) -> tuple[str, CrawlSession]:
    """A crawl of the demo saved in the test's store, ``steps`` steps taken."""
    config = CrawlConfig.from_mapping({
        # the scenario's own query: recall needs the answers of the query asked
        "seed_url": shared_demo(SCENARIO).seed_url, "query": shared_demo(SCENARIO).site.query,
        "limit": 12, "adaptive": {"patience": patience}})
    store = SessionStore()
    session = start_session(store, config)
    saving = session.find_sink(StoreSink)
    assert saving is not None
    session.run(max_steps=steps)
    session.close()
    store.close()
    return saving.session_id, session


def traces(spec: dict[str, Any], panel: int, name: str) -> dict[str, Any]:
    return next(t for t in spec["data"]
                if t["meta"]["panel"] == panel and t["name"] == name)


# -- the Compare page ---------------------------------------------------------------------


def test_two_saved_sessions_compare_curves_stops_and_differences(at: AppTest) -> None:
    first, live_a = saved_crawl(patience=3, steps=6)
    second, live_b = saved_crawl(patience=5, steps=9)
    goto(at, "compare")
    assert at.title[0].value == "Compare crawls"
    at.multiselect(key="compare_saved").set_value([first, second]).run()
    at.button(key="compare_add_saved").click().run()
    assert not at.exception
    names = [f"saved {first}", f"saved {second}"]
    assert [e.name for e in at.session_state.compare] == names
    # only the setting that differs, each session's value as text
    assert frame(at, "compare_differences").to_dict("records") == [
        {"setting": "patience", names[0]: "3", names[1]: "5"}]
    spec = spec_of(at, "compare_chart")
    titles = [a["text"] for a in spec["layout"]["annotations"]]
    assert titles == ["Recall", "Harvest", "Coverage", "Link weight learned: anchor"]
    truth = shared_demo(SCENARIO).truth_urls()
    for name, live in zip(names, (live_a, live_b), strict=True):
        recall = traces(spec, 0, name)
        assert list(array(recall["x"])) == [r.pages_fetched for r in live.steps]
        assert list(array(recall["y"])) == recall_by_hand(live.steps, truth)
        coverage = traces(spec, 2, name)
        assert list(array(coverage["y"])) == [r.coverage for r in live.steps]
    # every panel shares the one x axis
    assert {t.get("xaxis", "x") for t in spec["data"]} == {"x", "x2", "x3", "x4"}
    assert [spec["layout"][f"xaxis{n}"].get("matches") for n in ("", 2, 3, 4)] == [
        "x3", "x3", None, "x3"]  # plotly ties them to the bottom-left one
    summary = frame(at, "compare_summary")
    assert list(summary["session"]) == names
    assert list(summary["steps"]) == [6, 9]
    # an empty cell reads "—", not "None" (found by using the app)
    (shown,) = [d for d in at.dataframe if d.value is summary or d.value.equals(summary)]
    assert shown.proto.placeholder == "—"
    assert list(summary["pages"]) == [live_a.pages_fetched, live_b.pages_fetched]
    for row, live in zip(summary.to_dict("records"), (live_a, live_b), strict=True):
        stop = live.stop_step
        assert (None if pd.isna(row["stop step"]) else row["stop step"]) == stop
        reason = live.first_verdict.value if live.first_verdict else ""
        assert row["stop reason"] == reason


def test_bundles_and_the_open_session_are_compared(at: AppTest) -> None:
    seed, query = shared_demo(SCENARIO).seed_url, at.text_input(key="query").value
    bundles = []
    for limit in (5, 7):
        config = CrawlConfig.from_mapping({"seed_url": seed, "query": query, "limit": limit})
        with CrawlSession(config) as session:
            session.run()
            bundles.append((f"limit-{limit}.json", export_json(session).encode(),
                            "application/json"))
    at.button(key="start").click().run()
    for _ in range(3):
        at.button(key="step").click().run()
    goto(at, "compare")
    at.file_uploader(key="compare_upload").set_value(bundles).run()
    at.button(key="compare_add_open").click().run()
    assert not at.exception and not at.error
    names = ["limit-5.json", "limit-7.json", "open session at step 3"]
    assert [e.name for e in at.session_state.compare] == names
    differences = frame(at, "compare_differences").to_dict("records")
    assert differences == [
        {"setting": "limit", names[0]: "5", names[1]: "7",
         names[2]: str(at.session_state.session.config.limit)}]
    summary = frame(at, "compare_summary")
    views = [load_bundle(data) for _, data, _ in bundles]
    assert list(summary["steps"]) == [len(views[0].steps), len(views[1].steps), 3]
    assert list(summary["ended"])[:2] == ["limit_reached", "limit_reached"]
    spec = spec_of(at, "compare_chart")
    mark = next(t for t in spec["data"]
                if t["name"] == f"{names[1]}: stops" and t["meta"]["panel"] == 1)
    assert mark["meta"]["steps"][-1] == len(views[1].steps)
    assert mark["meta"]["reasons"][-1] == "limit_reached"
    # removing one leaves the others
    at.multiselect(key="compare_remove").set_value([names[0]]).run()
    at.button(key="compare_remove_button").click().run()
    assert [e.name for e in at.session_state.compare] == names[1:]


def test_an_upload_reads_only_the_files_new_to_the_uploader(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the uploader hands back every file still in it at each change: a removed bundle came
    # back with the next upload, and old errors repeated with each one
    import types

    import components.compare as compare
    from components.compare_set import COMPARE_DEFAULTS

    seed = shared_demo(SCENARIO).seed_url
    config = CrawlConfig.from_mapping({"seed_url": seed, "query": "fees", "limit": 3})
    with CrawlSession(config) as session:
        session.run()
        data = export_json(session).encode()

    class Uploaded:
        def __init__(self, file_id: str, name: str, content: bytes) -> None:
            self.file_id, self.name, self._content = file_id, name, content

        def getvalue(self) -> bytes:
            return self._content

    state: dict[str, Any] = dict(COMPARE_DEFAULTS)
    monkeypatch.setattr(compare, "st", types.SimpleNamespace(session_state=state))
    good, bad = Uploaded("1", "good.json", data), Uploaded("2", "bad.json", b"{")
    state["compare_upload"] = [good, bad]
    compare.on_compare_upload()
    assert [e.name for e in state["compare"]] == ["good.json"]
    assert state["compare_error"].startswith("bad.json: ")
    state["compare"] = ()  # removed on the page
    state["compare_upload"] = [good, bad, Uploaded("3", "new.json", data)]
    compare.on_compare_upload()
    assert [e.name for e in state["compare"]] == ["new.json"] and state["compare_error"] is None


# -- the Sweeps page ----------------------------------------------------------------------


def open_sweep(at: AppTest, folder: Path) -> pd.DataFrame:
    goto(at, "sweeps")
    at.text_input(key="sweep_folder").input(str(folder)).run()
    at.button(key="sweep_open").click().run()
    assert not at.exception and not at.error
    return pd.read_parquet(folder / "cells.parquet")


def heatmap_trace(at: AppTest) -> dict[str, Any]:
    spec = spec_of(at, "sweep_heatmap")
    trace: dict[str, Any] = next(t for t in spec["data"] if t["type"] == "heatmap")
    return trace


def test_the_heatmap_holds_the_results_tables_values(at: AppTest, sweep_folder: Path
                                                       ) -> None:
    cells = open_sweep(at, sweep_folder)
    assert at.session_state.sweep_folders == (str(sweep_folder),)
    at.selectbox(key="sweep_metric").set_value("harvest").run()
    at.selectbox(key="sweep_x").set_value("strategy").run()
    at.selectbox(key="sweep_y").set_value("patience").run()
    assert at.selectbox(key="sweep_filter_query").value == "(all: aggregate)"
    trace = heatmap_trace(at)
    assert trace["x"] == ["focused", "thompson"] and trace["y"] == ["2", "4"]
    means = cells.groupby(["patience", "strategy"])["harvest"].mean()
    assert array(trace["z"]).tolist() == [
        [means[(p, s)] for s in ("focused", "thompson")] for p in (2, 4)]
    # one query only, and another metric: each value is one cell's
    at.selectbox(key="sweep_filter_query").set_value("truth").run()
    at.selectbox(key="sweep_metric").set_value("recall_at_stop").run()
    at.selectbox(key="sweep_aggregate").set_value("max").run()
    truth = cells[cells["query"] == "truth"].set_index(["patience", "strategy"])
    assert array(heatmap_trace(at)["z"]).tolist() == [
        [truth.loc[(p, s), "recall_at_stop"] for s in ("focused", "thompson")]
        for p in (2, 4)]


def test_the_sweeps_folder_field_refuses_nothing_and_a_new_folder_resets_the_axes(
    at: AppTest, sweep_folder: Path
) -> None:
    goto(at, "sweeps")
    at.button(key="sweep_open").click().run()  # the app's working folder was opened
    assert at.error[0].value.startswith("Type the results folder")
    open_sweep(at, sweep_folder)
    first = at.selectbox(key="sweep_x").value
    at.selectbox(key="sweep_x").set_value("snapshot").run()
    assert first != "snapshot" and at.selectbox(key="sweep_x").value == "snapshot"
    # opened again (another sweep's folder would not sweep what the axes show): the axes
    # start from its own swept settings
    at.text_input(key="sweep_folder").input(str(sweep_folder) + "/").run()  # Enter opens
    assert at.selectbox(key="sweep_x").value == first


def test_a_picked_cell_opens_in_compare_and_in_the_explorer(at: AppTest, sweep_folder: Path
                                                            ) -> None:
    cells = open_sweep(at, sweep_folder)
    steps = pd.read_parquet(sweep_folder / "steps.parquet")
    at.selectbox(key="sweep_x").set_value("strategy").run()
    at.selectbox(key="sweep_y").set_value("patience").run()
    at.selectbox(key="sweep_pick").set_value("1,0").run()  # patience 4, focused
    chosen = cells[(cells["patience"] == 4) & (cells["strategy"] == "focused")]
    assert sorted(frame(at, "sweep_cells")["cell_id"]) == sorted(chosen["cell_id"])
    at.button(key="sweep_compare").click().run()
    assert not at.exception
    assert at.title[0].value == "Compare crawls"  # the page switched
    entries = at.session_state.compare
    assert [e.session.steps[-1].step for e in entries] == list(chosen["steps"])
    truth_cell = chosen[chosen["query"] == "truth"].iloc[0]
    entry = next(e for e in entries if truth_cell["cell_id"][:8] in e.name)
    table = steps[steps["cell_id"] == truth_cell["cell_id"]].sort_values("step")
    assert list(entry.recall) == list(table["recall"])
    texts = dict(zip(chosen["query"], chosen["query_text"], strict=True))
    names = [e.name for e in entries]
    assert frame(at, "compare_differences").to_dict("records") == [
        {"setting": "query", names[0]: texts["truth"], names[1]: texts["other"]}]
    # the "other" query has no truth: the first panel counts relevant pages
    spec = spec_of(at, "compare_chart")
    assert spec["layout"]["annotations"][0]["text"] == "Relevant pages"

    goto(at, "sweeps")
    assert at.selectbox(key="sweep_pick").value == "1,0"  # the pick is kept
    at.selectbox(key="sweep_cell").set_value(truth_cell["cell_id"]).run()
    at.button(key="sweep_explore").click().run()
    assert not at.exception
    view = at.session_state.session
    assert isinstance(view, SessionView)
    assert len(view.steps) == truth_cell["steps"]
    assert [r.url for r in view.steps] == list(table["url"])
    assert at.title[0].value == "pagesift-ui" and at.button(key="step").disabled
    # and it replays: the cell's snapshot, read again, is its recording (it could not be)
    assert not at.button(key="replay").disabled
    at.button(key="replay").click().run()
    assert not at.exception
    replay = at.session_state.session
    assert isinstance(replay, CrawlSession)
    assert replay.config.query == truth_cell["query_text"]
    for _ in range(3):
        at.button(key="step").click().run()
    assert [r.url for r in replay.steps] == list(table["url"])[:3]


# -- the Link model page ------------------------------------------------------------------


def by_hand(steps: list[StepRecord]) -> tuple[float, float]:
    """Log-loss of the model and of the prior-only model, from the records' predictions."""
    pairs = [(r.predicted, r.prior_predicted, (r.relevance or 0.0) >= MIN_RELEVANCE)
             for r in steps if r.predicted is not None and r.prior_predicted is not None]

    def loss(p: float, y: bool) -> float:
        return -math.log(p if y else 1.0 - p)

    return (sum(loss(p, y) for p, _, y in pairs) / len(pairs),
            sum(loss(q, y) for _, q, y in pairs) / len(pairs))


def test_the_link_model_page_scores_the_open_session(at: AppTest) -> None:
    at.button(key="start").click().run()
    for _ in range(8):
        at.button(key="step").click().run()
    session = at.session_state.session
    goto(at, "link-model")
    assert at.title[0].value == "Link-model quality"
    table = frame(at, "quality_table").set_index("score")
    model, prior = by_hand(list(session.steps))
    assert table.loc["Log-loss", "model"] == round(model, 4)
    assert table.loc["Log-loss", "prior only"] == round(prior, 4)
    assert at.get_by_key("quality_calibration") is not None
    chart = spec_of(at, "quality_chart")
    assert {t["meta"]["series"] for t in chart["data"]} == {
        f"{w}{p}{m}" for w in ("", "window_") for p in ("", "prior_")
        for m in ("log_loss", "brier", "auc")}
    at.number_input(key="quality_window").set_value(3).run()
    assert "model, last 3" in frame(at, "quality_table").columns


def test_a_cell_is_replayed_only_from_the_snapshot_it_crawled(sweep_folder: Path,
                                                               tmp_path: Path) -> None:
    results = load_results(sweep_folder)
    cell_id = str(results.cells["cell_id"].iloc[0])
    assert cell_snapshot(results, cell_id).responses  # read again from its file
    # a snapshot file that changed since is refused with the reason, not replayed
    changed = tmp_path / "uni.warc.gz"
    source = Path(results.manifest["snapshots"][SCENARIO]["source"])
    changed.write_bytes(source.read_bytes()[:-10])
    manifest = json.loads(json.dumps(results.manifest))
    manifest["snapshots"][SCENARIO]["source"] = str(changed)
    moved = dataclasses.replace(results, manifest=manifest)
    with pytest.raises(BundleError, match="no longer the snapshot"):
        cell_snapshot(moved, cell_id)
    # a manifest of before absolute sources: a relative one is read beside the results
    manifest["snapshots"][SCENARIO]["source"] = source.name
    assert source.parent == sweep_folder.parent
    assert cell_snapshot(dataclasses.replace(results, manifest=manifest), cell_id).responses
    manifest["snapshots"][SCENARIO]["source"] = str(tmp_path / "gone.warc.gz")
    with pytest.raises(BundleError, match="cannot be read from"):
        cell_snapshot(dataclasses.replace(results, manifest=manifest), cell_id)
    with pytest.raises(BundleError, match="no cell nope"):
        cell_snapshot(results, "nope")
