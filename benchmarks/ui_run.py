"""Run in the app against the engine: the helper behind ``bench_ui.py``'s throughput section.

The app runs in ``streamlit run`` (one of its own, on 127.0.0.1, with a private store) driven
by headless Debian Chromium through Playwright (as ``tests/app/test_browser.py``). It starts
the university demo with a page limit of 2,000 and Stop on verdict off, presses Run to stop,
lets it run ``window`` seconds — or until its store holds ``PAUSE_AT_STEPS`` steps, since the
site runs out after about 1,420 steps and a fast app gets there within 30 s (the Pause button
is then disabled and there is no Pause to measure; a starved Chromium has taken 4 s to land
the click, ~200 steps) — and presses Pause. The
steps it took are read back from its store: each record's ``fetched_at`` (wall clock) says
when the step fetched, so the app's pace over the window is ``steps / (fetched_at[last] −
fetched_at[first])``. The engine's pace is measured on the same steps in this process — a
session saved to a store as the app's is, on the same demo with the app's config (delay 0 on
loopback), stepped as fast as it goes — before and after the browser run, so both meet the
same machine load. The ratio is engine seconds
over app seconds for the same step range.
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

from pagesift_ui.demo import shared_demo
from pagesift_ui.session import CrawlConfig, StepRecord
from pagesift_ui.store import SessionStore, start_session

CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]
#: The first steps are left out: the first draw, and imports on first use (scipy)
WARMUP_STEPS = 20
#: Pause well before the demo site runs out of pages (~1,420): the window ends here at the latest
PAUSE_AT_STEPS = 1_000
#: How often the driver reads the app's store for its step count while Run goes on
POLL_S = 0.25


@dataclass(frozen=True, slots=True)
class AppRun:
    """What the browser run measured."""

    config: CrawlConfig
    steps: tuple[StepRecord, ...]  # every step the app took, from its store
    run_clicked: float  # wall clock
    pause_clicked: float
    ui_paused_s: float  # Pause click → the Pause button disabled again (the full rerun drawn)
    click_s: float  # how long Playwright's Pause click took to land

    def window(self) -> tuple[StepRecord, StepRecord]:
        """The first and last steps fetched between step ``WARMUP_STEPS`` and Pause."""
        inside = [r for r in self.steps
                  if r.step >= WARMUP_STEPS and r.fetched_at <= self.pause_clicked]
        if len(inside) < 2:  # a crawl slower than the warm-up: take what there is
            inside = [r for r in self.steps if r.step >= 2 and r.fetched_at <= self.pause_clicked]
        if len(inside) < 2:
            raise RuntimeError(f"only {len(inside)} steps in the window: the app did not run")
        return inside[0], inside[-1]

    def busy_share(self) -> float:
        """Share of the window's wall time the app spent inside steps (their ``elapsed_ms``):
        the rest it spent drawing, or idle waiting for the browser's next tick."""
        first, last = self.window()
        busy = sum(r.elapsed_ms for r in self.steps if first.step < r.step <= last.step)
        return busy / 1000 / (last.fetched_at - first.fetched_at)

    def tick_gaps(self, threshold_s: float = 0.05) -> list[float]:
        """The pauses between two steps longer than ``threshold_s``: between two ticks."""
        first, last = self.window()
        times = [r.fetched_at for r in self.steps if first.step <= r.step <= last.step]
        return [b - a for a, b in zip(times, times[1:], strict=False) if b - a > threshold_s]

    def steps_after_pause(self, *, landed: bool = False) -> int:
        """Steps fetched after Playwright began the Pause click (``landed``: after it
        returned, the click delivered)."""
        since = self.pause_clicked + (self.click_s if landed else 0.0)
        return sum(1 for r in self.steps if r.fetched_at > since)


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _healthy(url: str, deadline: float) -> bool:
    while time.time() < deadline:
        try:
            with urllib.request.urlopen(url + "/_stcore/health", timeout=1) as response:
                if response.read() == b"ok":
                    return True
        except OSError:
            time.sleep(0.1)
    return False


