"""The ``pagesift-ui`` command line (also ``python -m pagesift_ui``).

``main`` imports the commands when it runs, inside its own handling of Ctrl-C: loading them
takes most of a second, and a Ctrl-C then ended in a traceback (exit 130 all the same).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, TextIO

if TYPE_CHECKING:
    from pagesift_ui.cli.commands import build_parser

__all__ = ["build_parser", "main"]


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         err: TextIO | None = None) -> int:
    """Run one command (``pagesift_ui.cli.commands.main``); 130 on Ctrl-C while it loads."""
    try:
        from pagesift_ui.cli.commands import main as run
    except KeyboardInterrupt:
        # said, not silent: a `crawl --resume` stopped here looked like one that had stopped
        # in its rebuild, with nothing on the screen (found by using the CLI)
        import sys

        (err or sys.stderr).write("pagesift-ui: interrupted while starting; nothing was done\n")
        return 130
    return run(argv, out, err)


def __getattr__(name: str) -> Any:
    if name == "build_parser":
        from pagesift_ui.cli.commands import build_parser

        return build_parser
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
