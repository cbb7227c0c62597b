"""Serve a :class:`DemoSite` over real HTTP on 127.0.0.1, with name-based virtual hosting.

Every ``*.localhost`` name is loopback (RFC 6761, section 6.3), so a browser or the crawler's
fetcher reaches ``http://www.uni.localhost:PORT/`` on this server; the ``Host`` header picks
the site's host. The server binds 127.0.0.1 only and never makes a request of its own.
"""

from __future__ import annotations

import logging
import socketserver
import threading
from collections import deque
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

from .scenarios import build_site
from .site import TEXT_TYPE, DemoResponse, DemoSite

__all__ = ["DemoServer", "RequestRecord", "shared_demo", "start_demo"]

logger = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
REQUEST_LOG_SIZE = 10_000
# How often serve_forever checks for shutdown; small so stop() returns at once.
POLL_SECONDS = 0.05


@dataclass(frozen=True, slots=True)
class RequestRecord:
    """One request the server answered: Host header, request target and status code."""

    host: str
    target: str
    status: int


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def __init__(self, port: int, site: DemoSite) -> None:
        self.site = site
        self.log_lock = threading.Lock()
        self.request_log: deque[RequestRecord] = deque(maxlen=REQUEST_LOG_SIZE)
        self.request_total = 0
        super().__init__((LOOPBACK, port), _DemoHandler)

    def server_bind(self) -> None:
        # HTTPServer.server_bind calls socket.getfqdn(), a reverse DNS lookup we do not need.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = LOOPBACK, self.server_address[1]

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


class DemoServer:
    """A demo site on 127.0.0.1 in a daemon thread. ``port=0`` takes a free port.

    Use as a context manager, or call :meth:`start` and :meth:`stop`.
    """

    def __init__(self, site: DemoSite, port: int = 0) -> None:
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(f"port must be an integer from 0 to 65535, got {port!r}")
        self.site = site
        self._requested_port = port
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> DemoServer:
        """Bind and serve in the background; a second call does nothing. Returns ``self``."""
        if self._httpd is not None:
            return self
        self._httpd = _HTTPServer(self._requested_port, self.site)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": POLL_SECONDS},
            name=f"demo-{self.site.name}-{self.port}", daemon=True)
        self._thread.start()
        logger.info("demo %s serving at %s", self.site.name, self.seed_url)
        return self

    def stop(self) -> None:
        """Stop serving and release the port; a server that is not running is left alone."""
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join()
        self._httpd, self._thread = None, None

    def __enter__(self) -> DemoServer:
        return self.start()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 traceback: TracebackType | None) -> None:
        self.stop()

    @property
    def running(self) -> bool:
        return self._httpd is not None

    @property
    def port(self) -> int:
        if self._httpd is None:
            raise RuntimeError("the demo server is not running; call start() first")
        return int(self._httpd.server_address[1])

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
            server = start_demo(name)
            _shared[name] = server
        return server
