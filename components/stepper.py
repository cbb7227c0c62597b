"""Run's worker thread: steps a live session continuously while the Run fragment only draws.

No Streamlit here (the thread must never call ``st.*``, and this way it is testable plainly).
The worker calls :func:`components.runner.advance` once, with no time budget, so Run's stop
and pause rules are ``advance``'s own (a verdict that stood in mode RUN, ``pause_on_forgiven``,
``until``, the crawl stopping). Between two steps — ``advance``'s yield point — it gives the
session up to the script thread when that asks for it (:meth:`Stepper.hold`, to draw), and
ends when it is halted (:meth:`Stepper.halt`: Pause, any full rerun) or when no fragment run
has checked in (:meth:`Stepper.beat`) for ``idle_s``: a closed tab must not leave it crawling
(docs/DESIGN.md §14.3; recipe §2.4 measured a worker outliving its tab by 72 s).

One guard for the session: a condition variable rather than a bare ``threading.Lock``,
because a lock released and taken again at once between two steps is not fair — the worker
would take it back before the woken script thread runs, and the draw would wait for many
steps. Here a pending :meth:`hold` makes the worker park at its next yield point.
"""

from __future__ import annotations

import logging
import math
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from components.runner import RunMode, TickEnd, TickResult, advance
from pagesift_ui.session import CrawlSession, StepRecord
from pagesift_ui.store import StoreError

__all__ = ["Stepper"]

logger = logging.getLogger(__name__)


class _Halted(Exception):
    """Raised at the yield point: the worker ends there, between two whole steps."""

    def __init__(self, end: TickEnd) -> None:
        super().__init__(end.value)
        self.end = end


class Stepper:
    """One Run of one session on a background thread; start it once, halt it once.

    ``result`` is how the run ended (a ``TickResult``, as a tick's: ``VERDICT``,
    ``REACHED``, ``STOPPED``, ``SAVE_FAILED``, ``ERROR``; ``HALTED`` when halted, ``IDLE``
    when nobody checked in), None while it runs. A failed save's error is kept in
    ``store_error`` for the script thread to act on (``fall_back_unsaved`` needs session
    state, which this thread must not touch).
    """

    def __init__(
        self,
        session: CrawlSession,
        mode: RunMode,
        *,
        idle_s: float,
        pause_on_forgiven: bool = False,
        until: Callable[[StepRecord], bool] | None = None,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.session = session
        self.mode = mode
        self.store_error: StoreError | None = None
        self._idle_s = idle_s
        self._pause_on_forgiven = pause_on_forgiven
        self._until = until
        self._clock = clock
        self._cond = threading.Condition()
        self._holds = 0  # script-thread holds asked for or under way
        self._stepping = False  # the worker is inside a step
        self._halting = False
        self._last_beat = clock()
        self._result: TickResult | None = None
        self._finished = threading.Event()
        self._thread: threading.Thread | None = None

    # the script thread's side

    def start(self) -> None:
        self._thread = threading.Thread(target=self._work, name="pagesift-run", daemon=True)
        self._thread.start()

    def beat(self) -> None:
        """A fragment run checked in: the tab is still there."""
        with self._cond:
            self._last_beat = self._clock()

    @contextmanager
    def hold(self) -> Iterator[None]:
        """The session still while the block runs: the worker is parked between two whole
        steps (it finishes the step in flight first, ~10-50 ms)."""
        with self._cond:
            self._holds += 1
            while self._stepping:
                self._cond.wait()
        try:
            yield
        finally:
            with self._cond:
                self._holds -= 1
                self._cond.notify_all()

    def halt(self) -> TickResult:
        """Stop the worker at its next yield point and wait for it: on return the session
        is between two whole steps and no other thread touches it. Idempotent."""
        with self._cond:
            self._halting = True
            self._cond.notify_all()
        if self._thread is None:
            self._finished.set()
            self._result = self._result or TickResult(0, TickEnd.HALTED)
        else:
            self._thread.join()
        # the worker sets its result before it ends; None only if it died of a BaseException
        return self._result or TickResult(0, TickEnd.ERROR, "error: the Run worker died")

    def wait(self, timeout: float | None = None) -> TickResult | None:
        """Wait until the worker has ended on its own (tests); its result, or None."""
        self._finished.wait(timeout)
        return self._result

    @property
    def done(self) -> bool:
        return self._finished.is_set()

    @property
    def result(self) -> TickResult | None:
        return self._result

    # the worker's side

    def _enter_step(self) -> None:
        with self._cond:
            while self._holds and not self._halting:
                self._cond.wait()
            if self._halting:
                raise _Halted(TickEnd.HALTED)
            if self._clock() - self._last_beat > self._idle_s:
                raise _Halted(TickEnd.IDLE)
            self._stepping = True

    def _leave_step(self) -> None:
        with self._cond:
            self._stepping = False
            self._cond.notify_all()

    def _between_steps(self) -> None:
        self._leave_step()
        self._enter_step()

    def _work(self) -> None:
        before = len(self.session.steps)
        result: TickResult
        try:
            self._enter_step()
            # no budget: advance ends only where Run ends (or at a halt, raised between steps)
            result = advance(self.session, self.mode, math.inf,
                             pause_on_forgiven=self._pause_on_forgiven, until=self._until,
                             yield_point=self._between_steps)
        except _Halted as halted:
            result = TickResult(len(self.session.steps) - before, halted.end)
        except StoreError as exc:
            self.store_error = exc
            result = TickResult(len(self.session.steps) - before, TickEnd.SAVE_FAILED,
                                f"saving failed: {exc}")
        except Exception as exc:  # the thread's edge: report it, log it with its traceback
            logger.exception("the Run worker failed")
            result = TickResult(len(self.session.steps) - before, TickEnd.ERROR,
                                f"error: {exc}")
        finally:
            self._leave_step()
        if result.end is TickEnd.IDLE:
            logger.info("Run's worker stopped: no fragment run for %.0f s", self._idle_s)
        self._result = result
        self._finished.set()
