"""A small, realistic fixture website, served on 127.0.0.1 for tests that need real HTTP.

Crawl tests above the fetcher serve the same pages from memory: ``tests.fakes.fixture_source``
answers from ``route``, ``wire_headers`` and ``compresses``, the code the handler sends.

"Northwind Outfitters", an outdoor-gear shop. For the query "refund policy" the relevant
pages are /help/refund-policy, /help/refunds and /help/returns (one or two clicks from the
home page); /about, /team, /careers, /news/... and the events calendar are not. It also
serves the awkward cases a crawler meets: robots.txt with ``Disallow: /private/`` and
``Crawl-delay: 0``, a two-hop 301 chain (/old → /legacy/refunds → /help/refunds), a
redirect loop (/loop-a ↔ /loop-b), a 404 (any unknown path), a 500 (/broken), a slow page
(/slow), a PDF, pages in windows-1252, "iso-8859-1" (really windows-1252) and Shift_JIS, a
gzip-encoded page, and a calendar trap (/events/calendar?month=N links to N+1 forever).

Requests whose Host is ``www.fix.localhost[:port]`` get their own home page and no
robots.txt (404), so tests can prove that ``*.localhost`` names reach 127.0.0.1 with the
Host header kept (RFC 6761 §6.3).

Use as a context manager or through the ``fixture_site`` pytest fixture::

    with FixtureSite() as site:
        site.url("/help/")          # "http://127.0.0.1:PORT/help/"
        site.requests               # every request received, in order
"""

from __future__ import annotations

import gzip
import html
import logging
import sys
import threading
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from urllib.parse import parse_qs, urlsplit

__all__ = [
    "SLOW_PATH",
    "STATIC_PATHS",
    "VHOST",
    "FixtureSite",
    "RequestRecord",
    "Response",
    "compresses",
    "route",
    "slow_page",
    "wire_headers",
]

logger = logging.getLogger(__name__)

VHOST = "www.fix.localhost"
ROBOTS_TXT = "User-agent: *\nDisallow: /private/\nCrawl-delay: 0\n"
RELEVANT_PATHS = ("/help/refund-policy", "/help/refunds", "/help/returns")


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One request the fixture site received."""

    method: str
    path: str
    host: str
    user_agent: str
    accept_encoding: str


@dataclass(frozen=True, slots=True)
class Response:
    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


_NAV = (
    ("/", "Home"),
    ("/help/", "Help centre"),
    ("/about", "About us"),
    ("/team", "Our team"),
    ("/careers", "Careers"),
    ("/news/", "News"),
    ("/events/calendar?month=1", "Events"),
)
_FOOTER = (
    ("/legal/privacy", "Privacy"),
    ("/help/contact", "Contact"),
    ("/files/report.pdf", "Annual report (PDF)"),
    ("/intl/fr-1252", "Français"),
    ("/intl/de-latin1", "Deutsch"),
    ("/intl/ja-sjis", "日本語"),
)


def _links(items: tuple[tuple[str, str], ...]) -> str:
    return "".join(f'<li><a href="{html.escape(h)}">{html.escape(t)}</a></li>' for h, t in items)


def page(title: str, main: str, *, lang: str = "en", head: str = "") -> str:
    """A full page in the site's layout: header with nav, main content, footer."""
    return (
        f'<!DOCTYPE html>\n<html lang="{lang}"><head><meta charset="utf-8">'
        f"<title>{title} | Northwind Outfitters</title>{head}</head>\n<body>\n"
        '<header class="site-header"><a href="/" class="logo">Northwind Outfitters</a>\n'
        f'<nav aria-label="Main"><ul>{_links(_NAV)}</ul></nav></header>\n'
        f"<main>\n{main}\n</main>\n"
        f"<footer><ul>{_links(_FOOTER)}</ul><p>© 2024 Northwind Outfitters</p></footer>\n"
        "</body></html>\n"
    )


