"""A loopback HTTP server that misbehaves on purpose: one fault per path or virtual host.

It binds 127.0.0.1 only, every loop it runs is bounded (a drip sends at most ``bytes``
bytes, a silent answer waits at most 30 s, a stream stops at its size), each wait ends as soon
as the server stops, and the server stops by itself after ``lifetime_s`` even if a test
forgets to. Requests are logged as ``(host name, path with query)``.

Pages (``?`` parameters are optional)::

    /ok                          a small HTML page about refunds
    /seed?next=P&next=Q          a page linking to P, Q and /ok (the start of a crawl test)
    /redirect?to=URL&status=302  a redirect to any URL
    /loop/a, /loop/b             a redirect loop; /chain/N redirects N times, then /ok
    /drip/body?bytes=N           headers at once, then the body one byte a second
    /drip/headers?bytes=N        the status line and headers one byte a second
    /silent?s=N                  accepts the request and says nothing for N s
    /big/stream?mb=50            50 MB of HTML, no Content-Length
    /big/announced?mb=50         Content-Length: 50 MB, then nothing
    /bomb/CODINGS?mb=1024        1 GiB of zeros in the given Content-Encoding layers
                                 ("gzip", "gzip,gzip", "deflate,gzip", ...; first applied
                                 first, as the header lists them)
    /coding/br, /corrupt/gzip    an unknown content coding; gzip that is not gzip
    /charset/header/LABEL        Content-Type: text/html; charset=LABEL
    /charset/meta/LABEL          <meta charset="LABEL"> and no charset in the header
    /status/CODE?retry=V         status CODE with Retry-After: V (V="date:S" sends an HTTP
                                 date S seconds after the Date header)
    /links?n=150000              one page with n links
    /truncated                   Content-Length: 10000, 100 bytes, then the connection closes
    /garbage, /reset             an answer that is not HTTP; a connection closed unanswered

robots.txt depends on the first label of the host name: ``delay.*`` (Crawl-delay: 1000),
``hugedelay.*`` (Crawl-delay: 1e10), ``rules.*`` (14,000 wildcard rules), ``robotsbomb.*``
(a gzip,gzip bomb), ``robotsdrip.*`` (one byte a second), ``busy.*`` (429 with
Retry-After: 3600); any other host gets ``Disallow: /private/``.
"""

from __future__ import annotations

import functools
import html
import logging
import struct
import threading
import time
import zlib
from email.utils import formatdate
from http.server import BaseHTTPRequestHandler
from urllib.parse import parse_qs, unquote, urlsplit

from pagesift_ui.net.loopback import LOOPBACK, BackgroundServer, LoopbackHTTPServer

__all__ = ["FaultServer", "FAULT_DOMAIN", "RULES_IN_ROBOTS", "bomb_body"]

logger = logging.getLogger(__name__)

#: The virtual hosts live under this name (RFC 6761: *.localhost is always loopback).
FAULT_DOMAIN = "faults.localhost"
RULES_IN_ROBOTS = 14_000
_MB = 1 << 20
_MAX_SILENCE_S = 30.0
_HTML = "text/html; charset=utf-8"


class _FaultHTTPServer(LoopbackHTTPServer):
    """The server with the request log and the stop signal its handlers read."""

    def __init__(self, port: int) -> None:
        super().__init__((LOOPBACK, port), _Handler)
        self.log: list[tuple[str, str]] = []
        self.log_lock = threading.Lock()
        self.stopping = threading.Event()


class FaultServer(BackgroundServer):
    """The fault server on 127.0.0.1 (see the module docstring for what it serves)."""

    _what = "fault server"

    def __init__(self, port: int = 0, *, lifetime_s: float = 300.0) -> None:
        super().__init__(port)
        self._lifetime_s = lifetime_s
        self._watchdog: threading.Timer | None = None
        self._server: _FaultHTTPServer | None = None
        self._stop_lock = threading.Lock()

    def _make_server(self, port: int) -> LoopbackHTTPServer:
        self._server = _FaultHTTPServer(port)
        self._watchdog = threading.Timer(self._lifetime_s, self.stop)
        self._watchdog.daemon = True
        self._watchdog.start()
        return self._server

    def stop(self) -> None:
        with self._stop_lock:
            if self._server is not None:
                self._server.stopping.set()  # wakes every drip and silence at once
            if self._watchdog is not None and self._watchdog is not threading.current_thread():
                self._watchdog.cancel()
            super().stop()

    def url(self, path: str, host: str | None = None) -> str:
        """``http://HOST:PORT/path``; ``host`` is a label under ``faults.localhost`` or a full
        name (default 127.0.0.1)."""
        if host is None:
            name = LOOPBACK
        elif "." in host:
            name = host
        else:
            name = f"{host}.{FAULT_DOMAIN}"
        return f"http://{name}:{self.port}{path}"

    @property
    def requests(self) -> list[tuple[str, str]]:
        """Every request so far as ``(host name, path with query)``."""
        if self._server is None:
            return []
        with self._server.log_lock:
            return list(self._server.log)

    def paths(self, host: str | None = None) -> list[str]:
        """The paths requested, of one host name (a label as in ``url``) or of all."""
        want = None if host is None else (host if "." in host else f"{host}.{FAULT_DOMAIN}")
        return [path for name, path in self.requests if want is None or name == want]


