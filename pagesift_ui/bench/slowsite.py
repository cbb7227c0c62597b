"""A loopback site spread over several host names whose server waits before every answer:
what fetches in flight (``CrawlConfig.concurrency``, docs/DESIGN.md §11.14) are measured and
tested on.

Every host is a ``*.localhost`` name on one port, so each is 127.0.0.1 without DNS (RFC 6761
§6.3) and on the seed's own origin: the fetcher's network policy lets them in without
``allow_private``, the ``site`` scope holds them all, and politeness treats each name as a
host of its own. The pages are generated from a seed, deterministic, with different words on
every page (no two are near-duplicates), and link across the hosts.

The server answers each request ``delay_s`` after it arrived (robots.txt too) and counts, per
host, the requests it is answering at once: ``max_in_flight`` is the most there ever were.
A request is counted from its arrival to the end of the wait, before a byte of the answer is
sent, so a client that waits for one answer before its next request to the host is never
counted twice.
"""

from __future__ import annotations

import logging
import random
import threading
import time
from collections import Counter
from dataclasses import dataclass
from html import escape
from http.server import BaseHTTPRequestHandler

from pagesift_ui.net.loopback import LOOPBACK, BackgroundServer, LoopbackHTTPServer

__all__ = ["SlowServer", "SlowSite"]

logger = logging.getLogger(__name__)

#: The query the site's pages are about, more or less.
QUERY = "sediment transport"
_TOPIC = ("sediment", "transport", "sediments", "transported")
_SYLLABLES = ("ka", "lo", "mer", "tis", "van", "dru", "pel", "sor", "bin", "gat", "ru", "fen",
              "hol", "quin", "zed", "mar", "tor", "ple", "wis", "nok")
_HTML = "text/html; charset=utf-8"


def _vocabulary() -> tuple[str, ...]:
    """Four hundred made-up words: two syllables each, none a query word."""
    return tuple(a + b for a in _SYLLABLES for b in _SYLLABLES)


@dataclass(frozen=True, slots=True)
class SlowSite:
    """``hosts`` host names under ``slow.localhost`` (the seed on the first), each with
    ``pages`` pages ``/p/0`` … and a home page linking to the first pages of every host;
    ``/go/H/P`` on any host redirects (302) to page P of host H."""

    hosts: int = 4
    pages: int = 30
    links_per_page: int = 6
    seed: int = 0

    @property
    def host_names(self) -> tuple[str, ...]:
        return tuple(f"h{i}.slow.localhost" for i in range(self.hosts))

    @property
    def seed_host(self) -> str:
        return self.host_names[0]

    def respond(self, host: str, path: str, port: int) -> tuple[int, str, bytes]:
        """(status, content type, body) for a request of ``path`` on ``host``."""
        names = self.host_names
        if host not in names:
            return 404, "text/plain", b"no such host\n"
        if path == "/robots.txt":
            return 200, "text/plain", b"User-agent: *\nAllow: /\n"
        if path == "/":
            return 200, _HTML, self._home(names.index(host), port).encode()
        if path.startswith("/p/") and path[3:].isdigit() and int(path[3:]) < self.pages:
            return 200, _HTML, self._page(names.index(host), int(path[3:]), port).encode()
        if path.startswith("/go/"):  # /go/H/P: a redirect to page P of host H
            to_host, _, to_page = path[4:].partition("/")
            if to_host.isdigit() and int(to_host) < self.hosts and to_page.isdigit():
                return 302, "text/plain", self._url(int(to_host), int(to_page), port).encode()
        return 404, "text/plain", b"not found\n"

    def _url(self, host: int, page: int | None, port: int) -> str:
        where = "/" if page is None else f"/p/{page}"
        return f"http://{self.host_names[host]}:{port}{where}"

    def _words(self, rng: random.Random, count: int, topical: float) -> str:
        vocabulary = _vocabulary()
        return " ".join(rng.choice(_TOPIC) if rng.random() < topical else rng.choice(vocabulary)
                        for _ in range(count))

    def _home(self, host: int, port: int) -> str:
        rng = random.Random(f"{self.seed}-home-{host}")
        links = [(self._url(h, 0, port), f"{self._words(rng, 2, 0.5)} {h}")
                 for h in range(self.hosts)]
        links += [(self._url(h, 1, port), f"{self._words(rng, 2, 0.3)} {h}")
                  for h in range(self.hosts)]
        return _document(f"Home {host}", self._words(rng, 80, 0.1), links)

    def _page(self, host: int, page: int, port: int) -> str:
        rng = random.Random(f"{self.seed}-{host}-{page}")
        topical = (0.02, 0.08, 0.15)[(host + page) % 3]
        text = "</p><p>".join(self._words(rng, 60, topical) for _ in range(3))
        links = []
        for j in range(1, self.links_per_page + 1):
            target_host = (host + j) % self.hosts
            target = (page * 7 + j * 3 + host) % self.pages
            links.append((self._url(target_host, target, port), self._words(rng, 3, 0.2)))
        return _document(f"Note {host}.{page} {self._words(rng, 2, 0.0)}", text, links)


