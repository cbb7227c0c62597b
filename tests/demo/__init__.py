"""Helpers shared by the demo-web tests: cached builds, link extraction, stemmed matching."""

from __future__ import annotations

import functools
import html
import re
from collections import deque
from urllib.parse import urljoin, urlsplit

import snowballstemmer

from pagesift_ui.demo import DemoSite, build_site

_ANCHOR = re.compile(r'<a href="([^"]*)"')
_TAG = re.compile(r"<[^>]+>")
_WORD = re.compile(r"[^\W_]+")
_STEMMER = snowballstemmer.stemmer("english")
_STOP = frozenset({"for", "the", "a", "an", "of", "and", "to", "in"})


@functools.cache
def site_of(name: str, seed: int = 0) -> DemoSite:
    """One build per scenario and seed for the whole test session."""
    return build_site(name, seed)


def stems(text: str) -> set[str]:
    words = _WORD.findall(html.unescape(_TAG.sub(" ", text)).casefold())
    return {_STEMMER.stemWord(word) for word in words}


def query_stems(query: str) -> list[str]:
    return [_STEMMER.stemWord(w) for w in _WORD.findall(query.casefold()) if w not in _STOP]


def body_text(site: DemoSite, host: str, target: str) -> str:
    return site.respond(host, target).body.decode("utf-8")


def main_text(page: str) -> str:
    return page[page.index("<main"):page.index("</main>")]


def links(site: DemoSite, host: str, target: str) -> list[tuple[str, str]]:
    """(host, target) of every ``<a href>`` on the page, or the Location of a redirect."""
    response = site.respond(host, target)
    base = f"http://{host}{target}"
    if response.status in (301, 302):
        hrefs = [dict(response.headers)["Location"]]
    elif response.content_type.startswith("text/html"):
        hrefs = [html.unescape(h) for h in _ANCHOR.findall(response.body.decode("utf-8"))]
    else:
        return []
    result = []
    for href in hrefs:
        if href.startswith(("mailto:", "tel:", "#")):
            continue
        parts = urlsplit(urljoin(base, href))
        result.append((parts.hostname or host,
                       parts.path + (f"?{parts.query}" if parts.query else "")))
    return result


def click_depths(site: DemoSite) -> dict[tuple[str, str], int]:
    """Breadth-first search from the seed over the site's own links, in memory.

    Nodes are the static pages that would answer (tracking and session parameters resolve
    to their page) plus redirects; dynamic pages (the calendar) are not expanded.
    """
    start = (site.seed_host, site.seed_path)
    depth = {start: 0}
    queue = deque([start])
    while queue:
        node = queue.popleft()
        for host, target in links(site, *node):
            if host not in site.hosts:
                continue
            key = site.resolve(host, target)
            if key is None and site.respond(host, target).status == 301:
                key = (host, target)
            if key is not None and key not in depth:
                depth[key] = depth[node] + 1
                queue.append(key)
    return depth
