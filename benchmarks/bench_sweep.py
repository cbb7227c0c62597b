"""Sweep speed-up: the same 16-cell sweep on a LocalCluster of 1 and of 2 workers.

Run: ``python3 benchmarks/bench_sweep.py`` (about 2 minutes on 2 cores). The four demo
scenarios are recorded once as breadth-first snapshots (``--snapshots``, default a temporary
folder; pass a folder to keep them between runs); the grid is 4 scenarios × their own query
(with its truth) × strategy {focused, thompson} × sampling_seed {0, 1} = 16 cells of
``CELL_PAGES`` pages each. Prints the wall time of each run (cluster start included), the
sum of the cells' own times, the speed-up, and whether both runs fetched the same pages in
the same order in every cell (they must).
"""

from __future__ import annotations

import argparse
import logging
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pyarrow.parquet as pq  # noqa: E402

from pagesift_ui.demo import start_demo  # noqa: E402
from pagesift_ui.sweep import load_spec, record_snapshot, run_sweep, snapshot_config  # noqa: E402

#: The demo scenarios that are dev sets (the lesson scenarios are too small to measure on).
DEV_SCENARIOS = ("university", "helpdesk", "needle", "multilingual")
#: Breadth-first pages per snapshot and pages per cell.
SNAPSHOT_PAGES = 300
CELL_PAGES = 100


def demo_snapshots(folder: Path, pages: int = SNAPSHOT_PAGES) -> list[tuple[str, Path, Path]]:
    """(scenario, snapshot WARC, truth file) for every dev-set scenario, recorded once into
    ``folder`` (an existing pair is reused)."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for name in DEV_SCENARIOS:
        warc, truth = folder / f"{name}.warc.gz", folder / f"{name}.truth"
        if not (warc.exists() and truth.exists()):
            with start_demo(name) as server:
                server.write_truth(truth)
                record_snapshot(snapshot_config({"seed_url": server.seed_url,
                                                 "limit": pages}), warc)
        out.append((name, warc, truth))
    return out


def spec_text(snapshots: list[tuple[str, Path, Path]]) -> str:
    parts = []
    for name, warc, _ in snapshots:
        parts.append(f'[[snapshots]]\nname = "{name}"\npath = "{warc}"\n')
    for name, _, truth in snapshots:
        parts.append(f'[[queries]]\nname = "{name}"\ntruth = "{truth}"\n'
                     f'snapshots = ["{name}"]\n')
    parts.append(f"[settings]\nlimit = {CELL_PAGES}\nstop_on_verdict = false\n")
    parts.append('[grid]\nstrategy = ["focused", "thompson"]\nsampling_seed = [0, 1]\n')
    return "\n".join(parts)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--snapshots", type=Path, help="keep the snapshots in this folder")
    args = parser.parse_args()
    logging.getLogger("distributed").setLevel(logging.WARNING)
    with tempfile.TemporaryDirectory(prefix="bench-sweep-") as scratch:
        work = Path(scratch)
        snapshots = demo_snapshots(args.snapshots or work / "snapshots")
        spec_path = work / "sweep.toml"
        spec_path.write_text(spec_text(snapshots), encoding="utf-8")
        spec = load_spec(spec_path)
        assert len(spec.cells) == 16, len(spec.cells)
        runs = {}
        for workers in (1, 2):
            out = work / f"results-{workers}"
            started = time.perf_counter()
            summary = run_sweep(spec, out, workers=workers)
            wall = time.perf_counter() - started
            rows = pq.read_table(out / "cells.parquet").to_pylist()
            assert summary.failed == 0, [r["error"] for r in rows if r["status"] != "ok"]
            runs[workers] = (wall, sum(r["elapsed_s"] for r in rows),
                             [r["fetch_order"] for r in rows])
            print(f"{workers} worker{'s' if workers > 1 else ''}: {wall:6.1f} s wall "
                  f"({runs[workers][1]:6.1f} s in the 16 cells)")
    same = runs[1][2] == runs[2][2]
    print(f"speed-up with 2 workers: {runs[1][0] / runs[2][0]:.2f}x; same fetch order in "
          f"every cell: {'yes' if same else 'NO'}")


if __name__ == "__main__":
    main()
