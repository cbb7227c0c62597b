"""CLI around saved sessions: ``crawl`` with saving/``--resume``/``--warc``, ``sessions``,
``replay``. Like ``cli.py``, a module that writes to the terminal."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TextIO

from pagesift_ui.cli.main import _add_crawl_options, _progress, _summary_lines, config_from_args
from pagesift_ui.errors import ConfigError
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.bundle import bundle_json, load_bundle, pages_csv
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store import (
    PersistentSession,
    Recorded,
    RecordingSource,
    ReplaySource,
    SessionEvent,
    SessionInfo,
    SessionStore,
    drive,
    resume,
    start_session,
)
from pagesift_ui.store.portable import (
    bundle_with_responses,
    events_from_bundle,
    responses_from_bundle,
)
from pagesift_ui.store.replay import first_difference, merge_events

__all__ = ["STORE_HANDLERS", "add_store_commands", "add_store_options", "run_saved_crawl"]

Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]

#: replay option → (path in the config mapping, turn the option's value into the setting's)
_REPLAY_FIELDS: dict[str, tuple[tuple[str, ...], Callable[[Any], Any]]] = {
    "seed": (("seed_url",), str),
    "query": (("query",), str),
    "limit": (("limit",), int),
    "coverage_threshold": (("adaptive", "coverage_threshold"), float),
    "evidence_per_term": (("adaptive", "evidence_per_term"), int),
    "patience": (("adaptive", "patience"), int),
    "min_gain": (("adaptive", "min_gain"), float),
    "delay": (("delay_s",), float),
    "no_robots": (("respect_robots",), lambda flag: not flag),
    "scope": (("scope",), str),
    "allow_private": (("allow_private",), bool),
    "no_stop": (("stop_on_verdict",), lambda flag: not flag),
}


def add_store_options(crawl: argparse.ArgumentParser) -> None:
    """Saving options of ``crawl``."""
    crawl.add_argument("--db", type=Path, help="the session store (default: $PAGESIFT_DB, "
                       "else sessions.sqlite3 in the user data directory)")
    crawl.add_argument("--resume", metavar="ID", help="continue saved session ID to its stop, "
                       "with its own settings (leave out the start URL and crawl options)")
    crawl.add_argument("--no-save", action="store_true", help="do not save the session")
    crawl.add_argument("--warc", type=Path, help="also write the fetched pages as a WARC "
                       "file here (FILE.warc.gz)")


def add_store_commands(commands: Any) -> None:
    sessions = commands.add_parser("sessions", help="list the saved sessions")
    sessions.add_argument("--db", type=Path, help="the session store (default as for crawl)")
    replay = commands.add_parser(
        "replay", help="re-run a recorded session offline, with its settings or others",
        description="Re-run a recorded crawl with no network: pages come from the recording, "
        "and a page it never fetched is reported unavailable. Crawl options left out keep "
        "their recorded values; with all of them as recorded, the recorded overrides are "
        "applied too and the replay reproduces the recorded steps.",
    )
    replay.add_argument("recording", type=Path,
                        help="a session bundle (.json, with responses) or a WARC file")
    replay.add_argument("--seed", help="the start URL (default: the recorded one)")
    _add_crawl_options(replay, query_required=False)
    replay.set_defaults(**dict.fromkeys(_REPLAY_FIELDS))  # None = "as recorded"
    replay.add_argument("--out", type=Path, help="write the replay's session bundle here")
    replay.add_argument("--pages-csv", type=Path, help="write the pages table as CSV here")


# -- crawl ------------------------------------------------------------------------------


def run_saved_crawl(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``crawl``: a new crawl (saved unless ``--no-save``) or ``--resume ID``."""
    problem = _crawl_args_problem(args)
    if problem:
        err.write(f"pagesift-ui crawl: {problem}\n")
        return 2
    try:
        config = None if args.resume is not None else config_from_args(args)
    except ConfigError as exc:
        err.write(f"pagesift-ui crawl: {exc}\n")
        return 2
    memory: list[Recorded] = []
    saved = _open_saved(args, config, err)
    if saved is not None:
        session, steps = saved.session, saved.iter_steps
    else:
        assert config is not None  # only --resume leaves it None, and --resume saves
        session = CrawlSession(config, RecordingSource(default_source(config), memory.append))
        steps = session.iter_steps
    interrupted = _crawl(session, steps, args.quiet, err)
    responses = saved.recorded() if saved is not None else memory
    events = saved.events if saved is not None else tuple(merge_events(session.overrides, ()))
    session_id = saved.session_id if saved is not None else ""
    _write_outputs(session, responses, events, args, err, session_id=session_id)
    if saved is not None and interrupted:
        err.write(f"interrupted: `pagesift-ui crawl --resume {saved.session_id}` continues it\n")
    out.write("\n".join(_summary_lines(session)) + "\n")
    return 130 if interrupted else 0


def _crawl_args_problem(args: argparse.Namespace) -> str:
    if args.resume is not None:
        if args.no_save:
            return "--resume continues a saved session, which --no-save would not update"
        if args.seed is not None or args.query is not None:
            return "--resume uses the saved session's settings; leave out the URL and --query"
        return ""
    if args.seed is None or args.query is None:
        return "give the start URL and --query (or --resume ID to continue a saved session)"
    return ""


