"""The bundled demo web: realistic websites served over real HTTP on 127.0.0.1.

Each scenario is a generated, deterministic website with a known answer key, built so that a
focused crawl shows one stop reason and a set of traps on demand:

- ``university``: answers 2-4 clicks deep, news and journal distractions, an endless calendar;
- ``helpdesk``: a few help articles behind a large catalogue whose footer repeats the query;
- ``needle``: a municipal site with nothing on the query (``no_relevant_pages``);
- ``multilingual``: a German home page with the English answers behind an /en/ portal.

Example::

    from pagesift_ui.demo import shared_demo
    server = shared_demo("university")      # started once per process
    server.seed_url                          # "http://www.uni.localhost:PORT/"
"""

from __future__ import annotations

from .scenarios import SCENARIOS, build_site
from .server import DemoServer, shared_demo, start_demo
from .site import DemoResponse, DemoSite

__all__ = [
    "DemoResponse",
    "DemoServer",
    "DemoSite",
    "SCENARIOS",
    "build_site",
    "shared_demo",
    "start_demo",
]
