"""Fetch one page politely and safely: the only module that speaks HTTP (httpx).

For every hop of a redirect chain the fetcher

1. resolves the host itself and checks the address against the network policy
   (``netpolicy``); ``localhost`` and ``*.localhost`` are loopback without DNS (RFC 6761 §6.3);
2. checks robots.txt for that origin (``robots``, RFC 9309);
3. waits out the per-host delay, ``max(configured delay, Crawl-delay)`` (0 on loopback);
4. sends GET to the checked IP with the original ``Host`` header (and TLS SNI name), so
   name-based virtual hosts work and DNS cannot change between check and connect.

Redirects are therefore followed here, never by httpx (``follow_redirects=False``).
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import logging
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from types import TracebackType

import httpx

from pagesift_ui.errors import (
    BlockedByPolicy,
    BlockedByRobots,
    BodyTooLarge,
    ConnectFailed,
    FetchError,
    FetchTimeout,
    HTTPStatusError,
    TooManyRedirects,
    UnsupportedContentType,
)
from pagesift_ui.net.policy import (
    DEFAULT_USER_AGENT,
    AddressKind,
    CheckedAddress,
    FetchPolicy,
    Resolver,
    check_host,
    system_resolver,
)
from pagesift_ui.net.robots import RobotsCache, product_token
from pagesift_ui.page.charset import decode_html

__all__ = [
    "DEFAULT_USER_AGENT",
    "FetchPolicy",
    "FetchResult",
    "Fetcher",
    "parse_content_type",
]

logger = logging.getLogger(__name__)

HTML_MEDIA_TYPES = frozenset({"text/html", "application/xhtml+xml"})
_REDIRECT_STATUSES = frozenset({301, 302, 303, 307, 308})
_ROBOTS_MAX_REDIRECTS = 5  # RFC 9309 §2.3.1.2: follow at least five consecutive redirects
_ROBOTS_MAX_BYTES = 512_000  # RFC 9309 §2.5: parse at least the first 500 KiB
# gzip/deflate expand at most ~1032:1, which bounds the memory one network read can cost
# before the size cap sees it; brotli/zstd would not.
_ACCEPT_ENCODING = "gzip, deflate"
_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"


@dataclass(frozen=True, slots=True)
class FetchResult:
    """One fetched HTML page.

    ``redirects`` lists every URL that answered with a redirect, in order, so
    ``redirects + (final_url,)`` is the whole path. ``body`` is the content-decoded body
    (gzip removed) while ``headers`` are exactly as received, so they may still say
    ``Content-Encoding: gzip``. ``encoding`` is the Python codec that produced ``text``.
    """

    url: str
    final_url: str
    status: int
    content_type: str
    encoding: str
    body: bytes
    text: str
    redirects: tuple[str, ...]
    elapsed_s: float
    fetched_at: float
    headers: tuple[tuple[str, str], ...]


@dataclass(frozen=True, slots=True)
class _Received:
    status: int
    media_type: str
    charset: str | None
    body: bytes
    headers: tuple[tuple[str, str], ...]


class Fetcher:
    """Fetches pages one at a time under a ``FetchPolicy``. Not thread-safe.

    The policy is required (a crawl's is ``CrawlConfig.fetch_policy()``; there is no default
    here, so the defaults live in ``CrawlConfig`` only). An injected ``client`` is used as is
    (and not closed by ``close``); the policy's timeouts are still passed on every request.
    ``resolver``, ``clock`` and ``sleep`` are seams for tests: DNS, the monotonic clock and
    the politeness wait.
    """

    def __init__(
        self,
        policy: FetchPolicy,
        client: httpx.Client | None = None,
        *,
        resolver: Resolver | None = None,
        clock: Callable[[], float] = time.monotonic,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self._policy = policy
        self._owns_client = client is None
        self._client = client if client is not None else _default_client(self._policy)
        self._resolver = resolver if resolver is not None else system_resolver
        self._clock = clock
        self._sleep = sleep
        self._token = product_token(self._policy.user_agent)
        self._timeout = httpx.Timeout(
            self._policy.read_timeout_s, connect=self._policy.connect_timeout_s
        )
        self._robots = RobotsCache(self._load_robots, clock)
        self._last_request_at: dict[str, float] = {}

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
        """Close the HTTP client if this fetcher created it."""
        if self._owns_client:
            self._client.close()

    def fetch(self, url: str) -> FetchResult:
        """Fetch ``url`` (following redirects) and return the decoded HTML page.

        Raises one ``FetchError`` subclass naming ``url``: ``BlockedByPolicy``,
        ``BlockedByRobots``, ``FetchTimeout``, ``ConnectFailed``, ``HTTPStatusError``,
        ``TooManyRedirects``, ``BodyTooLarge`` or ``UnsupportedContentType`` (or the base
        ``FetchError`` for a malformed URL or a broken HTTP exchange).
        """
        current = _parse_url(url, url)
        visited = [str(current)]
        network_s = 0.0
        while True:
            target = self._prepare_hop(url, current)
            hop_started = self._clock()
            with self._exchange(url, current, target) as response:
                outcome = self._read_page(url, current, response)
            network_s += self._clock() - hop_started
            if isinstance(outcome, _Received):
                break
            _check_redirect(url, visited, outcome, self._policy.max_redirects)
            visited.append(str(outcome))
            current = outcome
        encoding, text = decode_html(outcome.body, outcome.charset)
        return FetchResult(
            url=url,
            final_url=str(current),
            status=outcome.status,
            content_type=outcome.media_type,
            encoding=encoding,
            body=outcome.body,
            text=text,
            redirects=tuple(visited[:-1]),
            elapsed_s=network_s,
            fetched_at=time.time(),
            headers=outcome.headers,
        )

    def allowed_by_robots(self, url: str) -> bool:
        """True when robots.txt lets us fetch ``url`` (always True with robots ignored).

        May download robots.txt. A host the network policy forbids cannot be asked, which
        counts as "unreachable" and so as disallowed (RFC 9309 §2.3.1.4). Raises
        ``BlockedByPolicy`` or ``FetchError`` for a URL that is not a valid http(s) URL.
        """
        if not self._policy.respect_robots:
            return True
        parsed = _parse_url(url, url)
        return self._robots_rules_allow(parsed)

    def robots_delay(self, host: str) -> float | None:
        """``Crawl-delay`` set for ``host`` by a robots.txt already read, else None.

        ``host`` is the host name as in the URL (``urlsplit(url).hostname``).
        """
        if not self._policy.respect_robots:
            return None
        return self._robots.crawl_delay(host.lower().rstrip("."), self._token)

    def _prepare_hop(self, url: str, current: httpx.URL) -> CheckedAddress:
        target = self._check_address(url, current)
        if self._policy.respect_robots and not self._robots_rules_allow(current):
            raise BlockedByRobots(
                url, f"{current} is disallowed by {_robots_url(current)} for {self._token}"
            )
        self._wait_turn(target)
        return target

    def _check_address(self, url: str, current: httpx.URL) -> CheckedAddress:
        return check_host(
            url,
            current.raw_host.decode("ascii"),
            resolver=self._resolver,
            allow_private=self._policy.allow_private,
        )

    def _robots_rules_allow(self, current: httpx.URL) -> bool:
        host = current.raw_host.decode("ascii").lower().rstrip(".")
        rules = self._robots.rules_for(_robots_url(current), host)
        return rules.allows(str(current), self._token)

    def _wait_turn(self, target: CheckedAddress) -> None:
        """Sleep until this host's delay has passed since our last request to it."""
        delay = 0.0 if target.kind is AddressKind.LOOPBACK else self._policy.delay_s
        site_delay = self.robots_delay(target.host)
        if site_delay is not None:
            delay = max(delay, site_delay)
        last = self._last_request_at.get(target.host)
        if last is not None:
            wait_s = last + delay - self._clock()
            if wait_s > 0:
                logger.debug("waiting %.2f s before the next request to %s", wait_s, target.host)
                self._sleep(wait_s)
        self._last_request_at[target.host] = self._clock()

    @contextlib.contextmanager
    def _exchange(
        self, url: str, current: httpx.URL, target: CheckedAddress
    ) -> Iterator[httpx.Response]:
        """Stream GET ``current`` from the checked address, mapping httpx errors to ours."""
        headers = {
            "Host": current.netloc.decode("ascii"),
            "User-Agent": self._policy.user_agent,
            "Accept": _ACCEPT,
            "Accept-Encoding": _ACCEPT_ENCODING,
        }
        extensions: dict[str, str] = {}
        if current.scheme == "https":
            # The certificate is checked against the SNI name, not the IP we dial.
            extensions["sni_hostname"] = target.host
            # httpx pools connections by IP:port; a TLS connection verified for one name
            # must not be reused for another name on the same address.
            headers["Connection"] = "close"
        request_url = current.copy_with(host=target.address)
        logger.debug("GET %s via %s", current, target.address)
        try:
            with self._client.stream(
                "GET", request_url, headers=headers, extensions=extensions, timeout=self._timeout
            ) as response:
                yield response
        except httpx.TimeoutException as exc:
            raise FetchTimeout(url, _timeout_message(current, exc, self._policy)) from exc
        except httpx.NetworkError as exc:
            raise ConnectFailed(url, f"{current} could not be fetched: {_describe(exc)}") from exc
        except httpx.InvalidURL as exc:
            # httpx prepares the next request of any redirect even when not following it,
            # and rejects a Location such as "mailto:x" that has a scheme but no host.
            raise FetchError(url, f"{current} answered with an unusable URL ({exc})") from exc
        except (httpx.HTTPError, httpx.StreamError) as exc:
            raise FetchError(url, f"{current} failed: {_describe(exc)}") from exc

    def _read_page(
        self, url: str, current: httpx.URL, response: httpx.Response
    ) -> _Received | httpx.URL:
        """The next URL for a redirect, else the checked, size-capped page."""
        status = response.status_code
        location = response.headers.get("location")
        if status in _REDIRECT_STATUSES and location:
            return _parse_url(location, url, base=current)
        if status >= 400:
            reason = httpx.codes.get_reason_phrase(status) or response.reason_phrase
            raise HTTPStatusError(url, f"{current} answered {status} {reason}".rstrip(), status)
        media_type, charset = parse_content_type(response.headers.get("content-type"))
        if media_type not in HTML_MEDIA_TYPES:
            raise UnsupportedContentType(
                url,
                f"{current} is {media_type}, not HTML; skipped without downloading it",
                media_type,
            )
        body = _read_capped(url, current, response, self._policy.max_body_bytes)
        raw_headers = tuple(
            (name.decode("latin-1"), value.decode("latin-1"))
            for name, value in response.headers.raw
        )
        return _Received(status, media_type, charset, body, raw_headers)

    def _load_robots(self, robots_url: str) -> tuple[int | None, bytes]:
        """The RobotsLoader: (final status, first 500 KiB) or (None, b"") if unreachable."""
        current = httpx.URL(robots_url)
        status: int | None = None
        try:
            for _ in range(_ROBOTS_MAX_REDIRECTS + 1):
                target = self._check_address(robots_url, current)
                self._wait_turn(target)
                with self._exchange(robots_url, current, target) as response:
                    status = response.status_code
                    location = response.headers.get("location")
                    if status not in _REDIRECT_STATUSES or not location:
                        return status, _read_prefix(response, _ROBOTS_MAX_BYTES)
                current = _parse_url(location, robots_url, base=current)
        except FetchError as exc:
            logger.info("robots.txt unreachable: %s", exc)
            return None, b""
        # RFC 9309 §2.3.1.2: after five redirects the file MAY be assumed unavailable;
        # the last 3xx status says exactly that to rules_from_response.
        return status, b""


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


