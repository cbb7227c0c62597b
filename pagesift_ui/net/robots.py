"""robots.txt rules per origin, with the failure semantics of RFC 9309.

Parsing is Protego's (the parser Scrapy uses). This module does no I/O: the fetcher hands
``RobotsCache`` a loader that downloads ``/robots.txt`` and reports the final status.

RFC 9309 §2.3.1: 2xx → the rules in the file apply; 4xx → "unavailable", crawl anything
(§2.3.1.3); 5xx or no answer → "unreachable", crawl nothing (§2.3.1.4).

Work per URL: Protego tries a URL against the rules one by one, about 5 µs per wildcard
rule, so a robots.txt of 14,000 wildcard rules cost 75 ms per link and 148 s per step. RFC
9309 §2.5 lets a crawler limit what it parses (it must read at least 500 KiB); we also keep
only the first ``MAX_ROBOTS_RULES`` Allow/Disallow lines of a file, which bounds a check at
a few milliseconds whatever the file holds. A real robots.txt rarely has more than a few
hundred rules; the ones past the limit are ignored, as bytes past the size limit are.
"""

from __future__ import annotations

import enum
import logging
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from protego import Protego

from pagesift_ui.errors import FetchError

__all__ = [
    "MAX_ROBOTS_RULES",
    "RobotsCache",
    "RobotsDownload",
    "RobotsLoader",
    "RobotsRules",
    "RobotsState",
    "product_token",
    "rules_from_response",
]

logger = logging.getLogger(__name__)



class RobotsDownload(NamedTuple):
    """What downloading a robots.txt gave: the final status and body, or the failure."""

    status: int | None  # None: no HTTP answer at all
    body: bytes
    failure: FetchError | None = None  # why there was no answer (refused, timed out, ...)


RobotsLoader = Callable[[str], RobotsDownload]
"""Downloads a robots.txt URL (the fetcher's ``_load_robots``)."""

#: Allow/Disallow lines kept per robots.txt (see the module docstring).
MAX_ROBOTS_RULES = 1_000
# Protego reads these fields (and a few misspellings of "disallow") as rules.
_RULE_FIELDS = frozenset(
    {"allow", "disallow", "dissallow", "dissalow", "disalow", "diasllow", "disallaw"}
)

# RFC 9309 §2.4: do not use a cached robots.txt for more than 24 hours.
CACHE_TTL_S = 24 * 3600.0
# An unreachable robots.txt means "crawl nothing" (§2.3.1.4); ask again after a short while
# so that one transient 503 does not block a host for the whole session.
UNREACHABLE_TTL_S = 300.0


class RobotsState(enum.Enum):
    """How a robots.txt answer was interpreted (RFC 9309 §2.3.1)."""

    PARSED = "parsed"
    UNAVAILABLE = "unavailable"
    UNREACHABLE = "unreachable"


@dataclass(frozen=True, slots=True)
class RobotsRules:
    """The verdict for one origin: parsed rules, allow-all, or disallow-all.

    ``ignored_rules`` counts the rules past ``MAX_ROBOTS_RULES``; an unreachable robots.txt
    keeps the ``status`` it answered (5xx) or the ``failure`` that left it unanswered.
    """

    state: RobotsState
    parser: Protego | None = None
    ignored_rules: int = 0
    status: int | None = None
    failure: FetchError | None = None

    def allows(self, url: str, token: str) -> bool:
        """True when ``token`` (a product token such as ``pagesift-ui``) may fetch ``url``."""
        if self.state is RobotsState.UNREACHABLE:
            return False
        if self.parser is None:
            return True
        return self.parser.can_fetch(url, token)

    def crawl_delay(self, token: str) -> float | None:
        """The ``Crawl-delay`` in seconds for ``token``, or None when the file sets none."""
        return None if self.parser is None else self.parser.crawl_delay(token)


