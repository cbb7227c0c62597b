"""Reading a site's sitemaps, bounded in files, URLs and bytes (docs/DESIGN.md §11.13).

Where the sitemaps are: the ``Sitemap:`` lines of the seed origin's robots.txt (RFC 9309
§2.2.4 lets the file name them), else ``/sitemap.xml`` at the seed's origin, the name
sitemaps.org suggests. A sitemap index (``<sitemapindex>``) is followed one level: the
protocol says an index lists sitemaps, never other indexes, so an index found through an
index is refused rather than recursed into. Each file is fetched by the ``Fetcher`` through
the path pages take (network policy, scope, robots.txt, politeness, deadline, body cap), and
a ``.xml.gz`` file — gzip *content*, not a content coding — is un-gzipped here by the same
bounded decoder, under the same cap.

A page URL is taken only from a sitemap on its own host (sitemaps.org, "Sitemap file
location": a sitemap may list URLs of its own host only); the others are counted. Nothing
here raises for a missing or broken sitemap: every file's fate is a ``SitemapFile`` note of
the ``SitemapHarvest``, which the session records.
"""

from __future__ import annotations

import enum
import logging
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from pagesift_ui.errors import BodyTooLarge, FetchError
from pagesift_ui.net.decoding import ContentDecoder, DecodingError
from pagesift_ui.page.sitemap import SitemapEntry, SitemapError, SitemapKind, parse_sitemap

__all__ = [
    "GZIP_MAGIC",
    "MAX_FILE_NOTES",
    "SitemapFetch",
    "SitemapFile",
    "SitemapFound",
    "SitemapHarvest",
    "SitemapLimits",
    "SitemapOutcome",
    "gunzip_capped",
    "harvest_sitemaps",
]

logger = logging.getLogger(__name__)

#: RFC 1952 §2.3.1: every gzip member starts with ID1 ID2 = 0x1f 0x8b.
GZIP_MAGIC = b"\x1f\x8b"
#: The most sitemap files one harvest may fetch (``CrawlConfig.max_sitemaps``' upper end):
#: each gets its note in the record, so the record stays small.
MAX_FILE_NOTES = 50


class SitemapFound(enum.StrEnum):
    """Where a sitemap's URL came from."""

    ROBOTS = "robots.txt"  # a Sitemap: line
    DEFAULT = "/sitemap.xml"  # robots.txt named none: the conventional place
    INDEX = "sitemap index"  # listed by a sitemap index


class SitemapOutcome(enum.StrEnum):
    """What became of one sitemap file."""

    READ = "read"
    FAILED = "failed"  # not fetched (404, robots, policy, too large ...) or not a sitemap
    REFUSED = "refused"  # an index inside an index (sitemaps.org forbids it)


