"""One time-boxed tick of Run: step the session until the budget is spent or it should pause.

No Streamlit here: the Run fragment calls :func:`advance` with plain values, so the whole
mutation happens between two ``st.*`` calls (recipe §2.2, rule 2) and the logic is testable.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass

from pagesift_ui.session import CrawlSession, SessionDone, StepRecord

__all__ = ["RunMode", "TickResult", "advance"]


class RunMode(enum.StrEnum):
    """How far Run goes.

    ``RUN`` pauses at the first stop verdict that fires, also one the crawler forgives itself
    because a promising link is still queued, so the moment can be looked at. ``TO_STOP`` runs
    through forgiven verdicts and stops only when the crawl itself stops (a verdict that
    stands, the page limit, an empty queue).
    """

    RUN = "run"
    TO_STOP = "to_stop"


@dataclass(frozen=True, slots=True)
class TickResult:
    """``steps`` taken in this tick; ``keep_running`` False means: switch the timer off."""

    steps: int
    keep_running: bool
    why: str = ""


def advance(
    session: CrawlSession,
    mode: RunMode,
    budget_s: float,
    clock: Callable[[], float] = time.perf_counter,
    *,
    step: Callable[[], StepRecord] | None = None,
) -> TickResult:
    """Step ``session`` for at most about ``budget_s`` seconds (at least one step).

    ``step`` takes one step (default ``session.step``; a saved session's ``step`` saves it).
    The budget is checked after each step, so a tick lasts the budget plus one step at most.
    Errors of ``step`` other than ``SessionDone`` propagate.
    """
    take_step = session.step if step is None else step
    started = clock()
    steps = 0
    while True:
        if session.done:
            return TickResult(steps, False, f"the crawl stopped: {session.stop_reason}")
        try:
            record = take_step()
        except SessionDone:
            return TickResult(steps, False, f"the crawl stopped: {session.stop_reason}")
        steps += 1
        if session.done:
            return TickResult(steps, False, f"the crawl stopped: {session.stop_reason}")
        if mode is RunMode.RUN and record.verdict is not None:
            return TickResult(steps, False, f"verdict {record.verdict} at step {record.step}")
        if clock() - started >= budget_s:
            return TickResult(steps, True)
