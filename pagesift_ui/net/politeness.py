"""When the next request to a host may go: the configured delay and what servers ask for.

Three things set the gap before a request to a host:

- ``FetchPolicy.delay_s`` since our last request to it (none on loopback);
- robots.txt's ``Crawl-delay`` (not in RFC 9309, but widely set), honoured up to
  ``max_crawl_delay_s``;
- ``Retry-After`` on a 429 or 503 answer (RFC 9110 §10.2.3, RFC 6585 §4), delay-seconds or
  an HTTP-date, honoured up to ``max_retry_after_s`` from the moment it was received.

A server may ask for anything (``Crawl-delay: 1e10`` overflowed ``time.sleep``, ``1000``
stalled a crawl silently), so a longer wait is cut to its cap, and each cut is reported as a
``CappedWait`` the fetcher passes on to the step record. This module does no I/O: the
fetcher hands it its clock and sleep.

A crawl may have several fetches in flight (``CrawlConfig.concurrency``, docs/DESIGN.md
§11.14), but at most ``FetchPolicy.per_host`` requests to one host at once (1 by default):
``turn`` holds one of the host's slots from the wait through the whole exchange, so with one
slot the gaps above are measured exactly as with one fetch at a time; with more, the waits
themselves still go one after another, so ``delay_s`` is the gap between request starts. A
thread holds at most one host's turn (a redirect to another host takes its turn on the next
hop, after this one's is given back), so turns cannot deadlock.
"""

from __future__ import annotations

import contextlib
import logging
import math
import threading
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from email.utils import parsedate_to_datetime

from pagesift_ui.net.policy import FetchPolicy

__all__ = ["CappedWait", "Politeness", "retry_after_s"]

logger = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class CappedWait:
    """A wait a server asked for that was longer than its cap, and the cap that applied."""

    host: str
    what: str  # "Crawl-delay" or "Retry-After"
    asked_s: float
    cap_s: float
    setting: str  # the CrawlConfig field that holds the cap

    @property
    def text(self) -> str:
        """``"www.e.edu: Crawl-delay 1000 s capped at 60 s (max_crawl_delay_s)"``."""
        return (f"{self.host}: {self.what} {self.asked_s:g} s capped at {self.cap_s:g} s "
                f"({self.setting})")


def retry_after_s(value: str | None, date: str | None = None, now: float = 0.0) -> float | None:
    """Seconds a ``Retry-After`` value asks for, or None when absent or malformed.

    RFC 9110 §10.2.3: ``delay-seconds`` (digits) or an HTTP-date; a date is measured from
    the response's ``Date`` header when it has one (both are the server's clock), else from
    ``now`` (Unix time). A date in the past asks for no wait.
    """
    text = (value or "").strip()
    if not text:
        return None
    if text.isascii() and text.isdigit():
        # more than any cap; float() of 10**400 overflows, int() of 5,000 digits refuses
        return float(int(text)) if len(text) <= 12 else 1e12
    try:
        when = parsedate_to_datetime(text).timestamp()
    except (TypeError, ValueError, OverflowError, IndexError):
        return None
    start = now
    if date:
        try:
            start = parsedate_to_datetime(date).timestamp()
        except (TypeError, ValueError, OverflowError, IndexError):
            start = now
    return max(when - start, 0.0) if math.isfinite(when - start) else None


class Politeness:
    """Per-host request times and server-asked holds, under one ``FetchPolicy``."""

    def __init__(
        self, policy: FetchPolicy, clock: Callable[[], float], sleep: Callable[[float], None]
    ) -> None:
        self._policy = policy
        self._clock = clock
        self._sleep = sleep
        self._last_request_at: dict[str, float] = {}
        self._not_before: dict[str, float] = {}
        # host → its slots, one held while a request to it runs (``FetchPolicy.per_host``),
        # and the lock its waits take one after another (they read and set its last request)
        self._turns: dict[str, tuple[threading.BoundedSemaphore, threading.Lock]] = {}
        self._turns_lock = threading.Lock()

    @contextlib.contextmanager
    def turn(
        self, host: str, *, loopback: bool, crawl_delay: float | None
    ) -> Iterator[CappedWait | None]:
        """Hold one of ``host``'s slots for one request: wait for a slot (all taken: that many
        requests to it are in flight), then ``wait_turn``; the block sends the request and
        reads the answer. Yields the cap ``wait_turn`` returns. Never take another host's
        turn inside the block."""
        with self._turns_lock:
            turn = self._turns.get(host)
            if turn is None:
                turn = (threading.BoundedSemaphore(self._policy.per_host), threading.Lock())
                self._turns[host] = turn
        slots, waits = turn
        with slots:
            with waits:
                capped = self.wait_turn(host, loopback=loopback, crawl_delay=crawl_delay)
            yield capped

    def wait_turn(
        self, host: str, *, loopback: bool, crawl_delay: float | None
    ) -> CappedWait | None:
        """Sleep until a request to ``host`` may go, and note it as sent now. With fetches
        on several threads, call it through ``turn``.

        Returns the cap that cut this wait short (a ``Crawl-delay`` over its cap), if any.
        """
        delay = 0.0 if loopback else self._policy.delay_s
        capped = None
        if crawl_delay is not None:
            cap = self._policy.max_crawl_delay_s
            if crawl_delay > cap:
                capped = CappedWait(host, "Crawl-delay", crawl_delay, cap, "max_crawl_delay_s")
            delay = max(delay, min(crawl_delay, cap))
        now = self._clock()
        last = self._last_request_at.get(host)
        ready_at = max(now if last is None else last + delay, self._not_before.get(host, now))
        if ready_at > now:
            logger.debug("waiting %.2f s before the next request to %s", ready_at - now, host)
            self._sleep(ready_at - now)
        self._last_request_at[host] = self._clock()
        return capped if last is not None else None

    def hold_off(self, host: str, asked_s: float) -> CappedWait | None:
        """A server asked us not to come back for ``asked_s`` seconds (``Retry-After``).

        The next request to ``host`` waits that long from now, at most ``max_retry_after_s``;
        returns the cap when it applied.
        """
        cap = self._policy.max_retry_after_s
        wait_s = min(asked_s, cap)
        self._not_before[host] = max(self._not_before.get(host, 0.0), self._clock() + wait_s)
        logger.info("%s asked to wait %g s (Retry-After); waiting %g s", host, asked_s, wait_s)
        if asked_s > cap:
            return CappedWait(host, "Retry-After", asked_s, cap, "max_retry_after_s")
        return None
