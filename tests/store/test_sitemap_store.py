"""A sitemap-seeded session is saved whole: the harvest is a recorded answer, so a resume,
a WARC and a store written before sitemaps (schema version 1) all rebuild it."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from pagesift_ui.session import CrawlConfig, CrawlSession
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store import (
    Recorded,
    RecordedRobots,
    RecordingSource,
    ReplaySource,
    SessionStatus,
    SessionStore,
    StoreSink,
    resume,
    start_session,
)
from pagesift_ui.store.recording import RecordedSitemaps
from pagesift_ui.store.replay import check_rebuilt
from pagesift_ui.store.schema import SCHEMA, SCHEMA_VERSION
from pagesift_ui.warc.reader import read_warc
from pagesift_ui.warc.writer import write_warc
from tests.sitemap_site import HIDDEN, SitemapSite, site_routes


@pytest.fixture
def mapped() -> Iterator[SitemapSite]:
    with SitemapSite() as server:
        server.routes.update(site_routes(server.base, "robots-gzip-index"))
        yield server


def _config(site: SitemapSite) -> CrawlConfig:
    return CrawlConfig.from_mapping({
        "seed_url": f"{site.base}/", "query": "refund policy", "delay_s": 0.0, "limit": 20,
        "stop_on_verdict": False, "use_sitemaps": True,
    })


def test_a_saved_sitemap_session_resumes_offline_to_the_same_records(
    store: SessionStore, mapped: SitemapSite
) -> None:
    with start_session(store, _config(mapped)) as saved:
        saved.run()
    sink = saved.find_sink(StoreSink)
    assert sink is not None
    stored = store.load(sink.session_id)
    assert stored.config.use_sitemaps
    assert [a for a in stored.responses if isinstance(a, RecordedSitemaps)]
    requests = len(mapped.requests)
    with resume(store, sink.session_id, source=ReplaySource(())) as resumed:
        check_rebuilt(saved.steps, resumed.steps)
    assert f"{mapped.base}{HIDDEN}" in {s.final_url for s in resumed.steps}
    assert len(mapped.requests) == requests


def test_a_warc_keeps_the_harvest_and_replays_the_session(
    tmp_path: Path, mapped: SitemapSite
) -> None:
    config = _config(mapped)
    answers: list[Recorded] = []
    with CrawlSession(config, RecordingSource(default_source(config), answers.append)) as live:
        live.run()
    path = tmp_path / "crawl.warc.gz"
    write_warc(path, config, answers)
    recording = read_warc(path)
    harvests = [a for a in recording.responses if isinstance(a, RecordedSitemaps)]
    assert harvests == [a for a in answers if isinstance(a, RecordedSitemaps)]
    assert recording.config == config
    with CrawlSession(config, ReplaySource(recording.responses)) as replay:
        replay.run()
    check_rebuilt(live.steps, replay.steps)


def test_a_version_1_store_is_migrated_and_keeps_what_it_held(tmp_path: Path) -> None:
    path = tmp_path / "old.sqlite3"
    old = sqlite3.connect(path)
    for statement in SCHEMA:  # version 1: the same tables, responses without 'sitemaps'
        old.execute(statement.replace(", 'sitemaps'", ""))
    config = CrawlConfig.from_mapping({"seed_url": "http://127.0.0.1:9/", "query": "refunds"})
    old.execute("INSERT INTO sessions (id, created_at, updated_at, config, status, query, seed) "
                "VALUES ('abcd1234', 1, 1, ?, 'open', 'refunds', 'http://127.0.0.1:9/')",
                (json.dumps(config.to_dict(), sort_keys=True),))
    old.execute("INSERT INTO responses (session_id, seq, step, kind, url, allowed) "
                "VALUES ('abcd1234', 1, 1, 'robots', 'http://127.0.0.1:9/a', 1)")
    with pytest.raises(sqlite3.IntegrityError):  # what version 1 could not hold
        old.execute("INSERT INTO responses (session_id, seq, step, kind, url) "
                    "VALUES ('abcd1234', 2, 1, 'sitemaps', '')")
    old.execute("PRAGMA user_version = 1")
    old.commit()
    old.close()
    with SessionStore(path) as store:
        loaded = store.load("abcd1234")
        assert loaded.responses == (RecordedRobots("http://127.0.0.1:9/a", True),)
        assert loaded.config == config
    check = sqlite3.connect(path)
    try:
        assert check.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION == 2
        table = check.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'responses'").fetchone()[0]
        assert "'sitemaps'" in table
    finally:
        check.close()
    with SessionStore(path) as again:  # opened at the current version: nothing to do
        assert again.info("abcd1234").status is SessionStatus.OPEN
