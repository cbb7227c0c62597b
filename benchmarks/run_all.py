"""Every crawl benchmark behind the README's results, in one process, one crawl at a time.

Run: ``nice -n 10 python3 benchmarks/run_all.py`` (about 15 minutes of one core's time; on
the shared 2 cores it took 30-50 minutes of wall time; ``benchmarks/results/results.md`` gives
the last run's time per part). Parts:

- ``demo``: focused, breadth-first and oracle on the four benchmark demo scenarios
  (``BENCH_SCENARIOS``: university, helpdesk, needle, multilingual; the lesson scenarios are
  too small to measure on), page limit 1500 (the CLI's default), and the demo checks (focused
  pages-to-90% ≤ half of breadth-first's; needle stops ``no_relevant_pages``);
- ``pydocs`` and ``sqlite``: the dev sets (``benchmarks/docsites.py``), 200 pages per crawl,
  default settings; the oracle walks each site's whole followable link graph.
- ``pgdocs``, the HELD-OUT dev set (``benchmarks/pgdocs/README.md``): run only when named with
  ``--only pgdocs``, never by default, measured like the dev sets but reported apart: its
  crawls in ``pgdocs-<query>.json``, its summary in ``pgdocs-results.md`` and
  ``pgdocs-summary.json``, never in ``results.md`` / ``summary.json``. Nothing is tuned on it.
- ``apachedocs``, the second HELD-OUT dev set (``benchmarks/apachedocs/README.md``), run and
  reported apart in the same way with ``--only apachedocs``.
- ``octavedocs``, the third HELD-OUT dev set (``benchmarks/octavedocs/README.md``), run and
  reported apart in the same way with ``--only octavedocs``.
- ``gitdocs``, the fourth HELD-OUT dev set (``benchmarks/gitdocs/README.md``), run and
  reported apart in the same way with ``--only gitdocs``.
- ``cmakedocs``, the fifth HELD-OUT dev set (``benchmarks/cmakedocs/README.md``), run and
  reported apart in the same way with ``--only cmakedocs``; ``djangodocs``, the sixth
  (``benchmarks/djangodocs/README.md``), with ``--only djangodocs``.

``--only PART`` (repeatable) and ``--query NAME`` (a truth-file stem, repeatable) run a part
of it; ``--no-bfs`` leaves the breadth-first crawls out (a quick look at focused vs oracle).
A full run writes ``benchmarks/results/``: one JSON per query or scenario (curves, own stop,
counterfactual stops, dry subtrees and, for the focused crawl, one row per step),
``summary.json`` and ``results.md``; any partial run writes to ``benchmarks/results/partial/``
(git-ignored), so the committed results are always one whole run. Interactive plots go to
``html/`` below the output folder (git-ignored); PNGs (Debian's Chromium) are made for the demo
scenarios, and for the dev-set queries with ``--docs-png``.

Pages are fetches that count against the page budget: duplicates are steps, not pages.
"""

from __future__ import annotations

import argparse
import json
import logging
import subprocess
import sys
import time
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from docsites import (  # noqa: E402
    HELD_OUT,
    LIMIT,
    PLACEHOLDER,
    SITES,
    DocSite,
    bench_site,
    site_named,
)
from pagecache import shared_extraction  # noqa: E402

from pagesift_ui.bench import BenchReport, Truth, run_bench  # noqa: E402
from pagesift_ui.bench.report import markdown_table, write_outputs  # noqa: E402
from pagesift_ui.bench.summary import (  # noqa: E402
    PAGES_NOTE,
    TARGETS,
    QueryRow,
    Summary,
    demo_checks,
    query_rows,
    summarise,
)
from pagesift_ui.demo import BENCH_SCENARIOS, build_site, start_demo  # noqa: E402

logger = logging.getLogger("run_all")

RESULTS = ROOT / "benchmarks" / "results"
PARTS = ("demo", *SITES)
SCENARIO_LIMIT = 1500  # the CLI's default


