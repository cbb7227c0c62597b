"""Serve a folder of files over HTTP on 127.0.0.1 (for crawling a saved or hand-made site).

A thin wrapper around the standard library's ``SimpleHTTPRequestHandler``: background thread,
quiet logging through :mod:`logging`, UTF-8 content types for text, and the same
start/stop/context-manager API as the demo server.
"""

from __future__ import annotations

import functools
import logging
import socketserver
import threading
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from types import TracebackType

__all__ = ["StaticServer", "serve_forever_cli"]

logger = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
POLL_SECONDS = 0.05
# mimetypes leaves the charset out; saved pages are UTF-8 far more often than not.
_TEXT_TYPES = {
    ".html": "text/html; charset=utf-8",
    ".htm": "text/html; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".json": "application/json",
    ".xml": "application/xml",
    ".md": "text/markdown; charset=utf-8",
}


class _QuietHandler(SimpleHTTPRequestHandler):
    extensions_map = {**SimpleHTTPRequestHandler.extensions_map, **_TEXT_TYPES}
    disable_nagle_algorithm = True  # see pagesift_ui.demo.server: avoids 40 ms stalls

    def log_message(self, format: str, *args: object) -> None:
        logger.debug("%s %s", self.address_string(), format % args)


class _HTTPServer(ThreadingHTTPServer):
    daemon_threads = True

    def server_bind(self) -> None:
        # Skip HTTPServer's socket.getfqdn() reverse lookup.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = LOOPBACK, self.server_address[1]


class StaticServer:
    """Serve ``folder`` at ``http://127.0.0.1:PORT/`` from a daemon thread (``port=0``: free)."""

    def __init__(self, folder: str | Path, port: int = 0) -> None:
        root = Path(folder)
        if not root.is_dir():
            raise ValueError(f"cannot serve {str(folder)!r}: it is not an existing folder")
        if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
            raise ValueError(f"port must be an integer from 0 to 65535, got {port!r}")
        self.folder = root.resolve()
        self._requested_port = port
        self._httpd: _HTTPServer | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> StaticServer:
        """Bind and serve in the background; a second call does nothing. Returns ``self``."""
        if self._httpd is not None:
            return self
        handler = functools.partial(_QuietHandler, directory=str(self.folder))
        self._httpd = _HTTPServer((LOOPBACK, self._requested_port), handler)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": POLL_SECONDS},
            name=f"static-{self.port}", daemon=True)
        self._thread.start()
        logger.info("serving %s at %s/", self.folder, self.base_url())
        return self

    def stop(self) -> None:
        if self._httpd is None:
            return
        self._httpd.shutdown()
        self._httpd.server_close()
        if self._thread is not None:
            self._thread.join()
        self._httpd, self._thread = None, None

    def __enter__(self) -> StaticServer:
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
            raise RuntimeError("the static server is not running; call start() first")
        return int(self._httpd.server_address[1])

    def base_url(self, host: str = LOOPBACK) -> str:
        """``http://HOST:PORT``; ``host`` may be any loopback name, e.g. ``site.localhost``."""
        return f"http://{host}:{self.port}"


def serve_forever_cli(folder: str | Path, port: int = 8000, *,
                      announce: Callable[[str], None] | None = None) -> None:
    """Serve ``folder`` until Ctrl+C. ``announce`` receives the URL (the CLI prints it).

    Raises ValueError for a missing folder or a bad port, OSError if the port is taken.
    """
    server = StaticServer(folder, port).start()
    url = server.base_url() + "/"
    if announce is not None:
        announce(url)
    try:
        stop = threading.Event()
        stop.wait()
    except KeyboardInterrupt:
        logger.info("stopping the server at %s", url)
    finally:
        server.stop()
