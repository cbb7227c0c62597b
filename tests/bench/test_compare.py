"""Two benchmark runs compared query by query: a saved report reads back as the live report's
row, queries are matched by label, each moved sooner, later or not at all, the sums count a
miss at the budget + 1, and the sign test is the exact binomial one."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from pagesift_ui.bench import BenchReport
from pagesift_ui.bench.compare import Direction, compare, load_rows
from pagesift_ui.bench.summary import QueryRow, query_row, query_rows
from tests.bench.docsite_truth import ROOT, load_module
from tests.bench.reports import report

TRUTH = {"r1", "r2"}


def _reached_at(label: str, pages: int, limit: int = 10) -> BenchReport:
    """A crawl that finds r1 second and r2 at page ``pages`` (90% of two answers is both)."""
    order = ["s", "r1", *[f"x{i}" for i in range(pages - 3)], "r2"]
    return report(label, order, ["s", "r1", "r2"], TRUTH, limit)


def _never(label: str, limit: int = 10) -> BenchReport:
    return report(label, ["s", "r1", *[f"x{i}" for i in range(limit - 2)]], ["s", "r1", "r2"],
                  TRUTH, limit)


def _rows(*reports: BenchReport) -> list[QueryRow]:
    return query_rows(reports)


def test_a_saved_report_reads_back_as_the_row_of_the_live_report() -> None:
    live = report("pydocs-a", ["s", "x", "r1", "y", "r2"], ["s", "r1", "r2"], TRUTH, limit=5,
                  stop=3)
    saved = json.loads(json.dumps(live.to_dict()))
    assert query_row(saved) == query_rows([live])[0]


def test_queries_are_matched_by_label_and_each_moved_sooner_later_or_not() -> None:
    before = _rows(_reached_at("q-a", 5), _never("q-b"), _reached_at("q-c", 3),
                   _reached_at("q-d", 4), _reached_at("q-gone", 4))
    after = _rows(_reached_at("q-a", 4), _reached_at("q-b", 9), _never("q-c"),
                  _reached_at("q-d", 4), _reached_at("q-new", 4))
    comparison = compare(before, after)
    assert [(c.label, c.direction) for c in comparison.changes] == [
        ("q-a", Direction.SOONER), ("q-b", Direction.SOONER), ("q-c", Direction.LATER),
        ("q-d", Direction.SAME)]
    assert comparison.only_before == ("q-gone",) and comparison.only_after == ("q-new",)
    # a query never at 90% counts at its budget + 1 (11): before 5 + 11 + 3 + 4, after 4 + 9
    # + 11 + 4
    assert comparison.summed == (23, 28)
    assert comparison.before.queries == comparison.after.queries == 4
    assert comparison.before.reached_90 == 3 and comparison.after.reached_90 == 3


def test_two_misses_are_the_same_and_nothing_moved_has_no_sign_test() -> None:
    comparison = compare(_rows(_never("q-a")), _rows(_never("q-a")))
    assert comparison.changes[0].direction is Direction.SAME
    assert comparison.sign_p is None
    assert comparison.to_json()["sign_test_p"] is None


def test_the_sign_test_is_the_exact_two_sided_binomial_over_the_queries_that_moved() -> None:
    labels = [f"q-{i}" for i in range(7)]
    before = _rows(*(_reached_at(label, 8) for label in labels))
    # six sooner, one the same: P(6 of 6 or 0 of 6) = 2 / 2**6
    after = _rows(*(_reached_at(label, 5 if label != "q-6" else 8) for label in labels))
    comparison = compare(before, after)
    assert comparison.count(Direction.SOONER) == 6 and comparison.count(Direction.SAME) == 1
    assert comparison.sign_p == pytest.approx(2 / 2**6, abs=1e-12)
    # two sooner and one later is as likely as not
    mixed = compare(_rows(*(_reached_at(label, 5) for label in labels[:3])),
                    _rows(_reached_at("q-0", 4), _reached_at("q-1", 4), _reached_at("q-2", 6)))
    assert mixed.sign_p == pytest.approx(1.0)


def _save(folder: Path, *reports: BenchReport) -> None:
    folder.mkdir()
    for r in reports:
        data = r.to_dict()
        (folder / f"{data['label']}.json").write_text(json.dumps(data), encoding="utf-8")


def test_load_rows_reads_the_query_reports_of_the_sites_asked_for(tmp_path: Path) -> None:
    folder = tmp_path / "run"
    _save(folder, _reached_at("pydocs-a", 5), _reached_at("sqlite-b", 4),
          _reached_at("pgdocs-c", 3))
    (folder / "summary.json").write_text(json.dumps({"tuning": {}}), encoding="utf-8")
    (folder / "stops.json").write_text(json.dumps([1, 2]), encoding="utf-8")
    assert [r.label for r in load_rows(folder)] == ["pgdocs-c", "pydocs-a", "sqlite-b"]
    assert [r.label for r in load_rows(folder, ("pydocs", "sqlite"))] == ["pydocs-a",
                                                                         "sqlite-b"]


def test_the_script_prints_each_set_it_finds_in_both_runs(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    script = load_module("compare_runs_under_test", ROOT / "benchmarks" / "compare_runs.py")
    _save(tmp_path / "before", _reached_at("pydocs-a", 5), _never("sqlite-b"))
    _save(tmp_path / "after", _reached_at("pydocs-a", 4), _reached_at("sqlite-b", 6))
    out = tmp_path / "comparison.json"
    assert script.main([str(tmp_path / "before"), str(tmp_path / "after"), "--json",
                        str(out)]) == 0
    printed = capsys.readouterr().out
    assert printed.startswith("tuning: 2 queries")
    assert "held out" not in printed  # neither run has a held-out query
    assert "p90    5 →    4" in printed and "p90  >10 →    6" in printed
    assert "pages to 90% summed 16 → 10; 2 sooner, 0 later, 0 the same" in printed
    assert json.loads(out.read_text())["tuning"]["sooner"] == 2