def bench_scenario(name: str, limit: int = SCENARIO_LIMIT) -> BenchReport:
    """What ``pagesift-ui bench --scenario NAME`` runs."""
    site = build_site(name)
    with start_demo(name) as server:
        truth = Truth(site.query, server.seed_url, tuple(server.truth_urls()))
        return run_bench(name, truth, limit)


@dataclass(slots=True)
class Run:
    """What one run produced: reports per part and the seconds each part took."""

    reports: dict[str, list[BenchReport]] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    memo: dict[str, str] = field(default_factory=dict)

    @property
    def total_seconds(self) -> float:
        return sum(self.seconds.values())

    def split(self, parts: Collection[str]) -> Run:
        """The reports, seconds and memo of ``parts``, moved out of this run into a new one
        (the held-out sets' results are reported apart from the tuning sets')."""
        out = Run()
        for part in [p for p in self.reports if p in parts]:
            out.reports[part] = self.reports.pop(part)
        for part in [p for p in self.seconds if p in parts]:
            out.seconds[part] = self.seconds.pop(part)
        for part in [p for p in self.memo if p in parts]:
            out.memo[part] = self.memo.pop(part)
        return out


def run_parts(parts: Sequence[str], queries: Sequence[str] | None, limit: int,
              bfs: bool) -> Run:
    run = Run()
    for part in parts:
        started = time.perf_counter()
        with shared_extraction() as memo:
            if part == "demo":
                run.reports[part] = [bench_scenario(name) for name in BENCH_SCENARIOS]
            else:
                site = site_named(part)
                if not site.installed():
                    sys.stderr.write(f"run_all: skipping {part}: {site.missing}\n")
                    continue
                names = [n for n in site.truth_names() if not queries or n in queries]
                if not names:
                    continue
                run.reports[part] = bench_site(site, names, limit, trace=True, bfs=bfs)
        run.seconds[part] = time.perf_counter() - started
        run.memo[part] = str(memo)
        logger.info("%s: %d benchmarks in %.1f min (%s)", part, len(run.reports.get(part, [])),
                    run.seconds[part] / 60, memo)
    return run


# --------------------------------------------------------------------------- Markdown


def _n(value: int | None) -> str:
    return "–" if value is None else str(value)


def _pct(value: float | None) -> str:
    return "–" if value is None else f"{value:.0%}"


def _summary_cell(summary: Summary, metric: str) -> str:
    if summary.queries == 0:
        return "–"
    if metric == "ratio_to_oracle":
        return summary.ratio_text()
    if metric == "reached_90":
        return f"{summary.reached_90} of {summary.queries}"
    if metric == "recall_at_stop":
        return "–" if summary.recall_at_stop is None else f"{summary.recall_at_stop:.2f}"
    value = summary.stop_over_90
    if value is None:
        return "–"
    left = summary.queries - summary.stop_counted
    return f"{value:.2f}" + (f" ({left} never at 90%)" if left else "")


_METRICS = (
    ("ratio_to_oracle", "median pages-to-90% ÷ oracle's",
     f"≤ {TARGETS['ratio_to_oracle']:.1f}"),
    ("reached_90", "queries at 90% recall within {limit} pages", "all"),
    ("recall_at_stop", "mean recall at own stop", f"≥ {TARGETS['recall_at_stop']:.2f}"),
    ("stop_over_90", "median pages at own stop ÷ own pages-to-90%",
     f"≤ {TARGETS['stop_over_90']:.1f}"),
)


