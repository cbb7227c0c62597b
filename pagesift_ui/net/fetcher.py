"""Fetch one page politely and safely: the only module that speaks HTTP (httpx).

For every hop of a redirect chain the fetcher

1. checks the URL against the crawl's scope (``in_scope``; redirects are not followed out of
   it), then resolves the host itself and checks the address against the network policy
   (``netpolicy``: loopback and private addresses only at the seed's own origin, unless
   ``allow_private``); ``localhost`` and ``*.localhost`` are loopback without DNS (RFC 6761
   §6.3);
2. checks robots.txt for that origin (``robots``, RFC 9309);
3. waits out the per-host delay: the configured delay (0 on loopback), ``Crawl-delay`` and
   any ``Retry-After`` a 429/503 asked for, each server-asked wait cut to its cap
   (``politeness``);
4. sends GET to the checked IP with the original ``Host`` header (and TLS SNI name), so
   name-based virtual hosts work and DNS cannot change between check and connect;
5. reads the answer under an overall deadline (``transport``) and undoes its content
   codings in bounded memory (``decoding``), up to the body limit.

Redirects are therefore followed here, never by httpx (``follow_redirects=False``).

Fetches in flight (docs/DESIGN.md §11.14): ``prefetch`` starts the pages a session will ask
for next on a pool of ``FetchPolicy.concurrency`` threads, and ``fetch`` then hands over the
answer. Everything the fetches share is safe for that: httpx's client and its connection
pool, the robots cache (one download per robots.txt), the politeness state, the deadline and
the politeness notes (per thread). Each request to a host waits for its turn
(``Politeness.turn``), so a host never sees two requests at once and its delays are exactly
those of one fetch at a time.
"""

from __future__ import annotations

import contextlib
import dataclasses
import http.cookiejar
import logging
import re
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from types import TracebackType
from urllib.parse import urljoin

import httpx

from pagesift_ui.errors import (
    BlockedByPolicy,
    BlockedByRobots,
    BodyTooLarge,
    FetchError,
    HTTPStatusError,
    OutOfScope,
    TooManyRedirects,
    UnsupportedContentType,
)
from pagesift_ui.net.decoding import ContentDecoder, DecodingError
from pagesift_ui.net.exchange import deadline_error, exchange, unreachable_error
from pagesift_ui.net.policy import (
    DEFAULT_USER_AGENT,
    AddressKind,
    CheckedAddress,
    FetchPolicy,
    Origin,
    Resolver,
    check_host,
    home_addresses,
    system_resolver,
)
from pagesift_ui.net.politeness import CappedWait, Politeness, retry_after_s
from pagesift_ui.net.rendered import RenderReport
from pagesift_ui.net.robots import RobotsCache, RobotsDownload, RobotsState, product_token
from pagesift_ui.net.sitemaps import (
    GZIP_MAGIC,
    SitemapFound,
    SitemapHarvest,
    SitemapLimits,
    gunzip_capped,
    harvest_sitemaps,
)
from pagesift_ui.net.transport import Deadline, DeadlineTransport
from pagesift_ui.page.charset import decode_html

__all__ = [
    "DEFAULT_USER_AGENT",
    "SITEMAP_MEDIA_TYPES",
    "FetchPolicy",
    "FetchResult",
    "Fetcher",
    "parse_content_type",
]

logger = logging.getLogger(__name__)

HTML_MEDIA_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
# RFC 9110 §10.2.3 / RFC 6585 §4: the statuses whose Retry-After asks us to slow down.
_RETRY_STATUSES = frozenset({429, 503})
# The start of a policy refusal's words that names the URL refused (net/policy.py): what
# follows is the rule, the same for every URL of the origin.
_NOT_FETCHED = re.compile(r"^\S+ was not fetched: ")
_ROBOTS_MAX_REDIRECTS = 5  # RFC 9309 §2.3.1.2: follow at least five consecutive redirects
_ROBOTS_MAX_BYTES = 512_000  # RFC 9309 §2.5: parse at least the first 500 KiB
# Only codings net.decoding undoes in bounded memory (brotli and zstd would need their own).
_ACCEPT_ENCODING = "gzip, deflate"
_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"
#: What sitemaps come as: XML, or a .xml.gz file as gzip (servers often call that
#: octet-stream, and some serve XML as text/plain); page/sitemap.py decides what it is.
SITEMAP_MEDIA_TYPES = frozenset({
    "application/xml", "text/xml", "application/gzip", "application/x-gzip",
    "application/octet-stream", "text/plain",
})
_SITEMAP_ACCEPT = "application/xml,text/xml;q=0.9,application/gzip;q=0.8,*/*;q=0.1"


