"""``crawl`` (saved to the session store unless ``--no-save``; ``--resume``, ``--warc``) and
``serve`` (a folder on 127.0.0.1, for crawling offline)."""

from __future__ import annotations

import argparse
import functools
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from pagesift_ui.cli.options import (
    Commands,
    ProgressSink,
    add_crawl_options,
    changed_options,
    config_error_message,
    config_from_args,
    listen_problem,
    port_number,
    stop_after_the_step,
    summary_lines,
    wait_forever,
)
from pagesift_ui.cli.outputs import (
    WRITE_FAILED,
    FailedWrite,
    export_command,
    missing_store,
    output_problem,
    write_outputs,
)
from pagesift_ui.errors import ConfigError, StoreError
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import FORGIVABLE, CrawlConfig, CrawlSession, SessionEnd
from pagesift_ui.session.source import default_source
from pagesift_ui.session.views import start_failure
from pagesift_ui.store import (
    Recorded,
    RecordingSink,
    SessionStore,
    StoreSink,
    resume,
    start_session,
)
from pagesift_ui.store.replay import merge_events, queue_empty_marks
from pagesift_ui.warc import WarcSink

__all__ = ["register", "run_crawl", "run_serve"]


def register(commands: Commands) -> None:
    """Add ``crawl`` and ``serve``, each with its handler."""
    crawl = commands.add_parser("crawl", help="run a focused crawl from a start URL")
    crawl.add_argument("seed_url", metavar="seed", nargs="?",
                       help="the start URL (leave out with --resume)")
    add_crawl_options(crawl)  # the URL and --query are required unless --resume
    # None: not typed. With --resume, a typed --limit raises the saved crawl's budget
    # (CrawlSession.raise_limit); a new crawl reads None as the default
    crawl.set_defaults(limit=None)
    crawl.add_argument("--out", type=Path, help="write the JSON session bundle here")
    crawl.add_argument("--pages-csv", type=Path, help="write the pages table as CSV here")
    crawl.add_argument("--quiet", action="store_true", help="no progress bar")
    crawl.add_argument("--db", type=Path, help="the session store (default: $PAGESIFT_DB, "
                       "else sessions.sqlite3 in the user data directory)")
    crawl.add_argument("--resume", metavar="ID", help="continue saved session ID to its stop, "
                       "with its own settings (leave out the start URL and crawl options)")
    crawl.add_argument("--continue-anyway", action="store_true",
                       help="with --resume: go on past the stop verdict that stood "
                       "(coverage_reached, saturated, no_relevant_pages), as the app's "
                       "Continue anyway; saved with the session")
    crawl.add_argument("--no-save", action="store_true", help="do not save the session")
    crawl.add_argument("--warc", type=Path, help="also write the fetched pages as a WARC "
                       "file here (FILE.warc.gz)")
    crawl.set_defaults(handler=run_crawl)

    serve = commands.add_parser("serve", help="serve a folder on 127.0.0.1 (offline crawling)")
    serve.add_argument("folder", type=Path)
    serve.add_argument("--port", type=port_number, default=8000,
                       help="the port on 127.0.0.1 (default 8000; 0 picks a free one)")
    serve.set_defaults(handler=run_serve)