_PAGES: dict[str, tuple[str, str]] = {
    "/": (
        "Outdoor gear for every trail",
        "<h1>Outdoor gear for every trail</h1>"
        "<p>Tents, boots and jackets tested on real mountains since 1998.</p>"
        "<h2>Need help with an order?</h2>"
        '<p>Read our <a href="/help/refund-policy">refund policy</a>, see '
        '<a href="/help/returns">how returns work</a>, or visit the '
        '<a href="/help/">help centre</a>.</p>'
        "<h2>Latest news</h2><ul>"
        '<li><a href="/news/new-store-opening">A new store in Bergen</a></li>'
        '<li><a href="/news/summer-collection">The summer collection is here</a></li></ul>',
    ),
    "/help/": (
        "Help centre",
        "<h1>Help centre</h1><p>Answers about orders, refunds, returns and shipping.</p><ul>"
        '<li><a href="/help/refund-policy">Refund policy</a></li>'
        '<li><a href="/help/refunds">How to get a refund</a></li>'
        '<li><a href="/help/returns">Returns and exchanges</a></li>'
        '<li><a href="/help/shipping">Shipping times</a></li>'
        '<li><a href="/help/contact">Contact customer service</a></li>'
        '<li><a href="/old">Refunds (old page)</a></li></ul>',
    ),
    "/help/refund-policy": (
        "Refund policy",
        "<article><h1>Refund policy</h1>"
        "<p>Our refund policy is simple: if you are not happy with a purchase, you can ask "
        "for a full refund within 60 days of delivery.</p>"
        "<h2>What the refund policy covers</h2><ul><li>Unused items in their original "
        "packaging get a full refund.</li><li>Used items get a refund minus a 15% "
        "restocking fee.</li><li>Gift cards cannot be refunded.</li></ul>"
        "<h2>How long a refund takes</h2><p>We send the refund to your original payment "
        'method within 5 working days after the return arrives. See <a href="/help/refunds">'
        "how to get a refund</a> for the steps.</p></article>",
    ),
    "/help/refunds": (
        "How to get a refund",
        "<h1>How to get a refund</h1><ol><li>Sign in and open your order.</li>"
        "<li>Choose the items to refund and the reason.</li><li>Print the prepaid return "
        "label.</li><li>Drop the parcel at any post office.</li></ol><p>Refunds follow our "
        '<a href="/help/refund-policy">refund policy</a>: money back within 5 working days '
        "of the return arriving.</p>",
    ),
    "/help/returns": (
        "Returns and exchanges",
        "<h1>Returns and exchanges</h1><p>You can return or exchange any item within 60 "
        "days. A return is refunded to your original payment method; an exchange ships the "
        'new size for free. Read the <a href="/help/refund-policy">refund policy</a> for '
        "what is refunded.</p>",
    ),
    "/help/shipping": (
        "Shipping times",
        "<h1>Shipping times</h1><p>Orders ship within two working days. Delivery takes "
        "three to five days in Europe.</p>",
    ),
    "/help/contact": (
        "Contact customer service",
        "<h1>Contact customer service</h1><p>Write to service@northwind.example or call us "
        "on weekdays between 9 and 17.</p>",
    ),
    "/about": (
        "About us",
        "<h1>About us</h1><p>Northwind Outfitters was founded in 1998 by two climbers in "
        'Tromsø. Meet <a href="/team">our team</a> or <a href="/careers">join us</a>.</p>',
    ),
    "/team": (
        "Our team",
        "<h1>Our team</h1><ul><li>Ingrid Berg, founder</li><li>Ola Nordmann, head of "
        "product</li><li>Kari Hansen, store manager</li></ul>",
    ),
    "/careers": (
        "Careers",
        "<h1>Careers</h1><p>We are hiring a store assistant in Bergen and a warehouse "
        "coordinator in Oslo.</p>",
    ),
    "/news/": (
        "News",
        "<h1>News</h1><ul>"
        '<li><a href="/news/new-store-opening">A new store in Bergen</a></li>'
        '<li><a href="/news/summer-collection">The summer collection is here</a></li>'
        '<li><a href="/news/archive">Older news</a></li></ul>',
    ),
    "/news/new-store-opening": (
        "A new store in Bergen",
        "<article><h1>A new store in Bergen</h1><p>Our fourth store opens on Bryggen in "
        "May, with a climbing wall and a boot-fitting corner.</p></article>",
    ),
    "/news/summer-collection": (
        "The summer collection is here",
        "<article><h1>The summer collection is here</h1><p>Lighter tents, quick-dry "
        "shirts and a new trail shoe.</p></article>",
    ),
    "/news/archive": (
        "News archive",
        "<h1>News archive</h1><ul>"
        '<li><a href="/old">Our old refunds page</a></li>'
        '<li><a href="/missing">The 2019 catalogue</a></li>'
        '<li><a href="/broken">Store locator</a></li>'
        '<li><a href="/loop-a">Winter sale</a></li>'
        '<li><a href="/private/staff">Staff area</a></li>'
        '<li><a href="/files/report.pdf">Annual report 2023</a></li></ul>',
    ),
    "/legal/privacy": (
        "Privacy",
        "<h1>Privacy</h1><p>We keep your address only to deliver your orders.</p>",
    ),
    "/private/staff": ("Staff area", "<h1>Staff area</h1><p>Rosters and passwords.</p>"),
}
_REDIRECTS = {
    "/old": (301, "/legacy/refunds"),
    "/legacy/refunds": (301, "/help/refunds"),
    "/loop-a": (302, "/loop-b"),
    "/loop-b": (302, "/loop-a"),
}

