"""WARC export: valid for warcio's own tools, and replayable offline (ours and foreign ones)."""

from __future__ import annotations

import gzip
import json
import subprocess
import sys
from io import BytesIO
from pathlib import Path

import pytest
from warcio.archiveiterator import ArchiveIterator
from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

from pagesift_ui.errors import (
    HTTPStatusError,
    TooManyRedirects,
    UnsupportedContentType,
    WarcError,
)
from pagesift_ui.session import CrawlSession, Override, OverrideKind, StepOutcome
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store import (
    Recorded,
    RecordedError,
    RecordedFetch,
    RecordedRobots,
    RecordingSource,
    SessionEvent,
)
from pagesift_ui.warc import WarcSource, read_warc, write_warc
from tests.fixture_site import FixtureSite

from . import crawl_view, site_config, write_foreign_warc

WARCIO = [sys.executable, "-c", "import sys; from warcio.cli import main; sys.exit(main())"]


@pytest.fixture(scope="module")
def recorded(
    site: FixtureSite, tmp_path_factory: pytest.TempPathFactory
) -> tuple[CrawlSession, list[Recorded], Path]:
    config = site_config(site, limit=80, stop_on_verdict=False)
    answers: list[Recorded] = []
    with CrawlSession(config, RecordingSource(default_source(config), answers.append)) as s:
        s.run()
    path = tmp_path_factory.mktemp("warc") / "crawl.warc.gz"
    events = [SessionEvent(0, Override(0, OverrideKind.STOP, note="only to be carried"))]
    write_warc(path, config, answers, events=events, session_id="feedbeef")
    return s, answers, path


def test_warcio_check_and_index_accept_the_file(
    recorded: tuple[CrawlSession, list[Recorded], Path],
) -> None:
    _, answers, path = recorded
    check = subprocess.run([*WARCIO, "check", "-v", str(path)], capture_output=True, text=True,
                           timeout=60)
    assert check.returncode == 0, check.stdout + check.stderr
    assert "digest pass" in check.stdout and "fail" not in check.stdout.lower()
    index = subprocess.run([*WARCIO, "index", "-f", "warc-type,warc-target-uri", str(path)],
                           capture_output=True, text=True, timeout=60, check=True)
    rows = [json.loads(line) for line in index.stdout.splitlines()]
    types = [row["warc-type"] for row in rows]
    pages = [a for a in answers if isinstance(a, RecordedFetch) and a.result is not None]
    assert types[:2] == ["warcinfo", "metadata"]
    assert types.count("response") == types.count("request") == len(pages)
    assert rows[1]["warc-target-uri"] == "urn:pagesift:session:feedbeef"


def test_response_records_hold_the_decoded_body_with_matching_headers(
    recorded: tuple[CrawlSession, list[Recorded], Path],
) -> None:
    _, answers, path = recorded
    with path.open("rb") as stream:
        records = [(r.rec_type, r.rec_headers, r.http_headers, r.content_stream().read())
                   for r in ArchiveIterator(stream)]
    responses = {h.get_header("WARC-Target-URI"): (http, body)
                 for kind, h, http, body in records if kind == "response"}
    returns = next(a.result for a in answers if isinstance(a, RecordedFetch) and a.result
                   and a.result.final_url.endswith("/help/returns"))
    assert ("Content-Encoding", "gzip") in returns.headers  # the fixture sends it gzipped
    http, body = responses[returns.final_url]
    assert body == returns.body and http.get_header("Content-Encoding") is None
    assert http.get_header("Content-Length") == str(len(returns.body))
    assert http.protocol == "HTTP/1.1" and http.get_statuscode() == "200"
    ids = {h.get_header("WARC-Record-ID"): kind for kind, h, _, _ in records}
    requests = [h for kind, h, _, _ in records if kind == "request"]
    assert all(ids[h.get_header("WARC-Concurrent-To")] == "response" for h in requests)