# -- the bodies ---------------------------------------------------------------------------


def _zeros(coding: str, megabytes: int) -> bytes:
    """``megabytes`` MiB of zero bytes in one content coding, made in a second or so.

    After ``Z_FULL_FLUSH`` the compressor forgets what it saw, so every further MiB of zeros
    compresses to the same bytes: the stream is one block repeated, an empty final block
    and the trailer (gzip: CRC-32 and size, RFC 1952; zlib: Adler-32, RFC 1950).
    """
    wbits = {"gzip": 31, "deflate": 15}[coding]
    compressor = zlib.compressobj(9, zlib.DEFLATED, wbits)
    chunk = bytes(_MB)
    first = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    block = compressor.compress(chunk) + compressor.flush(zlib.Z_FULL_FLUSH)
    check = zlib.crc32(b"") if coding == "gzip" else zlib.adler32(b"")
    for _ in range(megabytes):
        check = zlib.crc32(chunk, check) if coding == "gzip" else zlib.adler32(chunk, check)
    total = megabytes * _MB
    if coding == "gzip":
        trailer = struct.pack("<II", check, total & 0xFFFFFFFF)
    else:
        trailer = struct.pack(">I", check)
    return first + block * (megabytes - 1) + b"\x03\x00" + trailer


def _encode(data: bytes, coding: str) -> bytes:
    if coding == "gzip":
        compressor = zlib.compressobj(9, zlib.DEFLATED, 31)
    elif coding == "deflate":
        compressor = zlib.compressobj(9, zlib.DEFLATED, 15)
    else:
        raise ValueError(f"no such coding {coding!r}")
    return compressor.compress(data) + compressor.flush()


@functools.cache
def bomb_body(codings: tuple[str, ...], megabytes: int = 1024) -> bytes:
    """``megabytes`` MiB of zeros with the codings applied in order (the header's order)."""
    body = _zeros(codings[0], megabytes)
    for coding in codings[1:]:
        body = _encode(body, coding)
    return body


def _page(title: str, body: str) -> bytes:
    return (
        f"<!DOCTYPE html><html><head><title>{html.escape(title)}</title></head>"
        f"<body><h1>{html.escape(title)}</h1>{body}</body></html>"
    ).encode()


_OK_PAGE = _page(
    "Refund policy",
    "<p>Our refund policy: every refund is paid within 14 days of the return.</p>",
)


@functools.cache
def _links_page(n: int) -> bytes:
    links = "".join(f'<a href="/item/{i}">refund item {i}</a> ' for i in range(n))
    return _page("Refund index", f"<p>Every refund policy page.</p>{links}")


@functools.cache
def _many_rules() -> bytes:
    lines = ["User-agent: *", "Disallow: /private/"]
    lines += [f"Disallow: /*{i * 7919 % 1_000_003}*x{i}*y$" for i in range(RULES_IN_ROBOTS)]
    return ("\n".join(lines) + "\n").encode()


# -- the handler --------------------------------------------------------------------------


