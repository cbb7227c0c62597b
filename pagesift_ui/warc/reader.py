"""Reading a WARC back as a recording: ``WarcSource`` replays a crawl from it, offline.

A WARC written by pagesift-ui (``writer.py``) gives back exactly what was recorded: every
fetch outcome in order (errors included), every robots answer, the config and the events —
from the last session record wherever it is, and the robots answers and events written after
it. A file that ends in a partial record (its writer was killed) is read up to the last
whole one.
Any other WARC (wget, Heritrix, Browsertrix …) is read as a plain web archive: each
``response`` record answers for its URL, 3xx responses redirect within the archive, 4xx/5xx
become ``HTTPStatusError`` and non-HTML becomes ``UnsupportedContentType``; it has no config,
so a replay needs the start URL and the query from the caller.
"""

from __future__ import annotations

import json
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

from pagesift_ui.errors import BundleError, ConfigError
from pagesift_ui.net.fetcher import HTML_MEDIA_TYPES, parse_content_type
from pagesift_ui.page.extract import decode_html
from pagesift_ui.session import CrawlConfig, Override
from pagesift_ui.store.recording import (
    Recorded,
    RecordedError,
    RecordedFetch,
    RecordedRobots,
    ReplaySource,
    fetch_result,
)
from pagesift_ui.store.replay import SessionEvent, merge_events
from pagesift_ui.warc.writer import EVENT_META, FETCH_META, ROBOTS_META, WARC_FORMAT

__all__ = ["WarcRecording", "WarcSource", "read_warc"]

logger = logging.getLogger(__name__)

MAX_REDIRECTS = 10
_GZIP_MAGIC = b"\x1f\x8b"
_CHUNK = 1 << 20


@dataclass(frozen=True, slots=True)
class WarcRecording:
    """What a WARC holds for a replay. ``config`` is None for a WARC from another tool."""

    config: CrawlConfig | None
    responses: tuple[Recorded, ...]
    events: tuple[SessionEvent, ...]
    session_id: str = ""


@dataclass(frozen=True, slots=True)
class _Page:
    url: str
    status: int
    headers: tuple[tuple[str, str], ...]
    body: bytes
    fetched_at: float


def read_warc(path: Path) -> WarcRecording:
    """Read a ``.warc`` or ``.warc.gz`` file; raises ``BundleError`` if it cannot be used."""
    pages: dict[str, _Page] = {}  # WARC-Record-ID → response
    by_url: dict[str, _Page] = {}
    session: dict[str, Any] | None = None
    later: list[dict[str, Any]] = []  # robots and event records after the last session record
    answers: list[Recorded] = []
    try:
        for kind, record_id, data in _records(path):
            if kind == "response":
                pages[record_id] = data
                by_url.setdefault(data.url, data)
            elif data.get("format") == WARC_FORMAT:
                session, later = data, []
            elif data.get("kind") == FETCH_META:
                answers.append(_answer(data, pages))
            elif data.get("kind") in (ROBOTS_META, EVENT_META):
                later.append(data)
    except (KeyError, TypeError, ValueError) as exc:
        raise BundleError(f"{path} holds a malformed pagesift record: {exc}") from exc
    if session is None and not by_url:
        raise BundleError(f"{path} holds no HTTP responses and no pagesift session to replay")
    if session is None:
        logger.info("%s was not written by pagesift-ui: reading it as a plain archive", path)
        return WarcRecording(None, tuple(_foreign_answers(by_url)), ())
    return _recording(path, session, later, answers)


def _records(path: Path) -> Iterator[tuple[str, str, Any]]:
    """(type, record id, a _Page or a metadata dict) of the records a replay can use."""
    try:
        with path.open("rb") as stream:
            for record in ArchiveIterator(_whole_records(path, stream)):
                uri = record.rec_headers.get_header("WARC-Target-URI") or ""
                record_id = record.rec_headers.get_header("WARC-Record-ID") or ""
                if record.rec_type == "response" and record.http_headers is not None:
                    yield "response", record_id, _page(record, uri)
                elif record.rec_type == "metadata" and "json" in (record.content_type or ""):
                    data = json.loads(record.content_stream().read())
                    if isinstance(data, dict):
                        yield "metadata", record_id, data
    except (OSError, ArchiveLoadFailed, zlib.error) as exc:
        raise BundleError(f"{path} cannot be read as a WARC file: {exc}") from exc


