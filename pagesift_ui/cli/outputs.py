"""The files a finished crawl or replay writes: ``--out`` and ``--pages-csv``. (``crawl
--warc`` is written during the crawl, by a ``WarcSink``.)

Every output path is checked before any crawl starts (``output_problem``): a folder that
does not exist, one that cannot be written, a folder named where a file is meant. What can
still fail later (a full disk, ``/dev/full``) fails in ``write_outputs``, which writes every
file it can and returns the ones it could not, for the command to say what to do.
"""

from __future__ import annotations

import argparse
import os
import shlex
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

from pagesift_ui.session import CrawlSession
from pagesift_ui.session.bundle import bundle_chunks, pages_csv
from pagesift_ui.store import Recorded, SessionEvent, default_db_path
from pagesift_ui.store.portable import bundle_with_responses

__all__ = [
    "OUTPUT_FLAGS",
    "WRITE_FAILED",
    "FailedWrite",
    "export_command",
    "folder_problem",
    "missing_store",
    "output_problem",
    "write_outputs",
]

#: The exit code of a command that did its work but could not write an output file.
WRITE_FAILED = 3
#: The options naming files a command writes, by their ``argparse`` destination.
OUTPUT_FLAGS = {"out": "--out", "pages_csv": "--pages-csv", "warc": "--warc",
                "truth_out": "--truth-out"}


@dataclass(frozen=True, slots=True)
class FailedWrite:
    """An output that could not be written: its option, its path, and why."""

    flag: str
    path: Path
    why: str


def output_problem(args: argparse.Namespace) -> str:
    """Why an output the options name cannot be written ("" when all can), found before the
    crawl: so that a crawl never runs only to lose its files."""
    seen: dict[Path, str] = {}
    for dest, flag in OUTPUT_FLAGS.items():
        path: Path | None = getattr(args, dest, None)
        if path is None:
            continue
        problem = _path_problem(path)
        if problem:
            return f"{flag} {path}: {problem}"
        resolved = path.resolve()
        if resolved in seen and not _is_device(path):
            return f"{seen[resolved]} and {flag} name the same file {path}"
        seen[resolved] = flag
    for resolved, flag in seen.items():
        for read, what in _inputs(args):
            if read.resolve() == resolved and not _is_device(read):
                return (f"{flag} {read} is {what} this command reads; writing there would "
                        "destroy it: name another file")
    return ""


def missing_store(db: Path | None) -> str:
    """Why the session store a reading command names cannot be read ("" when it is there):
    opening a store makes its file, and `sessions --db typo.db` left an empty one behind."""
    path = db if db is not None else default_db_path()
    return "" if path.exists() else f"there is no session store at {path}"


def _inputs(args: argparse.Namespace) -> list[tuple[Path, str]]:
    """The files the command reads that an output must not overwrite: the session store
    (``--db``, or the default one) and a recording to replay (a bundle or WARC path)."""
    inputs = []
    if hasattr(args, "db"):
        inputs.append((args.db or default_db_path(), "the session store"))
    recording = getattr(args, "recording", None)
    if isinstance(recording, str) and Path(recording).exists():
        inputs.append((Path(recording), "the recording"))
    return inputs


def _is_device(path: Path) -> bool:
    """``/dev/null`` and the like take any number of writers."""
    return path.exists() and not path.is_file()


def _path_problem(path: Path) -> str:
    if path.is_dir():
        return "is a folder; give a file name in it"
    folder = path.parent
    if not folder.exists():
        return f"the folder {folder} does not exist"
    if not folder.is_dir():
        return f"{folder} is not a folder"
    return _probe(path)


def folder_problem(path: Path) -> str:
    """Why results cannot be written into the folder ``path`` ("" when they can), found
    before any crawl: ``bench --out c1.csv`` crawled for seconds, then said "File exists"
    and lost them. The folders missing on the way are made to try, and removed again (an
    unreachable scheduler left an empty ``sweep --out`` folder behind); as root a
    permission check says yes to everything, so only writing tells."""
    if path.exists() and not path.is_dir():
        return "is a file; name a folder (it is made if missing)"
    made: list[Path] = []
    for folder in (path, *path.parents):
        if folder.exists():
            break
        made.append(folder)
    try:
        for folder in reversed(made):
            folder.mkdir()
        return _probe(path / ".pagesift-write-test")
    except OSError as exc:
        return f"cannot be made ({exc.strerror or exc})"
    finally:
        for folder in made:
            try:
                folder.rmdir()
            except OSError:
                break  # not made after all, or not empty: leave it


def _probe(path: Path) -> str:
    """Open the file for writing without changing it (a new one is removed again)."""
    existed = path.exists()
    try:
        if existed:
            with path.open("ab"):
                pass
        else:
            with path.open("xb"):
                pass
            os.unlink(path)
    except OSError as exc:
        return f"cannot be written ({exc.strerror or exc})"
    return ""


def write_outputs(
    session: CrawlSession,
    responses: Callable[[], Sequence[Recorded]],
    events: Sequence[SessionEvent],
    args: argparse.Namespace,
    err: TextIO,
) -> list[FailedWrite]:
    """Write each file the options ask for, naming it on ``err``; return those that failed
    (each failure is said on ``err`` too, without a traceback). ``responses`` is called only
    for a bundle (``--out``): a saved crawl's bodies are read back from the store then, and
    never for a crawl that writes no bundle (issue 15)."""
    failed: list[FailedWrite] = []
    if args.out is not None:
        bundle = bundle_with_responses(session, responses(), events)
        failed += _write(args.out, "--out", "session bundle", bundle_chunks(bundle), err)
    if args.pages_csv is not None:
        failed += _write(args.pages_csv, "--pages-csv", "pages CSV", pages_csv(session), err)
    return failed


def _write(
    path: Path, flag: str, what: str, content: str | Iterable[str], err: TextIO
) -> list[FailedWrite]:
    try:
        _replace(path, content)
    except OSError as exc:
        why = exc.strerror or str(exc)
        err.write(f"cannot write the {what} to {path}: {why}\n")
        return [FailedWrite(flag, path, why)]
    err.write(f"{what}: {path}\n")
    return []


def _replace(path: Path, content: str | Iterable[str]) -> None:
    """Write ``content`` (text, or its pieces in order) to ``path`` whole or not at all: into
    a file beside it, renamed over it once written (an interrupted or failed write left a
    truncated bundle in place of the last good one). A device (``/dev/null``) is written as
    it is: it cannot be replaced."""
    pieces = [content] if isinstance(content, str) else content
    if _is_device(path):
        with path.open("w", encoding="utf-8") as stream:
            stream.writelines(pieces)
        return
    partial = path.with_name(f".{path.name}.partial")
    try:
        with partial.open("w", encoding="utf-8") as stream:
            stream.writelines(pieces)
        os.replace(partial, path)
    except BaseException:
        # a full disk (OSError) or a second Ctrl-C mid-write (KeyboardInterrupt): the target
        # keeps its last whole content and no half-written file is left beside it; re-raised
        partial.unlink(missing_ok=True)
        raise


def export_command(session_id: str, store_path: Path, args: argparse.Namespace) -> str:
    """The command that writes a saved session's files again, as the user can paste it."""
    parts = ["pagesift-ui", "export", session_id, "--db", str(store_path)]
    for dest, flag in (("out", "--out"), ("pages_csv", "--pages-csv")):
        path = getattr(args, dest, None)
        if path is not None:
            parts += [flag, str(path)]
    return " ".join(shlex.quote(part) for part in parts)
