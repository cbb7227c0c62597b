"""The fetcher's HTTP transport: httpcore's connection pool under an overall deadline.

httpx's timeouts bound each network read. A server that sends one byte a second keeps every
read short, so a response — its headers too, which httpx reads in one piece — can go on for
as long as the server likes. Here every connect, TLS handshake, write and read of the pool
waits at most until the ``Deadline`` the fetcher set for the exchange in progress; once it
has passed, the next one fails with a timeout at once. It is the network backend seam that
httpcore documents (``NetworkBackend``), under httpx's ``BaseTransport``; nothing of
either library's internals is used.
"""

from __future__ import annotations

import contextlib
import ssl
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any

import httpcore
import httpx

__all__ = ["Deadline", "DeadlineTransport"]

# httpcore's errors as httpx's, most specific first (what httpx's own transport does).
_ERRORS: tuple[tuple[type[Exception], type[httpx.TransportError]], ...] = (
    (httpcore.ConnectTimeout, httpx.ConnectTimeout),
    (httpcore.ReadTimeout, httpx.ReadTimeout),
    (httpcore.WriteTimeout, httpx.WriteTimeout),
    (httpcore.PoolTimeout, httpx.PoolTimeout),
    (httpcore.TimeoutException, httpx.TimeoutException),
    (httpcore.ConnectError, httpx.ConnectError),
    (httpcore.ReadError, httpx.ReadError),
    (httpcore.WriteError, httpx.WriteError),
    (httpcore.NetworkError, httpx.NetworkError),
    (httpcore.RemoteProtocolError, httpx.RemoteProtocolError),
    (httpcore.LocalProtocolError, httpx.LocalProtocolError),
    (httpcore.ProtocolError, httpx.ProtocolError),
    (httpcore.UnsupportedProtocol, httpx.UnsupportedProtocol),
    (httpcore.ProxyError, httpx.ProxyError),
)


class Deadline:
    """When the exchange in progress must be over: ``clock()`` seconds, or None for never.

    One object is shared by the fetcher (which sets it around each exchange and checks it
    between body chunks) and the transport (which bounds every socket wait by it). The
    fetcher may run exchanges on several threads at once (``CrawlConfig.concurrency``), and
    each exchange runs wholly on the thread that started it (httpx's sync client), so the
    deadline is kept per thread: one exchange's deadline never cuts another's.

    Within ``budget(seconds)`` the exchanges started on the thread share ``seconds``
    between them: a page's redirect hops and the robots.txt files they ask for, each of
    which had its own whole deadline (six slow hops to six hosts took 49.5 s under a 5 s
    deadline; docs/FAULTS.md). The time between exchanges (the politeness waits) is not
    counted: a page's deadline is the time its server takes, not the crawl's own delays.
    """

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._local = threading.local()

    @property
    def expires_at(self) -> float | None:
        value: float | None = getattr(self._local, "expires_at", None)
        return value

    @property
    def seconds(self) -> float:
        value: float = getattr(self._local, "seconds", 0.0)
        return value

    @contextlib.contextmanager
    def running(self, seconds: float) -> Iterator[None]:
        """Within the block, the deadline is ``seconds`` from now (on this thread), or what is
        left of the ``budget`` the block runs in, if that is less."""
        started = self._clock()
        left: float | None = getattr(self._local, "left", None)
        allowed = seconds if left is None else max(0.0, min(seconds, left))
        self._local.seconds, self._local.expires_at = seconds, started + allowed
        try:
            yield
        finally:
            self._local.expires_at = None
            if left is not None:
                self._local.left = max(0.0, left - (self._clock() - started))

    @contextlib.contextmanager
    def budget(self, seconds: float) -> Iterator[None]:
        """Within the block, the exchanges started on this thread have ``seconds`` in all
        (class docstring). Not nested: an inner budget replaces the outer one until it ends."""
        outer = getattr(self._local, "left", None)
        self._local.left = seconds
        try:
            yield
        finally:
            self._local.left = outer

    def expired(self) -> bool:
        return self.expires_at is not None and self._clock() >= self.expires_at

    def bound(self, timeout: float | None, error: type[Exception]) -> float | None:
        """``timeout`` cut to what is left of the deadline; raises ``error`` once it passed."""
        if self.expires_at is None:
            return timeout
        left = self.expires_at - self._clock()
        if left <= 0:
            raise error(f"the {self.seconds:g} s deadline passed")
        return left if timeout is None else min(timeout, left)


class _DeadlineStream(httpcore.NetworkStream):
    def __init__(self, stream: httpcore.NetworkStream, deadline: Deadline) -> None:
        self._stream = stream
        self._deadline = deadline

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        return self._stream.read(max_bytes, self._deadline.bound(timeout, httpcore.ReadTimeout))

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, self._deadline.bound(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self,
        ssl_context: ssl.SSLContext,
        server_hostname: str | None = None,
        timeout: float | None = None,
    ) -> httpcore.NetworkStream:
        bounded = self._deadline.bound(timeout, httpcore.ConnectTimeout)
        return _DeadlineStream(
            self._stream.start_tls(ssl_context, server_hostname, bounded), self._deadline
        )

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


class _DeadlineBackend(httpcore.NetworkBackend):
    def __init__(self, deadline: Deadline) -> None:
        self._backend = httpcore.SyncBackend()
        self._deadline = deadline

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        bounded = self._deadline.bound(timeout, httpcore.ConnectTimeout)
        stream = self._backend.connect_tcp(host, port, bounded, local_address, socket_options)
        return _DeadlineStream(stream, self._deadline)

    def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[Any] | None = None
    ) -> httpcore.NetworkStream:
        raise httpcore.UnsupportedProtocol("the fetcher connects over TCP only")

    def sleep(self, seconds: float) -> None:
        self._backend.sleep(seconds)


@contextlib.contextmanager
def _httpx_errors() -> Iterator[None]:
    try:
        yield
    except Exception as exc:
        for core, mapped in _ERRORS:
            if isinstance(exc, core):
                raise mapped(str(exc)) from exc
        raise


class _Body(httpx.SyncByteStream):
    def __init__(self, response: httpcore.Response) -> None:
        self._response = response

    def __iter__(self) -> Iterator[bytes]:
        with _httpx_errors():
            yield from self._response.iter_stream()

    def close(self) -> None:
        with _httpx_errors():
            self._response.close()


class DeadlineTransport(httpx.BaseTransport):
    """HTTP/1.1 over a connection pool whose every socket wait ends by ``deadline``.

    TLS certificates are verified (the system's or certifi's roots, no environment
    overrides); proxies are never used: they would bypass the fetcher's address check.
    """

    def __init__(self, deadline: Deadline) -> None:
        self._pool = httpcore.ConnectionPool(
            ssl_context=httpx.create_ssl_context(trust_env=False),
            max_connections=100,
            max_keepalive_connections=20,
            keepalive_expiry=5.0,
            network_backend=_DeadlineBackend(deadline),
        )

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if not isinstance(request.stream, httpx.SyncByteStream):
            raise TypeError("DeadlineTransport sends synchronous requests only")
        core_request = httpcore.Request(
            method=request.method,
            url=httpcore.URL(
                scheme=request.url.raw_scheme,
                host=request.url.raw_host,
                port=request.url.port,
                target=request.url.raw_path,
            ),
            headers=request.headers.raw,
            content=request.stream,
            extensions=request.extensions,
        )
        with _httpx_errors():
            response = self._pool.handle_request(core_request)
        return httpx.Response(
            status_code=response.status,
            headers=response.headers,
            stream=_Body(response),
            extensions=response.extensions,
        )

    def close(self) -> None:
        self._pool.close()
