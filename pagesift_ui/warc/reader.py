"""Reading a WARC back as a recording: ``WarcSource`` replays a crawl from it, offline.

A WARC written by pagesift-ui (``writer.py``) gives back exactly what was recorded: every
fetch outcome in order (errors included), every robots answer, the config and the events —
from the last session record wherever it is, and the robots answers and events written after
it. A pagesift file that ends in a partial gzip member (its writer was killed) is read up to
the last whole one, and says so (``WarcRecording.torn_bytes``).
Any other WARC (wget, Heritrix, Browsertrix …) is read as a plain web archive: each
``response`` record answers for its URL, 3xx responses redirect within the archive, 4xx/5xx
become ``HTTPStatusError`` and non-HTML becomes ``UnsupportedContentType``; it has no config,
so a replay needs the start URL and the query from the caller.

A WARC is data from anywhere, so reading one is bounded and strict: the file is size-capped,
its gzip members may inflate to at most ``content_budget`` bytes all together (checked, in
small pieces, before warcio reads anything: a bomb costs no memory), every record's content
is read to a cap, a record cut short or a corrupt member is an error (not a short record),
and the pagesift metadata is checked field by field. Every failure is a ``WarcError`` naming
the file and the record.
"""

from __future__ import annotations

import logging
import zlib
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urljoin

from warcio.archiveiterator import ArchiveIterator
from warcio.exceptions import ArchiveLoadFailed
from warcio.recordloader import ArcWarcRecordLoader
from warcio.statusandheaders import StatusAndHeadersParserException

from pagesift_ui.errors import ConfigError, WarcError
from pagesift_ui.net.fetcher import HTML_MEDIA_TYPES, parse_content_type
from pagesift_ui.net.sitemaps import SitemapHarvest
from pagesift_ui.page.extract import decode_html
from pagesift_ui.session import CrawlConfig, Override
from pagesift_ui.store.recording import (
    Recorded,
    RecordedError,
    RecordedFetch,
    RecordedRobots,
    RecordedSitemaps,
    ReplaySource,
    fetch_result,
)
from pagesift_ui.store.replay import SessionEvent, merge_events
from pagesift_ui.store.validate import (
    ERROR,
    HARVEST,
    MARK,
    Check,
    ErrorClass,
    boolean,
    check_override,
    integer,
    items,
    loads,
    nullable,
    number,
    pair,
    record,
    text,
)
from pagesift_ui.warc.writer import (
    EVENT_META,
    FETCH_META,
    ROBOTS_META,
    SITEMAPS_META,
    WARC_FORMAT,
)

__all__ = [
    "MAX_WARC_BYTES",
    "WarcRecording",
    "WarcSource",
    "content_budget",
    "read_warc",
]

logger = logging.getLogger(__name__)

MAX_REDIRECTS = 10
_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 20
#: Inflate at most this much per call while scanning (a bomb never gets a big buffer).
_PIECE = 1 << 16
#: Larger files are refused before they are read.
MAX_WARC_BYTES = 2 * 1024 * 1024 * 1024
#: What a WARC's records may inflate to, all together: this many times the file's size
#: (gzipped HTML is 4–10×), at least the floor, at most the cap.
INFLATE_RATIO = 32
INFLATE_FLOOR_BYTES = 64 * 1024 * 1024
MAX_CONTENT_BYTES = 4 * 1024 * 1024 * 1024
#: A metadata record's JSON (the session record holds the config, overrides and robots).
MAX_META_BYTES = 256 * 1024 * 1024


def content_budget(file_bytes: int) -> int:
    """How many bytes the records of a WARC of ``file_bytes`` may hold, all together."""
    return min(MAX_CONTENT_BYTES, max(INFLATE_FLOOR_BYTES, INFLATE_RATIO * file_bytes))


