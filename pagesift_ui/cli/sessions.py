"""``sessions`` (list the saved sessions), ``export`` (write a saved session's files) and
``replay`` (re-run a recording offline: a bundle, a WARC file or a saved session)."""

from __future__ import annotations

import argparse
from collections import Counter
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from pagesift_ui.cli.options import (
    CRAWL_OPTIONS,
    Commands,
    add_crawl_options,
    config_error_message,
    config_from_args,
    summary_lines,
)
from pagesift_ui.cli.outputs import WRITE_FAILED, missing_store, output_problem, write_outputs
from pagesift_ui.errors import BundleError, ConfigError, SessionNotFound
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.config import OFFLINE_NO_OPS
from pagesift_ui.session.views import start_failure
from pagesift_ui.store import (
    ClaimMode,
    Recorded,
    RecordedFetch,
    RecordingSink,
    ReplaySource,
    SessionEvent,
    SessionInfo,
    SessionStore,
    StoreSink,
    drive,
    resume,
)
from pagesift_ui.store.portable import load_portable
from pagesift_ui.store.replay import first_difference
from pagesift_ui.sweep.snapshot import is_snapshot_config

__all__ = [
    "register",
    "replay_config",
    "run_export",
    "run_replay",
    "run_sessions",
    "session_table",
]


def register(commands: Commands) -> None:
    """Add ``sessions`` and ``replay``, each with its handler."""
    sessions = commands.add_parser("sessions", help="list the saved sessions")
    sessions.add_argument("--db", type=Path, help="the session store (default as for crawl)")
    sessions.set_defaults(handler=run_sessions)
    export = commands.add_parser(
        "export", help="write a saved session's bundle (with its responses) or pages CSV",
        description="Rebuild a saved session offline and write its files, as `crawl --out` "
        "and `--pages-csv` would have: for a crawl whose files could not be written.")
    export.add_argument("session_id", metavar="ID", help="a session id from `sessions`")
    export.add_argument("--db", type=Path, help="the session store (default as for crawl)")
    export.add_argument("--out", type=Path, help="write the JSON session bundle here")
    export.add_argument("--pages-csv", type=Path, help="write the pages table as CSV here")
    export.set_defaults(handler=run_export)
    replay = commands.add_parser(
        "replay", help="re-run a recorded session offline, with its settings or others",
        description="Re-run a recorded crawl with no network: pages come from the recording, "
        "and a page it never fetched is reported unavailable. Crawl options left out keep "
        "their recorded values; with all of them as recorded, the recorded overrides are "
        "applied too and the replay reproduces the recorded steps.",
    )
    replay.add_argument("recording", help="a session bundle (.json, with responses), a WARC "
                        "file, or the id of a saved session (`pagesift-ui sessions`)")
    replay.add_argument("--db", type=Path, help="the session store a session id is looked up "
                        "in (default as for crawl)")
    replay.add_argument("--seed", dest="seed_url", help="the start URL (default: the recorded one)")
    add_crawl_options(replay, as_recorded=True)
    replay.add_argument("--out", type=Path, help="write the replay's session bundle here")
    replay.add_argument("--pages-csv", type=Path, help="write the pages table as CSV here")
    replay.set_defaults(handler=run_replay)


# -- sessions ---------------------------------------------------------------------------


def run_sessions(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    missing = missing_store(args.db)
    if missing:
        if args.db is not None:
            err.write(f"pagesift-ui sessions: {missing} (check --db)\n")
            return 1
        out.write(f"no saved sessions ({missing} yet)\n")
        return 0
    with SessionStore(args.db) as store:
        infos = store.list_sessions()
        if not infos:
            out.write(f"no saved sessions in {store.path}\n")
            return 0
        out.write(f"{_count(len(infos), 'saved session')} in {store.path}\n")
    out.write("\n".join(session_table(infos)) + "\n")
    return 0


def session_table(infos: Sequence[SessionInfo]) -> list[str]:
    """The sessions as aligned text rows, a header first."""
    rows = [("ID", "UPDATED", "STEPS", "STATUS", "STOP REASON", "QUERY", "START URL")]
    for info in infos:
        rows.append((str(info.session_id), _when(info.updated_at), str(info.steps),
                     str(info.status.value), str(info.stop_reason or "-"), str(info.query),
                     str(info.seed)))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[-1]])
            for row in rows]


def _when(timestamp: Any) -> str:
    """A row's time as text; a damaged one as "?" rather than a crash."""
    try:
        return datetime.fromtimestamp(float(timestamp)).strftime("%Y-%m-%d %H:%M")
    except (TypeError, ValueError, OverflowError, OSError):
        return "?"


