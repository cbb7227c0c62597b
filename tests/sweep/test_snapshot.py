"""Any recording serves as a snapshot: a bundle with responses, a saved session, a WARC; a
crawl against it is offline, and a page it lacks is a "not in snapshot" step."""

from __future__ import annotations

import io
import json
from functools import cache
from pathlib import Path

import pytest

from pagesift_ui.bench.truth import found_keys
from pagesift_ui.cli import main
from pagesift_ui.demo import DemoSite, build_site
from pagesift_ui.errors import ConfigError, NotRecorded
from pagesift_ui.session import CrawlConfig, CrawlSession, StepOutcome, StepRecord
from pagesift_ui.session.bundle import bundle_json
from pagesift_ui.store import RecordingSink, ReplaySource, SessionStore, start_session
from pagesift_ui.store.portable import bundle_with_responses
from pagesift_ui.sweep import load_payload, parse_spec, read_payload, snapshot_config
from pagesift_ui.sweep.results import session_curve
from pagesift_ui.sweep.snapshot import SNAPSHOT_QUERY
from tests.fakes import demo_seed, demo_source

PAGES = 15


@cache
def _site() -> DemoSite:
    return build_site("helpdesk")


def _snapshot_config() -> CrawlConfig:
    return snapshot_config({"seed_url": demo_seed(_site()), "limit": PAGES})


def test_a_snapshot_crawl_is_breadth_first_to_the_limit() -> None:
    config = _snapshot_config()
    assert config.strategy.value == "bfs" and not config.stop_on_verdict
    assert config.query == SNAPSHOT_QUERY
    assert snapshot_config({"seed_url": "http://a.localhost/", "query": "x y"}).query == "x y"
    with pytest.raises(ConfigError, match="limit"):
        snapshot_config({"seed_url": "http://a.localhost/", "limit": 0})


def _record_bundle(path: Path) -> RecordingSink:
    """Crawl the demo site as ``snapshot`` does and write the bundle with its responses to
    ``path``; return the sink that recorded the answers."""
    memory = RecordingSink()
    config = _snapshot_config()
    with CrawlSession(config, memory.record(demo_source(_site())), sinks=[memory]) as session:
        session.run()
        bundle = bundle_with_responses(session, memory.answers, memory.events)
    path.write_text(bundle_json(bundle), encoding="utf-8")
    return memory


def test_a_bundle_with_responses_is_a_snapshot(tmp_path: Path) -> None:
    config = _snapshot_config()
    path = tmp_path / "helpdesk.json"
    memory = _record_bundle(path)
    payload = read_payload(path)
    assert payload.kind == "bundle" and len(payload.digest) == 64
    snapshot = load_payload(payload)
    assert snapshot.seed_url == config.seed_url
    assert len(snapshot.responses) == len(memory.answers)
    _crawl_offline(snapshot.responses, config.seed_url)


def test_a_saved_session_is_a_snapshot(tmp_path: Path) -> None:
    db = tmp_path / "sessions.sqlite3"
    config = _snapshot_config()
    with SessionStore(db) as store:
        session = start_session(store, config, source=demo_source(_site()))
        session.run()
        session.close()
        session_id = store.list_sessions()[0].session_id
    payload = read_payload(session_id=session_id, db=db)
    assert payload == read_payload(session_id=session_id, db=db)  # the same bytes each time
    spec = parse_spec(f'[[snapshots]]\nsession = "{session_id}"\ndb = "{db}"\n'
                      f'[[queries]]\ntext = "{_site().query}"\n', base=tmp_path)
    assert spec.snapshots[0].seed_url == config.seed_url
    assert spec.cells[0].snapshot_digest == payload.digest
    _crawl_offline(load_payload(payload).responses, config.seed_url)


def _crawl_offline(responses: tuple[object, ...] | list[object], seed: str) -> list[StepRecord]:
    """A focused crawl past the snapshot's pages: the missing ones are not_recorded steps."""
    config = CrawlConfig.from_mapping({"seed_url": seed, "query": _site().query,
                                       "limit": PAGES + 10, "stop_on_verdict": False})
    with CrawlSession(config, ReplaySource(responses)) as session:  # type: ignore[arg-type]
        records = session.run()
    missing = [r for r in records if r.error_kind == NotRecorded.kind]
    assert missing and all(r.outcome is StepOutcome.ERROR for r in missing)
    assert any(r.outcome is StepOutcome.FETCHED for r in records)
    return records