@dataclass(frozen=True, slots=True)
class WarcRecording:
    """What a WARC holds for a replay. ``config`` is None for a WARC from another tool.

    ``torn_bytes`` is the size of a partial record at the end that was left out (a writer
    killed mid-record), 0 when the file is whole. ``finished``: the crawl that wrote it
    ended and closed it, which writes a session record after everything else
    (``writer.write_session``); a writer killed first leaves records after its last session
    record, and a replay with the recording's settings ends where they end.
    """

    config: CrawlConfig | None
    responses: tuple[Recorded, ...]
    events: tuple[SessionEvent, ...]
    session_id: str = ""
    torn_bytes: int = 0
    finished: bool = True


@dataclass(frozen=True, slots=True)
class _Page:
    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    fetched_at: float


def read_warc(path: Path) -> WarcRecording:
    """Read a ``.warc`` or ``.warc.gz`` file; raises ``WarcError`` if it cannot be used."""
    pages: dict[str, _Page] = {}  # WARC-Record-ID → response
    by_url: dict[str, _Page] = {}
    session: dict[str, Any] | None = None
    later: list[dict[str, Any]] = []  # robots and event records after the last session record
    answers: list[Recorded] = []
    after_session = False  # a record came after the last session record
    with _open(path) as stream:
        whole, torn = _whole_records(path, stream)
        for where, kind, record_id, data in _records(path, whole, stream):
            after_session = True
            if kind == "response":
                pages[record_id] = data
                by_url.setdefault(data.url, data)
            elif data.get("format") == WARC_FORMAT:
                _check(_SESSION, data, where)
                session, later, after_session = data, [], False
            elif data.get("kind") == FETCH_META:
                answers.append(_answer(where, data, pages))
            elif data.get("kind") in _LATER:
                _check(_LATER[data["kind"]], data, where)
                later.append(data)
    if torn and session is None:
        raise WarcError(f"{path} is cut short: it ends in a partial record ({torn:,} bytes)")
    if torn:
        logger.warning("%s ends in a partial record (%d bytes): read up to the last whole one",
                       path, torn)
    if session is None and not by_url:
        raise WarcError(f"{path} holds no HTTP responses and no pagesift session to replay")
    if session is None:
        logger.info("%s was not written by pagesift-ui: reading it as a plain archive", path)
        return WarcRecording(None, tuple(_foreign_answers(by_url)), ())
    return _recording(path, session, later, answers, torn, finished=not (torn or after_session))


def _open(path: Path) -> BinaryIO:
    try:
        if path.is_dir():
            raise WarcError(f"{path} is a folder, not a WARC file")
        size = path.stat().st_size
        if size > MAX_WARC_BYTES:
            raise WarcError(f"{path} is {size:,} bytes; a WARC file may be at most "
                            f"{MAX_WARC_BYTES:,}")
        return path.open("rb")
    except FileNotFoundError:
        raise WarcError(f"{path}: no such file") from None
    except OSError as exc:
        raise WarcError(f"{path} cannot be read: {exc.strerror or exc}") from exc


# -- records ---------------------------------------------------------------------------------

_HEADERS = items(pair(text(), text()))


def _robot_answer(value: Any, path: str, error: ErrorClass) -> None:
    """[url, allowed], or [url, allowed, error] for a check that failed."""
    if isinstance(value, list) and len(value) == 3:
        pair(text(), boolean)(value[:2], path, error)
        ERROR(value[2], f"{path}[2]", error)
    else:
        pair(text(), boolean)(value, path, error)


_ROBOT_PAIRS = items(_robot_answer, limit=10_000_000)
_SESSION: Check = record(
    {"config": record({})},
    {"overrides": items(check_override, limit=10_000_000),
     "queue_empty": items(MARK, limit=10_000_000), "robots": _ROBOT_PAIRS,
     "session_id": text(256), "sitemaps": items(HARVEST, limit=10_000)},
)
_ROBOTS: Check = record({"kind": text(), "robots": _ROBOT_PAIRS})
_EVENT: Check = record({"kind": text(), "after_step": integer(),
                        "override": nullable(check_override)})
