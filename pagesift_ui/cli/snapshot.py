"""``snapshot``: record a site once, politely, as a WARC file that sweeps and replays crawl
offline."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from pagesift_ui.cli.options import (
    Commands,
    config_error_message,
    is_terminal,
    progress_line,
    stop_after_the_step,
    write_progress,
)
from pagesift_ui.cli.outputs import WRITE_FAILED, output_problem
from pagesift_ui.errors import ConfigError
from pagesift_ui.session import StepRecord
from pagesift_ui.session.config import SETTINGS, Setting, settings_mapping
from pagesift_ui.session.views import start_failure

__all__ = ["register", "run_snapshot"]

#: The crawl settings a snapshot takes as options (the rest: breadth-first, no stop).
_OPTIONS = ("limit", "delay_s", "respect_robots", "scope", "allow_private", "max_body_bytes",
            "user_agent")


def register(commands: Commands) -> None:
    """Add ``snapshot`` with its handler."""
    snapshot = commands.add_parser(
        "snapshot", help="record a site once (breadth-first, polite) as a WARC snapshot",
        description="Crawl a site breadth-first to the page limit, honouring robots.txt and "
        "the per-host delay, and write every answer to a WARC file. Sweeps and replays crawl "
        "the snapshot offline; a page it does not hold is a 'not_recorded' step. A saved "
        "session's bundle (crawl --out) or WARC (crawl --warc) is a snapshot too.",
    )
    snapshot.add_argument("seed_url", metavar="URL", help="the start URL")
    snapshot.add_argument("--out", type=Path, required=True,
                          help="the WARC file to write (SITE.warc.gz)")
    for setting in (s for s in SETTINGS if s.name in _OPTIONS):
        snapshot.add_argument(_flag(setting), dest=setting.name, **_argument(setting))
    snapshot.add_argument("--quiet", action="store_true", help="no progress bar")
    snapshot.set_defaults(handler=run_snapshot)


def _flag(setting: Setting) -> str:
    return setting.flag or "--" + setting.name.replace("_", "-")


def _argument(setting: Setting) -> dict[str, Any]:
    default = setting.default
    if setting.kind is bool:  # the flag turns the setting to the opposite of its default
        return {"action": "store_false" if default else "store_true", "help": setting.help}
    if setting.choices:
        return {"choices": setting.choices, "default": default.value,
                "help": f"{setting.help} (default {default.value})"}
    span = setting.describe_range()
    return {"type": setting.kind, "default": default,
            "help": f"{setting.help} ({span + '; ' if span else ''}default {default})"}


def run_snapshot(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``snapshot``: crawl live, breadth-first, and write the WARC."""
    from pagesift_ui.sweep import record_snapshot, snapshot_config

    values = {name: getattr(args, name) for name in _OPTIONS}
    try:
        config = snapshot_config(settings_mapping({"seed_url": args.seed_url, **values}))
    except ConfigError as exc:
        err.write(f"pagesift-ui snapshot: {config_error_message(exc)}\n")
        return 2
    # the WARC is checked before the crawl, as crawl's outputs are: never a crawl run only to
    # find that its file cannot be written
    problem = output_problem(args)
    if problem:
        err.write(f"pagesift-ui snapshot: {problem}\n")
        return 2

    rewrite = is_terminal(err)

    def show(record: StepRecord) -> None:
        if not args.quiet:
            write_progress(err, progress_line(record, config.limit, query=False), rewrite)

    try:
        with stop_after_the_step(err, "stopping after this step; the snapshot keeps the pages "
                                 "read") as asked:
            session = record_snapshot(config, args.out, on_step=show, stop=asked.is_set)
    except OSError as exc:  # the WARC is written after the crawl: a full disk, /dev/full
        err.write(f"\npagesift-ui snapshot: --out {args.out} could not be written "
                  f"({exc.strerror or exc}); the crawl is not kept: snapshot again to a file "
                  "that can be written\n")
        return WRITE_FAILED
    if not args.quiet and rewrite:
        err.write("\n")
    failure = start_failure(session.steps, session.stop_reason)
    if failure is not None:
        err.write(f"pagesift-ui snapshot: the start URL could not be crawled: {failure}; "
                  f"nothing was written to {args.out}\n")
        return 1
    fetched = session.pages_fetched
    if asked.is_set():
        out.write(f"snapshot: {args.out} ({fetched} pages in {len(session.steps)} steps; "
                  "stopped by Ctrl-C)\n")
        return 130
    out.write(f"snapshot: {args.out} ({fetched} pages in {len(session.steps)} steps; "
              f"{session.stop_reason})\n")
    return 0
