"""Run's worker thread (components/stepper.py) and the Run fragment's use of it (live.py), on
in-memory demo crawls: the same ends as a tick's, halting between two whole steps, the
heartbeat, errors reported. No timed assertions: the tests wait on events and a fake clock."""

from __future__ import annotations

import math
import threading
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from components.live import IDLE_S, _worker, settle_run
from components.runner import RunMode, TickEnd, advance
from components.stepper import Stepper
from pagesift_ui.demo import build_site, lesson_of
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord, VerdictFate
from pagesift_ui.store import StoreError
from tests.fakes import demo_seed, demo_source

#: Long enough for any of these crawls to end on its own; only a hung worker meets it
WAIT_S = 120.0


def _session(name: str, **settings: object) -> CrawlSession:
    site = build_site(name)
    config = CrawlConfig.from_mapping({"seed_url": demo_seed(site), "query": site.query,
                                       **settings})
    return CrawlSession(config, demo_source(site))


@pytest.fixture
def university() -> Iterator[CrawlSession]:
    with _session("university") as session:
        yield session


def _started(session: CrawlSession, mode: RunMode = RunMode.TO_STOP,
             **options: Any) -> Stepper:
    stepper = Stepper(session, mode, idle_s=options.pop("idle_s", math.inf), **options)
    stepper.start()
    return stepper


def _at_step(step: int, then: Callable[[], object] = lambda: None
             ) -> tuple[threading.Event, Callable[[StepRecord], bool]]:
    """An ``until`` that never ends the run but sets an event (after ``then``) at ``step``."""
    reached = threading.Event()

    def until(record: StepRecord) -> bool:
        if record.step == step:
            then()
            reached.set()
        return False

    return reached, until


def _whole_steps(session: CrawlSession) -> bool:
    return [r.step for r in session.steps] == list(range(1, len(session.steps) + 1))


def test_the_worker_takes_the_same_steps_as_ticks_to_the_crawls_stop(
    university: CrawlSession,
) -> None:
    result = _started(university).wait(WAIT_S)
    assert result is not None and result.end is TickEnd.STOPPED and university.done
    assert result.steps == len(university.steps) and not result.keep_running
    with _session("university") as ticked:
        while not ticked.done:
            advance(ticked, RunMode.TO_STOP, budget_s=0.0)
        assert [r.url for r in ticked.steps] == [r.url for r in university.steps]


def test_in_run_mode_the_worker_pauses_at_a_verdict_that_stood() -> None:
    with _session("helpdesk", stop_on_verdict=False, limit=30) as session:
        result = _started(session, RunMode.RUN).wait(WAIT_S)
        assert result is not None and result.end is TickEnd.VERDICT and not session.done
        assert result.record is session.steps[-1]
        assert result.record.verdict_fate is VerdictFate.NO_STOP
        assert "It stood, and with Stop on verdict off the crawl goes on" in result.message


def test_the_worker_pauses_at_self_forgiven_verdicts_only_when_asked(
    university: CrawlSession,
) -> None:
    result = _started(university, RunMode.RUN, pause_on_forgiven=True).wait(WAIT_S)
    assert result is not None and result.end is TickEnd.VERDICT and result.record is not None
    assert result.record.verdict_fate is VerdictFate.AUTO_FORGIVEN
    with _session("university") as other:
        assert _started(other, RunMode.RUN).wait(WAIT_S).end is TickEnd.STOPPED  # type: ignore[union-attr]


def test_the_worker_ends_at_the_lesson() -> None:
    lesson = lesson_of("bakery")
    assert lesson is not None
    with _session("bakery", **lesson.settings) as session:
        result = _started(session, until=lesson.reached).wait(WAIT_S)
        assert result is not None and result.end is TickEnd.REACHED
        assert result.record is session.steps[-1] and lesson.reached(result.record)


def test_halt_returns_with_the_session_between_two_whole_steps(
    university: CrawlSession,
) -> None:
    reached, until = _at_step(3)
    stepper = _started(university, until=until)
    assert reached.wait(WAIT_S)
    result = stepper.halt()
    assert result.end is TickEnd.HALTED and result.keep_running
    taken = len(university.steps)
    assert result.steps == taken >= 3 and _whole_steps(university) and not university.done
    assert stepper.done and stepper.halt() is result  # joined; halting again changes nothing
    # nobody steps it any more, and it goes on from there as after a tick
    assert advance(university, RunMode.TO_STOP, budget_s=0.0).steps == 1
    assert university.steps[-1].step == taken + 1 and _whole_steps(university)