# -- export -----------------------------------------------------------------------------


def run_export(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``export``: rebuild a saved session offline and write its bundle and/or CSV."""
    if args.out is None and args.pages_csv is None:
        err.write("pagesift-ui export: give --out FILE.json and/or --pages-csv FILE.csv\n")
        return 2
    problem = output_problem(args)
    if problem:
        err.write(f"pagesift-ui export: {problem}\n")
        return 2
    missing = missing_store(args.db)
    if missing:
        err.write(f"pagesift-ui export: {missing}, so no session {args.session_id}\n")
        return 1
    with SessionStore(args.db) as store:
        session = resume(store, args.session_id, claim=ClaimMode.NONE)  # read, not crawled
        try:
            saved = session.find_sink(StoreSink)
            assert saved is not None  # resume attaches it
            failed = write_outputs(session, saved.recorded, saved.events, args, err)
        finally:
            session.close()
    if failed:
        return WRITE_FAILED
    out.write(f"exported session {args.session_id} ({_count(len(session.steps), 'step')})\n")
    return 0


# -- replay -----------------------------------------------------------------------------


def run_replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``replay``: the recorded crawl re-run offline, with its settings or changed ones."""
    problem = output_problem(args)
    if problem:
        err.write(f"pagesift-ui replay: {problem}\n")
        return 2
    recorded_config, responses, events, recorded_steps, unfinished_steps = _read_recording(
        args.recording, args.db)
    try:
        config = replay_config(recorded_config, args)
    except ConfigError as exc:
        hint = "" if recorded_config else " (this WARC has no settings: give --seed and --query)"
        err.write(f"pagesift-ui replay: {config_error_message(exc)}{hint}\n")
        return 2
    same = config == recorded_config
    offline = [setting.flag for setting in CRAWL_OPTIONS if setting.flag is not None
               and setting.name in OFFLINE_NO_OPS and getattr(args, setting.name) is not None]
    if offline:
        # they were taken without a word, and the replay's bundle recorded them as used
        verb = "changes" if len(offline) == 1 else "change"
        err.write(f"note: {', '.join(offline)} {verb} nothing offline: the recorded answers "
                  "are replayed as they came (robots.txt's included)\n")
    left_out = Counter(e.override.kind.value for e in events if e.override is not None)
    if left_out and not same:
        # dropped without a word: a budget raised 15 -> 30 replayed to 15 (found by using
        # the CLI); the help says so, the output did not
        kinds = ", ".join(f"{kind} ×{n}" for kind, n in sorted(left_out.items()))
        total = sum(left_out.values())
        err.write(f"note: the {total} recorded override{'s' * (total != 1)} ({kinds}) "
                  f"{'are' if total != 1 else 'is'} not applied: "
                  f"{'they were' if total != 1 else 'it was'} made on the recorded crawl, "
                  "which the options given change\n")
    source = ReplaySource(responses)
    replayed = RecordingSink()  # the replay is recorded like a crawl: its bundle replays too
    session = CrawlSession(config, replayed.record(source), sinks=[replayed])
    # with its own settings a replay is the recording's steps again, and ends where they
    # end: an interrupted recording ran on to its limit, every later step not recorded (a
    # WARC keeps no steps, but one fetch answer a step: found by using the CLI, a killed
    # crawl's WARC replayed to its limit on answers never recorded, named as its stop)
    recorded_count = len(recorded_steps) if recorded_steps is not None else unfinished_steps
    drive(session, events if same else (), strict=False,
          steps=recorded_count if same else None)
    if not session.done:
        session.stop(note="the recording ends here (it was interrupted)")
    failed = write_outputs(session, lambda: replayed.answers, replayed.events, args, err)
    out.write(f"replayed {_count(len(session.steps), 'step')} offline from {args.recording}; "
              f"{_count(len(source.unavailable), 'URL')} unavailable (not in the recording)\n")
    if unfinished_steps is not None:
        out.write(f"the recording is unfinished: the crawl that wrote it was stopped after "
                  f"{_count(unfinished_steps, 'step')}, before it closed the file"
                  + (", and this replay ends there\n" if same
                     else "; pages past it are unavailable\n"))
    if same and recorded_steps is not None:
        out.write(_compare(recorded_steps, session.steps) + "\n")
    out.write("\n".join(summary_lines(session)) + "\n")
    if failed:
        err.write("pagesift-ui replay: the replay is not saved; run it again with a "
                  "writable output\n")
        return WRITE_FAILED
    # no stop reason given: a recording of one page without links replays faithfully; only
    # a start URL that gave no page at all is a failure
    failure = start_failure(session.steps)
    if failure is not None:
        # "0 pages fetched in 1 step", exit 0, for a --seed the recording never fetched;
        # crawl and the sweep's cells call that a failure (found by using the CLI)
        err.write(f"pagesift-ui replay: the start URL could not be replayed: {failure}\n")
        return 1
    return 0


#: The settings (None: a foreign WARC), the answers, the events, the recorded steps (None:
#: a WARC, which keeps none) and, for a WARC whose crawl did not finish writing it, how many
#: steps it holds (None for any other recording).
_Recording = tuple[CrawlConfig | None, list[Recorded], list[SessionEvent],
                   list[StepRecord] | None, int | None]


def _read_recording(name: str, db: Path | None) -> _Recording:
    """A bundle or WARC file named ``name``, else the saved session with that id."""
    path = Path(name)
    if path.exists() or not _could_be_id(name):
        return _read_file(path)
    missing = missing_store(db)
    if missing:
        raise BundleError(f"{name}: no such file, and {missing} to find a session by that id")
    with SessionStore(db) as store:
        try:
            saved = store.load(name)
        except SessionNotFound:
            raise BundleError(
                f"{name}: no such file, and no saved session in {store.path} has that id "
                "(`pagesift-ui sessions` lists them)"
            ) from None
    return saved.config, list(saved.responses), list(saved.events), list(saved.steps), None


def _could_be_id(name: str) -> bool:
    """Session ids are short hex words (``secrets.token_hex``); a path has a slash or dot."""
    return bool(name) and "/" not in name and "." not in name and "\\" not in name


def _read_file(path: Path) -> _Recording:
    if path.is_dir():
        raise BundleError(f"{path} is a folder, not a session bundle or a WARC file")
    try:
        with path.open("rb") as stream:
            head = stream.read(5)
    except FileNotFoundError:
        raise BundleError(f"{path}: no such file") from None
    except OSError as exc:
        raise BundleError(f"{path} cannot be read: {exc.strerror or exc}") from exc
    if head[:2] == b"\x1f\x8b" or head == b"WARC/":
        from pagesift_ui.warc import read_warc

        recording = read_warc(path)
        unfinished = None
        if not recording.finished and recording.config is not None:
            # a crawl's WARC holds one fetch answer a step (WarcSink.attach relies on it too)
            unfinished = sum(isinstance(answer, RecordedFetch)
                             for answer in recording.responses)
        return (recording.config, list(recording.responses), list(recording.events), None,
                unfinished)
    if path.name.lower().endswith((".warc", ".warc.gz")):
        # read as a bundle, it was "the file is not valid JSON"
        raise BundleError(f"{path} is not a WARC file: it starts with neither 'WARC/' nor "
                          "gzip's header")
    opened = load_portable(path)
    if opened.responses is None:
        raise BundleError(
            f"{path} has no recorded responses (it was written without them), so it cannot "
            "be replayed; a saved session writes them with `pagesift-ui export ID --out "
            "FILE`, and a sweep's cell is replayed from its snapshot: `pagesift-ui replay "
            "SNAPSHOT --query …` with the cell's settings"
        )
    return (opened.view.config, list(opened.responses), list(opened.events),
            list(opened.view.steps), None)


def replay_config(recorded: CrawlConfig | None, args: argparse.Namespace) -> CrawlConfig:
    """The recorded settings (none for a foreign WARC) changed by the options given.

    A snapshot's settings say how the site was recorded (breadth-first to its limit, every
    verdict ignored, no query), not how to crawl it: it is replayed as a crawl, with the
    crawl's defaults and its own start URL, as a sweep replays it, and needs ``--query``
    (it was replayed breadth-first without a stop, for the query "site snapshot")."""
    if recorded is not None and is_snapshot_config(recorded):
        if args.query is None:
            raise ConfigError("query", "none was recorded with a snapshot: give --query")
        recorded = CrawlConfig(seed_url=recorded.seed_url, query=args.query)
    return config_from_args(args, base=recorded)


def _compare(recorded: Sequence[StepRecord], replayed: Sequence[StepRecord]) -> str:
    for old, new in zip(recorded, replayed, strict=False):
        name = first_difference(old, new)
        if name is not None:
            return f"the replay differs from the recording at step {old.step} ({name})"
    if len(recorded) != len(replayed):
        return f"the replay took {len(replayed)} steps; the recording {len(recorded)}"
    return f"the replay reproduces all {len(recorded)} recorded steps"


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")