@dataclass(frozen=True, slots=True)
class FetchResult:
    """One fetched HTML page.

    ``redirects`` lists every URL that answered with a redirect, in order, so
    ``redirects + (final_url,)`` is the whole path. ``body`` is the content-decoded body
    (gzip removed) while ``headers`` are exactly as received, so they may still say
    ``Content-Encoding: gzip``. ``encoding`` is the Python codec ``decode_html`` chose for
    the body, and ``text`` the body decoded with it, on demand: the body is kept once, as
    bytes (issue 15: a kept decoded copy took twice the body's memory, a str of a page with
    one non-Latin-1 character being 2 bytes a character).
    ``politeness_note`` says which server-asked wait was cut to its cap while fetching it
    ("" when none); it describes the run, so recordings do not keep it. ``render`` is set
    when ``body`` is the page as the headless browser left it (``net/render.py``); it too
    describes the run, so recordings keep the rendered body but not the report.
    """

    url: str
    final_url: str
    status: int
    content_type: str
    encoding: str
    body: bytes
    redirects: tuple[str, ...]
    elapsed_s: float
    fetched_at: float
    headers: tuple[tuple[str, str], ...]
    politeness_note: str = ""
    render: RenderReport | None = None

    @property
    def text(self) -> str:
        """The body decoded with ``encoding`` (what ``decode_html`` returned as the text);
        "" for a subresource, which is never decoded (``fetch_resource``)."""
        return self.body.decode(self.encoding, "replace") if self.encoding else ""


@dataclass(frozen=True, slots=True)
class _Wanted:
    """What one kind of fetch accepts: its Accept header, the media types it reads (what
    it calls them in an error) and its body cap (None: the policy's ``max_body_bytes``)."""

    accept: str
    media_types: frozenset[str] | None  # None: any
    what: str
    limit: int | None = None

    @classmethod
    def sitemap(cls, limit: int) -> _Wanted:
        return cls(_SITEMAP_ACCEPT, SITEMAP_MEDIA_TYPES, "a sitemap (XML or gzip)", limit)


_PAGE = _Wanted(_ACCEPT, HTML_MEDIA_TYPES, "HTML")
#: A page's subresource for the headless browser (``fetch_resource``): any type.
_RESOURCE = _Wanted("*/*", None, "any type")


@dataclass(frozen=True, slots=True)
class _Received:
    status: int
    media_type: str
    charset: str | None
    body: bytes
    headers: tuple[tuple[str, str], ...]