def _check_redirect(url: str, visited: list[str], target: httpx.URL, limit: int) -> None:
    if str(target) in visited:
        loop = " → ".join([*visited[visited.index(str(target)) :], str(target)])
        raise TooManyRedirects(url, f"{url} is caught in a redirect loop: {loop}")
    if len(visited) > limit:
        raise TooManyRedirects(
            url, f"{url} redirected more than {limit} times; gave up at {target}"
        )


def _read_capped(url: str, current: httpx.URL, response: httpx.Response, limit: int) -> bytes:
    """Read the decoded body, stopping as soon as it passes ``limit`` (gzip bombs included)."""
    declared = response.headers.get("content-length", "")
    if "content-encoding" not in response.headers and declared.isdigit() and int(declared) > limit:
        raise BodyTooLarge(
            url, f"{current} announces {int(declared):,} bytes, over the {limit:,}-byte limit"
        )
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        size += len(chunk)
        if size > limit:
            raise BodyTooLarge(
                url, f"{current} passed the {limit:,}-byte limit while downloading; stopped"
            )
        chunks.append(chunk)
    return b"".join(chunks)


def _read_prefix(response: httpx.Response, limit: int) -> bytes:
    chunks: list[bytes] = []
    size = 0
    for chunk in response.iter_bytes():
        chunks.append(chunk)
        size += len(chunk)
        if size >= limit:
            break
    return b"".join(chunks)[:limit]


