"""A 2 queries × 2 settings sweep of a demo snapshot on a LocalCluster."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pyarrow.csv as pa_csv
import pyarrow.parquet as pq
import pytest

from pagesift_ui.errors import ConfigError
from pagesift_ui.sweep import load_spec, parse_spec, run_cell
from pagesift_ui.sweep.cell import _pages_to
from pagesift_ui.sweep.results import (
    calibration,
    cell_session,
    heatmap,
    load_results,
    model_curve,
    session_curve,
    setting_differences,
)
from pagesift_ui.sweep.spec import MAX_CELLS
from pagesift_ui.sweep.tables import CELL_COLUMNS, STEP_COLUMNS, write_tables
from tests.faults.harness import cli_in_child
from tests.sweep.conftest import CELL_PAGES, Sweep, run_cli


def test_the_cells_table_has_one_row_per_cell_with_every_column(local_sweep: Sweep) -> None:
    assert local_sweep.exit_code == 0, local_sweep.stdout
    assert "4 cells: 0 done before, 4 run, 0 failed" in local_sweep.stdout
    cells = pq.read_table(local_sweep.out / "cells.parquet").to_pylist()
    assert pq.read_table(local_sweep.out / "cells.parquet").column_names == [
        name for name, _ in CELL_COLUMNS]
    assert [(row["query"], row["strategy"]) for row in cells] == [
        ("truth", "focused"), ("truth", "thompson"), ("other", "focused"),
        ("other", "thompson")]
    assert len({row["cell_id"] for row in cells}) == 4
    for row in cells:
        assert row["status"] == "ok" and row["error"] == ""
        assert row["steps"] >= CELL_PAGES and row["limit"] == CELL_PAGES
        assert row["stop_reason"] and row["end_reason"]
        assert row["predictions"] > 0 and row["log_loss"] is not None
        assert row["prior_log_loss"] is not None
    truth_rows = [row for row in cells if row["query"] == "truth"]
    assert all(row["truth_size"] and row["recall_at_stop"] is not None for row in truth_rows)
    assert all(row["truth_size"] is None and row["pages_to_50"] is None
               for row in cells if row["query"] == "other")
    assert pa_csv.read_csv(local_sweep.out / "cells.csv").num_rows == 4


def test_the_steps_table_holds_every_step_of_every_cell(local_sweep: Sweep) -> None:
    steps = pq.read_table(local_sweep.out / "steps.parquet")
    assert steps.column_names == [name for name, _ in STEP_COLUMNS]
    cells = pq.read_table(local_sweep.out / "cells.parquet").to_pylist()
    assert steps.num_rows == sum(row["steps"] for row in cells)


def test_a_cell_run_twice_fetches_in_the_same_order(local_sweep: Sweep) -> None:
    """The cluster's run against a run here, in this process: the same pages in order."""
    spec = load_spec(local_sweep.spec)
    results = load_results(local_sweep.out)
    for cell in (spec.cells[1], spec.cells[0]):  # thompson, then greedy
        again = run_cell(cell, spec.payload(cell.snapshot_digest))
        assert again.ok, again.row["error"]
        swept = results.steps_of(cell.cell_id)
        assert [row["url"] for row in again.steps] == list(swept["url"])
        row = results.cells[results.cells["cell_id"] == cell.cell_id].iloc[0]
        assert again.row["fetch_order"] == row["fetch_order"]


def test_a_rerun_skips_finished_cells(local_sweep: Sweep) -> None:
    before = (local_sweep.out / "cells.parquet").read_bytes()
    code, out, _ = run_cli("sweep", str(local_sweep.spec), "--out", str(local_sweep.out),
                           "--quiet")
    assert code == 0
    assert "4 cells: 4 done before, 0 run, 0 failed" in out
    assert pq.read_table(local_sweep.out / "cells.parquet").num_rows == 4
    assert len(before) > 0


def test_the_results_open_for_the_app(local_sweep: Sweep) -> None:
    results = load_results(local_sweep.out)
    cell_id = results.cells["cell_id"][0]
    view = cell_session(local_sweep.out, cell_id)
    curve = session_curve(view.steps)
    assert len(curve) == int(results.cells["steps"][0])
    assert [p.relevant_pages for p in curve] == list(results.steps_of(cell_id)["relevant_pages"])
    grid = heatmap(results.cells, "strategy", "query", "harvest")
    assert sorted(grid.columns) == ["focused", "thompson"]
    assert sorted(grid.index) == ["other", "truth"]


def test_the_model_curve_ends_at_the_tables_scores(local_sweep: Sweep) -> None:
    results = load_results(local_sweep.out)
    row = results.cells.iloc[1]
    view = cell_session(local_sweep.out, row["cell_id"])
    curve = model_curve(view.steps)
    assert len(curve) == row["predictions"]
    assert curve[-1].log_loss == pytest.approx(row["log_loss"], rel=1e-12)
    assert curve[-1].prior_log_loss == pytest.approx(row["prior_log_loss"], rel=1e-12)
    assert sum(b.count for b in calibration(view.steps)) == row["predictions"]
    other = cell_session(local_sweep.out, results.cells.iloc[0]["cell_id"])
    assert [d["setting"] for d in setting_differences(
        {"a": view.config, "b": other.config})] == ["strategy"]