def _document(title: str, text: str, links: list[tuple[str, str]]) -> str:
    items = "".join(f'<li><a href="{escape(url)}">{escape(anchor)}</a></li>' for url, anchor
                    in links)
    return (f"<!DOCTYPE html><html lang=\"en\"><head><title>{escape(title)}</title></head>"
            f"<body><main><h1>{escape(title)}</h1><p>{text}</p><ul>{items}</ul></main>"
            "</body></html>")


class _HTTPServer(LoopbackHTTPServer):
    def __init__(self, port: int, site: SlowSite, delay_s: float) -> None:
        self.site = site
        self.delay_s = delay_s
        self.lock = threading.Lock()
        self.requests: list[tuple[str, str]] = []  # (host, path), in arrival order
        self.in_flight: Counter[str] = Counter()
        self.max_in_flight: Counter[str] = Counter()
        self.max_total = 0
        super().__init__((LOOPBACK, port), _Handler)

    def began(self, host: str, path: str) -> None:
        with self.lock:
            self.requests.append((host, path))
            self.in_flight[host] += 1
            self.max_in_flight[host] = max(self.max_in_flight[host], self.in_flight[host])
            self.max_total = max(self.max_total, sum(self.in_flight.values()))

    def ended(self, host: str) -> None:
        with self.lock:
            self.in_flight[host] -= 1


class _Handler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"  # keep-alive, as a real server
    timeout = 30
    disable_nagle_algorithm = True  # no delayed-ACK wait on top of the delay we measure

    def do_GET(self) -> None:
        host = self.headers.get("Host", "").rsplit(":", 1)[0].lower()
        self.server.began(host, self.path)
        try:
            time.sleep(self.server.delay_s)
        finally:
            self.server.ended(host)
        status, content_type, body = self.server.site.respond(
            host, self.path, self.server.server_port)
        self.send_response(status)
        if status == 302:  # the body names where to go
            self.send_header("Location", body.decode())
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        logger.debug("%s %s", self.address_string(), format % args)


class SlowServer(BackgroundServer):
    """A ``SlowSite`` on 127.0.0.1 answering every request ``delay_s`` after it came."""

    _what = "slow site"

    def __init__(self, site: SlowSite | None = None, *, delay_s: float = 0.1,
                 port: int = 0) -> None:
        super().__init__(port)
        self.site = site if site is not None else SlowSite()
        self.delay_s = delay_s
        self._httpd: _HTTPServer | None = None

    def _make_server(self, port: int) -> _HTTPServer:
        return _HTTPServer(port, self.site, self.delay_s)

    @property
    def seed_url(self) -> str:
        return f"http://{self.site.seed_host}:{self.port}/"

    def _server(self) -> _HTTPServer:
        if self._httpd is None:
            raise RuntimeError("the slow site is not running; call start() first")
        return self._httpd

    def requests(self) -> list[tuple[str, str]]:
        """Every (host, path) asked for since start, in arrival order."""
        server = self._server()
        with server.lock:
            return list(server.requests)

    def max_in_flight(self) -> dict[str, int]:
        """Host → the most requests of it that were answered at once."""
        server = self._server()
        with server.lock:
            return dict(server.max_in_flight)

    def max_total_in_flight(self) -> int:
        """The most requests, of all hosts, that were answered at once."""
        server = self._server()
        with server.lock:
            return server.max_total

    def reset(self) -> None:
        """Forget the requests and counts so far (between two crawls)."""
        server = self._server()
        with server.lock:
            server.requests.clear()
            server.max_in_flight.clear()
            server.max_total = 0
