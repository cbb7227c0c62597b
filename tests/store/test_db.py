"""The SQLite session store: pragmas, schema versions, listing, atomic step writes."""

from __future__ import annotations

import sqlite3
import zlib
from pathlib import Path

import pytest

import pagesift_ui.store.db as db_module
from pagesift_ui.errors import SessionBroken
from pagesift_ui.net.fetcher import FetchResult
from pagesift_ui.session import CrawlSession, Override, OverrideKind, StepRecord
from pagesift_ui.store import (
    SCHEMA_VERSION,
    RecordedFetch,
    RecordedRobots,
    SchemaTooNew,
    SessionEvent,
    SessionNotFound,
    SessionStatus,
    SessionStore,
    StoreError,
    default_db_path,
    start_session,
)
from tests.fixture_site import FixtureSite

from . import saving, site_config


def _raw(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(path)


def _count(path: Path, table: str) -> int:
    with _raw(path) as db:
        return int(db.execute(f"SELECT count(*) FROM {table}").fetchone()[0])


@pytest.fixture
def crawled(store: SessionStore, site: FixtureSite) -> CrawlSession:
    with start_session(store, site_config(site, limit=6)) as saved:
        saved.run()
    return saved


def test_the_store_runs_in_wal_mode_with_full_sync(store: SessionStore) -> None:
    with _raw(store.path) as db:
        assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        assert db.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    assert store._db.execute("PRAGMA synchronous").fetchone()[0] == 2  # noqa: SLF001 - FULL
    assert store._db.execute("PRAGMA foreign_keys").fetchone()[0] == 1  # noqa: SLF001


def test_the_default_path_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("PAGESIFT_DB", str(tmp_path / "mine.sqlite3"))
    assert default_db_path() == tmp_path / "mine.sqlite3"
    with SessionStore() as store:
        assert store.path == tmp_path / "mine.sqlite3"
    monkeypatch.delenv("PAGESIFT_DB")
    assert default_db_path().name == "sessions.sqlite3"
    assert "pagesift-ui" in str(default_db_path())


def test_a_newer_schema_is_refused_with_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "new.sqlite3"
    SessionStore(path).close()
    with _raw(path) as db:
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    with pytest.raises(SchemaTooNew, match=f"schema version {SCHEMA_VERSION + 1}.*newer"):
        SessionStore(path)


def test_files_that_are_not_session_stores_are_refused(tmp_path: Path) -> None:
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all, just text " * 100)
    with pytest.raises(StoreError, match="not a pagesift-ui session store"):
        SessionStore(text)
    other = tmp_path / "other.sqlite3"
    with _raw(other) as db:
        db.execute("CREATE TABLE birds (name TEXT)")
    with pytest.raises(StoreError, match="not a pagesift-ui session store"):
        SessionStore(other)


def test_listing_shows_each_session_newest_first(store: SessionStore, site: FixtureSite) -> None:
    with start_session(store, site_config(site, limit=3)) as first:
        first.run()
    with start_session(store, site_config(site, query="shipping times"), title="ship") as second:
        second.step()
    infos = store.list_sessions()
    assert [i.session_id for i in infos] == [saving(second).session_id, saving(first).session_id]
    newest, oldest = infos
    assert (newest.query, newest.title, newest.steps) == ("shipping times", "ship", 1)
    assert newest.status is SessionStatus.OPEN and newest.stop_reason is None
    assert (oldest.steps, oldest.status, oldest.stop_reason) == (
        3, SessionStatus.DONE, "limit_reached",
    )
    assert oldest.seed == site.url("/") and oldest.created_at <= oldest.updated_at
    assert store.info(saving(first).session_id) == oldest


def test_load_gives_back_everything_saved(store: SessionStore, crawled: CrawlSession) -> None:
    saved = store.load(saving(crawled).session_id)
    assert saved.config == crawled.config
    assert list(saved.steps) == crawled.steps
    assert saved.responses == saving(crawled).recorded()
    fetches = [r for r in saved.responses if isinstance(r, RecordedFetch)]
    assert [f.url for f in fetches] == [s.url for s in crawled.steps]
    page = fetches[0].result
    assert isinstance(page, FetchResult) and page.url == crawled.steps[0].url
    assert page.text.startswith("<!DOCTYPE html>") and page.fetched_at == saved.steps[0].fetched_at
    assert any(isinstance(r, RecordedRobots) for r in saved.responses)


def test_the_answers_alone_are_read_back_for_an_export(
    store: SessionStore, crawled: CrawlSession
) -> None:
    session_id = saving(crawled).session_id
    assert store.responses(session_id) == store.load(session_id).responses
    with pytest.raises(SessionNotFound):
        store.responses("no-such-session")


def test_bodies_are_stored_zlib_compressed(store: SessionStore, crawled: CrawlSession) -> None:
    saved = store.load(saving(crawled).session_id)
    pages = [r.result for r in saved.responses if isinstance(r, RecordedFetch) and r.result]
    with _raw(store.path) as db:
        blobs = [row[0] for row in db.execute(
            "SELECT body FROM responses WHERE body IS NOT NULL ORDER BY seq"
        )]
    assert [zlib.decompress(blob) for blob in blobs] == [page.body for page in pages]
    assert sum(map(len, blobs)) < 0.5 * sum(len(page.body) for page in pages)


def test_a_failing_step_write_stores_nothing_of_the_step(
    store: SessionStore, site: FixtureSite, monkeypatch: pytest.MonkeyPatch,
    request: pytest.FixtureRequest,
) -> None:
    saved = start_session(store, site_config(site))
    request.addfinalizer(saved.close)
    saved.step()
    saved.pin(saved.frontier(5)[-1].key)  # an override, saved at once
    before = {t: _count(store.path, t) for t in ("steps", "responses", "overrides")}
    assert before["overrides"] == 1

    def crash(record: StepRecord) -> str:
        raise OSError("disk full (simulated, after the step's answers were inserted)")

    monkeypatch.setattr(db_module, "_record_json", crash)
    with pytest.raises(OSError, match="disk full"):
        saved.step()
    assert {t: _count(store.path, t) for t in before} == before
    assert store.info(saving(saved).session_id).steps == 1
    assert len(saved.steps) == 2, "the step happened in memory"
    monkeypatch.undo()
    with pytest.raises(SessionBroken, match="StoreSink failed .*disk full.* resume the session"):
        saved.step()  # the session refuses to go on with a gap in the store
    saved.drop(saved.frontier(1)[0].key)  # overrides go on in memory, unsaved
    assert _count(store.path, "overrides") == before["overrides"]


def test_save_is_all_or_nothing_even_for_events(store: SessionStore, site: FixtureSite) -> None:
    session_id = store.create(site_config(site))
    event = SessionEvent(0, Override(0, OverrideKind.STOP, note="x"))
    with pytest.raises(SessionNotFound):
        store.save("nosuchid", status=SessionStatus.DONE, stop_reason="cancelled",
                   events=[event])
    store.save(session_id, status=SessionStatus.DONE, stop_reason="cancelled", events=[event])
    assert store.load(session_id).events == (event,)
    assert _count(store.path, "overrides") == 1
    with pytest.raises(ValueError, match="saved with the step"):
        store.save(session_id, status=SessionStatus.OPEN, stop_reason=None,
                   responses=[RecordedRobots("http://a.test/", True)])


def test_delete_removes_a_session_and_all_its_rows(
    store: SessionStore, crawled: CrawlSession
) -> None:
    assert _count(store.path, "responses") > 0
    session_id = saving(crawled).session_id
    store.delete(session_id)
    assert store.list_sessions() == []
    assert [_count(store.path, t) for t in ("steps", "responses", "overrides")] == [0, 0, 0]
    with pytest.raises(SessionNotFound, match="pagesift-ui sessions"):
        store.delete(session_id)
    with pytest.raises(SessionNotFound):
        store.load(session_id)


def test_two_stores_on_one_file_see_each_others_sessions(
    store: SessionStore, site: FixtureSite
) -> None:
    with SessionStore(store.path) as other:
        session_id = other.create(site_config(site))
        assert [i.session_id for i in store.list_sessions()] == [session_id]


def test_an_unknown_session_id_is_named_by_its_start() -> None:
    # an id pasted by mistake (a whole page) is not repeated back in full
    message = str(SessionNotFound("x" * 10_000))
    assert message.startswith("no saved session has the id 'xxx") and len(message) < 200