class _Handler(BaseHTTPRequestHandler):
    server: _FaultHTTPServer
    protocol_version = "HTTP/1.0"  # one request per connection; the body ends at the close

    def log_message(self, format: str, *args: object) -> None:
        logger.debug("fault server: " + format, *args)

    def do_GET(self) -> None:
        host = self.headers.get("Host", "").rsplit(":", 1)[0].lower()
        with self.server.log_lock:
            self.server.log.append((host, self.path))
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        try:
            if parts.path == "/robots.txt":
                self._robots(host.split(".", 1)[0])
            else:
                self._route(unquote(parts.path), query)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the client gave up, as it should

    def _route(self, path: str, query: dict[str, list[str]]) -> None:
        first, _, rest = path.lstrip("/").partition("/")
        one = {key: values[0] for key, values in query.items()}
        if path == "/ok":
            self._send(200, _OK_PAGE)
        elif path == "/seed":
            targets = [*query.get("next", []), "/ok"]
            links = "".join(f'<p><a href="{html.escape(t)}">refund policy {i}</a></p>'
                            for i, t in enumerate(targets))
            self._send(200, _page("Refund help", f"<p>Where refunds are explained.</p>{links}"))
        elif path == "/redirect":
            status = int(one.get("status", "302"))
            self._send(status, b"", (("Location", one["to"]),))
        elif path == "/two-locations":
            self._send(302, b"", (("Location", "/ok"), ("Location", "/seed")))
        elif first == "loop":
            self._send(302, b"", (("Location", "/loop/b" if rest == "a" else "/loop/a"),))
        elif first == "chain":
            left = int(rest or "0")
            self._send(302, b"", (("Location", f"/chain/{left - 1}" if left else "/ok"),))
        elif first == "drip":
            self._drip(rest, int(one.get("bytes", "40")))
        elif path == "/silent":
            self.server.stopping.wait(min(float(one.get("s", "5")), _MAX_SILENCE_S))
        elif first == "big":
            self._big(rest, int(one.get("mb", "50")))
        elif first == "bomb":
            codings = tuple(c.strip() for c in rest.split(","))
            body = bomb_body(codings, int(one.get("mb", "1024")))
            self._send(200, body, (("Content-Encoding", ", ".join(codings)),))
        elif first == "coding":
            self._send(200, b"\x8b\x00garbage\xff" * 10, (("Content-Encoding", rest),))
        elif path == "/corrupt/gzip":
            self._send(200, b"\x1f\x8b\x08\x00not really gzip" * 10,
                       (("Content-Encoding", "gzip"),))
        elif first == "charset":
            self._charset(rest)
        elif first == "status":
            self._status(int(rest), one.get("retry"))
        elif path == "/links":
            self._send(200, _links_page(int(one.get("n", "150000"))))
        else:
            self._raw_fault(path)

    def _raw_fault(self, path: str) -> None:
        if path == "/truncated":
            self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n"
                             b"Content-Length: 10000\r\n\r\n" + b"<p>" + b"x" * 97)
        elif path == "/garbage":
            self.wfile.write(b"THIS IS NOT HTTP\r\n\r\n")
        elif path == "/reset":
            pass  # close without a word
        elif path == "/cookies":  # a head of 3,000 Set-Cookie lines, ~150 KB
            self.wfile.write(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"
                             + b"".join(b"Set-Cookie: c%d=%s\r\n" % (i, b"v" * 40)
                                        for i in range(3000))
                             + b"Content-Length: 7\r\n\r\n<p>x</p>")
        else:
            self._send(404, _page("Not found", "<p>nothing here</p>"))

    def _send(self, status: int, body: bytes, headers: tuple[tuple[str, str], ...] = (),
              content_type: str = _HTML) -> None:
        self.send_response(status)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def _drip(self, what: str, count: int) -> None:
        head = b"HTTP/1.0 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n\r\n"
        if what == "body":
            self.wfile.write(head)
            drip = b"<p>" + b"x" * count
        else:
            drip = head[:count]
        for index in range(len(drip)):
            self.wfile.write(drip[index:index + 1])
            self.wfile.flush()
            if self.server.stopping.wait(1.0):
                return

    def _big(self, how: str, megabytes: int) -> None:
        if how == "announced":
            self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n"
                             + f"Content-Length: {megabytes * _MB}\r\n\r\n".encode())
            return
        self.wfile.write(b"HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n")
        chunk = b"<p>" + b"x" * (64 * 1024 - 3)
        for _ in range(megabytes * 16):
            if self.server.stopping.is_set():
                return
            self.wfile.write(chunk)

    def _charset(self, rest: str) -> None:
        where, _, label = rest.partition("/")
        text = "<p>Caf\u00e9 refund policy: every refund is paid within 14 days.</p>"
        if where == "header":
            self._send(200, _page("Charset", text), content_type=f"text/html; charset={label}")
        else:
            head = f'<!DOCTYPE html><html><head><meta charset="{label}"><title>Charset</title>'
            self._send(200, f"{head}</head><body>{text}</body></html>".encode(),
                       content_type="text/html")

    def _status(self, status: int, retry: str | None) -> None:
        now = time.time()
        headers = [("Date", formatdate(now, usegmt=True))]
        if retry is not None and retry.startswith("date:"):
            headers.append(("Retry-After", formatdate(now + float(retry[5:]), usegmt=True)))
        elif retry is not None:
            headers.append(("Retry-After", retry))
        self._send(status, _page(f"Status {status}", "<p>try again later</p>"), tuple(headers))

    def _robots(self, label: str) -> None:
        plain = "text/plain"
        if label == "delay":
            self._send(200, b"User-agent: *\nCrawl-delay: 1000\n", content_type=plain)
        elif label == "hugedelay":
            self._send(200, b"User-agent: *\nCrawl-delay: 1e10\n", content_type=plain)
        elif label == "rules":
            self._send(200, _many_rules(), content_type=plain)
        elif label == "robotsbomb":
            self._send(200, bomb_body(("gzip", "gzip")), (("Content-Encoding", "gzip, gzip"),),
                       content_type=plain)
        elif label == "robotsdrip":
            self._drip("body", 40)
        elif label == "busy":
            self._status(429, "3600")
        else:
            self._send(200, b"User-agent: *\nDisallow: /private/\n", content_type=plain)