def test_spec_mistakes_are_named(local_sweep: Sweep) -> None:
    base = local_sweep.spec.parent
    text = local_sweep.spec.read_text(encoding="utf-8")
    with pytest.raises(ConfigError, match="grid.patience"):
        parse_spec(text.replace('strategy = ["focused", "thompson"]', "patience = 3"), base)
    with pytest.raises(ConfigError, match="settings.query"):
        parse_spec(text.replace("[settings]", '[settings]\nquery = "x"'), base)
    with pytest.raises(ConfigError, match="strategy"):
        parse_spec(text.replace('"thompson"', '"greedy"'), base)
    with pytest.raises(ConfigError, match="unknown section"):
        parse_spec(text + "\n[extra]\n", base)
    # a misspelt setting is named with the spec's own names (the config's listed "adaptive")
    with pytest.raises(ConfigError, match="settings.patiense: unknown setting; the settings "
                       "are .*'patience'") as caught:
        parse_spec(text.replace("[settings]", "[settings]\npatiense = 4"), base)
    assert "'adaptive'" not in str(caught.value)
    # render × delay_s gave 4 cells of one crawl under 4 labels: offline they change nothing
    with pytest.raises(ConfigError, match="grid.delay_s: changes nothing offline"):
        parse_spec(text.replace('strategy = ["focused", "thompson"]', "delay_s = [0, 5]"),
                   base)
    # a sweep spec's "false" is a true string: the cells stopped on their verdicts
    with pytest.raises(ConfigError, match="stop_on_verdict: must be true or false"):
        parse_spec(text.replace("stop_on_verdict = false", 'stop_on_verdict = "false"'), base)


def test_a_truth_with_no_page_in_a_snapshot_is_noted_naming_the_query(
    local_sweep: Sweep, tmp_path: Path
) -> None:
    # a truth file moves onto any snapshot's host: another site's truth read recall 0, "ok"
    other_site = tmp_path / "other.truth"
    other_site.write_text("# query: command line shell\n# seed: http://127.0.0.1:0/\n"
                          "http://127.0.0.1:0/cli.html\nhttp://127.0.0.1:0/sqldiff.html\n",
                          encoding="utf-8")
    text = local_sweep.spec.read_text(encoding="utf-8").replace(
        '[[queries]]\nname = "other"',
        f'[[queries]]\nname = "tools"\ntruth = "{other_site}"\n\n[[queries]]\nname = "other"')
    notes = parse_spec(text, local_sweep.spec.parent).notes
    assert any(note.startswith("query 'tools': none of the 2 pages of its truth is in "
                               "snapshot 'university', so its recall there is 0") for note in notes)
    assert not any("'other'" in note for note in notes)  # no truth, nothing to note


def test_a_grid_past_the_cell_limit_is_refused_before_it_is_multiplied_out(
    local_sweep: Sweep,
) -> None:
    # ten axes of ten values: 10¹⁰ points per snapshot and query, refused by their count
    base = local_sweep.spec.parent
    text = local_sweep.spec.read_text(encoding="utf-8")
    axes = "\n".join(f"{name} = {list(range(1, 11))}" for name in (
        "limit", "patience", "evidence_per_term", "max_redirects", "per_host", "concurrency",
        "max_sitemaps", "max_links_per_page", "max_queued_links", "dispersion_cap"))
    with pytest.raises(ConfigError, match=r"grid: makes 20,000,000,000 cells .* at most "
                                          r"100,000: split it"):
        parse_spec(text.replace('strategy = ["focused", "thompson"]', axes), base)
    assert MAX_CELLS == 100_000


def test_a_cell_whose_seed_the_snapshot_lacks_fails_saying_so(
    local_sweep: Sweep, tmp_path: Path,
) -> None:
    # it read "ok", one step, exhausted: a row of nothing among the results
    text = local_sweep.spec.read_text(encoding="utf-8")
    seed = 'seed = "http://www.nowhere.localhost/"\n\n'
    elsewhere = text.replace("[[queries]]", seed + "[[queries]]", 1)
    spec = parse_spec(elsewhere, local_sweep.spec.parent)
    cell = spec.cells[0]
    result = run_cell(cell, spec.payload(cell.snapshot_digest))
    assert result.row["status"] == "failed"
    assert result.row["error"].startswith("the start URL could not be crawled: "
                                          "http://www.nowhere.localhost/")


def test_a_results_table_without_the_columns_is_refused_by_name(
    local_sweep: Sweep, tmp_path: Path,
) -> None:
    # valid Parquet with other columns ended the Sweeps page in a KeyError traceback
    import shutil

    import pandas as pd

    from pagesift_ui.errors import BundleError

    folder = tmp_path / "results"
    shutil.copytree(local_sweep.out, folder)
    cells = pd.read_parquet(folder / "cells.parquet")
    cells[["cell_id", "query"]].to_parquet(folder / "cells.parquet")
    with pytest.raises(BundleError, match=r"cells.parquet is not a sweep's table: it has no "
                       r"snapshot, .* column"):
        load_results(folder)


