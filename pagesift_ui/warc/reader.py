"""Reading a WARC back as a recording: ``WarcSource`` replays a crawl from it, offline.

A WARC written by pagesift-ui (``writer.py``) gives back exactly what was recorded: every
fetch outcome in order (errors included), every robots answer, the config and the events.
Any other WARC (wget, Heritrix, Browsertrix …) is read as a plain web archive: each
``response`` record answers for its URL, 3xx responses redirect within the archive, 4xx/5xx
become ``HTTPStatusError`` and non-HTML becomes ``UnsupportedContentType``; it has no config,
so a replay needs the start URL and the query from the caller.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any
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
from pagesift_ui.warc.writer import FETCH_META, WARC_FORMAT

__all__ = ["WarcRecording", "WarcSource", "read_warc"]

logger = logging.getLogger(__name__)

MAX_REDIRECTS = 10


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
    answers: list[Recorded] = []
    try:
        for kind, record_id, data in _records(path):
            if kind == "response":
                pages[record_id] = data
                by_url.setdefault(data.url, data)
            elif data.get("format") == WARC_FORMAT:
                session = data
            elif data.get("kind") == FETCH_META:
                answers.append(_answer(data, pages))
    except (KeyError, TypeError, ValueError) as exc:
        raise BundleError(f"{path} holds a malformed pagesift record: {exc}") from exc
    if session is None and not by_url:
        raise BundleError(f"{path} holds no HTTP responses and no pagesift session to replay")
    if session is None:
        logger.info("%s was not written by pagesift-ui: reading it as a plain archive", path)
        return WarcRecording(None, tuple(_foreign_answers(by_url)), ())
    return _recording(path, session, answers)


def _records(path: Path) -> Iterator[tuple[str, str, Any]]:
    """(type, record id, a _Page or a metadata dict) of the records a replay can use."""
    try:
        with path.open("rb") as stream:
            for record in ArchiveIterator(stream):
                uri = record.rec_headers.get_header("WARC-Target-URI") or ""
                record_id = record.rec_headers.get_header("WARC-Record-ID") or ""
                if record.rec_type == "response" and record.http_headers is not None:
                    yield "response", record_id, _page(record, uri)
                elif record.rec_type == "metadata" and "json" in (record.content_type or ""):
                    data = json.loads(record.content_stream().read())
                    if isinstance(data, dict):
                        yield "metadata", record_id, data
    except (OSError, ArchiveLoadFailed) as exc:
        raise BundleError(f"{path} cannot be read as a WARC file: {exc}") from exc


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


def _recording(path: Path, session: Mapping[str, Any], answers: list[Recorded]) -> WarcRecording:
    try:
        config = CrawlConfig.from_mapping(session["config"])
        overrides = [Override.from_dict(raw) for raw in session.get("overrides", [])]
        marks = [(int(m["after_step"]), int(m["overrides_before"]))
                 for m in session.get("queue_empty", [])]
        robots = [RecordedRobots(str(url), bool(ok)) for url, ok in session.get("robots", [])]
    except (ConfigError, KeyError, TypeError, ValueError) as exc:
        raise BundleError(f"{path}: the pagesift session record is malformed: {exc}") from exc
    return WarcRecording(
        config, tuple(robots + answers), tuple(merge_events(overrides, marks)),
        str(session.get("session_id", "")),
    )


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