# Text with characters that single-byte and Shift_JIS mis-decoding would mangle.
CP1252_TEXT = "Café Müller: “Remboursement” sous 30 jours, frais 5 €"
LATIN1_TEXT = "Rückerstattung für Käufe über 50 € – „sofort“"
SJIS_TEXT = "返金ポリシー：①未使用品は全額返金～"
VHOST_TEXT = "Fixture virtual host www.fix.localhost"


def _html(text: str, status: int = 200, charset: str = "utf-8") -> Response:
    ctype = f"text/html; charset={charset}" if charset else "text/html"
    return Response(status, ctype, text.encode(charset or "utf-8"))


def _calendar(query: str) -> Response:
    values = parse_qs(query).get("month", ["1"])
    month = int(values[0]) if values[0].isdigit() else 1
    main = (
        f"<h1>Events in month {month}</h1><p>Club evenings and repair workshops.</p>"
        f'<p><a href="/events/calendar?month={max(month - 1, 1)}">Previous month</a> · '
        f'<a href="/events/calendar?month={month + 1}">Next month</a></p>'
    )
    return _html(page(f"Events, month {month}", main))


def _intl(path: str) -> Response | None:
    if path == "/intl/fr-1252":
        body = page("Remboursement", f"<h1>Remboursement</h1><p>{CP1252_TEXT}</p>", lang="fr")
        body = body.replace('<meta charset="utf-8">', "")
        return Response(
            200, "text/html; charset=windows-1252", body.encode("cp1252", "xmlcharrefreplace")
        )
    if path == "/intl/de-latin1":
        # Declared iso-8859-1 but written in windows-1252 (€, „“), as many real pages are.
        body = page("Rückerstattung", f"<h1>Rückerstattung</h1><p>{LATIN1_TEXT}</p>", lang="de")
        body = body.replace('<meta charset="utf-8">', "")
        return Response(
            200, "text/html; charset=iso-8859-1", body.encode("cp1252", "xmlcharrefreplace")
        )
    if path == "/intl/ja-sjis":
        # No charset in the header: only <meta charset> says Shift_JIS (written as cp932).
        body = page("返金ポリシー", f"<h1>返金ポリシー</h1><p>{SJIS_TEXT}</p>", lang="ja")
        body = body.replace('<meta charset="utf-8">', '<meta charset="Shift_JIS">')
        return Response(200, "text/html", body.encode("cp932", "xmlcharrefreplace"))
    return None


SLOW_PATH = "/slow"
_INTL_PATHS = ("/intl/fr-1252", "/intl/de-latin1", "/intl/ja-sjis")
#: Every path with a fixed answer; the calendar (any ?month=N), /slow and the 404s are not.
STATIC_PATHS = (
    "/robots.txt", *_REDIRECTS, "/broken", "/files/report.pdf", *_INTL_PATHS, *_PAGES,
)


def slow_page() -> Response:
    """What /slow answers once the handler has waited ``FixtureSite.slow_seconds``."""
    return _html(page("Slow", "<h1>Finally</h1>"))


def compresses(path: str, accept_encoding: str) -> bool:
    """/help/returns is sent gzip-compressed (to clients that accept it), to exercise
    Content-Encoding end to end."""
    return "gzip" in accept_encoding and path == "/help/returns"


