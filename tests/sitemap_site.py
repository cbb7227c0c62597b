"""A small loopback site for sitemap seeding: one on-topic page is linked from nowhere and
listed only in the sitemaps (docs/DESIGN.md §11.13).

``SitemapSite(routes)`` serves ``routes`` (path → ``Answer``) on 127.0.0.1; every other path
is a 404. ``site_routes(variant)`` builds the site's pages plus the sitemaps of a variant:

- ``"plain"``: no ``Sitemap:`` line in robots.txt; ``/sitemap.xml`` lists the hidden page;
- ``"robots-gzip-index"``: robots.txt says ``Sitemap: /maps/index.xml.gz``, a gzipped sitemap
  index naming ``/maps/pages.xml.gz``, a gzipped urlset that lists the hidden page;
  ``/sitemap.xml`` is a 404.
"""

from __future__ import annotations

import gzip
import html
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from urllib.parse import urlsplit

from pagesift_ui.net.loopback import LOOPBACK, BackgroundServer, LoopbackHTTPServer

__all__ = ["HIDDEN", "LASTMOD", "LAUGHS", "XML", "Answer", "SitemapSite", "page", "site_routes",
           "urlset"]

HIDDEN = "/hidden/refund-policy-details"
LASTMOD = "2024-05-01"
XML = "application/xml"
#: An entity-expansion bomb ("billion laughs"): 10⁹ "lol"s from a 1 KB file, if expanded.
LAUGHS = b"""<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>&lol9;</loc></url></urlset>"""


@dataclass(frozen=True, slots=True)
class Answer:
    status: int
    content_type: str
    body: bytes


def page(title: str, body: str, links: tuple[str, ...] = ()) -> Answer:
    anchors = "".join(f'<li><a href="{href}">{html.escape(text)}</a></li>' for href, text in
                      (link.split("|", 1) for link in links))
    text = (f"<!DOCTYPE html><html><head><title>{html.escape(title)}</title></head><body>"
            f"<h1>{html.escape(title)}</h1><p>{html.escape(body)}</p><ul>{anchors}</ul>"
            "</body></html>")
    return Answer(200, "text/html; charset=utf-8", text.encode())


def urlset(base: str, entries: list[tuple[str, str]]) -> bytes:
    """A sitemaps.org urlset of ``(path or URL, lastmod)``."""
    rows = "".join(
        f"<url><loc>{html.escape(loc if '://' in loc else base + loc)}</loc>"
        + (f"<lastmod>{lastmod}</lastmod>" if lastmod else "") + "</url>"
        for loc, lastmod in entries
    )
    return (f'<?xml version="1.0" encoding="UTF-8"?><urlset '
            f'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{rows}</urlset>').encode()


def _index(base: str, paths: list[str]) -> bytes:
    rows = "".join(f"<sitemap><loc>{base}{path}</loc></sitemap>" for path in paths)
    return (f'<?xml version="1.0" encoding="UTF-8"?><sitemapindex '
            f'xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{rows}</sitemapindex>').encode()


def _pages() -> dict[str, Answer]:
    words = ("Our refund policy: ask for a refund within 30 days. The refund policy covers "
             "every order; refunds go back to the card you paid with.")
    return {
        "/": page("Northwind Outfitters", "Tents, boots and stoves for the outdoors.",
                  ("/about|About us", "/help/|Help centre")),
        "/about": page("About us", "A family shop since 1982, selling outdoor gear.",
                       ("/|Home",)),
        "/help/": page("Help centre", "Delivery times and opening hours.",
                       ("/help/delivery|Delivery", "/|Home")),
        "/help/delivery": page("Delivery", "We deliver in three to five working days.",
                               ("/help/|Help centre",)),
        HIDDEN: page("Refund policy in detail", words),
    }


def site_routes(base: str, variant: str) -> dict[str, Answer]:
    """The site's pages and the sitemaps of ``variant`` (see the module docstring)."""
    routes = _pages()
    listed = [("/", ""), ("/about", "2023-01-01"), (HIDDEN, LASTMOD)]
    if variant == "plain":
        routes["/robots.txt"] = Answer(200, "text/plain", b"User-agent: *\nDisallow: /private/\n")
        routes["/sitemap.xml"] = Answer(200, XML, urlset(base, listed))
    elif variant == "robots-gzip-index":
        routes["/robots.txt"] = Answer(
            200, "text/plain", b"User-agent: *\nDisallow: /private/\nSitemap: /maps/index.xml.gz\n"
        )
        routes["/maps/index.xml.gz"] = Answer(
            200, "application/gzip", gzip.compress(_index(base, ["/maps/pages.xml.gz"]))
        )
        routes["/maps/pages.xml.gz"] = Answer(
            200, "application/octet-stream", gzip.compress(urlset(base, listed))
        )
    else:
        raise ValueError(f"unknown variant {variant!r}")
    return routes


class SitemapSite(BackgroundServer):
    """Serves ``routes`` on 127.0.0.1; ``requests`` lists every path asked for, in order."""

    _what = "sitemap-site"

    def __init__(self, routes: dict[str, Answer] | None = None) -> None:
        super().__init__(0)
        self.routes: dict[str, Answer] = dict(routes or {})
        self.requests: list[str] = []
        self._lock = threading.Lock()

    @property
    def base(self) -> str:
        return f"http://{LOOPBACK}:{self.port}"

    def _make_server(self, port: int) -> LoopbackHTTPServer:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 (http.server's name)
                path = urlsplit(self.path).path
                with site._lock:
                    site.requests.append(path)
                answer = site.routes.get(path, Answer(404, "text/plain", b"not found"))
                self.send_response(answer.status)
                self.send_header("Content-Type", answer.content_type)
                self.send_header("Content-Length", str(len(answer.body)))
                self.end_headers()
                self.wfile.write(answer.body)

            def log_message(self, format: str, *args: object) -> None:  # noqa: A002
                return

        return LoopbackHTTPServer((LOOPBACK, port), Handler)
