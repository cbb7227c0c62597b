"""Serve a folder of files over HTTP on 127.0.0.1 (for crawling a saved or hand-made site).

A thin wrapper around the standard library's ``SimpleHTTPRequestHandler``: background thread,
quiet logging through :mod:`logging`, UTF-8 content types for text, and the same
start/stop/context-manager API as the demo server.
"""

from __future__ import annotations

import functools
import logging
import threading
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

from pagesift_ui.net.loopback import LOOPBACK, BackgroundServer, LoopbackHTTPServer

__all__ = ["StaticServer", "serve_forever_cli"]

logger = logging.getLogger(__name__)

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
    disable_nagle_algorithm = True  # see pagesift_ui.demo.kit.server: avoids 40 ms stalls

    def log_message(self, format: str, *args: object) -> None:
        logger.debug("%s %s", self.address_string(), format % args)


class StaticServer(BackgroundServer):
    """Serve ``folder`` at ``http://127.0.0.1:PORT/`` from a daemon thread (``port=0``: free)."""

    _what = "static server"

    def __init__(self, folder: str | Path, port: int = 0) -> None:
        root = Path(folder)
        if not root.is_dir():
            raise ValueError(f"cannot serve {str(folder)!r}: it is not an existing folder")
        super().__init__(port)
        self.folder = root.resolve()

    def _make_server(self, port: int) -> LoopbackHTTPServer:
        handler = functools.partial(_QuietHandler, directory=str(self.folder))
        server = LoopbackHTTPServer((LOOPBACK, port), handler)
        logger.info("serving %s at http://%s:%d/", self.folder, LOOPBACK, server.server_port)
        return server

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