def summary_table(rows: Sequence[QueryRow], limit: int,
                  sites: Mapping[str, DocSite] = SITES) -> str:
    """Issue 11's four numbers per site and overall, focused (and breadth-first beside)."""
    groups: list[tuple[str, list[QueryRow]]] = [
        (site, [r for r in rows if r.site == site]) for site in sites
    ]
    groups = [g for g in groups if g[1]]
    groups.append(("all", list(rows)))
    header = "| focused crawl | target | " + " | ".join(
        f"{name} ({len(group)})" for name, group in groups) + " | met (all) |"
    lines = [header, "|---|---|" + "---|" * len(groups) + "---|"]
    summaries = {name: summarise(group) for name, group in groups}
    for metric, text, target in _METRICS:
        cells = " | ".join(_summary_cell(summaries[name], metric) for name, _ in groups)
        met = "yes" if summaries["all"].met()[metric] else "**no**"
        lines.append(f"| {text.format(limit=limit)} | {target} | {cells} | {met} |")
    if any("breadth-first" in r.crawlers for r in rows):
        bfs = {name: summarise(group, "breadth-first") for name, group in groups}
        lines.append("| *breadth-first, for comparison:* | | " + " | ".join("" for _ in groups)
                     + " | |")
        for metric, text, _ in _METRICS:
            cells = " | ".join(_summary_cell(bfs[name], metric) for name, _ in groups)
            lines.append(f"| breadth-first: {text.format(limit=limit)} | | {cells} | |")
    return "\n".join(lines) + "\n"


