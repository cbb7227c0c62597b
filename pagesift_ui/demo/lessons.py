"""Lessons: one demo scenario per stop reason, and where in a crawl its lesson happens.

A ``Lesson`` names a scenario that, crawled with the default settings plus the lesson's own
``settings``, ends with ``reason``; ``watch`` says what to look at while it runs. The registry
(``LESSONS``, ``lesson_of``) is in :mod:`.scenarios`, next to the scenarios it names.

For the app's **Run to the lesson**: build the config from the lesson's scenario and
``settings``, then run until ``lesson.reached(record)`` (``components/runner.advance`` takes it
as ``until``); ``lesson_step(session, lesson)`` is the step where it happened, once it has.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Protocol

from pagesift_ui.frontier.adaptive import StopReason

__all__ = ["Lesson", "lesson_step"]


class _Step(Protocol):
    """What a lesson reads of a step: a ``StepRecord`` (the demo does not import the
    session layer, so it names only the fields it needs)."""

    @property
    def step(self) -> int: ...

    @property
    def stopped(self) -> bool: ...

    @property
    def verdict(self) -> StopReason | None: ...


class _Steps(Protocol):
    """A session to look into: a ``CrawlSession`` or an imported ``SessionView``."""

    @property
    def steps(self) -> Sequence[_Step]: ...


@dataclass(frozen=True, slots=True)
class Lesson:
    """A scenario that teaches one stop reason.

    ``settings``: the crawl settings the lesson needs besides the defaults, by ``SETTINGS``
    name (``{"limit": 20}``), to lay over the setup form or pass to
    ``CrawlConfig.from_mapping``. ``title``: the rule in a few words, for a lesson picker.
    """

    reason: StopReason
    scenario: str
    title: str
    watch: str
    settings: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))

    def reached(self, record: _Step) -> bool:
        """This step is the lesson's moment: the crawl stopped here with the lesson's reason."""
        return record.stopped and record.verdict is self.reason


def lesson_step(session: _Steps, lesson: Lesson) -> int | None:
    """The step at which ``lesson`` happened in ``session``, or None (not yet, or not at all:
    other settings, or the user stepped in)."""
    return next((r.step for r in session.steps if lesson.reached(r)), None)
