"""Recording a page source's answers, and answering from a recording (offline).

A ``CrawlSession`` is a pure function of its config, the answers of its ``PageSource`` in
order, and the overrides at their steps. ``RecordingSource`` keeps the answers (every fetch
outcome, error or page, every robots answer, and the sitemap harvest); ``ReplaySource`` gives
them back without a network, so a session can be rebuilt (resume) or re-run with other
settings (replay).
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from pagesift_ui.errors import (
    FetchError,
    HTTPStatusError,
    NotRecorded,
    UnsupportedContentType,
    fetch_error_class,
)
from pagesift_ui.net.fetcher import FetchResult
from pagesift_ui.net.sitemaps import (
    SitemapFile,
    SitemapFound,
    SitemapHarvest,
    SitemapLimits,
    SitemapOutcome,
)
from pagesift_ui.session.crawl import PageSource

__all__ = [
    "Recorded",
    "RecordedError",
    "RecordedFetch",
    "RecordedRobots",
    "RecordedSitemaps",
    "RecordingSource",
    "ReplaySource",
    "fetch_result",
]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")


@dataclass(frozen=True, slots=True)
class RecordedError:
    """A fetch that failed, with everything needed to raise the same error again."""

    error_class: str  # the FetchError subclass's name, e.g. "HTTPStatusError"
    kind: str
    message: str
    status: int | None = None  # HTTPStatusError
    content_type: str | None = None  # UnsupportedContentType
    at: float | None = None  # when it failed (Unix time); None in recordings made before it

    @classmethod
    def from_exception(cls, exc: FetchError) -> RecordedError:
        return cls(
            error_class=type(exc).__name__,
            kind=exc.kind,
            message=exc.message,
            status=exc.status if isinstance(exc, HTTPStatusError) else None,
            content_type=exc.content_type if isinstance(exc, UnsupportedContentType) else None,
            at=exc.at,
        )

    def to_dict(self) -> dict[str, Any]:
        return {
            "class": self.error_class,
            "kind": self.kind,
            "message": self.message,
            "status": self.status,
            "content_type": self.content_type,
            "at": self.at,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RecordedError:
        """Rebuild from ``to_dict()``; raises KeyError/TypeError/ValueError on bad data."""
        status, content_type = data.get("status"), data.get("content_type")
        if status is not None and (isinstance(status, bool) or not isinstance(status, int)):
            raise TypeError(f"an error's status must be a number, got {status!r}")
        if content_type is not None and not isinstance(content_type, str):
            raise TypeError(f"an error's content_type must be text, got {content_type!r}")
        return cls(
            error_class=_text(data, "class"),
            kind=_text(data, "kind"),
            message=_text(data, "message"),
            status=status,
            content_type=content_type,
            at=_optional_time(data.get("at")),
        )

    def to_exception(self, url: str) -> FetchError:
        """The same error as recorded: same class, ``kind``, message and fields.

        A class this version does not know (a recording from a newer one) becomes a plain
        ``FetchError`` carrying the recorded ``kind``, so step records still say the same.
        """
        cls = fetch_error_class(self.error_class)
        at = self.at
        if cls is HTTPStatusError and self.status is not None:
            return HTTPStatusError(url, self.message, self.status, at=at)
        if cls is UnsupportedContentType and self.content_type is not None:
            return UnsupportedContentType(url, self.message, self.content_type, at=at)
        if cls is not None and cls not in (HTTPStatusError, UnsupportedContentType):
            return cls(url, self.message, at=at)
        error = FetchError(url, self.message, at=at)
        error.kind = self.kind
        return error


def _optional_time(value: object) -> float | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise TypeError(f"an error's time must be a number, got {value!r}")
    return float(value)


@dataclass(frozen=True, slots=True)
class RecordedFetch:
    """One ``fetch(url)`` answer: the page (``result``) or the failure (``error``)."""

    url: str
    result: FetchResult | None = None
    error: RecordedError | None = None

    def __post_init__(self) -> None:
        if (self.result is None) == (self.error is None):
            raise ValueError(f"a recorded fetch of {self.url} needs exactly one of result/error")


@dataclass(frozen=True, slots=True)
class RecordedRobots:
    """One ``allowed_by_robots(url)`` answer, or the error it raised (``allowed`` False then):
    a replay raises it again, so the link is refused with the same words (recordings made
    before it kept none, and their replay allowed such a link)."""

    url: str
    allowed: bool
    error: RecordedError | None = None


@dataclass(frozen=True, slots=True)
class RecordedSitemaps:
    """One ``sitemaps(limits)`` answer: the harvest as the session received it.

    The harvest, not the sitemap files, is the answer: a session asks for it once, and it
    is what the session's decisions depend on (``docs/DESIGN.md`` §11.13).
    """

    harvest: SitemapHarvest


def _text(data: Mapping[str, Any], key: str) -> str:
    value = data[key]
    if not isinstance(value, str):
        raise TypeError(f"'{key}' must be text, got {value!r}")
    return value


#: One recorded answer of a page source, in the order it was given.
Recorded = RecordedFetch | RecordedRobots | RecordedSitemaps


def fetch_result(
    *,
    url: str,
    final_url: str,
    status: int,
    content_type: str,
    encoding: str,
    body: bytes,
    redirects: Iterable[str],
    elapsed_s: float,
    fetched_at: float,
    headers: Iterable[tuple[str, str]],
) -> FetchResult:
    """A ``FetchResult`` rebuilt from stored fields (its ``text`` is decoded from ``body``).

    ``decode_html`` always returns ``body.decode(encoding, "replace")`` as the text, so the
    text need not be stored. Raises ValueError for an encoding Python does not know.
    """
    try:
        b"\x00".decode(encoding, "replace")  # unknown, or not a text codec (rot13): as text would
    except LookupError as exc:
        raise ValueError(f"unknown text encoding {encoding!r} for {url}") from exc
    return FetchResult(
        url=url,
        final_url=final_url,
        status=status,
        content_type=content_type,
        encoding=encoding,
        body=body,
        redirects=tuple(redirects),
        elapsed_s=elapsed_s,
        fetched_at=fetched_at,
        headers=tuple((str(name), str(value)) for name, value in headers),
    )


class RecordingSource:
    """A ``PageSource`` passing every call on to ``source`` and each answer to ``sink``.

    Answers reach ``sink`` in the order the session received them: a fetched page, a fetch
    error (then re-raised unchanged), or a robots answer. An exception that is not a
    ``FetchError`` is not an answer and is not recorded. ``on_close`` is called when the
    session closes it (after ``source`` is closed): the store gives up its claim then.
    """

    def __init__(
        self, source: PageSource, sink: Callable[[Recorded], None],
        on_close: Callable[[], None] | None = None,
    ) -> None:
        self.source = source
        self._sink = sink
        self._on_close = on_close

    def fetch(self, url: str) -> FetchResult:
        try:
            result = self.source.fetch(url)
        except FetchError as exc:
            self._sink(RecordedFetch(url, error=RecordedError.from_exception(exc)))
            raise
        self._sink(RecordedFetch(url, result=result))
        return result

    def prefetch(self, urls: Sequence[str]) -> None:
        """Passed on: only ``fetch``'s answers are recorded, in the order they are taken."""
        self.source.prefetch(urls)

    def allowed_by_robots(self, url: str) -> bool:
        try:
            allowed = self.source.allowed_by_robots(url)
        except FetchError as exc:
            self._sink(RecordedRobots(url, False, RecordedError.from_exception(exc)))
            raise
        self._sink(RecordedRobots(url, bool(allowed)))
        return allowed

    def sitemaps(self, limits: SitemapLimits) -> SitemapHarvest:
        harvest = self.source.sitemaps(limits)
        self._sink(RecordedSitemaps(harvest))
        return harvest

    def close(self) -> None:
        try:
            self.source.close()
        finally:
            if self._on_close is not None:
                self._on_close()