def _describe(exc: Exception) -> str:
    return str(exc) or type(exc).__name__


def _robots_url(url: httpx.URL) -> str:
    return f"{url.scheme}://{url.netloc.decode('ascii')}/robots.txt"


def _timeout_message(current: httpx.URL, exc: httpx.TimeoutException, policy: FetchPolicy) -> str:
    if isinstance(exc, httpx.ConnectTimeout):
        return f"{current} timed out after {policy.connect_timeout_s} s connecting"
    if isinstance(exc, httpx.ReadTimeout):
        return f"{current} timed out after {policy.read_timeout_s} s reading the response"
    return f"{current} timed out ({type(exc).__name__})"


def _default_client(policy: FetchPolicy) -> httpx.Client:
    # Cookies would be stored under the IP we dial and so leak between virtual hosts on one
    # address; a crawler does not need them. Environment proxies would bypass the address
    # check, hence trust_env=False.
    no_cookies = http.cookiejar.CookieJar(http.cookiejar.DefaultCookiePolicy(allowed_domains=[]))
    return httpx.Client(
        timeout=httpx.Timeout(policy.read_timeout_s, connect=policy.connect_timeout_s),
        follow_redirects=False,
        trust_env=False,
        cookies=no_cookies,
        headers={"User-Agent": policy.user_agent},
    )
