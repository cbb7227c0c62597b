"""Thompson sampling against greedy ranking on the dev sets, as one sweep.

Run: ``python3 benchmarks/sweep_thompson.py [--snapshots DIR] [--out DIR]`` (about 15 minutes
on 2 cores; a re-run with the same folders only rebuilds the tables). Needs
``apt-get install python3.11-doc`` for the Python-docs part (skipped without it).

Dev sets: the four demo scenarios (each with its own query and truth) and the Python 3.11
documentation with the truth files in ``benchmarks/pydocs/`` (whatever is there when it
runs). Each site is recorded once as a breadth-first snapshot; every cell then crawls a
snapshot offline to ``LIMIT`` pages with every stop verdict recorded (``--no-stop``), so the
whole recall curve and the adaptive stop are read off one run. Cells: greedy (``focused``)
once, ``thompson`` with ``SEEDS`` sampling seeds. Prints a Markdown table per query: pages to
50 % and 90 % recall, the adaptive stop (step, recall), final recall, and the link model's
prequential log-loss against the prior-only model.
"""

from __future__ import annotations

import argparse
import logging
import statistics
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import pyarrow.parquet as pq  # noqa: E402
from bench_sweep import demo_snapshots  # noqa: E402

from pagesift_ui.bench.truth import Truth  # noqa: E402
from pagesift_ui.net.serve import StaticServer  # noqa: E402
from pagesift_ui.sweep import load_spec, record_snapshot, run_sweep, snapshot_config  # noqa: E402

DOCS = Path("/usr/share/doc/python3.11/html")
TRUTH_DIR = ROOT / "benchmarks" / "pydocs"
#: Pages per cell, per demo snapshot, and the Python docs' snapshot limit (above its 530).
LIMIT = 300
DEMO_PAGES = 600
DOCS_PAGES = 700
SEEDS = (0, 1, 2)
METRICS = ("pages_to_50", "pages_to_90", "stop_step", "recall_at_stop", "final_recall",
           "log_loss", "prior_log_loss")


def docs_snapshot(folder: Path) -> Path | None:
    """The Python docs served on 127.0.0.1 and recorded once (None without the docs)."""
    if not (DOCS / "index.html").is_file():
        return None
    warc = folder / "pydocs.warc.gz"
    if not warc.exists():
        with StaticServer(DOCS) as server:
            config = snapshot_config({"seed_url": server.base_url() + "/index.html",
                                      "limit": DOCS_PAGES})
            record_snapshot(config, warc)
    return warc


def spec_text(demos: list[tuple[str, Path, Path]], docs: Path | None) -> str:
    parts = [f'[[snapshots]]\nname = "{name}"\npath = "{warc}"\n' for name, warc, _ in demos]
    parts += [f'[[queries]]\nname = "{name}"\ntruth = "{truth}"\nsnapshots = ["{name}"]\n'
              for name, _, truth in demos]
    if docs is not None:
        parts.append(f'[[snapshots]]\nname = "pydocs"\npath = "{docs}"\n')
        for truth in sorted(TRUTH_DIR.glob("*.truth")):
            Truth.load(truth)  # a malformed dev-set file fails here, naming itself
            parts.append(f'[[queries]]\nname = "pydocs-{truth.stem}"\ntruth = "{truth}"\n'
                         'snapshots = ["pydocs"]\n')
    parts.append(f"[settings]\nlimit = {LIMIT}\nstop_on_verdict = false\n")
    parts.append('[[grid]]\nstrategy = ["focused"]\n')
    parts.append(f'[[grid]]\nstrategy = ["thompson"]\nsampling_seed = {list(SEEDS)}\n')
    return "\n".join(parts)


def _mean(values: list[Any]) -> str:
    known = [v for v in values if v is not None]
    if not known:
        return "—"
    text = f"{statistics.fmean(known):.3g}"
    if len(known) < len(values):
        text += f" ({len(values) - len(known)} never)"
    return text


def table(rows: list[dict[str, Any]]) -> str:
    lines = ["| query | ranking | " + " | ".join(METRICS) + " |",
             "|---|---|" + "---|" * len(METRICS)]
    for query in dict.fromkeys(row["query"] for row in rows):
        for strategy in ("focused", "thompson"):
            cells = [r for r in rows if r["query"] == query and r["strategy"] == strategy]
            if not cells:
                continue
            label = "greedy" if strategy == "focused" else f"thompson ×{len(cells)}"
            values = [_mean([c[m] for c in cells]) for m in METRICS]
            lines.append(f"| {query} | {label} | " + " | ".join(values) + " |")
    return "\n".join(lines) + "\n"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snapshots", type=Path, default=ROOT / "benchmarks" / "results"
                        / "snapshots", help="where the snapshots are kept (git-ignored)")
    parser.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results"
                        / "sweep-thompson", help="the sweep's results folder")
    args = parser.parse_args()
    logging.getLogger("distributed").setLevel(logging.WARNING)
    args.snapshots.mkdir(parents=True, exist_ok=True)
    (args.snapshots / ".gitignore").write_text("*\n", encoding="utf-8")
    demos = demo_snapshots(args.snapshots, DEMO_PAGES)
    docs = docs_snapshot(args.snapshots)
    spec_path = args.snapshots / "thompson.toml"
    spec_path.write_text(spec_text(demos, docs), encoding="utf-8")
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / ".gitignore").write_text("*\n", encoding="utf-8")  # sessions run to MBs
    summary = run_sweep(load_spec(spec_path), args.out,
                        on_progress=lambda p: print(f"{p.done}/{p.total} cells", flush=True))
    print(f"{summary.cells} cells, {summary.failed} failed, {summary.elapsed_s:.0f} s")
    rows = pq.read_table(args.out / "cells.parquet").to_pylist()
    print(table([r for r in rows if r["status"] == "ok"]))


if __name__ == "__main__":
    main()