_SITEMAPS: Check = record({"kind": text(), "harvest": HARVEST})
#: The metadata records a reader keeps for after the last session record, by kind.
_LATER: dict[str, Check] = {ROBOTS_META: _ROBOTS, EVENT_META: _EVENT, SITEMAPS_META: _SITEMAPS}
_FETCH_ERROR: Check = record({"url": text(), "error": ERROR})
_FETCH_PAGE: Check = record({
    "url": text(), "response": text(1024), "final_url": text(),
    "redirects": items(text(), limit=100), "encoding": text(64), "elapsed_s": number(0.0),
    "fetched_at": number(0.0, 1e13), "headers": _HEADERS,
})


def _check(check: Check, data: Mapping[str, Any], where: str) -> None:
    check(data, where, WarcError)


def _records(
    path: Path, budget: _Budget, stream: BinaryIO
) -> Iterator[tuple[str, str, str, Any]]:
    """(where, type, record id, a _Page or a metadata dict) of the records a replay uses;
    ``where`` names the record in messages."""
    source = budget.stream
    loader = ArcWarcRecordLoader()
    index = 0
    try:
        iterator = iter(ArchiveIterator(source, no_record_parse=True))
        while True:
            index += 1
            where = f"{path}: record {index}"
            try:
                entry = next(iterator)
            except StopIteration:
                return
            rec_type = entry.rec_headers.get_header("WARC-Type") or ""
            uri = entry.rec_headers.get_header("WARC-Target-URI")
            record_id = entry.rec_headers.get_header("WARC-Record-ID") or ""
            where = f"{path}: record {index} ({rec_type or 'untyped'}{' ' + uri if uri else ''})"
            if rec_type == "response":
                if not uri:
                    raise WarcError(f"{where}: a response record without WARC-Target-URI")
                yield where, "response", record_id, _page(entry, uri, loader, budget, where)
            elif rec_type == "metadata" and "json" in (entry.content_type or ""):
                data = loads(_read(entry.raw_stream, MAX_META_BYTES, budget, where),
                             WarcError, where)
                if isinstance(data, dict):
                    yield where, "metadata", record_id, data
            _drain(entry, where)
    except (ArchiveLoadFailed, StatusAndHeadersParserException, EOFError, ValueError,
            zlib.error) as exc:
        if isinstance(exc, WarcError):
            raise
        raise WarcError(f"{path}: record {index} cannot be read as a WARC record: {exc}") from exc
    except OSError as exc:
        raise WarcError(f"{path} cannot be read: {exc.strerror or exc}") from exc


def _read(stream: Any, limit: int, budget: _Budget, where: str) -> bytes:
    """At most ``limit`` bytes of ``stream`` (more is an error), counted against the budget."""
    data = stream.read(min(limit, budget.left) + 1)
    if len(data) > limit:
        raise WarcError(f"{where}: more than {limit:,} bytes")
    budget.spend(len(data), where)
    return bytes(data)


def _drain(entry: Any, where: str) -> None:
    """Read the rest of the record; a record whose block is shorter than its
    Content-Length was cut short."""
    raw = entry.raw_stream
    while raw.read(_CHUNK):
        pass
    if getattr(raw, "limit", 0) > 0:
        length = entry.rec_headers.get_header("Content-Length")
        raise WarcError(f"{where}: cut short: Content-Length says {length} bytes, the file "
                        f"ends {raw.limit:,} bytes early")


class _Budget:
    """What the records may still hold, and the stream warcio reads."""

    def __init__(self, stream: BinaryIO, total: int) -> None:
        self.stream = stream
        self.left = total
        self.total = total

    def spend(self, size: int, where: str) -> None:
        self.left -= size
        if self.left < 0:
            raise WarcError(f"{where}: the records hold more than {self.total:,} bytes, "
                            "too much for a file this size")


def _whole_records(path: Path, stream: BinaryIO) -> tuple[_Budget, int]:
    """The part of ``stream`` made of whole records, and how many bytes of a partial gzip
    member at the end were left out (a writer killed mid-record).

    warcio reads a cut member as far as it goes, so a torn record would look like a short
    one; only members whose gzip trailer is there (and checks) are kept. A corrupt member,
    or members inflating past the budget, are errors.
    """
    size = stream.seek(0, 2)
    budget = content_budget(size)
    stream.seek(0)
    if stream.read(2) != _GZIP_MAGIC:
        stream.seek(0)
        return _Budget(stream, budget), 0
    stream.seek(0)
    whole = _whole_gzip_length(path, stream, budget)
    stream.seek(0)
    if whole == size:
        return _Budget(stream, budget), 0
    return _Budget(BytesIO(stream.read(whole)), budget), size - whole