def rules_from_response(
    status: int | None, body: bytes, failure: FetchError | None = None
) -> RobotsRules:
    """Interpret a robots.txt download. ``status`` None means no HTTP answer at all
    (``failure`` says why)."""
    if status is None or status >= 500:
        # RFC 9309 §2.3.1.4: unreachable (5xx or network error) → assume complete disallow.
        return RobotsRules(RobotsState.UNREACHABLE, status=status, failure=failure)
    if 200 <= status < 300:
        # RFC 9309 §2.2: the file is UTF-8; undecodable bytes cannot form a matching rule.
        # A byte order mark is no part of the first line (Google's parser drops it too): read
        # as text, "\ufeffUser-agent" named no field and the whole file went unread
        text, ignored = _first_rules(body.decode("utf-8-sig", "replace"), MAX_ROBOTS_RULES)
        if ignored:
            logger.warning("robots.txt has %d rules; the %d past the first %d are ignored",
                           MAX_ROBOTS_RULES + ignored, ignored, MAX_ROBOTS_RULES)
        return RobotsRules(RobotsState.PARSED, Protego.parse(text), ignored, status)
    # RFC 9309 §2.3.1.3: 4xx (and a redirect chain we gave up on, §2.3.1.2) → unavailable:
    # the crawler may access any resource.
    return RobotsRules(RobotsState.UNAVAILABLE, status=status)


def _first_rules(text: str, limit: int) -> tuple[str, int]:
    """``text`` without the Allow/Disallow lines past the first ``limit``, and their count."""
    kept: list[str] = []
    rules = 0
    for line in text.splitlines():
        field = line.split("#", 1)[0].split(":", 1)[0].strip().lower()
        if field in _RULE_FIELDS:
            rules += 1
            if rules > limit:
                continue
        kept.append(line)
    return "\n".join(kept), max(rules - limit, 0)


def product_token(user_agent: str) -> str:
    """The product token of a User-Agent string, matched against robots.txt groups.

    RFC 9309 §2.2.1 matches the product token (``pagesift-ui``), not the whole header;
    matching the whole header would let a group for ``github`` apply because of the URL
    in our comment.
    """
    token = user_agent.strip().split("/", 1)[0].split(None, 1)
    return token[0].lower() if token else ""


@dataclass(slots=True)
class _Entry:
    host: str
    rules: RobotsRules
    expires_at: float


class RobotsCache:
    """robots.txt verdicts cached per scheme, host and port (RFC 9309 §2.3).

    ``load`` is called with ``scheme://host[:port]/robots.txt`` on a miss; ``clock`` is a
    monotonic clock in seconds used for expiry. Safe to share between threads (the fetcher's
    fetches in flight, docs/DESIGN.md §11.14): a robots.txt is loaded once however many
    threads ask for it at the same time, the later ones waiting for the first one's answer.
    """

    def __init__(self, load: RobotsLoader, clock: Callable[[], float]) -> None:
        self._load = load
        self._clock = clock
        self._entries: dict[str, _Entry] = {}
        self._lock = threading.Lock()  # guards _entries and _loading, never held in a load
        self._loading: dict[str, threading.Lock] = {}  # robots URL → held while it loads

    def rules_for(self, robots_url: str, host: str) -> RobotsRules:
        """The verdict for the origin of ``robots_url``, loading it when missing or stale."""
        rules = self._fresh(robots_url)
        if rules is not None:
            return rules
        with self._lock:
            loading = self._loading.setdefault(robots_url, threading.Lock())
        with loading:
            rules = self._fresh(robots_url)  # loaded by another thread while this one waited
            if rules is None:
                rules = self._download(robots_url, host)
        return rules

    def _fresh(self, robots_url: str) -> RobotsRules | None:
        with self._lock:
            entry = self._entries.get(robots_url)
        if entry is None or entry.expires_at <= self._clock():
            return None
        return entry.rules

    def _download(self, robots_url: str, host: str) -> RobotsRules:
        now = self._clock()
        download = self._load(robots_url)
        rules = rules_from_response(*download)
        logger.info("robots.txt %s: %s (status %s)", robots_url, rules.state.value,
                    download.status)
        ttl = UNREACHABLE_TTL_S if rules.state is RobotsState.UNREACHABLE else CACHE_TTL_S
        with self._lock:
            self._entries[robots_url] = _Entry(host=host, rules=rules, expires_at=now + ttl)
        return rules

    def crawl_delay(self, host: str, token: str) -> float | None:
        """Largest ``Crawl-delay`` any loaded robots.txt of ``host`` sets, or None.

        Never loads anything: before the first robots.txt of a host is read, there is none.
        """
        with self._lock:
            entries = list(self._entries.values())
        delays = [
            delay
            for entry in entries
            if entry.host == host and (delay := entry.rules.crawl_delay(token)) is not None
        ]
        return max(delays) if delays else None