@dataclass(frozen=True, slots=True)
class SitemapLimits:
    """The caps of one harvest: sitemap files fetched, page URLs taken, bytes per file
    (after un-gzipping)."""

    files: int
    urls: int
    bytes: int

    def __post_init__(self) -> None:
        for name in ("files", "urls", "bytes"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be a whole number >= 1, got {value!r}")
        if self.files > MAX_FILE_NOTES:
            raise ValueError(f"files must be at most {MAX_FILE_NOTES}, got {self.files!r}")


@dataclass(frozen=True, slots=True)
class SitemapFile:
    """One sitemap file and what became of it: how many entries it ``listed`` (page URLs or
    sitemaps), how many were ``taken``, how many named another host; ``detail`` says why it
    failed."""

    url: str
    found: SitemapFound
    outcome: SitemapOutcome
    kind: str = ""  # SitemapKind's value once read
    listed: int = 0
    taken: int = 0
    other_host: int = 0
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {"url": self.url, "found": self.found.value, "outcome": self.outcome.value,
                "kind": self.kind, "listed": self.listed, "taken": self.taken,
                "other_host": self.other_host, "detail": self.detail}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SitemapFile:
        return cls(
            url=str(data["url"]), found=SitemapFound(data["found"]),
            outcome=SitemapOutcome(data["outcome"]), kind=str(data.get("kind", "")),
            listed=int(data.get("listed", 0)), taken=int(data.get("taken", 0)),
            other_host=int(data.get("other_host", 0)), detail=str(data.get("detail", "")),
        )


@dataclass(frozen=True, slots=True)
class SitemapHarvest:
    """What the sitemaps gave: the page URLs taken (in the order read), each fetched file's
    note, ``cut`` (page URLs listed past the URL cap) and ``not_read`` (sitemaps found but
    past the file cap)."""

    entries: tuple[SitemapEntry, ...]
    files: tuple[SitemapFile, ...]
    cut: int = 0
    not_read: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "entries": [[e.url, e.lastmod] for e in self.entries],
            "files": [f.to_dict() for f in self.files],
            "cut": self.cut,
            "not_read": self.not_read,
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SitemapHarvest:
        """Rebuild from ``to_dict()``; raises KeyError/TypeError/ValueError on bad data."""
        return cls(
            entries=tuple(SitemapEntry(str(url), str(lastmod))
                          for url, lastmod in data["entries"]),
            files=tuple(SitemapFile.from_dict(f) for f in data["files"]),
            cut=int(data.get("cut", 0)),
            not_read=int(data.get("not_read", 0)),
        )


#: Fetches one sitemap under a byte cap: ``(final URL, XML bytes, un-gzipped)``, or raises
#: ``FetchError`` (the ``Fetcher``'s ``fetch_sitemap``).
SitemapFetch = Callable[[str, int], tuple[str, bytes]]


def gunzip_capped(url: str, data: bytes, limit: int) -> bytes:
    """``data`` un-gzipped, stopping as soon as it passes ``limit`` bytes (a 1 KiB gzip file
    may inflate to gigabytes): ``BodyTooLarge`` then, ``FetchError`` for broken gzip."""
    pieces: list[bytes] = []
    size = 0
    try:
        for piece in ContentDecoder(["gzip"]).feed(data):
            size += len(piece)
            if size > limit:
                raise BodyTooLarge(
                    url, f"{url} passed the {limit:,}-byte limit while un-gzipping; stopped"
                )
            pieces.append(piece)
    except DecodingError as exc:
        raise FetchError(url, f"{url} is not valid gzip: {exc}") from exc
    return b"".join(pieces)


@dataclass(slots=True)
class _Run:
    """The state of one harvest while it runs."""

    limits: SitemapLimits
    entries: list[SitemapEntry]
    files: list[SitemapFile]
    fetched: int = 0
    cut: int = 0
    not_read: int = 0

    def note(self, file: SitemapFile) -> None:
        self.files.append(file)
        log = logger.info if file.outcome is SitemapOutcome.READ else logger.warning
        log("sitemap %s (%s): %s %s", file.url, file.found.value, file.outcome.value,
            file.detail or f"{file.taken} of {file.listed} taken")


def harvest_sitemaps(
    locations: Iterable[tuple[str, SitemapFound]], fetch: SitemapFetch, limits: SitemapLimits
) -> SitemapHarvest:
    """Read the sitemaps at ``locations`` (and those their indexes list, one level), in
    order, until ``limits`` are reached. Never raises for what a server sent."""
    run = _Run(limits, [], [])
    pending: deque[tuple[str, SitemapFound]] = deque(locations)
    seen: set[str] = set()
    while pending:
        url, found = pending.popleft()
        if url in seen:
            continue
        seen.add(url)
        if run.fetched >= limits.files:
            run.not_read += 1
            continue
        run.fetched += 1
        for child in _read_one(run, url, found, fetch):
            pending.append((child, SitemapFound.INDEX))
    return SitemapHarvest(tuple(run.entries), tuple(run.files), run.cut, run.not_read)


def _read_one(run: _Run, url: str, found: SitemapFound, fetch: SitemapFetch) -> list[str]:
    """Fetch and read one file into ``run``; the sitemaps it lists when it is an index."""
    try:
        final_url, data = fetch(url, run.limits.bytes)
        remaining = max(run.limits.urls - len(run.entries), 0)
        parsed = parse_sitemap(data, max(remaining, run.limits.files))
    except FetchError as exc:
        run.note(SitemapFile(url, found, SitemapOutcome.FAILED, detail=exc.message))
        return []
    except SitemapError as exc:
        run.note(SitemapFile(url, found, SitemapOutcome.FAILED,
                             detail=f"{url} is not a sitemap: {exc}"))
        return []
    if parsed.kind is SitemapKind.INDEX:
        if found is SitemapFound.INDEX:
            run.note(SitemapFile(url, found, SitemapOutcome.REFUSED, parsed.kind.value,
                                 parsed.listed, detail="a sitemap index listed by a sitemap "
                                 "index; sitemaps.org allows one level, so it is not read"))
            return []
        children = [entry.url for entry in parsed.entries[: run.limits.files]]
        run.not_read += parsed.listed - len(children)
        run.note(SitemapFile(url, found, SitemapOutcome.READ, parsed.kind.value,
                             parsed.listed, len(children)))
        return children
    host = _host(final_url)
    own = [entry for entry in parsed.entries[:remaining] if _host(entry.url) == host]
    other = min(len(parsed.entries), remaining) - len(own)
    run.cut += parsed.listed - min(len(parsed.entries), remaining)
    run.entries.extend(own)
    run.note(SitemapFile(url, found, SitemapOutcome.READ, parsed.kind.value, parsed.listed,
                         len(own), other))
    return []


def _host(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").lower().rstrip(".")
    except ValueError:
        return ""
