"""The bundled demo web: realistic websites served over real HTTP on 127.0.0.1.

Each scenario is a generated, deterministic website with a known answer key, built so that a
focused crawl shows one stop reason and a set of traps on demand:

- ``university``: answers 2-4 clicks deep, news and journal distractions, an endless calendar;
- ``helpdesk``: a few help articles behind a large catalogue whose footer repeats the query;
- ``needle``: a municipal site with nothing on the query (``no_relevant_pages``);
- ``multilingual``: a German home page with the English answers behind an /en/ portal;
- ``bakery``: a small blog whose sourdough corner is read, then nothing new (``saturated``);
- ``fieldguide``: every page answers, and the lesson's page limit ends it (``limit_reached``);
- ``allotments``: a site so small the crawl reads all of it (``exhausted``).

``LESSONS`` pairs each stop reason with the scenario that teaches it (``helpdesk`` for
``coverage_reached``, ``needle`` for ``no_relevant_pages``), its settings and what to watch.

Example::

    from pagesift_ui.demo import shared_demo
    server = shared_demo("university")      # started once per process
    server.seed_url                          # "http://www.uni.localhost:PORT/"

Layout: :mod:`.kit` is the machinery every scenario shares (page values and the HTML renderer,
the in-memory site model, seeded prose, the HTTP server) and knows no scenario; each scenario
is a package of its own (``university/``, ``helpdesk/``, ...) with its builder and word banks,
importing only the kit; :mod:`.scenarios` maps names to builders and lessons;
:mod:`.lessons` says where a crawl reaches its lesson.
"""

from __future__ import annotations

from .kit.server import DemoServer
from .kit.site import DemoResponse, DemoSite, query_key
from .lessons import Lesson, lesson_step
from .scenarios import (
    BENCH_SCENARIOS,
    LESSONS,
    SCENARIOS,
    build_site,
    lesson_of,
    shared_demo,
    start_demo,
)

__all__ = [
    "BENCH_SCENARIOS",
    "DemoResponse",
    "DemoServer",
    "DemoSite",
    "LESSONS",
    "Lesson",
    "SCENARIOS",
    "build_site",
    "lesson_of",
    "lesson_step",
    "query_key",
    "shared_demo",
    "start_demo",
]
