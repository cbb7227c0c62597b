"""Writing a session as a WARC/1.1 file (ISO 28500:2017) with warcio, record by record.

Layout, one gzip member per record (``.warc.gz``), in the order things happened:

1. ``warcinfo``: the software, the format, the session.
2. The session record: ``metadata`` (``urn:pagesift:session:<id>``, JSON with ``"format":
   "pagesift-warc"``) holding the crawl config, the overrides, the empty-queue marks and every
   robots answer so far (here: none yet).
3. Each step's page-source answers, in order:

   - a page: a ``response`` record (``WARC-Target-URI`` the final URL after redirects,
     ``WARC-Date`` when it was fetched), the ``request`` record (``WARC-Concurrent-To`` the
     response), and a ``metadata`` record (also concurrent to it) with what HTTP does not
     carry: the URL asked for, the redirect hops, the codec, the timing and the headers
     exactly as received;
   - a failed fetch (timeout, 404, robots, …): a ``metadata`` record with the error;
   - the step's robots answers, if it asked any: one ``metadata`` record
     (``"kind": "pagesift-robots"``);
   - the sitemap harvest of a step that read the sitemaps: one ``metadata`` record
     (``"kind": "pagesift-sitemaps"``, docs/DESIGN.md §11.13).

   Then each event after that step (an override, or a ``step()`` that found the queue
   empty): a ``metadata`` record (``"kind": "pagesift-event"``).
4. The session record again, now complete, when the crawl ends (and when the file is
   finished, if anything was written after it).

A reader takes the last session record and adds the robots answers, sitemap harvests and
events written after
it, so a file whose writer was killed mid-crawl still replays every step written whole.
``WarcLog`` writes this layout; ``write_warc`` (a saved recording, at once) and ``WarcSink``
(a crawl, as it goes) both use it, so they write the same records.

The fetcher stores bodies decoded (gzip removed), so the response's HTTP headers drop
``Content-Encoding``, ``Transfer-Encoding`` and ``Content-Length`` and get a
``Content-Length`` of the stored body, which is what a WARC reader then finds. The request
record is rebuilt (the fetcher does not record its request headers); it names the config's
User-Agent and the fetcher's Accept header.
"""

from __future__ import annotations

import http
import json
import logging
from collections import deque
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime
from io import BytesIO
from pathlib import Path
from typing import Any, BinaryIO
from urllib.parse import urlsplit

from warcio.statusandheaders import StatusAndHeaders
from warcio.timeutils import datetime_to_iso_date
from warcio.warcwriter import WARCWriter

from pagesift_ui import __version__
from pagesift_ui.net.fetcher import FetchResult
from pagesift_ui.session import CrawlConfig
from pagesift_ui.store.recording import Recorded, RecordedFetch, RecordedRobots, RecordedSitemaps
from pagesift_ui.store.replay import SessionEvent, queue_empty_marks

__all__ = [
    "EVENT_META",
    "FETCH_META",
    "ROBOTS_META",
    "SESSION_META",
    "SITEMAPS_META",
    "WARC_FORMAT",
    "WarcLog",
    "write_recorded",
    "write_warc",
]

logger = logging.getLogger(__name__)

WARC_FORMAT = "pagesift-warc"
WARC_FORMAT_VERSION = 1
SESSION_META = "urn:pagesift:session"
FETCH_META = "pagesift-fetch"
ROBOTS_META = "pagesift-robots"
SITEMAPS_META = "pagesift-sitemaps"
EVENT_META = "pagesift-event"
#: Headers that describe the bytes on the wire, not the decoded body the WARC holds.
_WIRE_HEADERS = frozenset({"content-encoding", "transfer-encoding", "content-length"})
_ACCEPT = "text/html,application/xhtml+xml;q=0.9,*/*;q=0.1"


def write_warc(
    path: Path,
    config: CrawlConfig,
    responses: Iterable[Recorded],
    *,
    events: Iterable[SessionEvent] = (),
    session_id: str = "",
) -> int:
    """Write a recorded session to ``path`` at once; returns how many pages it holds.

    ``responses`` are the session's page-source answers in order, ``events`` its events.
    """
    with path.open("wb") as stream:
        log = WarcLog(stream, path.name, config, session_id=session_id)
        write_recorded(log, responses, events)
        log.write_session()
    logger.info("wrote %s: %d pages", path, log.pages)
    return log.pages


def write_recorded(
    log: WarcLog, responses: Iterable[Recorded], events: Iterable[SessionEvent]
) -> None:
    """Write recorded steps to ``log``, each event right after the step count it happened at.

    A step's answers are its fetch and the robots answers after it: each step fetches once,
    then asks robots.txt about the links it enqueues (docs/DESIGN.md §11).
    """
    waiting = deque(events)
    steps = 0
    for answers in _by_step(responses):
        while waiting and waiting[0].after_step <= steps:
            log.write_event(waiting.popleft())
        log.write_step(answers)
        steps += any(isinstance(answer, RecordedFetch) for answer in answers)
    for event in waiting:
        log.write_event(event)


