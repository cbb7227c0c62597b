"""The ``pagesift-ui`` command line (also ``python -m pagesift_ui``).

The ``cli`` package is the one place in the package that writes to the terminal. Each command
group module registers its sub-commands, and each sub-command carries its handler; this module
only builds the parser from the groups and dispatches.
"""

from __future__ import annotations

import argparse
import logging
import sys
from collections.abc import Sequence
from typing import TextIO

from pagesift_ui import __version__
from pagesift_ui.cli import crawl, demo, sessions, snapshot, sweep
from pagesift_ui.cli.options import Handler
from pagesift_ui.errors import PagesiftError

__all__ = ["build_parser", "main"]

logger = logging.getLogger(__name__)

#: The command groups, in the order their commands appear in ``--help``.
_GROUPS = (crawl, demo, sessions, snapshot, sweep)


def build_parser() -> argparse.ArgumentParser:
    """The full parser; every sub-command sets ``handler`` (a ``Handler``) in its namespace."""
    parser = argparse.ArgumentParser(prog="pagesift-ui", description="A focused-crawl explorer.")
    parser.add_argument("--version", action="version", version=f"pagesift-ui {__version__}")
    parser.add_argument("--verbose", "-v", action="store_true", help="log debug details")
    commands = parser.add_subparsers(dest="command", required=True)
    for group in _GROUPS:
        group.register(commands)
    return parser


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    args = build_parser().parse_args(argv)
    logging.basicConfig(
        level=logging.DEBUG if args.verbose else logging.WARNING,
        format="%(levelname)s %(name)s: %(message)s",
    )
    handler: Handler = args.handler
    try:
        return int(handler(args, out, err))
    except PagesiftError as exc:
        err.write(f"pagesift-ui {args.command}: {exc}\n")
        return 1
