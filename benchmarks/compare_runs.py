"""Two runs of ``run_all.py`` compared query by query (issue 11: every change measured before
and after on all dev queries).

Run: ``python3 benchmarks/compare_runs.py BEFORE AFTER`` with two folders of ``run_all.py``
reports (``benchmarks/results``, or a run's ``--out``), e.g. main's results against a
variant's run::

    nice -n 5 python3 benchmarks/run_all.py --only pydocs --only sqlite --no-bfs --no-png \\
        --out /tmp/variant
    python3 benchmarks/compare_runs.py benchmarks/results /tmp/variant

Prints, for the tuning sets and the held-out sets each (those both folders hold): one line per
query (pages to 90% before → after, the own stop's pages and recall), then issue 11's four
numbers on both sides with the median's bootstrap interval, pages to 90% summed, how many
queries reached 90% sooner and later, and the exact sign test's p-value for that split
(``pagesift_ui.bench.compare``). ``--json FILE`` writes the same as JSON. Reads files only.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from docsites import HELD_OUT, SITES  # noqa: E402

from pagesift_ui.bench.compare import Comparison, Direction, compare, load_rows  # noqa: E402
from pagesift_ui.bench.summary import TARGETS, Summary  # noqa: E402

MARKS = {Direction.SOONER: "sooner", Direction.LATER: "LATER", Direction.SAME: ""}


def _pages(value: int | None, limit: int) -> str:
    return str(value) if value is not None else f">{limit}"


def _summary_line(name: str, summary: Summary) -> str:
    shown = summary.ratio_text()
    recall = "–" if summary.recall_at_stop is None else f"{summary.recall_at_stop:.3f}"
    stop = "–" if summary.stop_over_90 is None else f"{summary.stop_over_90:.2f}"
    return (f"  {name:<7} median p90 ÷ oracle {shown:<24} at 90% {summary.reached_90:>3} of "
            f"{summary.queries:<3} recall at stop {recall:<6} stop ÷ p90 {stop}")


def report(title: str, comparison: Comparison) -> list[str]:
    lines = [f"{title}: {len(comparison.changes)} queries"]
    for change in comparison.changes:
        before = change.before.crawlers[comparison.crawler]
        after = change.after.crawlers[comparison.crawler]
        lines.append(
            f"  {change.label:<28} p90 {_pages(before.pages_to[1], change.before.limit):>4} → "
            f"{_pages(after.pages_to[1], change.after.limit):>4}   stop "
            f"{before.stop_pages:>3} ({before.stop_recall:.2f}) → {after.stop_pages:>3} "
            f"({after.stop_recall:.2f})  {MARKS[change.direction]}")
    lines.append(_summary_line("before", comparison.before))
    lines.append(_summary_line("after", comparison.after))
    summed_before, summed_after = comparison.summed
    p = comparison.sign_p
    lines.append(
        f"  pages to 90% summed {summed_before} → {summed_after}; "
        f"{comparison.count(Direction.SOONER)} sooner, {comparison.count(Direction.LATER)} "
        f"later, {comparison.count(Direction.SAME)} the same"
        + ("" if p is None else f"; sign test p = {p:.3f}"))
    lines.append(f"  targets: median ≤ {TARGETS['ratio_to_oracle']}, every query at 90%, "
                 f"recall at stop ≥ {TARGETS['recall_at_stop']}, stop ÷ p90 ≤ "
                 f"{TARGETS['stop_over_90']}")
    for side, labels in (("before", comparison.only_before), ("after", comparison.only_after)):
        if labels:
            lines.append(f"  only {side}: {', '.join(labels)}")
    return lines


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("before", type=Path, help="folder of the first run's reports")
    parser.add_argument("after", type=Path, help="folder of the second run's reports")
    parser.add_argument("--json", type=Path, default=None, help="also write the comparison")
    args = parser.parse_args(argv)
    for folder in (args.before, args.after):
        if not folder.is_dir():
            parser.error(f"{folder} is not a folder of run_all.py reports")
    out: dict[str, object] = {}
    for title, sites in (("tuning", tuple(SITES)), ("held out", tuple(HELD_OUT))):
        comparison = compare(load_rows(args.before, sites), load_rows(args.after, sites))
        if not comparison.changes:
            continue
        print("\n".join(report(title, comparison)))
        out[title] = comparison.to_json()
    if not out:
        parser.error("the two folders share no dev-set query reports")
    if args.json is not None:
        args.json.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n",
                             encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
