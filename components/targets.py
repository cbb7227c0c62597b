"""Where a crawl starts: a bundled demo scenario, a URL, or a local folder served on 127.0.0.1.

No Streamlit here. Every failure is a ``ConfigError`` naming the setup field to show it by.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from functools import cache
from urllib.parse import urlsplit

from pagesift_ui.demo import SCENARIOS, build_site, query_key, shared_demo
from pagesift_ui.demo.scenarios import STABLE_PORTS
from pagesift_ui.errors import ConfigError
from pagesift_ui.net.serve import StaticServer

__all__ = [
    "DEFAULT_SCENARIO",
    "TARGETS",
    "TARGET_DEMO",
    "TARGET_FOLDER",
    "TARGET_URL",
    "Target",
    "demo_info",
    "demo_truth",
    "resolve_target",
]

logger = logging.getLogger(__name__)

TARGET_DEMO = "Demo scenario"
TARGET_URL = "URL"
TARGET_FOLDER = "Local folder"
TARGETS = (TARGET_DEMO, TARGET_URL, TARGET_FOLDER)
DEFAULT_SCENARIO = "university" if "university" in SCENARIOS else SCENARIOS[0]


@dataclass(frozen=True, slots=True)
class Target:
    """A resolved start: the seed URL and the folder server to stop on Reset (if any). A
    demo's answer key depends on the query too: ``demo_truth``."""

    seed_url: str
    server: StaticServer | None = None


def demo_info(name: str) -> tuple[str, str]:
    """(query, description) of a scenario; starts its server once per process."""
    try:
        site = shared_demo(name).site
    except (ValueError, OSError) as exc:
        raise ConfigError("scenario", f"the demo {name!r} could not start: {exc}") from exc
    return site.query, site.description


def resolve_target(target: str, scenario: str, url: str, folder: str) -> Target:
    """The seed URL of the chosen target. Raises ``ConfigError`` (field ``scenario``,
    ``seed_url`` or ``folder``)."""
    if target == TARGET_DEMO:
        try:
            demo = shared_demo(scenario)
            return Target(demo.seed_url)
        except (ValueError, OSError) as exc:
            raise ConfigError("scenario", f"the demo {scenario!r} could not start: {exc}") from exc
    if target == TARGET_URL:
        return Target((url or "").strip())
    if target == TARGET_FOLDER:
        if not (folder or "").strip():
            raise ConfigError("folder", "enter the path of a folder with HTML files")
        try:
            server = StaticServer(folder.strip()).start()
        except (ValueError, OSError) as exc:
            raise ConfigError("folder", str(exc)) from exc
        return Target(server.base_url() + "/", server)
    raise ConfigError("target", f"choose one of {list(TARGETS)}, got {target!r}")


def demo_truth(seed_url: str, query: str) -> tuple[str, ...] | None:
    """The answer key of ``query`` on the demo scenario a session started at ``seed_url``, if
    it is one and knows that query's answers (its own, or one of ``more_queries``: the
    multilingual German one); None for any other site or query. Recall in the what-if panel
    and the comparison: the scenario's key measured another query's crawl as 0%.

    A scenario is recognised by its seed host and path on whatever port the session used,
    and its answer key is put on that port: a demo that took a free port because its stable
    one was held by another process is known as well as one on its stable port, and no
    server is started to know it (a resumed or imported session of this machine).
    """
    try:
        parts = urlsplit(seed_url)
        port = parts.port
    except ValueError:
        return None
    if port is None or parts.scheme != "http":
        return None
    # the scenario on its own stable port first: the usual case, one build
    for name in sorted(SCENARIOS, key=lambda scenario: STABLE_PORTS.get(scenario) != port):
        seed_host, seed_path, keys = _demo_answers(name)
        if f"http://{seed_host}:{port}{seed_path}" == seed_url:
            relevant = keys.get(query_key(query))
            if relevant is None:
                return None
            return tuple(sorted(f"http://{host}:{port}{path}" for host, path in relevant))
    return None


@cache
def _demo_answers(
    name: str,
) -> tuple[str, str, dict[str, tuple[tuple[str, str], ...]]]:
    """Scenario ``name``'s seed host, seed path and answer keys (host, path) by query
    (``query_key``), as the app serves it (seed 0); the site is built once per process and
    only these are kept (all seven sites are ~20 MB)."""
    site = build_site(name, 0)
    keys = {query_key(other.text): tuple(other.relevant) for other in site.more_queries}
    keys[query_key(site.query)] = tuple(site.relevant)
    return site.seed_host, site.seed_path, keys