def wire_headers(
    response: Response, body_length: int, *, compress: bool
) -> tuple[tuple[str, str], ...]:
    """The headers the handler sends for ``response`` after the status line (before the
    ``Server`` and ``Date`` lines it always adds), ``body_length`` being the bytes sent."""
    sent = [("Content-Type", response.content_type), ("Content-Length", str(body_length))]
    if compress:
        sent.append(("Content-Encoding", "gzip"))
    return (*sent, *response.headers)


def route(path: str, query: str, host: str) -> Response:
    """The response for one GET (every path except /slow, which the handler delays)."""
    if host.split(":")[0].lower() == VHOST:
        if path == "/robots.txt":
            return _html(page("Not found", "<h1>Not found</h1>"), status=404)
        if path == "/":
            return _html(page("Virtual host", f"<h1>{VHOST_TEXT}</h1><p>Served by Host.</p>"))
    if path == "/robots.txt":
        return Response(200, "text/plain; charset=utf-8", ROBOTS_TXT.encode())
    if path in _REDIRECTS:
        status, location = _REDIRECTS[path]
        return Response(status, "text/html", b"", (("Location", location),))
    if path == "/events/calendar":
        return _calendar(query)
    if path == "/broken":
        return _html(page("Server error", "<h1>Something went wrong</h1>"), status=500)
    if path == "/files/report.pdf":
        return Response(200, "application/pdf", b"%PDF-1.4\n% fixture\n" + b"0" * 4000)
    intl = _intl(path)
    if intl is not None:
        return intl
    if path in _PAGES:
        title, main = _PAGES[path]
        return _html(page(title, main))
    return _html(page("Not found", "<h1>Page not found</h1><p>Try the help centre.</p>"), 404)


class FixtureSite:
    """The fixture website on 127.0.0.1 at a free port, served from a daemon thread."""

    def __init__(self, slow_seconds: float = 2.0) -> None:
        self.slow_seconds = slow_seconds
        self._records: list[RequestRecord] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        self._server = _Server(self)
        self.port: int = self._server.server_address[1]
        self.base_url = f"http://127.0.0.1:{self.port}"
        self._thread = threading.Thread(
            target=self._server.serve_forever, args=(0.05,), name="fixture-site", daemon=True
        )

    @property
    def requests(self) -> list[RequestRecord]:
        """Every request received so far, in arrival order (a copy)."""
        with self._lock:
            return list(self._records)

    def paths(self) -> list[str]:
        return [record.path for record in self.requests]

    def url(self, path: str) -> str:
        return self.base_url + path

    def vhost_url(self, path: str, host: str = VHOST) -> str:
        return f"http://{host}:{self.port}{path}"

    def start(self) -> FixtureSite:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)

    def __enter__(self) -> FixtureSite:
        return self.start()

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.stop()

    def record(self, record: RequestRecord) -> None:
        with self._lock:
            self._records.append(record)

    def wait_slow(self) -> None:
        """Sleep for the slow page, waking early when the site stops."""
        self._stopping.wait(self.slow_seconds)


class _Server(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, site: FixtureSite) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.site = site

    def handle_error(self, request: object, client_address: object) -> None:
        # A client that gave up (the slow page after a read timeout) is expected; anything
        # else is a bug in the fixture and is logged with its traceback.
        if isinstance(sys.exc_info()[1], ConnectionError):
            logger.debug("fixture site: %s went away", client_address)
        else:
            logger.exception("fixture site: request from %s failed", client_address)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    server_version = "FixtureSite/1.0"
    server: _Server

    def do_GET(self) -> None:
        site = self.server.site
        split = urlsplit(self.path)
        host = self.headers.get("Host", "")
        accept_encoding = self.headers.get("Accept-Encoding", "")
        user_agent = self.headers.get("User-Agent", "")
        site.record(RequestRecord("GET", self.path, host, user_agent, accept_encoding))
        if split.path == SLOW_PATH:
            site.wait_slow()
            response = slow_page()
        else:
            response = route(split.path, split.query, host)
        self._send(response, compress=compresses(split.path, accept_encoding))

    def _send(self, response: Response, *, compress: bool) -> None:
        body = gzip.compress(response.body) if compress else response.body
        self.send_response(response.status)
        for name, value in wire_headers(response, len(body), compress=compress):
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        logger.debug("fixture site: " + format, *args)