class Fetcher:
    """Fetches pages under a ``FetchPolicy``, up to ``policy.concurrency`` at once.

    Call ``fetch``, ``prefetch``, ``allowed_by_robots`` and ``close`` from one thread (the
    session's); the prefetched pages are fetched on the fetcher's own threads.

    The policy is required (a crawl's is ``CrawlConfig.fetch_policy()``; there is no default
    here, so the defaults live in ``CrawlConfig`` only). ``in_scope`` says whether a URL is
    inside the crawl's scope (the session passes its own); a redirect out of it is not
    followed (``OutOfScope``), and None lets every URL in. An injected ``client`` is used as
    is (and not closed by ``close``); the policy's timeouts are still passed on every
    request, but its deadline is then checked only between body chunks (the default client's
    transport bounds every socket wait by it). ``resolver``, ``clock`` and ``sleep`` are seams
    for tests: DNS, the monotonic clock and the politeness wait.
    """

    def __init__(
        self,
        policy: FetchPolicy,
        client: httpx.Client | None = None,
        *,
        in_scope: Callable[[str], bool] | None = None,
        resolver: Resolver | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._policy = policy
        self._in_scope = in_scope
        self._deadline = Deadline(clock)
        self._owns_client = client is None
        self._client = client if client is not None else _default_client(policy, self._deadline)
        self._resolver = resolver if resolver is not None else system_resolver
        self._clock = clock
        self._token = product_token(policy.user_agent)
        self._timeout = httpx.Timeout(policy.read_timeout_s, connect=policy.connect_timeout_s)
        self._robots = RobotsCache(self._load_robots, clock)
        self._politeness = Politeness(policy, clock, sleep)
        self._seed = Origin.of(policy.seed_url) if policy.seed_url is not None else None
        self._seed_addresses: frozenset[str] | None = None
        self._local = threading.local()  # this thread's politeness notes
        self._pool: ThreadPoolExecutor | None = None  # made by the first prefetch
        self._ahead: dict[str, Future[FetchResult]] = {}  # prefetched URL → its answer

    @property
    def policy(self) -> FetchPolicy:
        return self._policy

    def __enter__(self) -> Fetcher:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()

    def close(self) -> None:
        """Drop the prefetched answers and close the HTTP client if this fetcher created it.

        A prefetch not started yet is called off; one under way is not waited for (its
        answer is dropped)."""
        self._ahead.clear()
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self._owns_client:
            self._client.close()

    def prefetch(self, urls: Sequence[str]) -> None:
        """Start fetching ``urls`` in the background: the pages the caller will ask
        ``fetch`` for next, in that order (docs/DESIGN.md §11.14).

        A URL prefetched before and left out now is no longer wanted: its answer is dropped
        (a prefetch not started yet is called off; one under way finishes, politely, and
        is forgotten). A URL already on its way is not fetched twice.
        """
        wanted = dict.fromkeys(urls)
        for url in [url for url in self._ahead if url not in wanted]:
            self._ahead.pop(url).cancel()
        for url in wanted:
            if url not in self._ahead:
                self._ahead[url] = self._workers().submit(self._fetch_noted, url)

    def _workers(self) -> ThreadPoolExecutor:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(
                max_workers=self._policy.concurrency, thread_name_prefix="pagesift-fetch"
            )
        return self._pool

    def fetch(self, url: str) -> FetchResult:
        """Fetch ``url`` (following redirects) and return the decoded HTML page.

        Raises one ``FetchError`` subclass naming ``url``: ``BlockedByPolicy``,
        ``OutOfScope``, ``BlockedByRobots``, ``FetchTimeout`` (a timeout or the deadline),
        ``ConnectFailed`` (also when robots.txt could not be reached for that reason),
        ``HTTPStatusError``, ``TooManyRedirects``, ``BodyTooLarge`` or
        ``UnsupportedContentType`` (or the base ``FetchError`` for a malformed URL, a body
        that cannot be decoded or a broken HTTP exchange). Either way, a server-asked wait
        cut to its cap is in ``politeness_note``. A prefetched ``url`` gives the answer
        that prefetch got (waiting for it if it is still under way).
        """
        ahead = self._ahead.pop(url, None)
        if ahead is not None:
            return ahead.result()
        return self._fetch_noted(url)

    def _fetch_noted(self, url: str) -> FetchResult:
        """``fetch`` on this thread, with the politeness notes of this fetch only."""
        self._local.notes = []
        try:
            result = self._fetch(url)
        except FetchError as exc:
            exc.politeness_note = "; ".join(self._notes)
            raise
        return dataclasses.replace(result, politeness_note="; ".join(self._notes))

    def fetch_resource(self, url: str) -> FetchResult:
        """Fetch a page's subresource (script, style, data, image …) under the same checks.

        As ``fetch``, but any media type is accepted and the body is not decoded as text
        (``text`` and ``encoding`` are empty): the headless browser asks for these
        (``net/render.py``) and is answered with the body. Raises what ``fetch`` raises but
        ``UnsupportedContentType``.
        """
        self._local.notes = []
        final, outcome, visited, network_s = self._follow(url, _parse_url(url, url), _RESOURCE)
        return FetchResult(
            url=url, final_url=str(final), status=outcome.status,
            content_type=outcome.media_type, encoding="", body=outcome.body,
            redirects=tuple(visited[:-1]), elapsed_s=network_s, fetched_at=time.time(),
            headers=outcome.headers,
        )

    @property
    def _notes(self) -> list[str]:
        """The caps that cut a wait of the fetch running on this thread."""
        notes: list[str] | None = getattr(self._local, "notes", None)
        if notes is None:
            notes = self._local.notes = []
        return notes

    def allowed_by_robots(self, url: str) -> bool:
        """True when robots.txt lets us fetch ``url`` (always True with robots ignored).

        May download robots.txt. A host the network policy forbids cannot be asked: that
        raises the ``BlockedByPolicy`` its robots.txt met, so the link is refused for what
        it is rather than as disallowed (its robots.txt is "unreachable", RFC 9309
        §2.3.1.4, and the page's fetch would be refused by the same policy). Raises
        ``FetchError`` for a URL that is not a valid http(s) URL.
        """
        if not self._policy.respect_robots:
            return True
        parsed = _parse_url(url, url)
        host = parsed.raw_host.decode("ascii").lower().rstrip(".")
        rules = self._robots.rules_for(_robots_url(parsed), host)
        if isinstance(rules.failure, BlockedByPolicy):
            # the rule alone, which is the origin's ("h:9 is at 127.0.0.1, a loopback
            # address …"): a step record counts its refused links by these words, one
            # entry per refused origin, not one per URL (found by using the CLI)
            raise BlockedByPolicy(url, _NOT_FETCHED.sub("", rules.failure.message, count=1))
        return rules.allows(str(parsed), self._token)

    def robots_delay(self, host: str) -> float | None:
        """``Crawl-delay`` set for ``host`` by a robots.txt already read, else None.

        ``host`` is the host name as in the URL (``urlsplit(url).hostname``). This is what
        the file says; waits are cut to ``max_crawl_delay_s``.
        """
        if not self._policy.respect_robots:
            return None
        return self._robots.crawl_delay(host.lower().rstrip("."), self._token)

    def fetch_sitemap(self, url: str, limit: int) -> tuple[str, bytes]:
        """Fetch one sitemap as a page is fetched (scope, network policy, robots.txt,
        politeness, deadline), its body capped at ``limit`` bytes, and un-gzip it within the
        same cap when it is gzip content (a ``.xml.gz`` file). Returns ``(final URL, XML
        bytes)``; raises what ``fetch`` raises (``OutOfScope`` also for ``url`` itself,
        ``UnsupportedContentType`` for a type no sitemap has)."""
        current = _parse_url(url, url)
        if self._in_scope is not None and not self._in_scope(str(current)):
            raise OutOfScope(url, f"{current} is outside the crawl's scope; not fetched")
        final, received, _, _ = self._follow(url, current, _Wanted.sitemap(limit))
        body = received.body
        if body.startswith(GZIP_MAGIC):
            body = gunzip_capped(url, body, limit)
        return str(final), body

    def sitemaps(self, limits: SitemapLimits) -> SitemapHarvest:
        """Read the seed site's sitemaps (``net/sitemaps.py``): never raises for what a
        server sent, every file's fate is noted in the harvest."""
        seed = self._policy.seed_url
        if seed is None:
            return SitemapHarvest((), ())
        return harvest_sitemaps(self._sitemap_locations(seed), self.fetch_sitemap, limits)

    def _sitemap_locations(self, seed_url: str) -> list[tuple[str, SitemapFound]]:
        """The seed origin's robots.txt ``Sitemap:`` lines (resolved against it; RFC 9309
        §2.2.4), else its ``/sitemap.xml``. robots.txt is not read when robots are ignored."""
        seed = _parse_url(seed_url, seed_url)
        robots_url = _robots_url(seed)
        if self._policy.respect_robots:
            host = seed.raw_host.decode("ascii").lower().rstrip(".")
            rules = self._robots.rules_for(robots_url, host)
            if rules.parser is not None:
                lines = [urljoin(robots_url, line.strip()) for line in rules.parser.sitemaps]
                if lines:
                    return [(line, SitemapFound.ROBOTS) for line in lines]
        return [(urljoin(robots_url, "/sitemap.xml"), SitemapFound.DEFAULT)]

    def _fetch(self, url: str) -> FetchResult:
        final, outcome, visited, network_s = self._follow(url, _parse_url(url, url), _PAGE)
        encoding, _ = decode_html(outcome.body, outcome.charset)  # the text is not kept
        return FetchResult(
            url=url,
            final_url=str(final),
            status=outcome.status,
            content_type=outcome.media_type,
            encoding=encoding,
            body=outcome.body,
            redirects=tuple(visited[:-1]),
            elapsed_s=network_s,
            fetched_at=time.time(),
            headers=outcome.headers,
        )

    def _follow(
        self, url: str, current: httpx.URL, wanted: _Wanted
    ) -> tuple[httpx.URL, _Received, list[str], float]:
        """Every hop from ``current`` to the answer that is not a redirect: its final URL,
        the answer, the URLs visited (the final one last) and the seconds spent on the
        network."""
        with self._deadline.budget(self._policy.fetch_deadline_s):
            return self._hops(url, current, wanted)

    def _hops(
        self, url: str, current: httpx.URL, wanted: _Wanted
    ) -> tuple[httpx.URL, _Received, list[str], float]:
        """``_follow``'s hops, every exchange in one budget of ``fetch_deadline_s``."""
        visited = [str(current)]
        network_s = 0.0
        while True:
            target = self._prepare_hop(url, current)
            with self._turn(target):
                hop_started = self._clock()
                with self._deadline.running(self._policy.fetch_deadline_s), self._exchange(
                    url, current, target, wanted.accept
                ) as response:
                    outcome = self._read_page(url, current, target.host, response, wanted)
                network_s += self._clock() - hop_started
            if isinstance(outcome, _Received):
                return current, outcome, visited, network_s
            _check_redirect(url, visited, outcome, self._policy.max_redirects)
            self._check_scope(url, current, outcome)
            visited.append(str(outcome))
            current = outcome

    def _check_scope(self, url: str, current: httpx.URL, target: httpx.URL) -> None:
        if self._in_scope is not None and not self._in_scope(str(target)):
            raise OutOfScope(
                url, f"{current} redirected to {target}, outside the crawl's scope; not followed"
            )

    def _prepare_hop(self, url: str, current: httpx.URL) -> CheckedAddress:
        target = self._check_address(url, current)
        if self._policy.respect_robots:
            robots_url = _robots_url(current)
            rules = self._robots.rules_for(robots_url, target.host)
            if not rules.allows(str(current), self._token):
                if rules.state is RobotsState.UNREACHABLE:
                    raise unreachable_error(url, current, robots_url, rules)
                raise BlockedByRobots(
                    url, f"{current} is disallowed by {robots_url} for {self._token}"
                )
        return target

    def _check_address(self, url: str, current: httpx.URL) -> CheckedAddress:
        netloc = current.netloc.decode("ascii")
        return check_host(
            url,
            current.raw_host.decode("ascii"),
            resolver=self._resolver,
            allow_private=self._policy.allow_private,
            home=self._home_for(current),
            where=netloc,
        )

    def _home_for(self, current: httpx.URL) -> frozenset[str]:
        """The seed host's addresses when ``current`` has the seed's scheme and port."""
        seed = self._seed
        if seed is None:
            return frozenset()
        port = current.port or (443 if current.scheme == "https" else 80)
        if (current.scheme, port) != (seed.scheme, seed.port):
            return frozenset()
        if self._seed_addresses is None:
            self._seed_addresses = home_addresses(seed, self._resolver)
        return self._seed_addresses

    @contextlib.contextmanager
    def _turn(self, target: CheckedAddress) -> Iterator[None]:
        """The host's turn for one request (``Politeness.turn``), its waits done; robots.txt
        is checked before, never inside, so a thread holds one host's turn at a time."""
        with self._politeness.turn(
            target.host,
            loopback=target.kind is AddressKind.LOOPBACK,
            crawl_delay=self.robots_delay(target.host),
        ) as capped:
            self._note(capped)
            yield

    def _note(self, capped: CappedWait | None) -> None:
        if capped is not None and capped.text not in self._notes:
            self._notes.append(capped.text)

    def _exchange(
        self, url: str, current: httpx.URL, target: CheckedAddress, accept: str = _ACCEPT
    ) -> contextlib.AbstractContextManager[httpx.Response]:
        return exchange(
            self._client, url, current, target, user_agent=self._policy.user_agent,
            accept=accept, accept_encoding=_ACCEPT_ENCODING, timeout=self._timeout,
            policy=self._policy, deadline=self._deadline,
        )

    def _hold_off(self, host: str, response: httpx.Response) -> None:
        """Honour a 429/503's ``Retry-After`` for the next request to ``host``."""
        if response.status_code not in _RETRY_STATUSES:
            return
        asked = retry_after_s(
            response.headers.get("retry-after"), response.headers.get("date"), time.time()
        )
        if asked is not None:
            self._note(self._politeness.hold_off(host, asked))

    def _read_page(
        self, url: str, current: httpx.URL, host: str, response: httpx.Response,
        wanted: _Wanted,
    ) -> _Received | httpx.URL:
        """The next URL for a redirect, else the checked, size-capped answer."""
        status = response.status_code
        self._hold_off(host, response)
        location = response.headers.get("location")
        if status in _REDIRECT_STATUSES and location:
            return _parse_url(_one_location(url, current, response), url, base=current)
        if status >= 400:
            reason = httpx.codes.get_reason_phrase(status) or response.reason_phrase
            raise HTTPStatusError(url, f"{current} answered {status} {reason}".rstrip(), status)
        media_type, charset = parse_content_type(response.headers.get("content-type"))
        if wanted.media_types is not None and media_type not in wanted.media_types:
            raise UnsupportedContentType(
                url,
                f"{current} is {media_type}, not {wanted.what}; skipped without downloading it",
                media_type,
            )
        limit = self._policy.max_body_bytes if wanted.limit is None else wanted.limit
        body = self._read_capped(url, current, response, limit)
        raw_headers = tuple(
            (name.decode("latin-1"), value.decode("latin-1"))
            for name, value in response.headers.raw
        )
        return _Received(status, media_type, charset, body, raw_headers)

    def _read_capped(
        self, url: str, current: httpx.URL, response: httpx.Response, limit: int
    ) -> bytes:
        """The decoded body, stopping as soon as it passes ``limit`` (bombs included)."""
        declared = response.headers.get("content-length", "")
        encoded = "content-encoding" in response.headers
        if not encoded and declared.isdigit() and int(declared) > limit:
            raise BodyTooLarge(
                url, f"{current} announces {int(declared):,} bytes, over the {limit:,}-byte limit"
            )
        chunks: list[bytes] = []
        size = 0
        for piece in self._decoded(url, current, response):
            size += len(piece)
            if size > limit:
                raise BodyTooLarge(
                    url, f"{current} passed the {limit:,}-byte limit while downloading; stopped"
                )
            chunks.append(piece)
        return b"".join(chunks)

    def _decoded(self, url: str, current: httpx.URL, response: httpx.Response) -> Iterator[bytes]:
        """The body's decoded pieces (each at most ``decoding.STEP`` bytes), checking the
        deadline between network reads."""
        if response.is_stream_consumed:
            # an in-memory response (an injected MockTransport's): httpx has read and
            # decoded it already
            yield response.content
            return
        try:
            decoder = ContentDecoder.for_header(response.headers.get("content-encoding"))
            for chunk in response.iter_raw():
                if self._deadline.expired():
                    raise deadline_error(url, current, self._deadline)
                yield from decoder.feed(chunk)
        except DecodingError as exc:
            raise FetchError(url, f"{current} sent a body that cannot be decoded: {exc}") from exc

    def _load_robots(self, robots_url: str) -> RobotsDownload:
        """The RobotsLoader: the final status and the first 500 KiB, or why there were none."""
        current = httpx.URL(robots_url)
        status: int | None = None
        try:
            for _ in range(_ROBOTS_MAX_REDIRECTS + 1):
                target = self._check_address(robots_url, current)
                with self._turn(target), self._deadline.running(
                    self._policy.fetch_deadline_s
                ), self._exchange(robots_url, current, target) as response:
                    status = response.status_code
                    self._hold_off(target.host, response)
                    location = response.headers.get("location")
                    if status not in _REDIRECT_STATUSES or not location:
                        return RobotsDownload(status, self._read_prefix(robots_url, response))
                current = _parse_url(location, robots_url, base=current)
        except FetchError as exc:
            logger.info("robots.txt unreachable: %s", exc)
            return RobotsDownload(None, b"", exc)
        # RFC 9309 §2.3.1.2: after five redirects the file MAY be assumed unavailable;
        # the last 3xx status says exactly that to rules_from_response.
        return RobotsDownload(status, b"")

    def _read_prefix(self, robots_url: str, response: httpx.Response) -> bytes:
        chunks: list[bytes] = []
        size = 0
        for piece in self._decoded(robots_url, httpx.URL(robots_url), response):
            chunks.append(piece)
            size += len(piece)
            if size >= _ROBOTS_MAX_BYTES:
                break
        return b"".join(chunks)[:_ROBOTS_MAX_BYTES]


def parse_content_type(value: str | None) -> tuple[str, str | None]:
    """``(media type in lower case, charset or None)`` from a Content-Type header."""
    if not value:
        # RFC 9110 §8.3: without Content-Type a recipient may assume application/octet-stream.
        return "application/octet-stream", None
    media_type, _, params = value.partition(";")
    charset = None
    for param in params.split(";"):
        name, _, param_value = param.partition("=")
        if name.strip().lower() == "charset":
            charset = param_value.strip().strip("\"'") or None
    return media_type.strip().lower(), charset


def _parse_url(raw: str, url: str, *, base: httpx.URL | None = None) -> httpx.URL:
    """Parse (and resolve against ``base``) an http(s) URL, dropping the fragment."""
    try:
        parsed = base.join(raw.strip()) if base is not None else httpx.URL(raw.strip())
    except (httpx.InvalidURL, ValueError, TypeError) as exc:
        raise FetchError(url, f"{raw!r} is not a valid URL ({exc})") from exc
    if parsed.scheme not in ("http", "https"):
        scheme = parsed.scheme or "no"
        raise BlockedByPolicy(
            url, f"{raw} uses the {scheme} scheme; only http and https are fetched"
        )
    if not parsed.raw_host:
        raise FetchError(url, f"{raw!r} is not a valid URL (no host)")
    return parsed.copy_with(fragment=None)


def _one_location(url: str, current: httpx.URL, response: httpx.Response) -> str:
    """The redirect's one ``Location``. httpx joins repeated headers with ", ", and two
    that differ were followed as one URL (``/ok/1,%20/ok/2``): like two differing
    ``Content-Length`` headers, they are refused (RFC 9110 §10.2.2 allows one)."""
    locations = {value.strip() for value in response.headers.get_list("location")}
    if len(locations) > 1:
        shown = ", ".join(repr(value[:200]) for value in sorted(locations))
        raise FetchError(url, f"{current} redirected to {len(locations)} places at once "
                              f"({shown}); not followed")
    return next(iter(locations))


def _check_redirect(url: str, visited: list[str], target: httpx.URL, limit: int) -> None:
    if str(target) in visited:
        loop = " → ".join([*visited[visited.index(str(target)) :], str(target)])
        raise TooManyRedirects(url, f"{url} is caught in a redirect loop: {loop}")
    if len(visited) > limit:
        raise TooManyRedirects(
            url, f"{url} redirected more than {limit} times; gave up at {target}"
        )


def _robots_url(url: httpx.URL) -> str:
    return f"{url.scheme}://{url.netloc.decode('ascii')}/robots.txt"


def _default_client(policy: FetchPolicy, deadline: Deadline) -> httpx.Client:
    # Cookies would be stored under the IP we dial and so leak between virtual hosts on one
    # address; a crawler does not need them. Environment proxies would bypass the address
    # check, hence trust_env=False (and DeadlineTransport never uses a proxy).
    no_cookies = http.cookiejar.CookieJar(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    return httpx.Client(
        transport=DeadlineTransport(deadline),
        timeout=httpx.Timeout(policy.read_timeout_s, connect=policy.connect_timeout_s),
        follow_redirects=False,
        trust_env=False,
        cookies=no_cookies,
        headers={"User-Agent": policy.user_agent},
    )
