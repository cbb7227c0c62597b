"""One HTTP exchange of the fetcher, and the errors a failed one becomes.

``exchange`` streams a GET from the address the policy checked, with the URL's own name in
``Host`` and SNI, and turns httpx's exceptions into the project's ``FetchError`` family, each
message naming the URL and what went wrong in words (a deadline that passed, a refused
connection). ``unreachable_error`` words why a page was not fetched when its robots.txt could
not be read.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator

import httpx

from pagesift_ui.errors import BlockedByRobots, ConnectFailed, FetchError, FetchTimeout
from pagesift_ui.net.policy import CheckedAddress, FetchPolicy
from pagesift_ui.net.robots import RobotsRules
from pagesift_ui.net.transport import Deadline

__all__ = ["deadline_error", "describe", "exchange", "unreachable_error"]

logger = logging.getLogger(__name__)


@contextlib.contextmanager
def exchange(
    client: httpx.Client,
    url: str,
    current: httpx.URL,
    target: CheckedAddress,
    *,
    user_agent: str,
    accept: str,
    accept_encoding: str,
    timeout: httpx.Timeout,
    policy: FetchPolicy,
    deadline: Deadline,
) -> Iterator[httpx.Response]:
    """Stream GET ``current`` from the checked address, mapping httpx errors to ours.

    ``url`` is the URL the caller asked for (the errors name it); ``current`` the hop.
    """
    headers = {
        "Host": current.netloc.decode("ascii"),
        "User-Agent": user_agent,
        "Accept": accept,
        "Accept-Encoding": accept_encoding,
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
        with client.stream(
            "GET", request_url, headers=headers, extensions=extensions, timeout=timeout
        ) as response:
            yield response
    except httpx.TimeoutException as exc:
        if deadline.expired():
            raise deadline_error(url, current, deadline) from exc
        raise FetchTimeout(url, _timeout_message(current, exc, policy)) from exc
    except httpx.NetworkError as exc:
        raise ConnectFailed(url, f"{current} could not be fetched: {describe(exc)}") from exc
    except httpx.InvalidURL as exc:
        # httpx prepares the next request of any redirect even when not following it,
        # and rejects a Location such as "mailto:x" that has a scheme but no host.
        raise FetchError(url, f"{current} answered with an unusable URL ({exc})") from exc
    except (httpx.HTTPError, httpx.StreamError) as exc:
        raise FetchError(url, f"{current} failed: {describe(exc)}") from exc


def deadline_error(url: str, current: httpx.URL, deadline: Deadline) -> FetchTimeout:
    return FetchTimeout(
        url, f"{current} took longer than the {deadline.seconds:g} s deadline "
        "(fetch_deadline_s, for a page with its redirects and robots.txt files) to answer; "
        "stopped"
    )


def unreachable_error(
    url: str, current: httpx.URL, robots_url: str, rules: RobotsRules
) -> FetchError:
    """Why ``current`` is not fetched when its robots.txt is unreachable (RFC 9309 §2.3.1.4:
    then nothing of the origin may be crawled, for now).

    A robots.txt that could not even be asked (refused, timed out) fails the page the same
    way, with the same kind: the page lives on the same server.
    """
    failure = rules.failure
    if failure is None:
        answer = f"answered {rules.status}" if rules.status is not None else "gave no answer"
        return BlockedByRobots(
            url, f"{current} was not fetched: {robots_url} {answer}, so robots.txt is "
            "unreachable and nothing there is fetched for now (RFC 9309 §2.3.1.4)"
        )
    why = "connection refused" if _refused(failure) else failure.message
    # the server's own failure first: "robots.txt unreachable" led the line and read as a
    # robots rule when the server was down
    message = f"{current} could not be fetched: {why}, on asking first for {robots_url}"
    if isinstance(failure, ConnectFailed):
        return ConnectFailed(url, message)
    if isinstance(failure, FetchTimeout):
        return FetchTimeout(url, message)
    return BlockedByRobots(url, message)


def describe(exc: BaseException) -> str:
    """An exception in words: "connection refused" for a refused connection."""
    if _refused(exc):
        return "connection refused"
    text = str(exc)
    if text == "Receive buffer too long":
        # h11's words when a response's head (its status line and headers, or a chunk's
        # size line) passes the 100 KiB httpcore lets it buffer: 3,000 Set-Cookie headers
        return "the response's headers (or a chunk's size line) ran over 100 KiB"
    return text or type(exc).__name__


def _refused(exc: BaseException) -> bool:
    seen: BaseException | None = exc
    for _ in range(10):  # the cause chain: ours ← httpx ← httpcore ← OSError
        if seen is None:
            return False
        if isinstance(seen, ConnectionRefusedError):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def _timeout_message(current: httpx.URL, exc: httpx.TimeoutException, policy: FetchPolicy) -> str:
    if isinstance(exc, httpx.ConnectTimeout):
        return f"{current} timed out after {policy.connect_timeout_s} s connecting"
    if isinstance(exc, httpx.ReadTimeout):
        return f"{current} timed out after {policy.read_timeout_s} s reading the response"
    return f"{current} timed out ({type(exc).__name__})"
