"""``sessions`` (list the saved sessions) and ``replay`` (re-run a recording offline)."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence
from datetime import datetime
from pathlib import Path
from typing import TextIO

from pagesift_ui.cli.options import (
    Commands,
    add_crawl_options,
    config_error_message,
    config_from_args,
    summary_lines,
)
from pagesift_ui.cli.outputs import write_outputs
from pagesift_ui.errors import ConfigError
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.bundle import load_bundle
from pagesift_ui.store import (
    Recorded,
    RecordingSink,
    ReplaySource,
    SessionEvent,
    SessionInfo,
    SessionStore,
    drive,
)
from pagesift_ui.store.portable import events_from_bundle, responses_from_bundle
from pagesift_ui.store.replay import first_difference

__all__ = ["register", "replay_config", "run_replay", "run_sessions", "session_table"]

def register(commands: Commands) -> None:
    """Add ``sessions`` and ``replay``, each with its handler."""
    sessions = commands.add_parser("sessions", help="list the saved sessions")
    sessions.add_argument("--db", type=Path, help="the session store (default as for crawl)")
    sessions.set_defaults(handler=run_sessions)
    replay = commands.add_parser(
        "replay", help="re-run a recorded session offline, with its settings or others",
        description="Re-run a recorded crawl with no network: pages come from the recording, "
        "and a page it never fetched is reported unavailable. Crawl options left out keep "
        "their recorded values; with all of them as recorded, the recorded overrides are "
        "applied too and the replay reproduces the recorded steps.",
    )
    replay.add_argument("recording", type=Path,
                        help="a session bundle (.json, with responses) or a WARC file")
    replay.add_argument("--seed", dest="seed_url", help="the start URL (default: the recorded one)")
    add_crawl_options(replay, as_recorded=True)
    replay.add_argument("--out", type=Path, help="write the replay's session bundle here")
    replay.add_argument("--pages-csv", type=Path, help="write the pages table as CSV here")
    replay.set_defaults(handler=run_replay)


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
        err.write(f"pagesift-ui replay: {config_error_message(exc)}{hint}\n")
        return 2
    same = config == recorded_config
    source = ReplaySource(responses)
    replayed = RecordingSink()  # the replay is recorded like a crawl: its bundle replays too
    session = CrawlSession(config, replayed.record(source), sinks=[replayed])
    drive(session, events if same else (), strict=False)
    write_outputs(session, replayed.answers, replayed.events, args, err)
    out.write(f"replayed {_count(len(session.steps), 'step')} offline from {args.recording}; "
              f"{_count(len(source.unavailable), 'URL')} unavailable (not in the recording)\n")
    if same and recorded_steps is not None:
        out.write(_compare(recorded_steps, session.steps) + "\n")
    out.write("\n".join(summary_lines(session)) + "\n")
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