def test_a_warc_replays_the_recorded_crawl_exactly(
    recorded: tuple[CrawlSession, list[Recorded], Path], site: FixtureSite
) -> None:
    original, answers, path = recorded
    recording = read_warc(path)
    assert recording.config == original.config and recording.session_id == "feedbeef"
    assert [e.override.kind for e in recording.events if e.override] == [OverrideKind.STOP]
    fetches = [a for a in answers if isinstance(a, RecordedFetch)]
    assert [a for a in recording.responses if isinstance(a, RecordedFetch)] == fetches
    requests = len(site.requests)
    with CrawlSession(original.config, WarcSource(path)) as replay:
        replay.run()
    assert len(site.requests) == requests
    assert [crawl_view(r) for r in replay.steps] == [crawl_view(r) for r in original.steps]
    assert {StepOutcome.ERROR, StepOutcome.FETCHED} <= {r.outcome for r in replay.steps}


def test_a_foreign_warc_answers_like_the_fetcher_would(tmp_path: Path) -> None:
    path = tmp_path / "foreign.warc.gz"
    write_foreign_warc(path)
    source = WarcSource(path)
    assert source.config is None
    home = source.fetch("http://x.test/")
    assert "refund policy" in home.text and home.content_type == "text/html"
    moved = source.fetch("http://x.test/old")
    assert moved.final_url == "http://x.test/" and moved.redirects == ("http://x.test/old",)
    with pytest.raises(HTTPStatusError) as gone:
        source.fetch("http://x.test/gone")
    assert gone.value.status == 404
    with pytest.raises(UnsupportedContentType):
        source.fetch("http://x.test/a.pdf")
    with pytest.raises(TooManyRedirects):
        source.fetch("http://x.test/loop")


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"garbage" * 10, "cannot be read as a WARC"),
        (gzip.compress(b"this is not a WARC record\r\n\r\n"), "holds no HTTP responses"),
        (b"", "holds no HTTP responses"),
    ],
)
def test_files_that_are_not_replayable_warcs_are_refused(
    tmp_path: Path, content: bytes, message: str
) -> None:
    path = tmp_path / "broken.warc.gz"
    path.write_bytes(content)
    with pytest.raises(WarcError, match=message):
        read_warc(path)


@pytest.mark.parametrize("size", [1 << 16, 1 << 17, 3 << 16, 100_000, 2_500_000])
def test_a_warc_of_pages_over_64_kib_reads_whole_and_at_once(tmp_path: Path, size: int) -> None:
    # a gzip member is inflated in pieces of 64 KiB: one that ended as a piece filled sent
    # the reader round for ever (a page of 128 KiB), and one of several pieces was counted
    # short, so the records after it read as a torn end
    path = tmp_path / "big.warc.gz"
    page = b"<html><head><title>Big</title></head><body><p>refund policy</p>"
    filler = b"<p>" + b"x" * 60 + b"</p>"
    body = page + filler * ((size - len(page)) // len(filler)) + b"</body></html>"
    with path.open("wb") as stream:
        writer = WARCWriter(stream, gzip=True)
        for url in ("http://x.test/", "http://x.test/b", "http://x.test/c"):
            http = StatusAndHeaders("200 OK", [("Content-Type", "text/html")],
                                    protocol="HTTP/1.1")
            writer.write_record(writer.create_warc_record(
                url, "response", payload=BytesIO(body), length=len(body), http_headers=http))
    source = WarcSource(path)
    assert [source.fetch(f"http://x.test/{end}").body == body for end in ("", "b", "c")] == [
        True, True, True]


def test_a_robots_check_that_failed_reads_back_from_a_warc(
    tmp_path: Path, site: FixtureSite
) -> None:
    # [url, allowed, error]: the check's error kept, so a replay refuses the link alike
    config = site_config(site, limit=5)
    failed = RecordedError("BlockedByPolicy", "network_policy", "refused by the network policy",
                           at=12.5)
    answers: list[Recorded] = [RecordedRobots("http://127.0.0.1:9/x", False, failed),
                               RecordedRobots("http://127.0.0.1:9/y", True)]
    path = tmp_path / "robots.warc.gz"
    write_warc(path, config, answers)
    robots = [a for a in read_warc(path).responses if isinstance(a, RecordedRobots)]
    assert robots == answers
