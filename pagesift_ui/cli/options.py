"""What the command groups share: the crawl options, their reading into a ``CrawlConfig``, and
the lines written to the terminal. Group modules import this one; it imports no group."""

from __future__ import annotations

import argparse
import contextlib
import signal
import threading
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, TextIO, TypeAlias

from pagesift_ui.errors import ConfigError, shown
from pagesift_ui.frontier.adaptive import MIN_SOURCES
from pagesift_ui.session import (
    CrawlConfig,
    CrawlSession,
    Override,
    ReadableSession,
    SessionEnd,
    StepRecord,
    Verdict,
    VerdictFate,
)
from pagesift_ui.session.config import SETTINGS, Setting, settings_mapping
from pagesift_ui.session.views import page_budget

if TYPE_CHECKING:
    Commands: TypeAlias = argparse._SubParsersAction[argparse.ArgumentParser]
else:
    Commands: TypeAlias = argparse._SubParsersAction

__all__ = [
    "CRAWL_OPTIONS",
    "Commands",
    "Handler",
    "ProgressSink",
    "add_crawl_options",
    "changed_options",
    "config_error_message",
    "config_from_args",
    "is_terminal",
    "listen_problem",
    "opposite_flag",
    "port_number",
    "progress_line",
    "stop_after_the_step",
    "summary_lines",
    "wait_forever",
    "write_progress",
]

Handler = Callable[[argparse.Namespace, TextIO, TextIO], int]
"""Runs one command: ``(args, out, err) -> exit code``; set on its sub-parser as ``handler``."""

#: The settings ``crawl`` and ``replay`` take as options (those with a flag), in --help order.
CRAWL_OPTIONS: tuple[Setting, ...] = tuple(s for s in SETTINGS if s.flag is not None)
_FLAGS: dict[str, str] = {s.name: s.flag for s in CRAWL_OPTIONS if s.flag is not None}

_BAR_WIDTH = 30


def add_crawl_options(parser: argparse.ArgumentParser, *, as_recorded: bool = False) -> None:
    """``--query`` and one option per ``CRAWL_OPTIONS`` setting, for ``crawl`` and ``replay``.

    Defaults and ranges are read off ``CrawlConfig`` and ``AdaptiveOptions``; the range is
    checked there too (``config_from_args``), never here. With ``as_recorded`` every option
    defaults to None, which ``config_from_args`` reads as "keep the base config's value".
    """
    parser.add_argument("--query", "-q", help="what the crawl looks for")
    for setting in CRAWL_OPTIONS:
        parser.add_argument(_FLAGS[setting.name], dest=setting.name,
                            **_argument(setting, as_recorded))
        if as_recorded and setting.kind is bool:
            # a switch recorded on must be switchable off: a --no-stop recording replayed
            # with the stop rules (found by using the CLI: "--stop" did not exist)
            parser.add_argument(opposite_flag(_FLAGS[setting.name]), dest=setting.name,
                                action="store_const", const=setting.default,
                                help=f"undo {_FLAGS[setting.name]} of the recording (the "
                                     "crawl's default)")


def opposite_flag(flag: str) -> str:
    """The switch that undoes ``flag``: ``--no-stop`` → ``--stop``, ``--sitemaps`` →
    ``--no-sitemaps``."""
    return f"--{flag[5:]}" if flag.startswith("--no-") else f"--no-{flag[2:]}"


def changed_options(
    args: argparse.Namespace, leave_out: tuple[str, ...] = ()
) -> list[str]:
    """The ``CRAWL_OPTIONS`` whose values differ from their defaults, as typed (``--limit
    80``; a switch alone): ``crawl``'s options, read as given, so one given at its default
    value is not told apart. The settings named in ``leave_out`` are not looked at."""
    changed = []
    for setting in CRAWL_OPTIONS:
        if setting.name in leave_out:
            continue
        default = setting.default.value if setting.choices else setting.default
        value = getattr(args, setting.name, default)
        if value != default:
            flag = _FLAGS[setting.name]
            changed.append(flag if setting.kind is bool else f"{flag} {value}")
    return changed


def _argument(setting: Setting, as_recorded: bool) -> dict[str, Any]:
    default = setting.default
    if setting.kind is bool:  # the flag turns the setting to the opposite of its default
        return {"action": "store_false" if default else "store_true", "help": setting.help,
                "default": None if as_recorded else default}
    if setting.choices:
        default = default.value
        return {"choices": setting.choices, "default": None if as_recorded else default,
                "help": f"{setting.help} (default {'as recorded' if as_recorded else default})"}
    default_text = "as recorded" if as_recorded else str(default)
    span = setting.describe_range()
    return {"type": setting.kind, "default": None if as_recorded else default,
            "help": f"{setting.help} ({span + '; ' if span else ''}default {default_text})"}