def _whole_gzip_length(path: Path, stream: BinaryIO, budget: int) -> int:
    """How many bytes from the start of ``stream`` are whole gzip members (each inflated in
    pieces of at most ``_PIECE`` bytes and dropped)."""
    whole = inflated = 0
    position = 0  # where in the file ``chunk`` starts
    member = zlib.decompressobj(wbits=31)
    while chunk := stream.read(_CHUNK):
        while chunk:
            try:
                piece = member.decompress(chunk, _PIECE)
            except zlib.error as exc:
                raise WarcError(f"{path}: the gzip member at byte {whole:,} is corrupt "
                                f"({exc})") from exc
            inflated += len(piece)
            if inflated > budget:
                raise WarcError(f"{path} inflates to more than {budget:,} bytes, too much for "
                                f"a file of {stream.seek(0, 2):,} bytes (a compression bomb?)")
            if member.eof:
                # the member ended: what follows it in ``chunk`` is the next member's. Asked
                # first: a member that ends as the piece fills leaves those bytes in
                # ``unconsumed_tail`` too, and fed back to the finished member they only
                # grew ``unused_data``, for ever (a page of 128 KiB)
                rest = member.unused_data
                position += len(chunk) - len(rest)
                whole = position
                member, chunk = zlib.decompressobj(wbits=31), rest
            elif member.unconsumed_tail:
                # the piece filled first: the rest of ``chunk`` is read next
                tail = member.unconsumed_tail
                position += len(chunk) - len(tail)
                chunk = tail
            else:
                position += len(chunk)
                break
    return whole


def _page(entry: Any, uri: str, loader: ArcWarcRecordLoader, budget: _Budget,
          where: str) -> _Page:
    http_headers = loader.load_http_headers("response", uri, entry.raw_stream, entry.length)
    if http_headers is None:
        raise WarcError(f"{where}: a response record without HTTP headers")
    entry.http_headers = http_headers
    date = entry.rec_headers.get_header("WARC-Date") or ""
    try:
        status = int(http_headers.get_statuscode() or 0)
    except ValueError:
        raise WarcError(f"{where}: the HTTP status {http_headers.statusline!r:.40} is not a "
                        "number") from None
    return _Page(
        url=uri,
        status=status,
        headers=tuple((str(k), str(v)) for k, v in http_headers.headers),
        body=_read(entry.content_stream(), budget.left, budget, where),
        fetched_at=_timestamp(date),
    )


def _answer(where: str, data: Mapping[str, Any], pages: Mapping[str, _Page]) -> Recorded:
    url = data.get("url")
    if "error" in data:
        _check(_FETCH_ERROR, data, where)
        return RecordedFetch(data["url"], error=RecordedError.from_dict(data["error"]))
    _check(_FETCH_PAGE, data, where)
    page = pages.get(data["response"])
    if page is None:
        raise WarcError(f"{where}: the response record {data['response']!r:.60} of {url} is "
                        "not in the file before it")
    media_type, _ = parse_content_type(_header(page.headers, "content-type"))
    try:
        result = fetch_result(
            url=data["url"],
            final_url=data["final_url"],
            status=page.status,
            content_type=media_type,
            encoding=data["encoding"],
            body=page.body,
            redirects=data["redirects"],
            elapsed_s=float(data["elapsed_s"]),
            fetched_at=float(data["fetched_at"]),
            headers=[(k, v) for k, v in data["headers"]],
        )
    except ValueError as exc:  # an encoding Python does not know
        raise WarcError(f"{where}.encoding: {exc}") from exc
    return RecordedFetch(data["url"], result=result)