def _saved_steps(store: SessionStore) -> int:
    sessions = store.list_sessions()
    return sessions[0].steps if sessions else 0


def _drive(url: str, window_s: float, db: Path) -> tuple[float, float, float, float]:
    """Start, Run to stop, wait, Pause: when Run and Pause were clicked (wall clock), how
    long after the Pause click the Pause button was disabled (Run off, whether or not the
    crawl ran out meanwhile), and how long Playwright's click itself took (it waits until
    the page lets the button take the click)."""
    from playwright.sync_api import expect, sync_playwright

    profile = tempfile.mkdtemp(prefix="chr-bench-")
    try:
        with sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS,
                viewport={"width": 1400, "height": 1000})
            page = ctx.new_page()
            page.goto(url)
            start = page.get_by_role("button", name="Start", exact=True)
            expect(start).to_be_enabled(timeout=60_000)
            page.get_by_text("Page limit and stop rules", exact=True).click()
            limit = page.get_by_label("Page limit", exact=True)
            limit.fill("2000")
            limit.press("Enter")
            page.get_by_text("Advanced", exact=True).click()
            page.get_by_text("Stop on verdict", exact=True).click()
            start.click()
            expect(page.get_by_text("limit 2000", exact=False)).to_be_visible(timeout=30_000)
            run_clicked = time.time()
            page.get_by_role("button", name="Run to stop", exact=True).click()
            pause = page.get_by_role("button", name="Pause", exact=True)
            expect(pause).to_be_enabled(timeout=30_000)
            with SessionStore(db) as store:  # WAL: reading does not hold the app's writes
                while (time.time() < run_clicked + window_s
                       and _saved_steps(store) < PAUSE_AT_STEPS):
                    page.wait_for_timeout(int(POLL_S * 1000))
            pause_clicked = time.time()
            pause.click()
            click_took = time.time() - pause_clicked
            expect(page.locator(".st-key-pause button:disabled").first).to_be_visible(
                timeout=30_000)
            ui_paused = time.time() - pause_clicked
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return run_clicked, pause_clicked, ui_paused, click_took


def app_run(app_root: Path, window_s: float) -> AppRun:
    """Run the app at ``app_root`` (its own ``app.py`` and packages) in a browser."""
    scratch = Path(tempfile.mkdtemp(prefix="bench-ui-"))
    db = scratch / "sessions.sqlite3"
    port = _free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=app_root, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PAGESIFT_DB": str(db), "PYTHONPATH": str(app_root)})
    url = f"http://127.0.0.1:{port}"
    try:
        if not _healthy(url, time.time() + 60):
            raise RuntimeError("streamlit did not become healthy within 60 s")
        run_clicked, pause_clicked, ui_paused, click_took = _drive(url, window_s, db)
    finally:
        os.kill(proc.pid, signal.SIGTERM)  # only the server started here
        proc.wait(timeout=30)
    with SessionStore(db) as store:
        (info,) = store.list_sessions()
        saved = store.load(info.session_id)
    shutil.rmtree(scratch, ignore_errors=True)
    return AppRun(saved.config, saved.steps, run_clicked, pause_clicked, ui_paused, click_took)


def engine_seconds(config: CrawlConfig, first: int, last: int) -> float:
    """Seconds the engine alone takes from the end of step ``first`` to the end of ``last``,
    saved to a store as the app saves, on the app's demo and config."""
    server = shared_demo("university")
    values = {**config.to_dict(), "seed_url": server.seed_url}
    scratch = Path(tempfile.mkdtemp(prefix="bench-engine-"))
    try:
        with SessionStore(scratch / "s.sqlite3") as store:
            session = start_session(store, CrawlConfig.from_mapping(values))
            ended: dict[int, float] = {}
            for record in session.iter_steps():
                ended[record.step] = time.perf_counter()
                if record.step >= last:
                    break
            session.close()
    finally:
        shutil.rmtree(scratch, ignore_errors=True)
    if last not in ended:
        raise RuntimeError(f"the engine's crawl ended at step {max(ended)}, before {last}")
    return ended[last] - ended[first]
