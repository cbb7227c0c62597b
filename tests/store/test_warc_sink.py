"""WarcSink: a crawl written to a WARC as it goes, the same records ``write_warc`` writes
afterwards, readable and replayable when the crawl was killed half-way."""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator

from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.bundle import load_bundle
from pagesift_ui.store import (
    RecordedFetch,
    RecordedRobots,
    RecordingSink,
    ReplaySource,
    SessionStore,
    default_db_path,
    drive,
)
from pagesift_ui.store.replay import check_rebuilt
from pagesift_ui.warc import WarcSink, read_warc, write_warc
from tests.fakes import FIXTURE_ORIGIN, fixture_source, policy_for
from tests.fixture_site import FixtureSite

from . import crawl_config, fetches_interrupted_after
from .test_cli_store import crawl, run


def fixture_config(**settings: object) -> CrawlConfig:
    return crawl_config(FIXTURE_ORIGIN + "/", **{"limit": 40, "read_timeout_s": 1.0,
                                                 "stop_on_verdict": False, **settings})


def recorded_session(config: CrawlConfig) -> tuple[CrawlSession, RecordingSink]:
    memory = RecordingSink()
    source = memory.record(fixture_source(policy=policy_for(config)))
    return CrawlSession(config, source, sinks=[memory]), memory


@contextmanager
def streamed_to(path: Path, config: CrawlConfig) -> Iterator[tuple[CrawlSession, RecordingSink]]:
    """For the block: a recorded crawl of ``config``, written to the WARC at ``path`` as it
    goes."""
    session, memory = recorded_session(config)
    with session, WarcSink.attach(session, path):
        yield session, memory


def records(path: Path) -> list[dict[str, Any]]:
    """Each record as comparable values: the record ids as the position of the record they
    name, no dates or digests (a session record is dated when written; ids are random)."""
    with path.open("rb") as stream:
        raw = [(r.rec_headers, r.http_headers, r.content_stream().read())
               for r in ArchiveIterator(stream)]
    position = {h.get_header("WARC-Record-ID"): f"#{i}" for i, (h, _, _) in enumerate(raw)}
    rows = []
    for headers, http, body in raw:
        row: dict[str, Any] = {
            name: position.get(value, value) for name, value in headers.headers
            if name not in ("WARC-Record-ID", "WARC-Date", "WARC-Block-Digest")
        }
        row["http"] = (http.statusline, http.headers) if http is not None else None
        if "json" in (headers.get_header("Content-Type") or ""):
            data = json.loads(body)
            if "response" in data:
                data["response"] = position[data["response"]]
            row["json"] = data
            del row["Content-Length"], row["WARC-Payload-Digest"]  # it may name a random id
        else:
            row["body"] = body
        rows.append(row)
    return rows


def replayed(config: CrawlConfig, path: Path, steps: int) -> list[StepRecord]:
    recording = read_warc(path)
    assert recording.config == config
    with CrawlSession(config, ReplaySource(recording.responses)) as replay:
        drive(replay, recording.events, steps=steps, strict=True)
    return replay.steps


def test_the_sink_writes_what_write_warc_writes_for_the_finished_session(tmp_path: Path) -> None:
    config = fixture_config()
    session, memory = recorded_session(config)
    streamed = tmp_path / "streamed" / "crawl.warc.gz"
    streamed.parent.mkdir()
    with session, WarcSink.attach(session, streamed, session_id="cafe") as sink:
        session.run(max_steps=5)
        session.relabel(session.steps[3].final_url, True)
        session.run(max_steps=15)
        for part in sorted({row.subtree for row in session.frontier(100)}):
            session.force_dry(part)
        session.run()  # the queue is found empty: an event without a step
    assert [e.override for e in memory.events].count(None) == 1
    batch = tmp_path / "batch" / "crawl.warc.gz"
    batch.parent.mkdir()
    pages = write_warc(batch, config, memory.answers, events=memory.events, session_id="cafe")
    assert pages == sink.pages > 0
    written = records(streamed)
    assert written == records(batch)
    kinds = [row["json"].get("kind") for row in written if "json" in row]
    assert {"pagesift-robots", "pagesift-event"} <= set(kinds)
    agents = {dict(row["http"][1])["User-Agent"] for row in written
              if row["WARC-Type"] == "request"}
    assert agents == {config.user_agent}


def test_a_warc_read_while_the_crawl_runs_replays_the_steps_written(tmp_path: Path) -> None:
    config = fixture_config()
    path = tmp_path / "crawl.warc.gz"
    with streamed_to(path, config) as (session, memory):
        session.run(max_steps=4)
        session.relabel(session.steps[2].final_url, True)  # an event the cut file must hold
        disallowed = 0
        while not disallowed:  # on to the first step that met a link robots.txt forbids
            session.run(max_steps=1)
            if any(isinstance(a, RecordedRobots) and not a.allowed for a in memory.answers):
                disallowed = len(session.steps)
        steps = len(session.steps)
        cut = tmp_path / "cut.warc.gz"
        shutil.copy(path, cut)  # as a kill -9 would leave it: flushed, never closed
        session.run()
        assert len(session.steps) > steps
    check_rebuilt(session.steps[:steps], replayed(config, cut, steps))


