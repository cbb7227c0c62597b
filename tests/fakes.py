"""In-memory page sources: crawl tests above the fetcher without sockets, threads or sleeps.

``DictSource`` is a ``PageSource`` (``fetch``, ``allowed_by_robots``, ``close``) serving a dict
of pages, keyed by absolute URL. A page is one of

- an HTML ``str`` (200, ``text/html; charset=utf-8``) or ``bytes`` (200, ``text/html``, the
  charset left to sniffing);
- a response ``(status, content_type, body[, headers])`` (a ``Reply``), e.g. ``redirect("/b")``
  (a 3xx with ``Location``, resolved against the URL like the fetcher does). ``body`` is what
  the fetcher hands on (content-decoded); ``headers`` come after ``Content-Type`` and
  ``Content-Length: len(body)``, replacing one of those when they name it;
- a ``FetchError`` instance (a timeout, a refused connection, ...), raised as the fetcher
  raises its errors: naming the URL given to ``fetch`` and failing at that moment.

It answers exactly like ``pagesift_ui.net.fetcher.Fetcher`` would if a server sent those
responses: it shares the fetcher's URL parsing, redirect rules, status and content-type checks,
body cap and charset decoding, so the ``FetchResult`` fields and the error types and messages
are the same (tests/test_fakes.py compares both on the fixture site). What it leaves out is
the network itself: no DNS, no address policy, no politeness wait; ``elapsed_s`` is 0.

robots.txt: by default the rules are read from the page table (``<origin>/robots.txt``, with
the fetcher's RFC 9309 reading: 4xx allows everything, 5xx or an error forbids everything);
``robots=`` overrides that with one robots.txt text for every origin, or a collection of
disallowed URL prefixes (``{"http://a.example/private/"}``).

A URL that is not in the table is answered by ``missing(url)`` if given, else with a 404.
``fixture_source()`` serves the "Northwind Outfitters" fixture site (tests/fixture_site.py)
this way and ``demo_source()`` a demo scenario, both from the same code as their servers.
"""

from __future__ import annotations

import functools
import gzip
import time
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import NamedTuple, TypeAlias
from urllib.parse import urlsplit

import httpx
from protego import Protego

from pagesift_ui.demo import DemoSite
from pagesift_ui.errors import (
    BlockedByRobots,
    BodyTooLarge,
    FetchError,
    FetchTimeout,
    HTTPStatusError,
    UnsupportedContentType,
)
from pagesift_ui.net.exchange import unreachable_error
from pagesift_ui.net.fetcher import (  # its own rules, so the fake cannot drift from it
    _ACCEPT_ENCODING,
    _REDIRECT_STATUSES,
    _ROBOTS_MAX_BYTES,
    _ROBOTS_MAX_REDIRECTS,
    HTML_MEDIA_TYPES,
    FetchPolicy,
    FetchResult,
    _check_redirect,
    _parse_url,
    _robots_url,
    parse_content_type,
)
from pagesift_ui.net.robots import (
    RobotsDownload,
    RobotsRules,
    RobotsState,
    product_token,
    rules_from_response,
)
from pagesift_ui.page.charset import decode_html
from pagesift_ui.session import CrawlConfig
from pagesift_ui.session.crawl import default_source
from tests import fixture_site

__all__ = [
    "FIXTURE_ORIGIN",
    "NOT_FOUND",
    "Answer",
    "DictSource",
    "Reply",
    "default_policy",
    "demo_seed",
    "demo_source",
    "fixture_source",
    "policy_for",
    "redirect",
]

Headers: TypeAlias = tuple[tuple[str, str], ...]


class Reply(NamedTuple):
    """One HTTP response: ``body`` as the fetcher returns it (already content-decoded); a
    ``str`` body is encoded with the charset of ``content_type`` (UTF-8 without one)."""

    status: int
    content_type: str
    body: bytes | str
    headers: Headers = ()


Answer: TypeAlias = (
    "str | bytes | Reply | tuple[int, str, bytes | str] | tuple[int, str, bytes | str, Headers]"
    " | FetchError"
)

