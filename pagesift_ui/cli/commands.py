"""The ``pagesift-ui`` command line (also ``python -m pagesift_ui``).

The ``cli`` package is the one place in the package that writes to the terminal. Each command
group module registers its sub-commands, and each sub-command carries its handler; this module
only builds the parser from the groups and dispatches, and turns every error into one line
and an exit code (``EXIT_CODES``, shown by ``--help``): no traceback reaches the user.
"""

from __future__ import annotations

import argparse
import difflib
import logging
import os
import sys
import textwrap
from collections.abc import Sequence
from typing import TextIO

from pagesift_ui import __version__
from pagesift_ui.cli import crawl, demo, sessions, snapshot, sweep
from pagesift_ui.cli.options import Handler
from pagesift_ui.cli.outputs import WRITE_FAILED
from pagesift_ui.errors import PagesiftError
from pagesift_ui.frontier import textpass
from pagesift_ui.page import charset, collect, lxmltree, markup

__all__ = ["EXIT_CODES", "INTERNAL_ERROR", "build_parser", "main"]

logger = logging.getLogger(__name__)

#: The command groups, in the order their commands appear in ``--help``.
_GROUPS = (crawl, demo, sessions, snapshot, sweep)

#: A bug, not a fault of the input: the message says so and ``--verbose`` shows where.
INTERNAL_ERROR = 70
#: Every exit code a command returns, as ``--help`` lists them.
EXIT_CODES = {
    0: "done",
    1: "failed: a file that cannot be read (bundle, WARC, session store), an unknown "
       "session id, a start URL that cannot be crawled, failed sweep cells",
    2: "usage: a bad option or argument, a sweep spec to mend (a setting, a snapshot or "
       "truth file it names), or an output that cannot be written (checked before any crawl "
       "starts)",
    WRITE_FAILED: "the crawl or replay ran, but an output file could not be written (the "
                  "message says how to write it again)",
    INTERNAL_ERROR: "an internal error (a bug: please report it; --verbose shows where)",
    130: "interrupted (Ctrl-C); a saved crawl continues with crawl --resume ID",
}


def _epilog() -> str:
    lines = ["exit codes:"]
    for code, text in EXIT_CODES.items():
        lines += textwrap.wrap(text, 78, initial_indent=f"  {code:<5}", subsequent_indent=" " * 7)
    return "\n".join(lines)


def build_parser() -> argparse.ArgumentParser:
    """The full parser; every sub-command sets ``handler`` (a ``Handler``) in its namespace."""
    parser = argparse.ArgumentParser(prog="pagesift-ui", description="A focused-crawl explorer.",
                                     epilog=_epilog(),
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=_version())
    parser.add_argument("--verbose", "-v", action="store_true", help="log debug details")
    commands = parser.add_subparsers(dest="command", required=True)
    for group in _GROUPS:
        group.register(commands)
    return parser


def _version() -> str:
    """The version, and which tree walk, collector, white-space collapse, text passes and
    UTF-8 check this install runs: speed measured on one install means little without it
    (docs/DECISIONS.md, "the step, ninth pass", "tenth pass", "twelfth pass" and
    "fourteenth pass")."""
    walk = ("tree walk compiled" if lxmltree.COMPILED_WALK is not None
            else "tree walk in Python: the compiled walk was not built")
    collector = "collector compiled" if collect.is_compiled() else "collector in Python"
    space = ("white-space collapse compiled" if markup.NORMALISE_COMPILED
             else "white-space collapse in Python")
    text = "text passes compiled" if textpass.COMPILED else "text passes in Python"
    utf8 = "UTF-8 check compiled" if charset.UTF8_CHECK_COMPILED else "UTF-8 check in Python"
    return f"pagesift-ui {__version__} ({walk}, {collector}, {space}, {text}, {utf8})"


def _unknown_options(parser: argparse.ArgumentParser, command: str, unknown: list[str]) -> None:
    """Exit 2 with the command's own usage and the options nearest the ones not known.

    argparse reports them from the top-level parser, with its usage, which lists the
    commands and none of their options (found by using the CLI: ``crawl --querry``)."""
    subparsers = next(action for action in parser._actions
                      if isinstance(action, argparse._SubParsersAction))
    command_parser: argparse.ArgumentParser = subparsers.choices[command]
    known = [option for action in command_parser._actions for option in action.option_strings]
    hints = []
    for word in unknown:
        if word.startswith("--"):
            near = difflib.get_close_matches(word.split("=", 1)[0], known, n=1, cutoff=0.75)
            if near:
                hints.append(f"{word.split('=', 1)[0]} (did you mean {near[0]}?)")
    message = f"unrecognized arguments: {' '.join(unknown)}"
    command_parser.error(message + (f"; {', '.join(hints)}" if hints else ""))


def _silence_stdout() -> None:
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
    except (OSError, ValueError):  # no file behind stdout (a test's capture): nothing to do
        pass


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    out = out or sys.stdout
    err = err or sys.stderr
    parser = build_parser()
    args, unknown = parser.parse_known_args(argv)
    if unknown:
        _unknown_options(parser, args.command, unknown)
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
    except BrokenPipeError:
        # the reader went away (`| head`): not an error of the command, which said "Broken
        # pipe" and exited 1. What is left to flush at exit goes nowhere, as Python's
        # documentation of SIGPIPE advises.
        if out is sys.stdout:  # the process's own stdout, not a caller's stream
            _silence_stdout()
        return 0
    except OSError as exc:  # a file or socket the command could not use
        where = f" ({exc.filename})" if exc.filename else ""
        err.write(f"pagesift-ui {args.command}: {exc.strerror or exc}{where}\n")
        return 1
    except KeyboardInterrupt:
        err.write(f"pagesift-ui {args.command}: interrupted\n")
        return 130
    except Exception as exc:  # a bug: one line for the user, the traceback in the log
        logger.debug("internal error", exc_info=True)
        err.write(f"pagesift-ui {args.command}: internal error ({type(exc).__name__}: {exc}); "
                  "this is a bug, please report it (--verbose shows where)\n")
        return INTERNAL_ERROR