def test_a_hold_parks_the_worker_between_two_steps(university: CrawlSession) -> None:
    holding, reached = threading.Event(), threading.Event()
    stepped_while_held: list[int] = []

    def until(record: StepRecord) -> bool:  # called right after each step
        if holding.is_set():
            stepped_while_held.append(record.step)
        if record.step == 2:
            reached.set()
        return False

    stepper = _started(university, until=until)
    assert reached.wait(WAIT_S)
    with stepper.hold():
        holding.set()
        taken = len(university.steps)
        pages = [row for _ in range(20) for row in university.pages()]  # the draw reads
        assert pages and len(university.steps) == taken and _whole_steps(university)
        holding.clear()
    result = stepper.wait(WAIT_S)
    assert stepped_while_held == []
    assert result is not None and result.end is TickEnd.STOPPED and result.steps > taken


def test_the_worker_stops_itself_without_a_heartbeat(university: CrawlSession) -> None:
    now = [0.0]
    box: list[Stepper] = []

    def until(record: StepRecord) -> bool:
        if record.step == 3:  # a fragment run checks in late, but within the idle time
            now[0] = 9.0
            box[0].beat()
        if record.step == 5:  # then none for longer than the idle time: the tab is gone
            now[0] = 20.0
        return False

    stepper = Stepper(university, RunMode.TO_STOP, idle_s=10.0, until=until,
                      clock=lambda: now[0])
    box.append(stepper)
    stepper.start()
    result = stepper.wait(WAIT_S)
    assert result is not None and result.end is TickEnd.IDLE and result.keep_running
    assert result.steps == len(university.steps) == 5 and not university.done


@pytest.mark.parametrize(("error", "end", "message"), [
    (RuntimeError("boom"), TickEnd.ERROR, "error: boom"),
    (StoreError("disk full"), TickEnd.SAVE_FAILED, "saving failed: disk full"),
])
def test_a_failing_step_is_reported_not_raised(
    university: CrawlSession, error: Exception, end: TickEnd, message: str,
) -> None:
    def until(record: StepRecord) -> bool:
        if record.step == 2:
            raise error
        return False

    stepper = _started(university, until=until)
    result = stepper.wait(WAIT_S)
    assert result is not None and (result.end, result.steps, result.message) == (end, 2, message)
    assert stepper.store_error is (error if isinstance(error, StoreError) else None)


def test_halting_a_worker_never_started_takes_no_step(university: CrawlSession) -> None:
    stepper = Stepper(university, RunMode.TO_STOP, idle_s=IDLE_S)
    assert stepper.halt().end is TickEnd.HALTED and university.steps == []


def _ss(session: CrawlSession, **values: object) -> dict[str | int, Any]:
    return {"session": session, "running": True, "run_mode": "run", "stepper": None,
            "lesson": None, "pause_forgiven": False, "flashes": [], **values}


def test_the_fragment_keeps_one_worker_and_reports_its_verdict_as_a_tick_does() -> None:
    with _session("helpdesk", stop_on_verdict=False, limit=30) as session:
        ss = _ss(session)
        stepper = _worker(ss, session, RunMode.RUN)
        assert stepper is not None and ss["stepper"] is stepper
        assert _worker(ss, session, RunMode.RUN) is stepper  # the next tick: the same one
        result = stepper.wait(WAIT_S)
        assert result is not None and result.end is TickEnd.VERDICT
        assert _worker(ss, session, RunMode.RUN) is None  # the run ended: st.rerun()
        assert ss["running"] is False and ss["stepper"] is None
        ((kind, text),) = ss["flashes"]
        assert kind == "info" and text.startswith(result.message)


def test_a_full_run_halts_the_worker_and_the_run_goes_on(university: CrawlSession) -> None:
    reached, until = _at_step(2)
    ss = _ss(university, run_mode="to_stop")
    ss["stepper"] = _started(university, until=until)
    assert reached.wait(WAIT_S)
    result = settle_run(ss)
    assert result is not None and result.end is TickEnd.HALTED
    assert ss["running"] is True and ss["stepper"] is None and ss["flashes"] == []
    assert _whole_steps(university) and settle_run(ss) is None


def test_an_idle_worker_is_replaced_on_the_next_tick(university: CrawlSession) -> None:
    ss = _ss(university, run_mode="to_stop")
    idle = Stepper(university, RunMode.TO_STOP, idle_s=-1.0)  # no heartbeat is recent enough
    idle.start()
    assert idle.wait(WAIT_S).end is TickEnd.IDLE  # type: ignore[union-attr]
    ss["stepper"] = idle
    fresh = _worker(ss, university, RunMode.TO_STOP)
    assert fresh is not None and fresh is not idle and ss["running"] is True
    assert fresh.halt().end in (TickEnd.HALTED, TickEnd.STOPPED)
