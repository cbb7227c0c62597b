"""One time-boxed tick of Run: step the session until the budget is spent or it should pause.

No Streamlit here: the Run fragment calls :func:`advance` with plain values, so the whole
mutation happens between two ``st.*`` calls (docs/DESIGN.md §14.2) and the logic is
testable. The tick steps through the session's one loop, ``iter_steps``; the session's sinks
(the store) are told of each step there.
"""

from __future__ import annotations

import enum
import time
from collections.abc import Callable
from dataclasses import dataclass

from pagesift_ui.session import CrawlSession

__all__ = ["RunMode", "TickEnd", "TickResult", "advance"]


class RunMode(enum.StrEnum):
    """How far Run goes.

    ``RUN`` pauses at the first stop verdict that fires, also one the crawler forgives itself
    because a promising link is still queued, so the moment can be looked at. ``TO_STOP`` runs
    through forgiven verdicts and stops only when the crawl itself stops (a verdict that
    stands, the page limit, an empty queue).
    """

    RUN = "run"
    TO_STOP = "to_stop"


class TickEnd(enum.StrEnum):
    """Why a tick ended; only ``BUDGET`` keeps the Run timer on."""

    BUDGET = "budget"  # the time budget is spent: the next tick goes on
    STOPPED = "stopped"  # the crawl stopped (the verdict banner says why)
    VERDICT = "verdict"  # RUN mode: a verdict fired at the last step, also a forgiven one
    SAVE_FAILED = "save_failed"  # saving failed: the crawl went on unsaved
    ERROR = "error"  # a step failed: ``message`` says how


@dataclass(frozen=True, slots=True)
class TickResult:
    """``steps`` taken in this tick, why it ended, and a message for a person."""

    steps: int
    end: TickEnd
    message: str = ""

    @property
    def keep_running(self) -> bool:
        """False means: switch the timer off."""
        return self.end is TickEnd.BUDGET


def advance(
    session: CrawlSession,
    mode: RunMode,
    budget_s: float,
    clock: Callable[[], float] = time.perf_counter,
) -> TickResult:
    """Step ``session`` for at most about ``budget_s`` seconds (at least one step).

    The budget is checked after each step, so a tick lasts the budget plus one step at most.
    Errors of a step (``SessionBroken``, a sink's ``StoreError``) propagate.
    """
    started = clock()
    steps = 0
    for record in session.iter_steps():
        steps += 1
        if session.done:
            break
        if mode is RunMode.RUN and record.verdict is not None:
            return TickResult(steps, TickEnd.VERDICT,
                              f"verdict {record.verdict} at step {record.step}")
        if clock() - started >= budget_s:
            return TickResult(steps, TickEnd.BUDGET)
    return TickResult(steps, TickEnd.STOPPED, f"the crawl stopped: {session.stop_reason}")