def _by_step(responses: Iterable[Recorded]) -> Iterator[list[Recorded]]:
    step: list[Recorded] = []
    for answer in responses:
        if isinstance(answer, RecordedFetch) and any(isinstance(a, RecordedFetch) for a in step):
            yield step
            step = []
        step.append(answer)
    if step:
        yield step


class WarcLog:
    """A session's WARC as it is written, in the layout above.

    ``stream`` is a binary file open for writing, which the log never closes or flushes.
    Opening a log writes the ``warcinfo`` and the first session record. ``pages`` counts
    the response records written.
    """

    def __init__(
        self, stream: BinaryIO, filename: str, config: CrawlConfig, *, session_id: str = ""
    ) -> None:
        self._writer = WARCWriter(stream, gzip=True, warc_version="1.1")
        self.config = config
        self.session_id = session_id
        self.pages = 0
        self._robots: list[RecordedRobots] = []
        self._sitemaps: list[RecordedSitemaps] = []
        self._events: list[SessionEvent] = []
        self._since_session = True  # records were written after the last session record
        self._writer.write_record(self._warcinfo(filename))
        self.write_session()

    @property
    def _session_uri(self) -> str:
        return f"{SESSION_META}:{self.session_id}" if self.session_id else SESSION_META

    def write_step(self, answers: Iterable[Recorded]) -> None:
        """One step's answers: the records of each fetch, then one of its robots answers."""
        robots: list[RecordedRobots] = []
        for answer in answers:
            if isinstance(answer, RecordedRobots):
                robots.append(answer)
            elif isinstance(answer, RecordedSitemaps):
                self._write_json(self._session_uri, {"kind": SITEMAPS_META,
                                                     "harvest": answer.harvest.to_dict()})
                self._sitemaps.append(answer)
            else:
                self.pages += _write_fetch(self._writer, answer, self.config.user_agent)
        if robots:
            self._write_json(
                self._session_uri, {"kind": ROBOTS_META, "robots": _robot_pairs(robots)}
            )
            self._robots.extend(robots)
        self._since_session = True

    def write_event(self, event: SessionEvent) -> None:
        """An override, or a ``step()`` that found the queue empty (``override`` None)."""
        override = event.override.to_dict() if event.override is not None else None
        self._write_json(self._session_uri, {
            "kind": EVENT_META, "after_step": event.after_step, "override": override,
        })
        self._events.append(event)
        self._since_session = True

    def write_session(self) -> None:
        """The session record with everything written so far; nothing if it would say what
        the last one said."""
        if not self._since_session:
            return
        meta: dict[str, Any] = {
            "format": WARC_FORMAT,
            "version": WARC_FORMAT_VERSION,
            "session_id": self.session_id,
            "config": self.config.to_dict(),
            "overrides": [e.override.to_dict() for e in self._events if e.override is not None],
            "queue_empty": [
                {"after_step": step, "overrides_before": before}
                for step, before in queue_empty_marks(self._events)
            ],
            "robots": _robot_pairs(self._robots),
        }
        if self._sitemaps:  # only then, so files of crawls without sitemaps read as before
            meta["sitemaps"] = [answer.harvest.to_dict() for answer in self._sitemaps]
        self._write_json(self._session_uri, meta)
        self._since_session = False

    def _warcinfo(self, filename: str) -> Any:
        config = self.config
        info = {
            "software": f"pagesift-ui/{__version__}",
            "format": "WARC File Format 1.1",
            "conformsTo": "https://iipc.github.io/warc-specifications/specifications/"
            "warc-format/warc-1.1/",
            "description": f"focused crawl for {config.query!r} from {config.seed_url}",
            "robots": "classic" if config.respect_robots else "ignore",
            "isPartOf": f"pagesift session {self.session_id}" if self.session_id else "",
        }
        return self._writer.create_warcinfo_record(filename, info)

    def _write_json(self, uri: str, data: dict[str, Any]) -> None:
        self._writer.write_record(_json_record(self._writer, uri, data, _iso(None)))


def _robot_pairs(robots: Iterable[RecordedRobots]) -> list[list[Any]]:
    # a check that failed keeps its error as a third item (readers before it took two)
    return [[answer.url, answer.allowed] if answer.error is None
            else [answer.url, answer.allowed, answer.error.to_dict()] for answer in robots]


def _write_fetch(writer: WARCWriter, answer: RecordedFetch, user_agent: str) -> bool:
    """Write one fetch's records; True when it was a page (a response record)."""
    if answer.error is not None:
        meta: dict[str, Any] = {
            "kind": FETCH_META, "url": answer.url, "error": answer.error.to_dict(),
        }
        writer.write_record(_json_record(writer, answer.url, meta, _iso(answer.error.at)))
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
        result.final_url, "request", http_headers=_request_headers(result.final_url, user_agent)
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


def _request_headers(url: str, user_agent: str) -> StatusAndHeaders:
    parts = urlsplit(url)
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    headers = [("Host", parts.netloc), ("User-Agent", user_agent), ("Accept", _ACCEPT)]
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