NOT_FOUND = Reply(404, "text/html; charset=utf-8", "<!DOCTYPE html><h1>Not found</h1>")

#: Where ``fixture_source()`` puts the fixture site unless told otherwise (no server listens).
FIXTURE_ORIGIN = "http://127.0.0.1:8000"


def redirect(location: str, status: int = 301) -> Reply:
    """A redirect to ``location`` (absolute, or relative to the URL that answers it)."""
    return Reply(status, "text/html", b"", (("Location", location),))


def policy_for(config: CrawlConfig) -> FetchPolicy:
    """The fetch policy ``CrawlSession(config)`` would give its live ``Fetcher``."""
    fetcher = default_source(config)
    fetcher.close()  # only its policy is wanted; it never opened a connection
    return fetcher.policy


@functools.cache
def default_policy() -> FetchPolicy:
    """The policy of a crawl with every fetch setting at ``CrawlConfig``'s default."""
    return policy_for(CrawlConfig(seed_url="http://fake.example/", query="default settings"))


class DictSource:
    """A ``PageSource`` answering from ``pages`` (see the module docstring).

    ``pages`` is copied with its URLs normalised as requests (``http://h`` is ``http://h/``,
    the host in lower case, no fragment) and stays editable. ``fetched`` lists every URL given to
    ``fetch`` and ``requested`` every URL answered (each redirect hop and robots.txt), in
    order. ``now`` gives ``fetched_at`` (Unix time).
    """

    def __init__(
        self,
        pages: Mapping[str, Answer] | None = None,
        *,
        robots: str | Collection[str] | None = None,
        missing: Callable[[str], Answer] | None = None,
        policy: FetchPolicy | None = None,
        now: Callable[[], float] = time.time,
    ) -> None:
        self.policy = policy if policy is not None else default_policy()
        self.pages: dict[str, Answer] = {
            _normal(url): answer for url, answer in (pages or {}).items()
        }
        self.fetched: list[str] = []
        self.requested: list[str] = []
        self.prefetched: list[tuple[str, ...]] = []
        self.closed = False
        self._missing = missing
        self._now = now
        self._token = product_token(self.policy.user_agent)
        self._robots_text = robots if isinstance(robots, str) else None
        self._disallowed = None if robots is None or isinstance(robots, str) else tuple(robots)
        self._robots: dict[str, RobotsRules] = {}

    def __enter__(self) -> DictSource:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    def close(self) -> None:
        self.closed = True

    def prefetch(self, urls: Sequence[str]) -> None:
        """Answers are made when fetched; the hints are kept for tests to read."""
        self.prefetched.append(tuple(urls))

    def fetch(self, url: str) -> FetchResult:
        """The page at ``url`` after redirects, or the ``FetchError`` the fetcher would raise."""
        if self.closed:  # what the fetcher's closed httpx client says
            raise RuntimeError("Cannot send a request, as the client has been closed.")
        self.fetched.append(url)
        current = _parse_url(url, url)
        visited = [str(current)]
        while True:
            if self.policy.respect_robots and not self._allows(current):
                raise self._robots_refusal(url, current)
            reply = self._answer(current)
            if isinstance(reply, FetchError):
                raise self._raised(reply, url)
            outcome = self._read_page(url, current, reply)
            if not isinstance(outcome, httpx.URL):
                break
            _check_redirect(url, visited, outcome, self.policy.max_redirects)
            visited.append(str(outcome))
            current = outcome
        status, media_type, charset, body, headers = outcome
        encoding, _ = decode_html(body, charset)
        return FetchResult(
            url=url,
            final_url=str(current),
            status=status,
            content_type=media_type,
            encoding=encoding,
            body=body,
            redirects=tuple(visited[:-1]),
            elapsed_s=0.0,
            fetched_at=self._now(),
            headers=headers,
        )

    def allowed_by_robots(self, url: str) -> bool:
        if not self.policy.respect_robots:
            return True
        return self._allows(_parse_url(url, url))

    # -- answering ------------------------------------------------------------------------

    def _raised(self, error: FetchError, url: str) -> FetchError:
        """A copy of ``error`` naming the URL asked for and failing now, as the fetcher's do."""
        clone = type(error).__new__(type(error))
        clone.__dict__.update(error.__dict__)
        clone.args = error.args
        clone.url, clone.at = url, self._now()
        return clone

    def _answer(self, url: httpx.URL) -> tuple[int, Headers, bytes] | FetchError:
        """(status, headers as sent, decoded body) for one request, or the error to raise."""
        key = _request_key(url)
        self.requested.append(key)
        answer = self.pages.get(key)
        if answer is None:
            answer = self._missing(key) if self._missing is not None else NOT_FOUND
        if isinstance(answer, FetchError):
            return answer
        reply = _as_reply(answer)
        body = _encoded(reply.body, reply.content_type)
        sent = [("Content-Length", str(len(body)))]
        if reply.content_type:
            sent.insert(0, ("Content-Type", reply.content_type))
        for name, value in reply.headers:
            same = [i for i, (known, _) in enumerate(sent) if known.lower() == name.lower()]
            if same:
                sent[same[0]] = (name, value)
            else:
                sent.append((name, value))
        return reply.status, tuple(sent), body

    def _read_page(
        self, url: str, current: httpx.URL, reply: tuple[int, Headers, bytes]
    ) -> tuple[int, str, str | None, bytes, Headers] | httpx.URL:
        """Fetcher._read_page and _read_capped over a reply instead of a response."""
        status, headers, body = reply
        location = _header(headers, "location")
        if status in _REDIRECT_STATUSES and location:
            return _parse_url(location, url, base=current)
        if status >= 400:
            reason = httpx.codes.get_reason_phrase(status)
            raise HTTPStatusError(url, f"{current} answered {status} {reason}".rstrip(), status)
        media_type, charset = parse_content_type(_header(headers, "content-type"))
        if media_type not in HTML_MEDIA_TYPES:
            raise UnsupportedContentType(
                url,
                f"{current} is {media_type}, not HTML; skipped without downloading it",
                media_type,
            )
        limit = self.policy.max_body_bytes
        declared = _header(headers, "content-length") or ""
        encoded = _header(headers, "content-encoding") is not None
        if not encoded and declared.isdigit() and int(declared) > limit:
            raise BodyTooLarge(
                url, f"{current} announces {int(declared):,} bytes, over the {limit:,}-byte limit"
            )
        if len(body) > limit:
            raise BodyTooLarge(
                url, f"{current} passed the {limit:,}-byte limit while downloading; stopped"
            )
        return status, media_type, charset, body, headers

    # -- robots.txt -----------------------------------------------------------------------

    def _allows(self, url: httpx.URL) -> bool:
        if self._disallowed is not None:
            return not _request_key(url).startswith(self._disallowed)
        return self._rules(url).allows(str(url), self._token)

    def _rules(self, url: httpx.URL) -> RobotsRules:
        robots_url = _robots_url(url)
        rules = self._robots.get(robots_url)
        if rules is None:
            if self._robots_text is not None:
                rules = RobotsRules(RobotsState.PARSED, Protego.parse(self._robots_text))
            else:
                rules = rules_from_response(*self._load_robots(robots_url))
            self._robots[robots_url] = rules
        return rules

    def _robots_refusal(self, url: str, current: httpx.URL) -> FetchError:
        """The fetcher's error for a URL robots.txt keeps us from: disallowed by its rules,
        or its robots.txt unreachable (in the same words, of the same kind)."""
        robots_url = _robots_url(current)
        if self._disallowed is None:
            rules = self._rules(current)
            if rules.state is RobotsState.UNREACHABLE:
                return unreachable_error(url, current, robots_url, rules)
        return BlockedByRobots(url, f"{current} is disallowed by {robots_url} for {self._token}")

    def _load_robots(self, robots_url: str) -> RobotsDownload:
        """Fetcher._load_robots: (final status, first 500 KiB), or no status and why."""
        current = httpx.URL(robots_url)
        status: int | None = None
        try:
            for _ in range(_ROBOTS_MAX_REDIRECTS + 1):
                reply = self._answer(current)
                if isinstance(reply, FetchError):
                    return RobotsDownload(None, b"", reply)
                status, headers, body = reply
                location = _header(headers, "location")
                if status not in _REDIRECT_STATUSES or not location:
                    return RobotsDownload(status, body[:_ROBOTS_MAX_BYTES])
                current = _parse_url(location, robots_url, base=current)
        except FetchError as exc:
            return RobotsDownload(None, b"", exc)
        return RobotsDownload(status, b"")