def _recording(
    path: Path, session: Mapping[str, Any], later: list[dict[str, Any]],
    answers: list[Recorded], torn: int, *, finished: bool,
) -> WarcRecording:
    """The session record's config, robots answers and events, then those written after it
    (all checked already, but the config, which ``CrawlConfig`` checks here)."""
    try:
        config = CrawlConfig.from_recorded(session["config"])
    except ConfigError as exc:
        raise WarcError(f"{path}: the session record's config.{exc.field}: "
                        f"{exc.message}") from exc
    except (TypeError, ValueError, OverflowError) as exc:
        raise WarcError(f"{path}: the session record's config: {exc}") from exc
    overrides = [Override.from_dict(raw) for raw in session.get("overrides", [])]
    marks = [(m["after_step"], m["overrides_before"]) for m in session.get("queue_empty", [])]
    robots = _robots(session.get("robots", []))
    robots.extend(RecordedSitemaps(SitemapHarvest.from_dict(harvest))
                  for harvest in session.get("sitemaps", []))
    events = merge_events(overrides, marks)
    for data in later:
        if data["kind"] == ROBOTS_META:
            robots.extend(_robots(data["robots"]))
        elif data["kind"] == SITEMAPS_META:
            robots.append(RecordedSitemaps(SitemapHarvest.from_dict(data["harvest"])))
        else:
            raw = data["override"]
            override = Override.from_dict(raw) if raw is not None else None
            events.append(SessionEvent(data["after_step"], override))
    return WarcRecording(config, tuple(robots + answers), tuple(events),
                         str(session.get("session_id", "")), torn, finished)


def _robots(pairs: Any) -> list[Recorded]:
    """The robots answers of a WARC's metadata: [url, allowed] or, for a check that failed,
    [url, allowed, error]."""
    return [RecordedRobots(pair[0], pair[1],
                           RecordedError.from_dict(pair[2]) if len(pair) > 2 else None)
            for pair in pairs]


def _foreign_answers(by_url: Mapping[str, _Page]) -> Iterator[Recorded]:
    """One answer per archived URL, as the fetcher would have given it."""
    for url in by_url:
        chain, page = [url], by_url[url]
        while 300 <= page.status < 400 and len(chain) <= MAX_REDIRECTS:
            target = urljoin(page.url, _header(page.headers, "location") or "")
            if target not in by_url or target in chain:
                break
            chain.append(target)
            page = by_url[target]
        yield _foreign_answer(url, chain, page)


def _foreign_answer(url: str, chain: list[str], page: _Page) -> RecordedFetch:
    media_type, charset = parse_content_type(_header(page.headers, "content-type"))
    error = None
    if 300 <= page.status < 400:
        error = RecordedError("TooManyRedirects", "too_many_redirects",
                              f"{url} redirects to a page the archive does not hold")
    elif page.status >= 400:
        error = RecordedError("HTTPStatusError", "http_status",
                              f"{page.url} answered {page.status}", status=page.status)
    elif media_type not in HTML_MEDIA_TYPES:
        error = RecordedError("UnsupportedContentType", "unsupported_type",
                              f"{page.url} is {media_type}, not HTML", content_type=media_type)
    if error is not None:
        return RecordedFetch(url, error=error)
    encoding, _ = decode_html(page.body, charset)
    result = fetch_result(
        url=url, final_url=page.url, status=page.status, content_type=media_type,
        encoding=encoding, body=page.body, redirects=chain[:-1], elapsed_s=0.0,
        fetched_at=page.fetched_at, headers=page.headers,
    )
    return RecordedFetch(url, result=result)


def _header(headers: tuple[tuple[str, str], ...], name: str) -> str | None:
    for key, value in headers:
        if key.lower() == name:
            return value
    return None


def _timestamp(warc_date: str) -> float:
    try:
        return datetime.fromisoformat(warc_date.replace("Z", "+00:00")).astimezone(UTC).timestamp()
    except ValueError:
        return 0.0


class WarcSource(ReplaySource):
    """A ``ReplaySource`` over a WARC file (see ``read_warc``); ``config`` is the recorded
    config, or None for a WARC from another tool."""

    def __init__(self, path: Path) -> None:
        recording = read_warc(path)
        super().__init__(recording.responses)
        self.config = recording.config
        self.events = recording.events