def test_a_page_missing_from_the_snapshot_is_not_found(tmp_path: Path) -> None:
    # a thin snapshot read as high recall: its missing pages counted as found
    memory = _record_bundle(tmp_path / "helpdesk.json")
    records = _crawl_offline(load_payload(read_payload(tmp_path / "helpdesk.json")).responses,
                             _snapshot_config().seed_url)
    missing = [r.url for r in records if r.error_kind == NotRecorded.kind]
    read = next(r.url for r in records if r.outcome is StepOutcome.FETCHED)
    truth = [*missing, read]
    assert session_curve(records, truth)[-1].recall == 1 / len(truth)
    assert all(found_keys(r) == set() for r in records if r.outcome is StepOutcome.ERROR)
    assert memory.answers


def test_unreadable_snapshots_are_named(tmp_path: Path) -> None:
    with pytest.raises(ConfigError, match="cannot read"):
        read_payload(tmp_path / "missing.warc.gz")
    with pytest.raises(ConfigError, match="snapshot"):
        read_payload()


#: A spec's snapshot (``s.json`` beside it) and one query, before its grid.
ONE_QUERY = """
[[snapshots]]
path = "s.json"
[[queries]]
text = "refund policy"
"""


def test_grid_tables_give_the_union_of_their_products(tmp_path: Path) -> None:
    _record_bundle(tmp_path / "s.json")
    spec = parse_spec(ONE_QUERY + """
[[grid]]
strategy = ["focused"]
[[grid]]
strategy = ["thompson"]
sampling_seed = [0, 1, 2]
""", base=tmp_path)
    assert [cell.label for cell in spec.cells] == [
        "strategy=focused", "strategy=thompson sampling_seed=0",
        "strategy=thompson sampling_seed=1", "strategy=thompson sampling_seed=2"]
    assert len({cell.cell_id for cell in spec.cells}) == 4
    assert spec.snapshots[0].name == "s.json"
    # overlapping tables, a repeated value or a repeated query: each cell once (8 rows for
    # 6 cells, and every step row twice, were written)
    overlapping = parse_spec(ONE_QUERY + """
[[queries]]
text = "refund policy"
[[grid]]
patience = [3, 5]
[[grid]]
patience = [5, 8, 8]
""", base=tmp_path)
    assert [cell.label for cell in overlapping.cells] == [
        "patience=3", "patience=5", "patience=8"]


def test_a_snapshot_is_replayed_as_a_crawl_for_the_query_given(tmp_path: Path) -> None:
    # it was replayed breadth-first, never stopping, for the query "site snapshot"
    path = tmp_path / "helpdesk.json"
    _record_bundle(path)
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(path)], out, err) == 2
    assert "none was recorded with a snapshot: give --query" in err.getvalue()
    bundle = tmp_path / "replay.json"
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(path), "-q", _site().query, "--out", str(bundle)], out,
                err) == 0, err.getvalue()
    config = json.loads(bundle.read_text(encoding="utf-8"))["config"]
    assert (config["strategy"], config["stop_on_verdict"]) == ("focused", True)
    assert config["query"] == _site().query and config["limit"] == 200  # the crawl default
    out, err = io.StringIO(), io.StringIO()
    assert main(["replay", str(path), "-q", "x", "--strategy", "bfs", "--out", str(bundle)],
                out, err) == 0
    assert json.loads(bundle.read_text(encoding="utf-8"))["config"]["strategy"] == "bfs"


def test_a_spec_names_its_snapshots_where_they_can_be_read_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a spec run from its own folder with `path = "x.json"` wrote "x.json" in the manifest,
    # and a cell opened in the app (run from elsewhere) could not be replayed (found by
    # using the app); a session's store was not written at all
    _record_bundle(tmp_path / "helpdesk.json")
    db = tmp_path / "sessions.sqlite3"
    with SessionStore(db) as store:
        session = start_session(store, _snapshot_config(), source=demo_source(_site()))
        session.run()
        session.close()
        session_id = store.list_sessions()[0].session_id
    monkeypatch.chdir(tmp_path)
    spec = parse_spec(f'[[snapshots]]\nname = "file"\npath = "helpdesk.json"\n'
                      f'[[snapshots]]\nname = "saved"\nsession = "{session_id}"\n'
                      f'db = "sessions.sqlite3"\n'
                      f'[[queries]]\ntext = "{_site().query}"\n', base=Path("."))
    file, saved = spec.snapshots
    assert file.source == str(tmp_path / "helpdesk.json") and file.db is None
    assert saved.source == f"session:{session_id}" and saved.db == str(db)