def fixture_source(
    origin: str = FIXTURE_ORIGIN,
    *,
    policy: FetchPolicy | None = None,
    slow_seconds: float = 2.0,
    now: Callable[[], float] = time.time,
) -> DictSource:
    """The fixture site of tests/fixture_site.py at ``origin``, from the server's own code.

    ``pages`` holds every fixed path of ``origin``; the rest (the calendar, 404s, other host
    names such as the ``www.fix.localhost`` virtual host) is routed on request. /slow times
    out when ``slow_seconds`` reaches the policy's read timeout, as on the real server.
    """
    policy = policy if policy is not None else default_policy()
    base = origin.rstrip("/")

    def serve(url: str) -> Answer:
        split = urlsplit(url)
        if split.path == fixture_site.SLOW_PATH:
            if slow_seconds >= policy.read_timeout_s:
                return FetchTimeout(
                    url, f"{url} timed out after {policy.read_timeout_s} s reading the response"
                )
            response = fixture_site.slow_page()
        else:
            response = fixture_site.route(split.path, split.query, split.netloc)
        compress = fixture_site.compresses(split.path, _ACCEPT_ENCODING)
        sent = len(gzip.compress(response.body)) if compress else len(response.body)
        headers = fixture_site.wire_headers(response, sent, compress=compress)
        return Reply(response.status, response.content_type, response.body, headers)

    pages = {base + path: serve(base + path) for path in fixture_site.STATIC_PATHS}
    return DictSource(pages, missing=serve, policy=policy, now=now)