def _whole_records(path: Path, stream: BinaryIO) -> BinaryIO:
    """``stream`` without a partial gzip member at its end (a writer killed mid-record).

    warcio reads a cut member as far as it goes, so a torn record would look like a short
    one; only members whose gzip trailer is there (and checks) are kept.
    """
    if stream.read(2) != _GZIP_MAGIC:
        stream.seek(0)
        return stream
    stream.seek(0)
    whole = _whole_gzip_length(stream)
    size = stream.seek(0, 2)
    stream.seek(0)
    if whole == size:
        return stream
    logger.warning("%s ends in a partial record (%d bytes): read up to the last whole one",
                   path, size - whole)
    return BytesIO(stream.read(whole))


def _whole_gzip_length(stream: BinaryIO) -> int:
    """How many bytes from the start of ``stream`` are whole gzip members."""
    whole = offset = 0
    member = zlib.decompressobj(wbits=31)
    while chunk := stream.read(_CHUNK):
        while chunk:
            try:
                member.decompress(chunk)
            except zlib.error:
                return whole  # not gzip from here on: what follows is no whole member
            if not member.eof:
                offset += len(chunk)
                break
            rest = member.unused_data
            offset += len(chunk) - len(rest)
            whole = offset
            member, chunk = zlib.decompressobj(wbits=31), rest
    return whole


def _page(record: Any, uri: str) -> _Page:
    http_headers = record.http_headers
    date = record.rec_headers.get_header("WARC-Date") or ""
    return _Page(
        url=uri,
        status=int(http_headers.get_statuscode() or 0),
        headers=tuple((str(k), str(v)) for k, v in http_headers.headers),
        body=record.content_stream().read(),
        fetched_at=_timestamp(date),
    )


def _answer(data: Mapping[str, Any], pages: Mapping[str, _Page]) -> Recorded:
    url = str(data["url"])
    if "error" in data:
        return RecordedFetch(url, error=RecordedError.from_dict(data["error"]))
    page = pages[data["response"]]
    media_type, _ = parse_content_type(_header(page.headers, "content-type"))
    result = fetch_result(
        url=url,
        final_url=str(data["final_url"]),
        status=page.status,
        content_type=media_type,
        encoding=str(data["encoding"]),
        body=page.body,
        redirects=[str(hop) for hop in data["redirects"]],
        elapsed_s=float(data["elapsed_s"]),
        fetched_at=float(data["fetched_at"]),
        headers=[(str(k), str(v)) for k, v in data["headers"]],
    )
    return RecordedFetch(url, result=result)


def _recording(
    path: Path, session: Mapping[str, Any], later: list[dict[str, Any]], answers: list[Recorded]
) -> WarcRecording:
    """The session record's config, robots answers and events, then those written after it."""
    try:
        config = CrawlConfig.from_mapping(session["config"])
        overrides = [Override.from_dict(raw) for raw in session.get("overrides", [])]
        marks = [(int(m["after_step"]), int(m["overrides_before"]))
                 for m in session.get("queue_empty", [])]
        robots = _robots(session.get("robots", []))
        events = merge_events(overrides, marks)
        for data in later:
            if data["kind"] == ROBOTS_META:
                robots.extend(_robots(data["robots"]))
            else:
                raw = data["override"]
                override = Override.from_dict(raw) if raw is not None else None
                events.append(SessionEvent(int(data["after_step"]), override))
    except (ConfigError, KeyError, TypeError, ValueError) as exc:
        raise BundleError(f"{path}: the pagesift session record is malformed: {exc}") from exc
    return WarcRecording(
        config, tuple(robots + answers), tuple(events), str(session.get("session_id", ""))
    )


def _robots(pairs: Any) -> list[Recorded]:
    return [RecordedRobots(str(url), bool(allowed)) for url, allowed in pairs]


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
