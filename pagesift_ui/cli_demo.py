"""CLI commands around the bundled demo web: ``demo`` (and ``bench``, added with the benchmark)."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

__all__ = ["DEMO_HANDLERS", "add_demo_commands"]


def add_demo_commands(commands: Any) -> None:
    demo = commands.add_parser("demo", help="serve a bundled demo scenario on 127.0.0.1")
    demo.add_argument("--scenario", default="university")
    demo.add_argument("--seed", type=int, default=0, help="generator seed (same seed, same site)")
    demo.add_argument("--port", type=int, default=0, help="0 picks a free port")
    demo.add_argument("--truth-out", type=Path, help="write the ground truth here and keep serving")


def run_demo(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    from pagesift_ui.cli import _wait_forever
    from pagesift_ui.demo import SCENARIOS, DemoServer, build_site

    if args.scenario not in SCENARIOS:
        err.write(f"pagesift-ui demo: unknown scenario {args.scenario!r}; "
                  f"choose one of {', '.join(SCENARIOS)}\n")
        return 2
    site = build_site(args.scenario, seed=args.seed)
    with DemoServer(site, port=args.port) as server:
        if args.truth_out is not None:
            server.write_truth(args.truth_out)
            err.write(f"ground truth: {args.truth_out}\n")
        out.write(f"scenario {site.name}: {site.description}\n")
        out.write(f"query: {site.query}\nseed: {server.seed_url}\n(Ctrl-C to stop)\n")
        out.flush()
        _wait_forever()
    return 0


DEMO_HANDLERS: dict[str, Callable[[argparse.Namespace, TextIO, TextIO], int]] = {
    "demo": run_demo,
}