def demo_source(site: DemoSite, *, policy: FetchPolicy | None = None) -> DictSource:
    """Demo scenario ``site`` answered as ``DemoServer`` answers (``site.respond`` per URL,
    the URL's host[:port] as the Host header); start at ``demo_seed(site)``."""

    def serve(url: str) -> Answer:
        split = urlsplit(url)
        target = split.path + (f"?{split.query}" if split.query else "")
        response = site.respond(split.netloc, target)
        return Reply(response.status, response.content_type, response.body, response.headers)

    return DictSource(missing=serve, policy=policy)


def demo_seed(site: DemoSite) -> str:
    """The seed URL of ``site``: ``DemoServer.seed_url`` without the port."""
    return f"http://{site.seed_host}{site.seed_path}"


def _normal(url: str) -> str:
    return _request_key(_parse_url(url, url))


def _request_key(url: httpx.URL) -> str:
    """The URL as a server sees the request: ``http://h`` asks for ``http://h/``."""
    return f"{url.scheme}://{url.netloc.decode('ascii')}{url.raw_path.decode('ascii')}"


def _as_reply(answer: str | bytes | Reply | tuple[object, ...] | object) -> Reply:
    if isinstance(answer, str):
        return Reply(200, "text/html; charset=utf-8", answer)
    if isinstance(answer, bytes):
        return Reply(200, "text/html", answer)
    if isinstance(answer, tuple):
        return Reply(*answer)
    raise TypeError(f"a page must be str, bytes, a response tuple or a FetchError: {answer!r}")


def _encoded(body: bytes | str, content_type: str) -> bytes:
    if isinstance(body, bytes):
        return body
    _, charset = parse_content_type(content_type)
    return body.encode(charset or "utf-8")


def _header(headers: Headers, name: str) -> str | None:
    """httpx's ``Headers.get``: every value of ``name``, joined with ", "; None if absent."""
    values = [value for known, value in headers if known.lower() == name.lower()]
    return ", ".join(values) if values else None
