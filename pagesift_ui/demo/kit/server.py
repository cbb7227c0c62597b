"""Serve a :class:`DemoSite` over real HTTP on 127.0.0.1, with name-based virtual hosting.

Every ``*.localhost`` name is loopback (RFC 6761, section 6.3), so a browser or the crawler's
fetcher reaches ``http://www.uni.localhost:PORT/`` on this server; the ``Host`` header picks
the site's host. The server binds 127.0.0.1 only and never makes a request of its own.
"""

from __future__ import annotations

import logging
import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler
from pathlib import Path

from pagesift_ui.net.loopback import LOOPBACK, BackgroundServer, LoopbackHTTPServer

from .site import TEXT_TYPE, DemoResponse, DemoSite

__all__ = ["DemoServer", "RequestRecord"]

logger = logging.getLogger(__name__)

REQUEST_LOG_SIZE = 10_000


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One request the server answered: Host header, request target and status code."""

    host: str
    target: str
    status: int


class _HTTPServer(LoopbackHTTPServer):
    def __init__(self, port: int, site: DemoSite) -> None:
        self.site = site
        self.log_lock = threading.Lock()
        self.request_log: deque[RequestRecord] = deque(maxlen=REQUEST_LOG_SIZE)
        self.request_total = 0
        super().__init__((LOOPBACK, port), _DemoHandler)

    def record(self, entry: RequestRecord) -> None:
        with self.log_lock:
            self.request_log.append(entry)
            self.request_total += 1


class _DemoHandler(BaseHTTPRequestHandler):
    server: _HTTPServer
    protocol_version = "HTTP/1.1"  # keep-alive: a crawl reuses its connection
    server_version = "pagesift-demo/1.0"
    timeout = 30  # seconds an idle keep-alive connection may hold a thread
    # Headers and body go out in two writes; with Nagle's algorithm on, the body waits for
    # the client's delayed ACK (about 40 ms per response on Linux).
    disable_nagle_algorithm = True

    def do_GET(self) -> None:
        self._answer(send_body=True)

    def do_HEAD(self) -> None:
        self._answer(send_body=False)

    def _respond(self, host: str) -> DemoResponse:
        if not host:
            return DemoResponse(400, TEXT_TYPE, b"400 Bad Request: send a Host header.\n")
        try:
            return self.server.site.respond(host, self.path)
        except Exception:  # the edge of the server: report a 500, keep serving
            logger.exception("demo site %s failed on %s%s", self.server.site.name, host, self.path)
            return DemoResponse(500, TEXT_TYPE, b"500 Internal Server Error\n")

    def _answer(self, *, send_body: bool) -> None:
        host = self.headers.get("Host", "")
        response = self._respond(host)
        self.server.record(RequestRecord(host, self.path, response.status))
        self.send_response(response.status)
        self.send_header("Content-Type", response.content_type)
        self.send_header("Content-Length", str(len(response.body)))
        for name, value in response.headers:
            self.send_header(name, value)
        self.end_headers()
        if send_body:
            self.wfile.write(response.body)

    def log_message(self, format: str, *args: object) -> None:
        logger.debug("%s %s", self.address_string(), format % args)


class DemoServer(BackgroundServer):
    """A demo site on 127.0.0.1 in a daemon thread. ``port=0`` takes a free port.

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    _what = "demo server"

    def __init__(self, site: DemoSite, port: int = 0) -> None:
        super().__init__(port)
        self.site = site
        self._httpd: _HTTPServer | None = None

    def _make_server(self, port: int) -> _HTTPServer:
        server = _HTTPServer(port, self.site)
        logger.info("demo %s serving on port %d", self.site.name, server.server_port)
        return server

    def _thread_name(self) -> str:
        return f"demo-{self.site.name}-{self.port}"

    def base_url(self, host: str | None = None) -> str:
        """``http://HOST:PORT`` for one of the site's hosts (default: the seed host)."""
        host = self.site.seed_host if host is None else host
        if host not in self.site.hosts:
            raise ValueError(f"host {host!r} is not served by demo {self.site.name!r}; "
                             f"choose one of: {', '.join(self.site.hosts)}")
        return f"http://{host}:{self.port}"

    @property
    def seed_url(self) -> str:
        return self.base_url(self.site.seed_host) + self.site.seed_path

    def truth_urls(self) -> list[str]:
        """The answer key as absolute URLs, sorted."""
        return sorted(self.base_url(host) + path for host, path in self.site.relevant)

    def write_truth(self, path: str | Path) -> Path:
        """Write ``# query:`` and ``# seed:`` lines, then one relevant URL per line."""
        target = Path(path)
        lines = [f"# query: {self.site.query}", f"# seed: {self.seed_url}", *self.truth_urls()]
        target.write_text("\n".join(lines) + "\n", encoding="utf-8")
        return target

    @property
    def request_count(self) -> int:
        """Requests answered since start (0 when not running)."""
        if self._httpd is None:
            return 0
        with self._httpd.log_lock:
            return self._httpd.request_total

    def requests(self) -> tuple[RequestRecord, ...]:
        """The most recent requests (up to 10,000), oldest first."""
        if self._httpd is None:
            return ()
        with self._httpd.log_lock:
            return tuple(self._httpd.request_log)
