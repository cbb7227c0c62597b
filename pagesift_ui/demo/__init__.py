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

Layout: :mod:`.kit` is the machinery every scenario shares (page values and the HTML renderer,
the in-memory site model, seeded prose, the HTTP server) and knows no scenario; each scenario
is a package of its own (``university/``, ``helpdesk/``, ``needle/``, ``multilingual/``) with
its builder and word banks, importing only the kit; :mod:`.scenarios` maps names to builders.
"""

from __future__ import annotations

from .kit.server import DemoServer
from .kit.site import DemoResponse, DemoSite
from .scenarios import SCENARIOS, build_site, shared_demo, start_demo

__all__ = [
    "DemoResponse",
    "DemoServer",
    "DemoSite",
    "SCENARIOS",
    "build_site",
    "shared_demo",
    "start_demo",
]