def test_a_numeric_setting_runs_along_its_axis_by_size() -> None:
    # patience 8, 3, 5 in the spec ran 8, 3, 5 across, and the colours read as a trend
    import pandas as pd

    from pagesift_ui.sweep.results import heatmap_grid

    cells = pd.DataFrame({
        "cell_id": [f"c{i}" for i in range(9)], "status": ["ok"] * 9,
        "patience": [8, 3, 5] * 3, "min_gain": [0.2] * 3 + [0.05] * 3 + [0.1] * 3,
        "strategy": ["thompson", "focused", "focused"] * 3, "recall": [float(i) for i in range(9)],
    })
    grid = heatmap_grid(cells, "patience", "min_gain", "recall")
    assert grid.x_values == ("3", "5", "8") and grid.y_values == ("0.05", "0.1", "0.2")
    assert grid.values[0][2] == 3.0  # patience 8, min_gain 0.05: the fourth cell
    by_text = heatmap_grid(cells, "strategy", "min_gain", "recall")
    assert by_text.x_values == ("thompson", "focused")  # not a number: as the spec has it


def test_pages_to_a_recall_counts_pages_as_bench_does(local_sweep: Sweep) -> None:
    # a duplicate is a step, not a page: counted in steps, one crawl read 55 in the sweep
    # and 54 in bench (found by using the CLI)
    results = load_results(local_sweep.out)
    for row in results.cells[results.cells["query"] == "truth"].itertuples():
        steps = results.steps_of(row.cell_id)
        for target in (50, 90, 100):
            reached = steps[steps["recall"] >= target / 100 - 1e-12]
            want = None if reached.empty else int(reached.iloc[0]["pages_scheduled"])
            got = getattr(row, f"pages_to_{target}")
            assert (None if got is None or got != got else int(got)) == want


def test_pages_to_a_recall_skips_the_steps_that_were_no_page() -> None:
    steps = [{"recall": 0.0, "pages_scheduled": 1}, {"recall": 0.5, "pages_scheduled": 2},
             {"recall": 0.5, "pages_scheduled": 2},  # a duplicate: refunded, no page
             {"recall": 1.0, "pages_scheduled": 3}]
    assert (_pages_to(steps, 0.5), _pages_to(steps, 1.0)) == (2, 3)
    assert _pages_to(steps[:3], 1.0) is None


@pytest.mark.parametrize("address", ["127.0.0.1:8796x", "http://127.0.0.1:8796", "",
                                     "127.0.0.1:0"])
def test_a_malformed_scheduler_address_is_a_usage_error(
    local_sweep: Sweep, tmp_path: Path, address: str
) -> None:
    # each failed inside Dask as an internal error (exit 70)
    run = cli_in_child("sweep", str(local_sweep.spec), "--out", str(tmp_path / "r"),
                       "--scheduler", address)
    assert run.code == 2
    assert "argument --scheduler: must be a Dask scheduler's address, tcp://HOST:PORT" in run.err
    assert not (tmp_path / "r").exists()


def test_a_snapshot_given_as_the_spec_is_refused_saying_what_goes_where(
    local_sweep: Sweep, tmp_path: Path
) -> None:
    # "internal error (UnicodeDecodeError: 'utf-8' codec can't decode byte 0x8b …)"
    code, _, err = run_cli("sweep", str(local_sweep.snapshot), "--out", str(tmp_path / "r"))
    assert code != 70 and "is not a text file (a sweep spec is TOML" in err


def test_an_interrupted_sweep_writes_the_tables_of_its_finished_cells_and_says_so(
    local_sweep: Sweep, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Ctrl-C said only "interrupted" and left no table of the cells already finished
    out = tmp_path / "r"
    shutil.copytree(local_sweep.out, out)
    for table in out.glob("*.parquet"):
        table.unlink()

    def interrupted(*args: object, **kwargs: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr("pagesift_ui.sweep.run_sweep", interrupted)
    code, _, err = run_cli("sweep", str(local_sweep.spec), "--out", str(out), "--quiet")
    assert code == 130
    assert ("interrupted; 4 of 4 cells are finished and kept in" in err
            and "Run the same command again to run the rest" in err)
    assert pq.read_table(out / "cells.parquet").num_rows == 4


def test_two_writers_of_one_results_folder_do_not_move_each_others_files(
    local_sweep: Sweep, tmp_path: Path
) -> None:
    # both wrote cells.parquet.part and one lost it: "No such file or directory"
    out = tmp_path / "r"
    shutil.copytree(local_sweep.out, out)
    spec = load_spec(local_sweep.spec)
    failures: list[BaseException] = []

    def write_often() -> None:
        try:
            for _ in range(5):
                write_tables(out, spec)
        except BaseException as exc:  # noqa: BLE001 - collected for the assertion
            failures.append(exc)

    writers = [threading.Thread(target=write_often) for _ in range(2)]
    for writer in writers:
        writer.start()
    for writer in writers:
        writer.join(timeout=120)
    assert failures == []
    assert pq.read_table(out / "cells.parquet").num_rows == 4
    assert not list(out.glob("*.part"))