def port_number(text: str) -> int:
    """``--port``'s type: a TCP port, 0 for any free one (argparse names the option)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"must be a whole number from 0 to 65535 (0: any "
                                         f"free port), got {shown(text)}")
    return port


def listen_problem(port: int, exc: OSError) -> str:
    """Why a server could not listen on 127.0.0.1:``port``, and what to do."""
    return (f"cannot listen on 127.0.0.1:{port} ({exc.strerror or exc}); choose another "
            "--port, or 0 for any free one")


def config_from_args(args: argparse.Namespace, base: CrawlConfig | None = None) -> CrawlConfig:
    """The config the crawl options ask for, laid over ``base`` (``replay``: the recorded one).

    The start URL is ``args.seed_url``. An option that is None keeps ``base``'s value (or the
    default). Raises ``ConfigError`` naming the setting, as ``CrawlConfig`` does.
    """
    names = ("seed_url", "query", *(setting.name for setting in CRAWL_OPTIONS))
    given = {name: value for name in names if (value := getattr(args, name)) is not None}
    base_values = base.to_dict() if base is not None else None
    return CrawlConfig.from_mapping(settings_mapping(given, base_values))


def config_error_message(exc: ConfigError) -> str:
    """The error in the words of the command line: a setting with an option is named by it."""
    flag = _FLAGS.get(exc.field)
    return f"{flag}: {exc.message}" if flag is not None else str(exc)


def progress_line(record: StepRecord, limit: int, *, query: bool = True) -> str:
    """One progress-bar line for the step just taken (no line end: the caller rewrites it).
    Without ``query`` (a snapshot, crawled for no query) only the pages and what failed:
    its relevance and coverage were those of the placeholder query "site snapshot"."""
    done = min(record.pages_scheduled, limit)
    bar = "#" * (_BAR_WIDTH * done // limit)
    # the budget used, as the summary's "N of the budget of L used" (a failed fetch uses it
    # and reads no page): "200/200 pages" beside "197 pages fetched" read as a contradiction
    head = f"step {record.step:<5} [{bar:<{_BAR_WIDTH}}] {done}/{limit} budget  "
    if not query:
        return f"{head}{(record.error_kind or '')[:24]:<24}"
    what = record.verdict or (record.error_kind or f"rel {record.relevance or 0:.2f}")
    return (
        f"{head}relevant {record.relevant_pages}  "
        f"coverage {record.coverage:.0%}  {what[:24]:<24}"
    )


def is_terminal(stream: TextIO) -> bool:
    """True when ``stream`` is a terminal, where a progress line can be rewritten in place."""
    try:
        return stream.isatty()
    except (AttributeError, ValueError, OSError):  # closed, or not a file at all
        return False


def write_progress(stream: TextIO, line: str, rewrite: bool) -> None:
    """A progress line: rewritten in place on a terminal (``\r``), else one line each, so a
    log file reads as lines (found by using the CLI: redirected, a crawl's progress was
    hundreds of ``\r``-joined segments on one line)."""
    stream.write("\r" + line if rewrite else line + "\n")
    stream.flush()


class ProgressSink:
    """The progress bar as a sink: each step rewrites one line on ``stream`` (``\r``) and
    the line is ended once the crawl ends (``on_end``) or the sink is closed. ``rewrite``
    False (default: when ``stream`` is no terminal) writes one line per step instead."""

    def __init__(self, stream: TextIO, rewrite: bool | None = None) -> None:
        self.stream = stream
        self._rewrite = is_terminal(stream) if rewrite is None else rewrite
        self._open = False  # a bar line is on the terminal, not yet ended

    def on_step(self, session: ReadableSession, record: StepRecord) -> None:
        write_progress(self.stream, progress_line(record, page_budget(session)), self._rewrite)
        self._open = self._rewrite

    def on_override(self, session: ReadableSession, override: Override) -> None:
        """Overrides do not move the bar."""

    def on_end(self, session: ReadableSession, end: SessionEnd) -> None:
        self.close()

    def close(self) -> None:
        """End the bar's line, if one is open."""
        if self._open:
            self.stream.write("\n")
            self._open = False


#: Verdicts the closing summary lists; a long crawl's later ones are counted, not listed,
#: but for the one that stopped it, which is always listed.
SUMMARY_VERDICTS = 10


def _verdict_line(verdict: Verdict) -> str:
    """One verdict of the summary. One that stood says why no queued link was a lead, as
    its step record does (``lead_why``), where the session kept it."""
    words = verdict.text
    if verdict.fate is VerdictFate.STOPPED and verdict.why:
        words = f"stopped: {verdict.why}"
    return f"  verdict at step {verdict.step}: {verdict.reason.value}, {words}"


