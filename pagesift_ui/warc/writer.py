"""Writing a session's recorded fetches as a WARC/1.1 file (ISO 28500:2017) with warcio.

Layout, one gzip member per record (``.warc.gz``):

1. ``warcinfo``: the software, the format, the session.
2. ``metadata`` (``urn:pagesift:session:<id>``, JSON): the crawl config, the overrides, the
   empty-queue marks and every robots answer — what a replay needs besides the pages.
3. For each recorded fetch, in order:

   - a page: a ``response`` record (``WARC-Target-URI`` the final URL after redirects,
     ``WARC-Date`` when it was fetched), the ``request`` record (``WARC-Concurrent-To`` the
     response), and a ``metadata`` record (also concurrent to it) with what HTTP does not
     carry: the URL asked for, the redirect hops, the codec, the timing and the headers
     exactly as received;
   - a failed fetch (timeout, 404, robots, …): a ``metadata`` record with the error.

The fetcher stores bodies decoded (gzip removed), so the response's HTTP headers drop
``Content-Encoding``, ``Transfer-Encoding`` and ``Content-Length`` and get a
``Content-Length`` of the stored body, which is what a WARC reader then finds. The request
record is rebuilt (the fetcher does not record its request headers); it names the
fetcher's User-Agent and Accept header.
"""

from __future__ import annotations

import http
import json
import logging
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.timeutils import datetime_to_iso_date
from warcio.warcwriter import WARCWriter

from pagesift_ui import __version__
from pagesift_ui.net.fetcher import FetchResult
from pagesift_ui.net.policy import DEFAULT_USER_AGENT
from pagesift_ui.session import CrawlConfig
from pagesift_ui.store.recording import Recorded, RecordedFetch, RecordedRobots
from pagesift_ui.store.replay import SessionEvent, queue_empty_marks

__all__ = ["FETCH_META", "SESSION_META", "WARC_FORMAT", "write_warc"]

logger = logging.getLogger(__name__)

WARC_FORMAT = "pagesift-warc"
WARC_FORMAT_VERSION = 1
SESSION_META = "urn:pagesift:session"
FETCH_META = "pagesift-fetch"
#: Headers that describe the bytes on the wire, not the decoded body the WARC holds.
_WIRE_HEADERS = frozenset({"content-encoding", "transfer-encoding", "content-length"})
_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"


def write_warc(
    path: Path,
    config: CrawlConfig,
    responses: Iterable[Recorded],
    *,
    events: Sequence[SessionEvent] = (),
    session_id: str = "",
) -> int:
    """Write ``path`` (gzip per record); returns how many pages (responses) it holds."""
    answers = list(responses)
    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=True, warc_version="1.1")
        _write_header(writer, path.name, config, answers, events, session_id)
        pages = sum(_write_fetch(writer, a) for a in answers if isinstance(a, RecordedFetch))
    logger.info("wrote %s: %d pages", path, pages)
    return pages


def _write_header(
    writer: WARCWriter,
    filename: str,
    config: CrawlConfig,
    answers: Sequence[Recorded],
    events: Sequence[SessionEvent],
    session_id: str,
) -> None:
    info = {
        "software": f"pagesift-ui/{__version__}",
        "format": "WARC File Format 1.1",
        "conformsTo": "https://iipc.github.io/warc-specifications/specifications/"
        "warc-format/warc-1.1/",
        "description": f"focused crawl for {config.query!r} from {config.seed_url}",
        "robots": "classic" if config.respect_robots else "ignore",
        "isPartOf": f"pagesift session {session_id}" if session_id else "",
    }
    writer.write_record(writer.create_warcinfo_record(filename, info))
    meta: dict[str, Any] = {
        "format": WARC_FORMAT,
        "version": WARC_FORMAT_VERSION,
        "session_id": session_id,
        "config": config.to_dict(),
        "overrides": [e.override.to_dict() for e in events if e.override is not None],
        "queue_empty": [
            {"after_step": step, "overrides_before": before}
            for step, before in queue_empty_marks(events)
        ],
        "robots": [[a.url, a.allowed] for a in answers if isinstance(a, RecordedRobots)],
    }
    uri = f"{SESSION_META}:{session_id}" if session_id else SESSION_META
    writer.write_record(_json_record(writer, uri, meta, _iso(None)))


def _write_fetch(writer: WARCWriter, answer: RecordedFetch) -> bool:
    """Write one fetch's records; True when it was a page (a response record)."""
    if answer.error is not None:
        meta: dict[str, Any] = {
            "kind": FETCH_META, "url": answer.url, "error": answer.error.to_dict(),
        }
        writer.write_record(_json_record(writer, answer.url, meta, _iso(None)))
        return False
    result = answer.result
    assert result is not None  # RecordedFetch holds exactly one of result and error
    date = _iso(result.fetched_at)
    response = writer.create_warc_record(
        result.final_url,
        "response",
        payload=BytesIO(result.body),
        length=len(result.body),
        warc_headers_dict={"WARC-Date": date},
        http_headers=_response_headers(result),
    )
    request = writer.create_warc_record(
        result.final_url, "request", http_headers=_request_headers(result.final_url)
    )
    writer.write_request_response_pair(request, response)
    response_id = response.rec_headers.get_header("WARC-Record-ID")
    meta = {
        "kind": FETCH_META,
        "url": answer.url,
        "response": response_id,
        "final_url": result.final_url,
        "redirects": list(result.redirects),
        "encoding": result.encoding,
        "elapsed_s": result.elapsed_s,
        "fetched_at": result.fetched_at,
        "headers": [list(pair) for pair in result.headers],
    }
    writer.write_record(
        _json_record(writer, result.final_url, meta, date, concurrent_to=response_id)
    )
    return True


def _response_headers(result: FetchResult) -> StatusAndHeaders:
    kept = [(k, v) for k, v in result.headers if k.lower() not in _WIRE_HEADERS]
    kept.append(("Content-Length", str(len(result.body))))
    try:
        reason = http.HTTPStatus(result.status).phrase
    except ValueError:
        reason = ""
    return StatusAndHeaders(f"{result.status} {reason}".rstrip(), kept, protocol="HTTP/1.1")


def _request_headers(url: str) -> StatusAndHeaders:
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = [("Host", parts.netloc), ("User-Agent", DEFAULT_USER_AGENT), ("Accept", _ACCEPT)]
    return StatusAndHeaders(f"GET {target} HTTP/1.1", headers, is_http_request=True)


def _json_record(
    writer: WARCWriter, uri: str, data: dict[str, Any], date: str, *, concurrent_to: str = ""
) -> Any:
    payload = json.dumps(data, ensure_ascii=False, sort_keys=True, allow_nan=False).encode()
    headers = {"WARC-Date": date}
    if concurrent_to:
        headers["WARC-Concurrent-To"] = concurrent_to
    return writer.create_warc_record(
        uri,
        "metadata",
        payload=BytesIO(payload),
        length=len(payload),
        warc_content_type="application/json",
        warc_headers_dict=headers,
    )


def _iso(timestamp: float | None) -> str:
    """A WARC-Date (WARC/1.1 allows fractions of a second); None means now."""
    moment = datetime.now(UTC) if timestamp is None else datetime.fromtimestamp(timestamp, UTC)
    return str(datetime_to_iso_date(moment.replace(tzinfo=None), use_micros=True))