def _open_saved(
    args: argparse.Namespace, config: CrawlConfig | None, err: TextIO
) -> PersistentSession | None:
    if args.no_save:
        return None
    store = SessionStore(args.db)
    if args.resume is not None:
        saved = resume(store, args.resume)
        err.write(f"session {saved.session_id}: rebuilt {len(saved.session.steps)} saved steps "
                  f"offline from {store.path}; continuing\n")
        return saved
    assert config is not None
    saved = start_session(store, config)
    err.write(f"session {saved.session_id}: saving to {store.path}\n")
    return saved


def _crawl(
    session: CrawlSession, steps: Callable[[], Iterator[StepRecord]], quiet: bool, err: TextIO
) -> bool:
    """Run to the stop with a progress bar; True if interrupted by Ctrl-C."""
    try:
        for record in steps():
            if not quiet:
                _progress(record, session.config.limit, err)
    except KeyboardInterrupt:
        # The outputs show the crawl cancelled; the saved session stays open (the stop is
        # not saved), so --resume continues it. Nothing already crawled is lost.
        if not session.done:
            session.stop(note="interrupted (Ctrl-C)")
        return True
    finally:
        session.close()
        if not quiet:
            err.write("\n")
    return False


def _write_outputs(
    session: CrawlSession,
    responses: Sequence[Recorded],
    events: Sequence[SessionEvent],
    args: argparse.Namespace,
    err: TextIO,
    *,
    session_id: str = "",
) -> None:
    if args.out is not None:
        bundle = bundle_with_responses(session, responses, events)
        args.out.write_text(bundle_json(bundle), encoding="utf-8")
        err.write(f"session bundle: {args.out}\n")
    if args.pages_csv is not None:
        args.pages_csv.write_text(pages_csv(session), encoding="utf-8")
        err.write(f"pages CSV: {args.pages_csv}\n")
    if getattr(args, "warc", None) is not None:
        from pagesift_ui.warc import write_warc

        pages = write_warc(args.warc, session.config, responses, events=events,
                           session_id=session_id)
        err.write(f"WARC: {args.warc} ({pages} pages)\n")


# -- sessions ---------------------------------------------------------------------------


def run_sessions(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
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
        updated = datetime.fromtimestamp(info.updated_at).strftime("%Y-%m-%d %H:%M")
        rows.append((info.session_id, updated, str(info.steps), info.status.value,
                     info.stop_reason or "-", info.query, info.seed))
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]) - 1)]
    return ["  ".join([*(c.ljust(w) for c, w in zip(row, widths, strict=False)), row[-1]])
            for row in rows]


# -- replay -----------------------------------------------------------------------------


def run_replay(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``replay``: the recorded crawl re-run offline, with its settings or changed ones."""
    recorded_config, responses, events, recorded_steps = _read_recording(args.recording)
    try:
        config = replay_config(recorded_config, args)
    except ConfigError as exc:
        hint = "" if recorded_config else " (this WARC has no settings: give --seed and --query)"
        err.write(f"pagesift-ui replay: {exc}{hint}\n")
        return 2
    same = config == recorded_config
    source = ReplaySource(responses)
    replayed: list[Recorded] = []
    session = CrawlSession(config, RecordingSource(source, replayed.append))
    drive(session, events if same else (), strict=False)
    replay_events = tuple(merge_events(session.overrides, ()))
    _write_outputs(session, replayed, replay_events, args, err)
    out.write(f"replayed {_count(len(session.steps), 'step')} offline from {args.recording}; "
              f"{_count(len(source.unavailable), 'URL')} unavailable (not in the recording)\n")
    if same and recorded_steps is not None:
        out.write(_compare(recorded_steps, session.steps) + "\n")
    out.write("\n".join(_summary_lines(session)) + "\n")
    return 0


def _read_recording(
    path: Path,
) -> tuple[CrawlConfig | None, list[Recorded], list[SessionEvent], list[StepRecord] | None]:
    with path.open("rb") as stream:
        head = stream.read(5)
    if head[:2] == b"\x1f\x8b" or head == b"WARC/":
        from pagesift_ui.warc import read_warc

        recording = read_warc(path)
        return recording.config, list(recording.responses), list(recording.events), None
    data = path.read_bytes()
    view = load_bundle(data)  # validates all but the responses, which are read next
    bundle = json.loads(data)
    events = events_from_bundle(bundle, view.overrides)
    return view.config, responses_from_bundle(bundle), events, view.steps


def replay_config(recorded: CrawlConfig | None, args: argparse.Namespace) -> CrawlConfig:
    """The recorded settings (none for a foreign WARC) changed by the options given."""
    values = recorded.to_dict() if recorded is not None else {}
    for dest, (path, convert) in _REPLAY_FIELDS.items():
        given = getattr(args, dest)
        if given is None:
            continue
        target = values
        for key in path[:-1]:
            target = target.setdefault(key, {})
        target[path[-1]] = convert(given)
    return CrawlConfig.from_mapping(values)


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


STORE_HANDLERS: dict[str, Handler] = {"sessions": run_sessions, "replay": run_replay}
