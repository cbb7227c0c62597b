"""The registry of demo scenarios: build one by name, serve it, or share one server per process.

This is the only module that knows every scenario. The kit (:mod:`.kit`) serves any
:class:`~.kit.site.DemoSite`; each scenario package builds one; here names meet builders, and
stop reasons meet the scenarios that teach them (``LESSONS``).
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable

from pagesift_ui.frontier.adaptive import StopReason

from . import allotments, bakery, fieldguide, helpdesk, needle
from .allotments import build_allotments
from .bakery import build_bakery
from .fieldguide import build_fieldguide
from .helpdesk import build_helpdesk
from .kit.server import DemoServer
from .kit.site import DemoSite
from .lessons import Lesson
from .multilingual import build_multilingual
from .needle import build_needle
from .university import build_university

__all__ = [
    "BENCH_SCENARIOS",
    "LESSONS",
    "SCENARIOS",
    "STABLE_PORTS",
    "build_site",
    "lesson_of",
    "shared_demo",
    "start_demo",
]

logger = logging.getLogger(__name__)

_BUILDERS: dict[str, Callable[[int], DemoSite]] = {
    "university": build_university,
    "helpdesk": build_helpdesk,
    "needle": build_needle,
    "multilingual": build_multilingual,
    "bakery": build_bakery,
    "fieldguide": build_fieldguide,
    "allotments": build_allotments,
}
SCENARIOS: tuple[str, ...] = tuple(_BUILDERS)
#: The scenarios large enough to compare crawl strategies on (``bench --scenario all``); the
#: lesson sites of a few dozen pages are not.
BENCH_SCENARIOS: tuple[str, ...] = ("university", "helpdesk", "needle", "multilingual")

#: One scenario per stop reason, in the order of ``StopReason``: crawled with the default
#: settings and the lesson's ``settings``, each ends with its reason (tests/demo/test_lessons.py).
LESSONS: tuple[Lesson, ...] = (
    Lesson(StopReason.COVERAGE_REACHED, "helpdesk",
           "every term has enough evidence, then nothing new for a few pages", helpdesk.WATCH,
           helpdesk.SETTINGS),
    Lesson(StopReason.SATURATED, "bakery",
           "nothing new for patience pages in a row", bakery.WATCH),
    Lesson(StopReason.NO_RELEVANT_PAGES, "needle",
           "nothing relevant, and only clue-less links to follow", needle.WATCH),
    Lesson(StopReason.LIMIT_REACHED, "fieldguide",
           "the page budget is spent", fieldguide.WATCH, fieldguide.SETTINGS),
    Lesson(StopReason.EXHAUSTED, "allotments",
           "no link is left to fetch", allotments.WATCH),
)


def lesson_of(scenario: str) -> Lesson | None:
    """The lesson ``scenario`` teaches, or None (``university``, ``multilingual``)."""
    return next((lesson for lesson in LESSONS if lesson.scenario == scenario), None)

#: The app's demo servers try these ports first, so a saved session's URLs still answer after
#: the app restarts (its resume goes live on the same host:port); a taken port falls back to a
#: free one.
STABLE_PORTS = {"university": 47301, "helpdesk": 47302, "needle": 47303, "multilingual": 47304,
                "bakery": 47305, "fieldguide": 47306, "allotments": 47307}


def build_site(name: str, seed: int = 0) -> DemoSite:
    """Build scenario ``name``; the same ``seed`` always gives byte-identical pages.

    Raises
    ------
    ValueError
        ``name`` is not one of :data:`SCENARIOS`, or ``seed`` is not a non-negative int.
    """
    builder = _BUILDERS.get(name)
    if builder is None:
        raise ValueError(f"unknown demo scenario {name!r}; choose one of: {', '.join(SCENARIOS)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    started = time.perf_counter()
    site = builder(seed)
    logger.info("built demo scenario %s (seed %d): %d pages in %.2f s", name, seed,
                site.page_count, time.perf_counter() - started)
    return site


def start_demo(name: str, seed: int = 0, port: int = 0) -> DemoServer:
    """Build scenario ``name`` and start serving it (see :func:`build_site` for errors)."""
    return DemoServer(build_site(name, seed), port).start()


_shared: dict[str, DemoServer] = {}
_shared_lock = threading.Lock()


def shared_demo(name: str) -> DemoServer:
    """The process-wide server of scenario ``name`` (seed 0), started on first use.

    Streamlit reruns the app script on every interaction; this keeps one server per scenario
    instead of starting a new one each time. Thread-safe.
    """
    with _shared_lock:
        server = _shared.get(name)
        if server is None or not server.running:
            server = _start_on_stable_port(name)
            _shared[name] = server
        return server


def _start_on_stable_port(name: str) -> DemoServer:
    port = STABLE_PORTS.get(name, 0)
    if port:
        try:
            return start_demo(name, port=port)
        except OSError:
            logger.info("port %d is taken; demo %s takes a free port", port, name)
    return start_demo(name)
