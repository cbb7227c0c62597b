"""Re-running a recorded session: its steps, with each event re-applied where it happened.

The events of a session are what happened to it between steps: the user's overrides, and a
``step()`` call that found the queue empty (it ends the crawl without a step record, and
drops the queued links of dry subtrees, so a rebuild must make the same call). ``drive``
re-runs them through the session's one loop, ``iter_steps``.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, fields

from pagesift_ui.errors import ReplayDiverged
from pagesift_ui.session import CrawlSession, Override, OverrideKind, StepRecord
from pagesift_ui.session.record import StepOutcome, raised_budget

__all__ = [
    "SessionEvent",
    "check_rebuilt",
    "drive",
    "first_difference",
    "merge_events",
    "queue_empty_marks",
]

logger = logging.getLogger(__name__)

#: Step-record fields that measure the run rather than the crawl: never compared (a replay
#: waits for nothing, so it has no politeness to note; it renders nothing either: its bodies
#: are the rendered ones, so every decision is the same, but it has no render to report).
UNREPRODUCIBLE = frozenset({"elapsed_ms", "politeness_note", "render"})
#: Step-record fields added after sessions were first saved: a record saved before holds
#: None there, which is not a difference.
ADDED_LATER = frozenset({"predicted", "prior_predicted", "lead_pending", "lead_why",
                         "lead_head"})


@dataclass(frozen=True, slots=True)
class SessionEvent:
    """Something done to a session after ``after_step`` steps had completed.

    ``override`` is the user's override, or None for a ``step()`` call that found the queue
    empty (the crawl ended ``exhausted`` without a step record).
    """

    after_step: int
    override: Override | None = None


def merge_events(
    overrides: Iterable[Override], queue_empty: Iterable[tuple[int, int]]
) -> list[SessionEvent]:
    """Events in order from overrides and ``(after_step, overrides_before)`` empty-queue marks.

    ``overrides_before`` is how many overrides had been made when the queue was found empty,
    which places the mark exactly among overrides made after the same step.
    """
    marks = sorted(queue_empty, key=lambda mark: mark[1])
    events: list[SessionEvent] = []
    for index, override in enumerate(overrides):
        while marks and marks[0][1] <= index:
            events.append(SessionEvent(marks.pop(0)[0]))
        events.append(SessionEvent(override.step, override))
    events.extend(SessionEvent(after_step) for after_step, _ in marks)
    return events


def queue_empty_marks(events: Iterable[SessionEvent]) -> list[tuple[int, int]]:
    """The inverse of ``merge_events`` for the marks: ``(after_step, overrides_before)``."""
    marks, overrides = [], 0
    for event in events:
        if event.override is None:
            marks.append((event.after_step, overrides))
        else:
            overrides += 1
    return marks


def drive(
    session: CrawlSession,
    events: Sequence[SessionEvent],
    *,
    steps: int | None = None,
    strict: bool = True,
) -> None:
    """Step ``session`` to ``steps`` records (None: until it stops), applying each event right
    after the step count it was recorded at.

    A queue-empty mark means "a ``step()`` call happens here and finds the queue empty". With
    ``strict`` an event that cannot be applied (the crawl went differently) raises
    ``ReplayDiverged``; otherwise it is skipped with a warning. Events recorded after the
    crawl stopped (a "continue anyway") are applied and the crawl goes on.
    """
    pending = deque(sorted(events, key=lambda e: e.after_step))  # stable: keeps their order
    while True:
        while pending and pending[0].after_step <= len(session.steps):
            _apply(session, pending.popleft(), strict)
        if steps is not None and len(session.steps) >= steps:
            break
        if session.done:
            if pending and strict:
                raise ReplayDiverged(len(session.steps), "stop_reason", "running", "stopped")
            break
        if _one_step(session) is None:  # the queue was empty, and no mark said so
            if strict and steps is not None:
                raise ReplayDiverged(len(session.steps) + 1, "step", "a step", "none")
            break


def _one_step(session: CrawlSession) -> StepRecord | None:
    """One turn of the session's loop: its next record, or None if it stopped without one."""
    return next(session.iter_steps(), None)


def _apply(session: CrawlSession, event: SessionEvent, strict: bool) -> None:
    override = event.override
    try:
        if override is None:
            _find_queue_empty(session)
        else:
            _apply_override(session, override)
    except ValueError as exc:
        if strict:
            raise ReplayDiverged(event.after_step, "override", event, str(exc)) from exc
        logger.warning("replay: skipped %s after step %d: %s", override, event.after_step, exc)


def _find_queue_empty(session: CrawlSession) -> None:
    if session.done:
        return
    if _one_step(session) is not None:
        raise ValueError("the queue was empty here when recorded, but the rebuilt one is not")


def _apply_override(session: CrawlSession, override: Override) -> None:
    kind, target, note = override.kind, override.target, override.note
    if kind is OverrideKind.FORGIVE:
        session.forgive(note=note)
    elif kind is OverrideKind.STOP:
        session.stop(note=note)
    elif kind is OverrideKind.RELABEL:
        session.relabel(target, override.value)
    elif kind is OverrideKind.FORCE_DRY:
        session.force_dry(target)
    elif kind is OverrideKind.KEEP_OPEN:
        session.keep_open(target)
    elif kind is OverrideKind.CLEAR_SUBTREE:
        session.clear_subtree(target)
    elif kind is OverrideKind.PIN:
        session.pin(target)
    elif kind is OverrideKind.DROP:
        session.drop(target)
    elif kind is OverrideKind.RAISE_LIMIT:
        session.raise_limit(raised_budget(target), note=note)
    else:  # an OverrideKind added without teaching the replay about it
        raise ValueError(f"cannot replay the override kind {kind}")
    rebuilt = session.overrides[-1]
    if rebuilt != override:
        raise ValueError(f"the override replays as {rebuilt}")


def first_difference(recorded: StepRecord, rebuilt: StepRecord) -> str | None:
    """The first field in which two records of one step differ, or None.

    ``elapsed_ms`` is never compared, nor ``fetched_at`` of a failed fetch: the step builder
    stamps a failure with the wall clock of the run.
    """
    for f in fields(StepRecord):
        if f.name in UNREPRODUCIBLE:
            continue
        if f.name == "fetched_at" and recorded.outcome in (StepOutcome.ERROR, StepOutcome.SKIPPED):
            continue
        if f.name in ADDED_LATER and getattr(recorded, f.name) is None:
            continue
        if getattr(recorded, f.name) != getattr(rebuilt, f.name):
            return f.name
    return None


def check_rebuilt(recorded: Sequence[StepRecord], rebuilt: Sequence[StepRecord]) -> None:
    """Raise ``ReplayDiverged`` at the first rebuilt step that differs from its record."""
    for old, new in zip(recorded, rebuilt, strict=False):
        name = first_difference(old, new)
        if name is not None:
            raise ReplayDiverged(old.step, name, getattr(old, name), getattr(new, name))
    if len(recorded) != len(rebuilt):
        raise ReplayDiverged(min(len(recorded), len(rebuilt)) + 1, "number of steps",
                             len(recorded), len(rebuilt))
