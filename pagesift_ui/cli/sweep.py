"""``sweep``: snapshots × queries × settings, one offline crawl per cell, on Dask."""

from __future__ import annotations

import argparse
import logging
import re
from pathlib import Path
from typing import TextIO

from pagesift_ui.cli.options import Commands, is_terminal, write_progress
from pagesift_ui.cli.outputs import folder_problem
from pagesift_ui.errors import ConfigError, shown

__all__ = ["progress_text", "register", "run_sweep_command"]

_BAR_WIDTH = 30


def register(commands: Commands) -> None:
    """Add ``sweep`` with its handler."""
    sweep = commands.add_parser(
        "sweep", help="run a grid of offline crawls (snapshots × queries × settings) on Dask",
        description="Run one crawl per cell of the spec's grid against its snapshot, offline, "
        "on a local Dask cluster or an existing one, and write the cells and steps tables "
        "(Parquet and CSV) and each cell's session to the results folder. A re-run skips the "
        "cells already done there. Workers need this package at the same version; the "
        "snapshots are sent to them with the tasks.",
    )
    sweep.add_argument("spec", type=Path, help="the sweep spec (TOML; see README 'Sweeps')")
    sweep.add_argument("--out", type=Path, required=True, help="the results folder")
    sweep.add_argument("--scheduler", metavar="ADDRESS", type=scheduler_address,
                       help="an existing Dask scheduler (tcp://HOST:PORT); default: a local "
                       "cluster for the sweep's duration")
    sweep.add_argument("--workers", type=worker_count,
                       help="worker processes of the local cluster (default: one per core)")
    sweep.add_argument("--quiet", action="store_true", help="no progress bar")
    sweep.set_defaults(handler=run_sweep_command)


def worker_count(text: str) -> int:
    """``--workers``' type: a positive whole number (argparse names the option)."""
    try:
        workers = int(text)
    except ValueError:
        workers = 0
    if workers < 1:
        raise argparse.ArgumentTypeError(f"must be a whole number of at least 1, got "
                                         f"{shown(text)}")
    return workers


_SCHEDULER = re.compile(r"(?:(tcp|tls)://)?(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9.-]+):([0-9]{1,5})")


def scheduler_address(text: str) -> str:
    """``--scheduler``'s type: ``[tcp://|tls://]HOST:PORT`` (argparse names the option).
    A malformed one failed inside Dask as an internal error ("invalid literal for int()",
    "unknown address scheme 'http'", "missing port number"), found by using the CLI."""
    match = _SCHEDULER.fullmatch(text.strip())
    if match is None or not 1 <= int(match.group(3)) <= 65535:
        raise argparse.ArgumentTypeError(
            f"must be a Dask scheduler's address, tcp://HOST:PORT (or tls://), with a port "
            f"from 1 to 65535, got {shown(text)}")
    return text.strip() if match.group(1) else f"tcp://{text.strip()}"


def progress_text(done: int, total: int, failed: int, elapsed_s: float, last: str) -> str:
    """One progress-bar line (no line end: the caller rewrites it)."""
    filled = _BAR_WIDTH * done // total if total else _BAR_WIDTH
    failures = f"  {failed} failed" if failed else ""
    return (f"[{'#' * filled:<{_BAR_WIDTH}}] {done}/{total} cells{failures}  "
            f"{elapsed_s:.0f} s  {last[:60]:<60}")


def run_sweep_command(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``sweep``: run the spec's cells not done yet in ``--out`` and write the tables."""
    from pagesift_ui.sweep import Progress, load_spec, run_sweep
    from pagesift_ui.sweep.tables import write_tables

    if not args.verbose:
        # Dask logs every cluster start and stop at INFO, and a Ctrl-C's shutdown of busy
        # workers at WARNING ("Worker process still alive after 4.0 seconds, killing", a
        # cancelled task's CancelledError): noise between the progress bar and the sweep's
        # own message (found by using the CLI); a failed cell says why in its row
        logging.getLogger("distributed").setLevel(logging.ERROR)
    if args.scheduler is not None and args.workers is not None:
        # it was ignored without a word: the cluster's own workers run the cells
        err.write("pagesift-ui sweep: --workers sizes the local cluster; with --scheduler "
                  "the cells run on that cluster's workers: leave out one of the two\n")
        return 2
    # a results folder: a file there failed after the spec was read, as "File exists", and
    # --out /proc/rx as "No such file or directory (/proc/rx)" without naming the option
    problem = folder_problem(args.out)
    if problem:
        err.write(f"pagesift-ui sweep: --out {args.out} {problem}\n")
        return 2
    try:
        spec = load_spec(args.spec)
    except ConfigError as exc:
        # exit 1 was also failed cells' code: a script could not tell a spec it must mend
        # from cells to retry (found by using the CLI). A usage error, as crawl's --limit 0
        err.write(f"pagesift-ui sweep: {args.spec}: {exc}\n")
        return 2
    for note in spec.notes:
        err.write(f"note: {note}\n")

    rewrite = is_terminal(err)

    def show(progress: Progress) -> None:
        if args.quiet:
            return
        last = ""
        if progress.last is not None:
            row = progress.last.row
            # the swept values first: cut at 40 characters they never showed
            last = f"{row['label']} · {row['query']} · {row['snapshot']}"
        write_progress(err, progress_text(progress.done, progress.total, progress.failed,
                                          progress.elapsed_s, last), rewrite)

    try:
        summary = run_sweep(spec, args.out, scheduler=args.scheduler, workers=args.workers,
                            on_progress=show)
    except KeyboardInterrupt:
        # said only "interrupted", after the progress line, and wrote no table of the cells
        # that had finished (found by using the CLI); each finished cell is saved as it ends
        if not args.quiet and rewrite:
            err.write("\n")
        cells, _ = write_tables(args.out, spec)
        err.write(f"pagesift-ui sweep: interrupted; {cells} of {len(spec.cells)} cells are "
                  f"finished and kept in {args.out} (its tables hold them). Run the same "
                  "command again to run the rest\n")
        return 130
    if not args.quiet and summary.ran and rewrite:
        err.write("\n")
    out.write(f"{summary.cells} cells: {summary.skipped} done before, {summary.ran} run, "
              f"{summary.failed} failed ({summary.elapsed_s:.1f} s)\n")
    out.write(f"results: {args.out / 'cells.parquet'} (and .csv), "
              f"{args.out / 'steps.parquet'} ({summary.steps} steps), "
              f"{args.out / 'sessions'}/<cell_id>.json\n")
    if summary.failed:
        out.write(f"{summary.failed} cells failed: their error is in the cells table's "
                  "'error' column; run the sweep again to retry them\n")
        return 1
    return 0