def _verdict_lines(verdicts: list[Verdict]) -> list[str]:
    """The first ``SUMMARY_VERDICTS`` verdicts, a count of the rest, and the one that stopped
    the crawl if it is among the rest (found by using the CLI: the verdict that stood at
    step 108 was never shown after ten forgiven ones)."""
    listed = verdicts[:SUMMARY_VERDICTS]
    stood = [v for v in verdicts[SUMMARY_VERDICTS:] if v.fate is VerdictFate.STOPPED][-1:]
    rest = len(verdicts) - len(listed) - len(stood)
    more = ([f"  … and {rest} more verdict{'' if rest == 1 else 's'} (a bundle of this crawl, "
             "--out, lists them all)"] if rest else [])
    return [*map(_verdict_line, listed), *more, *map(_verdict_line, stood)]


def _covered_words(session: CrawlSession, summary: dict[str, Any]) -> str:
    """After the coverage: " (covered)", or why a coverage at the threshold is not (the
    evidence came from too few pages, adaptive.MIN_SOURCES); found by using the CLI, where
    "coverage: 100%" without "(covered)" went unexplained."""
    if summary["covered"]:
        return " (covered)"
    if summary["coverage"] >= session.config.adaptive.coverage_threshold:
        return (f" (not covered: the evidence must come from at least {MIN_SOURCES} pages, "
                "and so far it comes from one)")
    return ""


def summary_lines(session: CrawlSession) -> list[str]:
    """The closing summary of a crawl: stop reason, every stop verdict and what became of it
    (with the reason it was forgiven or stood, as the step record says it), counts, and
    evidence per query term."""
    summary = session.summary()
    lines = [
        f"stop reason: {summary['stop_reason']}"
        + (f" (first verdict {summary['first_verdict']} at step {summary['stop_step']})"
           if summary["first_verdict"] and summary["first_verdict"] != summary["stop_reason"]
           else ""),
        *_verdict_lines(list(session.verdicts)),
        f"{summary['pages_fetched']} pages fetched in {summary['steps']} steps; "
        f"{summary.get('pages_scheduled', summary['pages_fetched'])} of the budget of "
        f"{page_budget(session)} used (every fetch counts against it but a duplicate: a "
        "failed fetch or a non-HTML answer uses the budget and reads no page)",
        f"relevant pages: {summary['relevant_pages']}",
        f"harvest rate: {summary['harvest_rate']:.1%} (relevant pages ÷ pages fetched); "
        f"{summary['fresh_rate']:.1%} of the pages brought new evidence",
        f"coverage: {summary['coverage']:.0%}" + _covered_words(session, summary),
    ]
    if learned := summary.get("copy_parameters"):
        pairs = ", ".join(f"?{pair}" for pair in learned)
        lines.append(f"copies not fetched: {summary.get('copies_not_fetched', 0)} links "
                     f"carrying {pairs}, learned to make copies")
    if over := summary.get("pages_over_link_cap"):
        cap = session.config.max_links_per_page
        lines.append(f"links not read: {summary.get('links_not_read', 0)} past the first "
                     f"{cap} of {over} page{'s' if over > 1 else ''} (--max-links reads more)")
    target = session.config.adaptive.evidence_per_term
    for term, evidence in summary["evidence"].items():
        lines.append(f"  {term:<20} {evidence:>3} / {target} evidence")
    return lines


@contextlib.contextmanager
def stop_after_the_step(
    err: TextIO, then: str = "stopping after this step"
) -> Iterator[threading.Event]:
    """The first Ctrl-C asks the command to stop once the step under way is recorded (set
    on the event, and ``then`` said on ``err``); a second one interrupts at once, as Ctrl-C
    always does. Scrapy stops the same way. Cut off half-way, a step leaves counters that no
    record has; the summary then reads the records (``CrawlSession.interruption``). Outside
    the main thread, where no handler can be set, Ctrl-C interrupts at once."""
    asked = threading.Event()
    if threading.current_thread() is not threading.main_thread():
        yield asked
        return

    def ask(signum: int, frame: object) -> None:
        if asked.is_set():
            raise KeyboardInterrupt
        asked.set()
        err.write(f"\nCtrl-C: {then} (Ctrl-C again to stop at once)\n")
        err.flush()

    previous = signal.signal(signal.SIGINT, ask)
    try:
        yield asked
    finally:
        signal.signal(signal.SIGINT, previous)


def wait_forever() -> None:
    """Block until Ctrl-C (for the commands that serve until stopped)."""
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        pass