class ReplaySource:
    """A ``PageSource`` answering from a recording; it never touches the network.

    ``fetch(url)`` gives the recorded answers for ``url`` in their recorded order (after the
    last one, the last one again); a URL never fetched in the recording raises
    ``NotRecorded`` and is listed in ``unavailable``. Re-run with the recording's settings,
    a session asks exactly the recorded questions in the recorded order, so it gets exactly
    the recorded answers.

    ``allowed_by_robots(url)`` answers likewise from the recorded answers for ``url``. A URL
    the recording never asked about is allowed: robots.txt itself is not recorded, and if
    the page was never fetched either, its fetch reports ``not_recorded`` — the honest
    answer — rather than a guess that it was disallowed.

    ``sitemaps(limits)`` gives the recorded harvests in order (after the last, the last
    again), cut to ``limits.urls`` when a replay asks for fewer URLs than were recorded; a
    recording without one answers with no URLs and a note saying it was not recorded.
    """

    def __init__(self, recorded: Iterable[Recorded]) -> None:
        self._fetches: dict[str, list[RecordedFetch]] = {}
        self._robots: dict[str, list[RecordedRobots]] = {}
        self._sitemaps: list[SitemapHarvest] = []
        for answer in recorded:
            if isinstance(answer, RecordedFetch):
                self._fetches.setdefault(answer.url, []).append(answer)
            elif isinstance(answer, RecordedSitemaps):
                self._sitemaps.append(answer.harvest)
            else:
                self._robots.setdefault(answer.url, []).append(answer)
        self._served: Counter[tuple[str, str]] = Counter()
        self.unavailable: list[str] = []

    @property
    def urls(self) -> list[str]:
        """The URLs the recording fetched (or failed to), in first-fetch order."""
        return list(self._fetches)

    def fetch(self, url: str) -> FetchResult:
        answers = self._fetches.get(url)
        if not answers:
            if url not in self.unavailable:
                self.unavailable.append(url)
            raise NotRecorded(
                url, f"{url} was not fetched when the session was recorded; a replay is "
                "offline and can only show pages the recording holds"
            )
        answer = self._next("fetch", url, answers)
        if answer.error is not None:
            raise answer.error.to_exception(url)
        assert answer.result is not None  # RecordedFetch holds exactly one of the two
        return answer.result

    def prefetch(self, urls: Sequence[str]) -> None:
        """Nothing to start: a recorded answer is given when ``fetch`` asks for it, so a
        link popped ahead and put back unfetched (docs/DESIGN.md §11.13) takes none."""

    def allowed_by_robots(self, url: str) -> bool:
        answers = self._robots.get(url)
        if not answers:
            return True
        answer = self._next("robots", url, answers)
        if answer.error is not None:
            raise answer.error.to_exception(url)
        return answer.allowed

    def sitemaps(self, limits: SitemapLimits) -> SitemapHarvest:
        if not self._sitemaps:
            note = SitemapFile("", SitemapFound.DEFAULT, SitemapOutcome.FAILED,
                               detail="the recording holds no sitemaps; a replay is offline")
            return SitemapHarvest((), (note,))
        harvest = self._next("sitemaps", "", self._sitemaps)
        if len(harvest.entries) <= limits.urls:
            return harvest
        kept = harvest.entries[: limits.urls]
        return SitemapHarvest(kept, harvest.files, harvest.cut + len(harvest.entries) - len(kept),
                              harvest.not_read)

    def close(self) -> None:
        """Nothing to release: the recording is in memory."""

    def _next(self, kind: str, url: str, answers: list[_T]) -> _T:
        served = self._served[kind, url]
        self._served[kind, url] = served + 1
        return answers[min(served, len(answers) - 1)]
