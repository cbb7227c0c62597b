"""A threaded HTTP server bound to 127.0.0.1, run in a daemon thread (demo web, static folders).

Both servers the project runs share this: bind on loopback only, skip the reverse DNS lookup,
serve from a background thread, stop promptly, and the same start/stop/context-manager API.
"""

from __future__ import annotations

import logging
import socketserver
import threading
from http.server import ThreadingHTTPServer
from types import TracebackType
from typing import Self

__all__ = ["LOOPBACK", "POLL_SECONDS", "BackgroundServer", "LoopbackHTTPServer", "check_port"]

logger = logging.getLogger(__name__)

LOOPBACK = "127.0.0.1"
# How often serve_forever checks for shutdown; small so stop() returns at once.
POLL_SECONDS = 0.05


def check_port(port: object) -> int:
    """A TCP port from 0 (any free one) to 65535, or ValueError."""
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"port must be an integer from 0 to 65535, got {port!r}")
    return port


class LoopbackHTTPServer(ThreadingHTTPServer):
    """``ThreadingHTTPServer`` on 127.0.0.1 with daemon request threads."""

    daemon_threads = True

    def server_bind(self) -> None:
        # HTTPServer.server_bind calls socket.getfqdn(), a reverse DNS lookup we do not need.
        socketserver.TCPServer.server_bind(self)
        self.server_name, self.server_port = LOOPBACK, self.server_address[1]


class BackgroundServer:
    """Owns one ``LoopbackHTTPServer`` and the daemon thread serving it.

    Subclasses say how to build the server (``_make_server``) and name the thread.
    """

    _what = "server"

    def __init__(self, port: int = 0) -> None:
        self._requested_port = check_port(port)
        self._httpd: LoopbackHTTPServer | None = None
        self._thread: threading.Thread | None = None

    def _make_server(self, port: int) -> LoopbackHTTPServer:
        raise NotImplementedError

    def _thread_name(self) -> str:
        return f"{self._what}-{self.port}"

    def start(self) -> Self:
        """Bind and serve in the background; a second call does nothing. Returns ``self``."""
        if self._httpd is not None:
            return self
        self._httpd = self._make_server(self._requested_port)
        self._thread = threading.Thread(
            target=self._httpd.serve_forever, kwargs={"poll_interval": POLL_SECONDS},
            name=self._thread_name(), daemon=True)
        self._thread.start()
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

    def __enter__(self) -> Self:
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
            raise RuntimeError(f"the {self._what} is not running; call start() first")
        return int(self._httpd.server_address[1])
