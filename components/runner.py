"""One time-boxed tick of Run: step the session until the budget is spent or it should pause.

No Streamlit here: the Run fragment calls :func:`advance` with plain values, so each step
happens between two ``st.*`` calls (docs/DESIGN.md §14.2) and the logic is testable. The tick
steps through the session's one loop, ``iter_steps``; the session's sinks (the store) are told
of each step there. Between two steps — never inside one — the tick calls its
``yield_point``: the app's is a read of Streamlit's session state, where a pending click
(Pause) ends the tick at once, so a tick can use most of its interval (§14.3).
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass

from pagesift_ui.frontier.adaptive import COLD_PATIENCE, StopReason
from pagesift_ui.session import CrawlSession, StepRecord, VerdictFate
from pagesift_ui.session.config import CrawlConfig

__all__ = ["RunMode", "TickEnd", "TickResult", "advance", "pause_message"]


class RunMode(enum.StrEnum):
    """How far Run goes.

    ``RUN`` pauses at a verdict that stands without stopping the crawl (with Stop on verdict
    off), so the moment can be looked at, and — only when ``advance`` is asked to
    (``pause_on_forgiven``) — at each verdict the crawler forgives itself because a link
    with clues is still queued. ``TO_STOP`` runs through every verdict and stops only when
    the crawl itself stops (a verdict that stands, the page limit, an empty queue).
    """

    RUN = "run"
    TO_STOP = "to_stop"


class TickEnd(enum.StrEnum):
    """Why a tick ended; only ``BUDGET`` keeps the Run timer on."""

    BUDGET = "budget"  # the time budget is spent: the next tick goes on
    STOPPED = "stopped"  # the crawl stopped (the verdict banner says why)
    VERDICT = "verdict"  # RUN mode: a verdict fired at the last step and the crawl goes on
    REACHED = "reached"  # ``until`` held for the last step (e.g. Run to the lesson)
    SAVE_FAILED = "save_failed"  # saving failed: the crawl went on unsaved
    ERROR = "error"  # a step failed: ``message`` says how


@dataclass(frozen=True, slots=True)
class TickResult:
    """``steps`` taken in this tick, why it ended, and a message for a person.

    ``record`` is the last step's record when the tick ended on it (``VERDICT``,
    ``REACHED``, ``STOPPED``), None otherwise.
    """

    steps: int
    end: TickEnd
    message: str = ""
    record: StepRecord | None = None

    @property
    def keep_running(self) -> bool:
        """False means: switch the timer off."""
        return self.end is TickEnd.BUDGET


#: The stop verdicts of the adaptive rules: the ones Run may pause at.
_RULES = frozenset({StopReason.COVERAGE_REACHED, StopReason.SATURATED,
                    StopReason.NO_RELEVANT_PAGES})


def advance(
    session: CrawlSession,
    mode: RunMode,
    budget_s: float,
    clock: Callable[[], float] = time.perf_counter,
    *,
    pause_on_forgiven: bool = False,
    until: Callable[[StepRecord], bool] | None = None,
    yield_point: Callable[[], object] | None = None,
) -> TickResult:
    """Step ``session`` for at most about ``budget_s`` seconds (at least one step).

    ``mode`` RUN pauses after a step whose verdict stood while the crawl goes on (Stop on
    verdict off) and, with ``pause_on_forgiven`` (the app's "pause at self-forgiven
    verdicts", off by default), after one the crawler forgave itself; TO_STOP never pauses.
    ``until``: end the tick (``REACHED``) after the first step it holds for, whatever the
    mode — ``Lesson.reached`` for Run to the lesson. The budget is checked after each step,
    so a tick lasts the budget plus one step at most. ``yield_point`` is called after each
    step the tick goes on from, before the next one, with the session between two whole
    steps; whatever it raises ends the tick and propagates (the app's raises Streamlit's
    rerun on a pending click: the steps taken so far stay taken, like a whole tick's).
    Errors of a step (``SessionBroken``, a sink's ``StoreError``) propagate.
    """
    started = clock()
    steps = 0
    for record in session.iter_steps():
        steps += 1
        if until is not None and until(record):
            return TickResult(steps, TickEnd.REACHED, _reached_message(session, record), record)
        if session.done:
            break
        if mode is RunMode.RUN and _pauses(record, pause_on_forgiven):
            return TickResult(steps, TickEnd.VERDICT, pause_message(record, session.config),
                              record)
        if clock() - started >= budget_s:
            return TickResult(steps, TickEnd.BUDGET)
        if yield_point is not None:
            yield_point()
    last = session.steps[-1] if session.steps else None
    return TickResult(steps, TickEnd.STOPPED, f"the crawl stopped: {session.stop_reason}", last)


def _pauses(record: StepRecord, pause_on_forgiven: bool) -> bool:
    if record.verdict not in _RULES:
        return False
    if record.verdict_fate is VerdictFate.AUTO_FORGIVEN:
        return pause_on_forgiven
    return record.verdict_fate is VerdictFate.NO_STOP


def pause_message(record: StepRecord, config: CrawlConfig) -> str:
    """Why Run paused at ``record``'s verdict, with the counters the Stale and Cold tiles
    show: the value the rule fired with (``verdict_stale``/``verdict_cold``) and, since a
    verdict the crawl goes on past resets it, the value the tile reads now."""
    if record.verdict is None:
        return f"Run paused at step {record.step}."
    patience = config.adaptive.patience
    if record.verdict is StopReason.NO_RELEVANT_PAGES:
        limit = COLD_PATIENCE * patience
        fired = (f"Cold was {record.verdict_cold} / {limit}: that many pages in a row came "
                 "through clue-less links and were irrelevant")
        now = f"the Cold tile reads {record.cold} / {limit} again"
    else:
        fired = (f"Stale was {record.verdict_stale} / {patience}: that many pages in a row "
                 "brought nothing new (no new evidence, or less than the minimum gain, "
                 f"{config.adaptive.min_gain:.0%} of all collected so far)")
        now = f"the Stale tile reads {record.stale} / {patience} again"
    if record.verdict_fate is VerdictFate.AUTO_FORGIVEN:
        went_on = f"The crawler forgave it itself ({record.forgiven_why}), so {now}."
    else:
        went_on = f"It stood, and with Stop on verdict off the crawl goes on: {now}."
    return (f"Run paused at step {record.step}: the {record.verdict} verdict fired. {fired}. "
            f"{went_on}")


def _reached_message(session: CrawlSession, record: StepRecord) -> str:
    if record.stopped and record.verdict is not None:
        return f"step {record.step}: the crawl stopped with {record.verdict}"
    if session.done:
        return f"step {record.step}: the crawl stopped: {session.stop_reason}"
    return f"step {record.step} reached"