def run_crawl(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``crawl``: a new crawl (saved unless ``--no-save``) or ``--resume ID``."""
    problem = _crawl_args_problem(args) or output_problem(args)
    if problem:  # before the crawl: a crawl never runs only to lose its files
        err.write(f"pagesift-ui crawl: {problem}\n")
        return 2
    try:
        config = None if args.resume is not None else config_from_args(args)
        session = _open_saved(args, config, err)
    except ConfigError as exc:
        err.write(f"pagesift-ui crawl: {config_error_message(exc)}\n")
        return 2
    memory = RecordingSink()  # what an unsaved crawl keeps instead
    if session is None:
        assert config is not None  # only --resume leaves it None, and --resume saves
        session = CrawlSession(config, memory.record(default_source(config)), sinks=[memory])
    note = session.config.query_note()
    if note:
        err.write(f"note: {note}\n")
    saved = session.find_sink(StoreSink)
    try:
        warc = _stream_warc(session, args.warc, saved) if args.warc is not None else None
    except OSError as exc:
        # nothing was crawled: a new session is not left behind empty, a resumed one is as
        # it was; the file passed the check before (a full disk, /dev/full)
        session.close()
        kept = ""
        if saved is not None and args.resume is None:
            with SessionStore(args.db) as store:
                store.delete(saved.session_id)
        elif saved is not None:
            kept = f"; session {saved.session_id} is as it was"
        err.write(f"pagesift-ui crawl: --warc {args.warc} could not be written "
                  f"({exc.strerror or exc}); nothing was crawled{kept}\n")
        return 2
    interrupted = _crawl(session, args.quiet, err)
    # a Ctrl-C now waits for the files and the summary (it skipped the CSV and the summary
    # when it came just after the last step); a second one stops at once
    with stop_after_the_step(err, then="writing the files first"):
        # the answers are asked for only if a bundle is written (a saved crawl reads them
        # back)
        responses: Callable[[], Sequence[Recorded]]
        if saved is not None:
            responses, events = saved.recorded, saved.events
        else:
            # every override made, the Ctrl-C stop included, with the sink's empty-queue calls
            responses = functools.partial(tuple, memory.answers)
            events = tuple(merge_events(session.overrides, queue_empty_marks(memory.events)))
        failed = write_outputs(session, responses, events, args, err)
        if warc is not None:
            err.write(f"WARC: {warc.path} ({warc.pages} pages)\n")
        if saved is not None and interrupted:
            err.write(f"interrupted: `pagesift-ui crawl --resume {saved.session_id}` "
                      "continues it\n")
        out.write("\n".join(summary_lines(session)) + "\n")
    if failed:
        err.write(_lost_files_help(failed, saved, args))
        return WRITE_FAILED
    if interrupted:
        return 130
    failure = start_failure(session.steps, session.stop_reason)
    if failure is not None:
        # an "exhausted" crawl that read no page: the start URL itself failed
        err.write(f"pagesift-ui crawl: the start URL could not be crawled: {failure}\n")
        return 1
    return 0


def _lost_files_help(
    failed: list[FailedWrite], saved: StoreSink | None, args: argparse.Namespace
) -> str:
    """What to do about the files that could not be written after the crawl."""
    names = " and ".join(f"{f.flag} {f.path}" for f in failed)
    if saved is None:
        return (f"pagesift-ui crawl: {names} could not be written, and this crawl was not "
                "saved (--no-save): its results are lost. Crawl again without --no-save, or "
                "with an output that can be written\n")
    command = export_command(saved.session_id, Path(saved.store.path), args)
    return (f"pagesift-ui crawl: {names} could not be written. The crawl is saved as session "
            f"{saved.session_id}; write its files again (to a place that can be written) "
            f"with:\n  {command}\n")


def _crawl_args_problem(args: argparse.Namespace) -> str:
    if args.resume is not None:
        if args.no_save:
            return "--resume continues a saved session, which --no-save would not update"
        if args.seed_url is not None or args.query is not None:
            return "--resume uses the saved session's settings; leave out the URL and --query"
        changed = changed_options(args, leave_out=("limit",))  # --limit raises the budget
        if changed:
            # they were dropped without a word: a resumed crawl ran to its recorded limit.
            # They shape a crawl from its first step (the dispersion cap is the budget's),
            # so the saved steps cannot be kept under them (found by using the CLI: the
            # message said they "would change nothing", and named no way past a verdict)
            return (f"--resume continues the saved crawl with its own settings, and "
                    f"{' '.join(changed)} cannot change them: settings shape a crawl from "
                    "its first step. --limit N raises its page budget; --continue-anyway "
                    "goes on past a verdict that stood; "
                    f"`pagesift-ui replay {args.resume} {' '.join(changed)}` re-runs the "
                    "saved steps offline with these settings; a new crawl takes them live")
        return ""
    if args.continue_anyway:
        return ("--continue-anyway goes with --resume ID: a new crawl has no verdict to "
                "continue past (--no-stop crawls past every verdict)")
    if args.seed_url is None or args.query is None:
        return "give the start URL and --query (or --resume ID to continue a saved session)"
    return ""


def _open_saved(
    args: argparse.Namespace, config: CrawlConfig | None, err: TextIO
) -> CrawlSession | None:
    """The saved session to crawl (new, or ``--resume``); None with ``--no-save``."""
    if args.no_save:
        return None
    if args.resume is not None and (missing := missing_store(args.db)):
        raise StoreError(f"{missing}, so no session {args.resume} to resume")
    store = SessionStore(args.db)
    if args.resume is not None:
        session = resume(store, args.resume)
        budget_note = ""
        if args.limit is not None and args.limit == session.limit:
            # exit 0 and not a word, where a lower one is refused (found by using the CLI)
            budget_note = f"; its page budget is {session.limit} already (--limit)"
        elif args.limit is not None:
            try:
                session.raise_limit(args.limit, note=f"page budget raised from "
                                    f"{session.limit} to {args.limit} (--limit)")
            except ValueError as exc:
                session.close()
                raise ConfigError("limit", str(exc)) from exc
            budget_note = f"; page budget raised to {args.limit} (--limit)"
        going_on = ("continuing" if not session.done else
                    f"it had stopped ({session.stop_reason}), so nothing is crawled")
        if args.continue_anyway and session.done and session.stop_reason in FORGIVABLE:
            going_on = f"continuing past its verdict {session.stop_reason} (--continue-anyway)"
            session.forgive(note="continue anyway (--continue-anyway)")
        elif args.continue_anyway and session.done:
            going_on += (f"; --continue-anyway goes past coverage_reached, saturated or "
                         f"no_relevant_pages, not {session.stop_reason}"
                         + ("; --limit N raises the page budget"
                            if session.stop_reason is StopReason.LIMIT_REACHED else ""))
        elif session.done and session.stop_reason is StopReason.LIMIT_REACHED:
            going_on += f"; --limit N (above {session.limit}) raises the page budget"
        elif session.done and session.stop_reason in FORGIVABLE:
            # a raised budget on a crawl a verdict stopped crawled nothing, with no word of
            # how to go on (found by using the CLI)
            going_on += "; --continue-anyway goes on past its verdict"
        err.write(f"session {args.resume}: rebuilt {len(session.steps)} saved steps "
                  f"offline from {store.path}{budget_note}; {going_on}\n")
        return session
    assert config is not None
    session = start_session(store, config)
    saved = session.find_sink(StoreSink)
    assert saved is not None  # start_session attaches it
    err.write(f"session {saved.session_id}: saving to {store.path}\n")
    return session


def _stream_warc(session: CrawlSession, path: Path, saved: StoreSink | None) -> WarcSink:
    """A ``WarcSink`` writing the crawl to ``path`` as it goes; a resumed session's saved
    steps are written first."""
    if saved is None:
        return WarcSink.attach(session, path)
    return WarcSink.attach(session, path, session_id=saved.session_id,
                           answers=saved.recorded(), events=saved.events)


def _crawl(session: CrawlSession, quiet: bool, err: TextIO) -> bool:
    """Run to the stop with a progress bar; True if interrupted by Ctrl-C. The session and
    its WARC sink, if any, are closed."""
    progress = None if quiet else ProgressSink(err)
    if progress is not None:
        session.add_sink(progress)
    warc = session.find_sink(WarcSink)
    try:
        with stop_after_the_step(err) as asked:
            for _ in session.iter_steps():
                if asked.is_set():
                    raise KeyboardInterrupt
    except KeyboardInterrupt:
        # The outputs show the crawl cancelled; the saved session stays open (the stop is
        # not saved), so --resume continues it. Nothing already crawled is lost. The WARC
        # is told the stop even when the interrupted session tells no sink, so that a
        # replay of it stops there too.
        if not session.done:
            for sink in (session.find_sink(StoreSink), warc):
                if sink is not None:
                    session.remove_sink(sink)
            stop = session.stop(note="interrupted (Ctrl-C)")
            if warc is not None:
                warc.on_override(session, stop)
                assert session.stop_reason is not None  # stop() just set it
                warc.on_end(session, SessionEnd(session.stop_reason, len(session.steps)))
        return True
    finally:
        session.close()
        if warc is not None:
            warc.close()
        if progress is not None:
            progress.close()
    return False


def run_serve(args: argparse.Namespace, out: TextIO, err: TextIO) -> int:
    """``serve``: the folder on 127.0.0.1 until Ctrl-C."""
    from pagesift_ui.net.serve import StaticServer

    try:
        server = StaticServer(args.folder, port=args.port)
    except ValueError as exc:
        err.write(f"pagesift-ui serve: {exc}\n")
        return 2
    try:
        server.start()
    except OSError as exc:
        err.write(f"pagesift-ui serve: {listen_problem(args.port, exc)}\n")
        return 2
    with server:
        out.write(f"serving {args.folder} at {server.base_url()} (Ctrl-C to stop)\n")
        out.flush()
        wait_forever()
    return 0
