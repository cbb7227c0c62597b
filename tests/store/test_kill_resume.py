"""A crawl killed with SIGKILL mid-step is resumed and ends exactly like one never killed.

The crawl runs in a subprocess (``python -m pagesift_ui crawl``) against the fixture site on
127.0.0.1. The site holds back every page request after the first few, so the kill lands
while a step is in flight, deterministically, however fast the machine. The resume runs in
a subprocess too (``crawl --resume ID``), in a process with another hash seed.
"""

from __future__ import annotations

import io
import json
import os
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from pagesift_ui.cli import main
from pagesift_ui.store import SessionStatus, SessionStore
from tests.fixture_site import FixtureSite, RequestRecord

from . import crawl_view

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="needs SIGKILL")

ROOT = Path(__file__).resolve().parents[2]
OPEN_PAGES = 6  # page requests answered before the site starts holding them
TIMEOUT_S = 60.0


class GatedSite(FixtureSite):
    """The fixture site, holding each page request after the first ``open_pages`` until
    ``release()``; ``held`` is set once a request is being held."""

    def __init__(self, open_pages: int) -> None:
        super().__init__()
        self.open_pages = open_pages
        self.held = threading.Event()
        self._gate = threading.Event()
        self._pages = 0
        self._count_lock = threading.Lock()

    def record(self, record: RequestRecord) -> None:
        super().record(record)
        if record.path == "/robots.txt":
            return
        with self._count_lock:
            self._pages += 1
            hold = self._pages > self.open_pages
        if hold and not self._gate.is_set():
            self.held.set()
            self._gate.wait(TIMEOUT_S)

    def release(self) -> None:
        self._gate.set()


def _crawl(*args: str, db: Path) -> subprocess.Popen[str]:
    command = [sys.executable, "-m", "pagesift_ui", "crawl", *args, "--db", str(db), "--quiet"]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PAGESIFT_DB": str(db)}
    return subprocess.Popen(command, cwd=ROOT, env=env, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)


def _finish(process: subprocess.Popen[str]) -> str:
    out, err = process.communicate(timeout=TIMEOUT_S)
    assert process.returncode == 0, err
    return out


def _settings(site: FixtureSite) -> list[str]:
    # --no-stop: crawl on past the first verdict, through the 404, 500 and redirect loop
    return [site.url("/"), "--query", "refund policy", "--limit", "40", "--no-stop",
            "--delay", "0"]


def test_a_crawl_killed_mid_step_resumes_to_the_same_end(tmp_path: Path) -> None:
    with GatedSite(OPEN_PAGES) as site:
        killed_db, whole_db = tmp_path / "killed.sqlite3", tmp_path / "whole.sqlite3"
        crawl = _crawl(*_settings(site), db=killed_db)
        try:
            # Held: the crawl is inside a step, and every step before it has been committed.
            assert site.held.wait(TIMEOUT_S), "the crawl never reached the held page"
            crawl.send_signal(signal.SIGKILL)
        finally:
            site.release()
            if crawl.poll() is None:
                crawl.kill()
            crawl.communicate(timeout=TIMEOUT_S)
        assert crawl.returncode == -signal.SIGKILL
        with SessionStore(killed_db) as store:
            (info,) = store.list_sessions()
            killed_at = store.load(info.session_id)
        assert info.status is SessionStatus.OPEN and 1 <= info.steps < OPEN_PAGES + 1
        assert len(killed_at.steps) == info.steps  # only whole steps were stored

        resumed = _crawl("--resume", info.session_id, db=killed_db)
        # the uninterrupted reference runs in this process meanwhile: the same CLI code
        whole, err = io.StringIO(), io.StringIO()
        assert main(["crawl", *_settings(site), "--db", str(whole_db), "--quiet"], whole,
                    err) == 0, err.getvalue()
        assert _finish(resumed) == whole.getvalue()

    with SessionStore(killed_db) as store:
        after = store.load(info.session_id)
    with SessionStore(whole_db) as store:
        (reference,) = [store.load(i.session_id) for i in store.list_sessions()]
    assert after.steps[: info.steps] == killed_at.steps, "the saved steps were kept as they were"
    assert [r.final_url for r in after.steps] == [r.final_url for r in reference.steps]
    assert [crawl_view(r) for r in after.steps] == [crawl_view(r) for r in reference.steps]
    assert after.steps[-1].evidence == reference.steps[-1].evidence
    assert after.info.stop_reason == reference.info.stop_reason is not None
    assert after.info.status is SessionStatus.DONE
    assert {r.outcome.value for r in after.steps} >= {"fetched", "error"}


def test_the_first_ctrl_c_stops_the_crawl_once_the_step_under_way_is_recorded(
    tmp_path: Path,
) -> None:
    # Ctrl-C cut a step off half-way: the summary counted a page and a verdict that no
    # record, bundle or CSV had ("55 pages fetched in 54 steps")
    db, bundle = tmp_path / "s.sqlite3", tmp_path / "b.json"
    with GatedSite(OPEN_PAGES) as site:
        crawl = _crawl(*_settings(site), "--out", str(bundle), db=db)
        try:
            assert site.held.wait(TIMEOUT_S), "the crawl never reached the held page"
            crawl.send_signal(signal.SIGINT)
            # the held step goes on once its page comes: it is recorded, then the crawl stops
            threading.Timer(1.0, site.release).start()
            out, err = crawl.communicate(timeout=TIMEOUT_S)
        finally:
            site.release()
            if crawl.poll() is None:
                crawl.kill()
    assert crawl.returncode == 130, err
    assert "Ctrl-C: stopping after this step" in err and "Traceback" not in err
    with SessionStore(db) as store:
        (info,) = store.list_sessions()
        saved = store.load(info.session_id)
    assert info.status is SessionStatus.OPEN  # --resume continues it
    pages = saved.steps[-1].pages_fetched
    assert len(saved.steps) >= OPEN_PAGES - 1, out + err  # every step under way was finished
    assert f"{pages} pages fetched in {len(saved.steps)} steps" in out
    final = json.loads(bundle.read_text(encoding="utf-8"))
    assert len(final["steps"]) == len(saved.steps)
    assert final["final"]["summary"]["pages_fetched"] == pages
    assert all(step <= len(saved.steps) for step, *_ in final["final"]["summary"]["verdicts"])