def query_table(rows: Sequence[QueryRow]) -> str:
    """One row per dev-set query: focused, breadth-first (90% and own stop), oracle."""
    lines = [
        "| query | relevant | focused: pages to 50% | 90% | 100% | own stop: pages | recall "
        "| stop reason | BFS: pages to 90% | own stop: pages | recall | oracle: pages to 50% "
        "| 90% | 100% | focused 90% ÷ oracle | focused stop ÷ 90% |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for r in rows:
        f = r.crawlers["focused"]
        o = r.crawlers["oracle"]
        b = r.crawlers.get("breadth-first")
        ratio = r.ratio_to_oracle()
        stop = r.stop_over_90()
        bfs_cells = (f"{_n(b.pages_to[1])} | {b.stop_pages} | {_pct(b.stop_recall)}" if b
                     else "– | – | –")
        lines.append(
            f"| {r.label} | {r.relevant} | {_n(f.pages_to[0])} | {_n(f.pages_to[1])} | "
            f"{_n(f.pages_to[2])} | {f.stop_pages} | {_pct(f.stop_recall)} | {f.stop_reason} | "
            f"{bfs_cells} | {_n(o.pages_to[0])} | {_n(o.pages_to[1])} | "
            f"{_n(o.pages_to[2])} | {ratio.text() if ratio else '–'} | "
            f"{'–' if stop is None else f'{stop:.2f}'} |"
        )
    return "\n".join(lines) + "\n"


def _stops(report: BenchReport) -> str:
    """Counterfactual stops of the focused crawl: ``rule@pages (recall)``."""
    curve = report.curve("focused")
    parts = []
    for rule, step in sorted(curve.counterfactual.items(), key=lambda kv: kv[1]):
        pages = curve.pages_at(step)
        parts.append(f"{rule}@{pages} ({_pct(curve.recall_at(pages))})")
    return ", ".join(parts) or "–"


def _dry(report: BenchReport) -> str:
    curve = report.curve("focused")
    items = sorted(curve.became_dry.items(), key=lambda kv: kv[1])
    shown = ", ".join(f"`{part}`@{curve.pages_at(step)}" for part, step in items[:4])
    more = f" (+{len(items) - 4} more)" if len(items) > 4 else ""
    return (shown + more) or "–"


def detail_table(reports: Sequence[BenchReport]) -> str:
    """Per report: the focused crawl's stop rules (first page count each stood, recall then)
    and the subtrees it found dry."""
    lines = [
        "| site | relevant | focused: stop rules that stood (pages, recall) | focused: subtrees "
        "found dry (pages) |",
        "|---|---|---|---|",
    ]
    for r in reports:
        lines.append(f"| {r.label} | {len(r.truth.urls)} | {_stops(r)} | {_dry(r)} |")
    return "\n".join(lines) + "\n"


def _commit() -> str:
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head


def results_markdown(run: Run, limit: int, sites: Mapping[str, DocSite] = SITES,
                     title: str = "Benchmark results") -> str:
    docs = [r for part in sites for r in run.reports.get(part, [])]
    rows = query_rows(docs)
    timing = ", ".join(f"{part} {secs / 60:.1f}" for part, secs in run.seconds.items())
    out = [
        f"# {title}\n",
        f"Generated by `python3 benchmarks/run_all.py` at commit {_commit()}, one process, one "
        f"crawl at a time: {run.total_seconds / 60:.1f} min ({timing} min). {PAGES_NOTE} A "
        "crawl's *own stop* is the first stop verdict that stood, or the end of its run when "
        "none stood (`limit_reached`: the budget). `>x`: the crawl never reached 90% within its "
        "budget, so its ratio is above x; `≥`: a median that such a query takes part in.\n",
    ]
    if rows:
        out += [
            f"## Dev sets: issue 11's targets ({limit} pages per crawl, default settings)\n",
            summary_table(rows, limit, sites),
            "## Dev sets: per query\n",
            query_table(rows),
            "## Dev sets: stop rules and dry subtrees of the focused crawl\n",
            detail_table(docs),
        ]
    demo = run.reports.get("demo", [])
    if demo:
        checks = demo_checks(demo)
        out += [
            f"## Demo scenarios ({SCENARIO_LIMIT} pages per crawl)\n",
            "| check | result | numbers |\n|---|---|---|\n"
            + "".join(f"| {name} | {'pass' if ok else '**FAIL**'} | {why} |\n"
                      for name, ok, why in checks),
            markdown_table(demo),
            detail_table(demo),
        ]
    if docs:
        out += ["## Every dev-set crawl\n", markdown_table(docs)]
    return "\n".join(out)


def summary_json(run: Run, limit: int, sites: Mapping[str, DocSite] = SITES) -> dict[str, Any]:
    docs = [r for part in sites for r in run.reports.get(part, [])]
    rows = query_rows(docs)
    by_site = {site: [r for r in rows if r.site == site] for site in sites}
    return {
        "commit": _commit(),
        "pages": PAGES_NOTE,
        "limit": limit,
        "minutes": {part: round(s / 60, 2) for part, s in run.seconds.items()},
        "extract_memo": run.memo,
        "targets": TARGETS,
        "summary": {
            name: {"focused": summarise(group).to_json(),
                   "breadth-first": summarise(group, "breadth-first").to_json()}
            for name, group in [*by_site.items(), ("all", rows)] if group
        },
        "queries": [r.to_json() for r in rows],
        "demo_checks": [{"check": name, "passed": ok, "numbers": why}
                        for name, ok, why in demo_checks(run.reports.get("demo", []))],
    }


# --------------------------------------------------------------------------- output


def save(report: BenchReport, out: Path, png: bool, placeholder: bool) -> dict[str, Path]:
    """JSON (and PNG) into ``out``; the HTML plot and plotly.min.js into ``out/html``.
    ``placeholder``: write the served origin (a random port) as the truth files' placeholder
    ``http://127.0.0.1:0``, so the JSON of two runs differs only where the crawl did."""
    html_dir = out / "html"
    paths = write_outputs(report, html_dir, png=png)
    for kind in ("json", "png"):
        if kind in paths:
            target = out / paths[kind].name
            paths[kind].replace(target)
            paths[kind] = target
    if placeholder:
        parts = urlsplit(report.truth.seed)
        text = paths["json"].read_text(encoding="utf-8")
        text = text.replace(f"{parts.scheme}://{parts.netloc}/", PLACEHOLDER)
        paths["json"].write_text(text, encoding="utf-8")
    ignore = html_dir / ".gitignore"
    if not ignore.exists():  # keep the 4.6 MB plotly.min.js and the HTML out of git
        ignore.write_text("*\n!.gitignore\n", encoding="utf-8")
    return paths


def _logging() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s: %(message)s")
    for noisy in ("httpx", "httpcore", "pagesift_ui.net.serve"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="all crawl benchmarks → benchmarks/results")
    parser.add_argument("--only", action="append", choices=(*PARTS, *HELD_OUT), default=None,
                        help="run only this part (repeatable): " + ", ".join(PARTS)
                        + "; the held-out sets run only when named and are reported apart: "
                        + ", ".join(HELD_OUT))
    parser.add_argument("--query", action="append", default=None,
                        help="only this dev-set query (a truth-file stem; repeatable)")
    parser.add_argument("--limit", type=int, default=LIMIT,
                        help=f"pages per dev-set crawl ({LIMIT})")
    parser.add_argument("--no-bfs", action="store_true",
                        help="dev sets: leave the breadth-first crawls out (partial run)")
    parser.add_argument("--no-png", action="store_true", help="no PNGs at all")
    parser.add_argument("--docs-png", action="store_true", help="PNGs for dev-set queries too")
    parser.add_argument("--out", type=Path, default=None,
                        help="output folder (default benchmarks/results for a full run, "
                             "benchmarks/results/partial otherwise)")
    args = parser.parse_args(argv)
    _logging()
    parts = args.only or list(PARTS)
    held = {p: HELD_OUT[p] for p in parts if p in HELD_OUT}
    known = {n for site in (*SITES.values(), *held.values()) for n in site.truth_names()}
    unknown = [q for q in args.query or () if q not in known]
    if unknown:
        held_out = [p for p, site in HELD_OUT.items() if unknown[0] in site.truth_names()]
        hint = f" (a held-out query: add --only {held_out[0]})" if held_out else ""
        sys.stderr.write(f"run_all: no truth file {unknown[0]!r}{hint}; choose from "
                         f"{', '.join(sorted(known))}\n")
        return 2
    if args.query:
        parts = [p for p in parts if p != "demo"]
    full = set(parts) == set(PARTS) and not args.query and not args.no_bfs \
        and args.limit == LIMIT
    out: Path = args.out or (RESULTS if full else RESULTS / "partial")
    out.mkdir(parents=True, exist_ok=True)
    run = run_parts(parts, args.query, args.limit, bfs=not args.no_bfs)
    for part, reports in run.reports.items():
        png = not args.no_png and (part == "demo" or args.docs_png)
        for report in reports:
            paths = save(report, out, png, placeholder=part != "demo")
            sys.stderr.write(f"{report.label}: {', '.join(str(p) for p in paths.values())}\n")
    benchmarks, minutes = sum(len(r) for r in run.reports.values()), run.total_seconds / 60
    held_run = run.split(held)  # never in the tuning sets' results.md / summary.json
    if any(p not in held for p in parts):
        text = results_markdown(run, args.limit)
        (out / "results.md").write_text(text, encoding="utf-8")
        (out / "summary.json").write_text(json.dumps(summary_json(run, args.limit), indent=1),
                                          encoding="utf-8")
        print(text, end="")
    for name, site in held.items():
        if name not in held_run.reports:
            continue
        alone = held_run.split({name})
        text = results_markdown(alone, args.limit, {name: site},
                                f"Held-out dev set {name}: measured, never tuned on")
        (out / f"{name}-results.md").write_text(text, encoding="utf-8")
        summary = {"held_out": True, **summary_json(alone, args.limit, {name: site})}
        (out / f"{name}-summary.json").write_text(json.dumps(summary, indent=1),
                                                  encoding="utf-8")
        print(text, end="")
    sys.stderr.write(f"run_all: {benchmarks} benchmarks in {minutes:.1f} min → {out}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