def test_a_warc_cut_mid_record_is_read_up_to_the_last_whole_record(tmp_path: Path) -> None:
    config = fixture_config()
    path = tmp_path / "crawl.warc.gz"
    with streamed_to(path, config) as (session, _):
        session.run(max_steps=6)
        whole = path.stat().st_size
        session.run(max_steps=1)
    data = path.read_bytes()
    with path.open("rb") as stream:
        members = ArchiveIterator(stream)
        spans = [(members.get_record_offset(), members.get_record_length())
                 for _ in members]
    torn = [offset + length * part // 4 for offset, length in spans if offset >= whole
            for part in (1, 2, 3)]
    assert len(torn) >= 9  # the 7th step's response, request, metadata, robots records
    for size in torn:
        cut = tmp_path / f"cut-{size}.warc.gz"
        cut.write_bytes(data[:size])
        recording = read_warc(cut)
        fetches = [a for a in recording.responses if isinstance(a, RecordedFetch)]
        assert len(fetches) in (6, 7)  # the 7th step's records may be whole but one
        check_rebuilt(session.steps[:6], replayed(config, cut, 6))


def test_the_session_record_may_come_anywhere(tmp_path: Path) -> None:
    """The complete session record at the end wins over the one at the start."""
    config = fixture_config(limit=5)
    path = tmp_path / "crawl.warc.gz"
    with streamed_to(path, config) as (session, memory):
        session.run()
    recording = read_warc(path)
    for kind in (RecordedFetch, RecordedRobots):
        assert [a for a in recording.responses if isinstance(a, kind)] == [
            a for a in memory.answers if isinstance(a, kind)]
    sessions = [row for row in records(path) if "format" in row.get("json", {})]
    assert len(sessions) == 2 and sessions[0]["json"]["robots"] == []


def test_attaching_to_a_session_with_steps_needs_their_answers(tmp_path: Path) -> None:
    session, _ = recorded_session(fixture_config())
    with session:
        session.run(max_steps=2)
        with pytest.raises(ValueError, match="2 steps but 0 recorded fetches"):
            WarcSink.attach(session, tmp_path / "crawl.warc.gz")


# -- the command line -------------------------------------------------------------------


def test_crawl_warc_is_written_as_the_crawl_goes_and_holds_the_ctrl_c_stop(
    site: FixtureSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    warc = tmp_path / "crawl.warc.gz"
    sizes: list[int] = []
    with fetches_interrupted_after(monkeypatch, 5, lambda: sizes.append(warc.stat().st_size)):
        code, out, err = crawl(site, "--limit", "12", "--no-stop", "--no-save",
                               "--warc", str(warc))
    assert code == 130 and "stop reason: cancelled" in out
    assert sizes == sorted(sizes) and len(set(sizes)) == len(sizes), "a step is written at once"
    assert f"WARC: {warc} (" in err
    code, replay_out, err = run("replay", str(warc))
    assert code == 0, err
    assert "replayed 5 steps offline" in replay_out and "0 URLs unavailable" in replay_out
    assert "stop reason: cancelled" in replay_out


def test_a_resumed_crawl_streams_the_whole_session_to_its_warc(
    site: FixtureSite, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with fetches_interrupted_after(monkeypatch, 4):
        code, _, err = crawl(site, "--limit", "9", "--no-stop")
    assert code == 130, err
    with SessionStore(default_db_path()) as store:
        (info,) = store.list_sessions()
    bundle, warc = tmp_path / "resumed.json", tmp_path / "resumed.warc.gz"
    code, out, err = run("crawl", "--resume", info.session_id, "--quiet", "--out", str(bundle),
                         "--warc", str(warc))
    assert code == 0, err
    assert read_warc(warc).session_id == info.session_id
    replay_bundle = tmp_path / "replay.json"
    code, replay_out, err = run("replay", str(warc), "--out", str(replay_bundle))
    assert code == 0, err
    assert "0 URLs unavailable" in replay_out and replay_out.endswith(out)
    crawled, again = load_bundle(bundle).steps, load_bundle(replay_bundle).steps
    assert len(crawled) >= 9  # 4 saved, then on to the limit (a duplicate does not count)
    check_rebuilt(crawled, again)


def test_a_killed_crawls_warc_replays_to_where_the_file_ends_and_says_so(
    tmp_path: Path,
) -> None:
    # it replayed on to the recorded limit, every later step "not recorded", and named the
    # limit as the stop; nothing said the crawl never finished (found by using the CLI)
    config = fixture_config(limit=30)
    path, cut = tmp_path / "crawl.warc.gz", tmp_path / "killed.warc.gz"
    with streamed_to(path, config) as (session, _):
        session.run(max_steps=7)
        shutil.copy(path, cut)  # as a kill -9 would leave it: flushed, never closed
        kept = list(session.steps)
        session.run()
        whole = len(session.steps)
    assert not read_warc(cut).finished and read_warc(path).finished
    code, out, err = run("replay", str(cut), "--out", str(tmp_path / "replay.json"))
    assert code == 0, err
    assert "replayed 7 steps offline" in out and "0 URLs unavailable" in out
    assert ("the recording is unfinished: the crawl that wrote it was stopped after 7 steps, "
            "before it closed the file, and this replay ends there") in out
    assert "stop reason: limit_reached" not in out
    check_rebuilt(kept, load_bundle(tmp_path / "replay.json").steps)
    code, out, _ = run("replay", str(cut), "--patience", "3")  # other settings go on
    assert code == 0 and "pages past it are unavailable" in out
    code, out, _ = run("replay", str(path))
    assert code == 0 and "unfinished" not in out and f"replayed {whole} steps" in out
