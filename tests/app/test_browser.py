"""The app in a real browser: headless Debian Chromium driven by Playwright's Python package.

Never ``playwright install`` (no CDN here): Playwright drives /usr/bin/chromium through
``launch_persistent_context`` with a fresh profile. Skips when Chromium is absent.
Screenshots go to pytest's temporary folder; with PAGESIFT_UPDATE_SCREENSHOTS=1 they replace
docs/screenshots/ (the small one is the README's), so a test run leaves the tree clean.
Each test opens its own tab, hence its own Streamlit session: the tests run in any order.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]

LIVE_CHARTS = ("chart_coverage", "chart_stale", "chart_weights", "chart_forest")
WHATIF_CHARTS = ("chart_whatif_stale", "chart_whatif_coverage")

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"{CHROMIUM} is missing: apt-get install -y chromium"),
]


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


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    # the app saves every crawl: give the server a private store, never the user's
    store = tmp_path_factory.mktemp("browser-store") / "sessions.sqlite3"
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", "app.py", "--server.headless", "true",
         "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        env={**os.environ, "PAGESIFT_DB": str(store)})
    url = f"http://127.0.0.1:{port}"
    try:
        if not _healthy(url, time.time() + 30):
            pytest.fail("streamlit did not become healthy within 30 s")
        yield url
    finally:
        os.kill(proc.pid, signal.SIGTERM)  # only the server this fixture started
        try:
            proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.kill(proc.pid, signal.SIGKILL)
            proc.wait(timeout=5)


@pytest.fixture(scope="module")
def shots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where screenshots go: docs/screenshots/ only when asked to update them."""
    if os.environ.get("PAGESIFT_UPDATE_SCREENSHOTS") == "1":
        return ROOT / "docs" / "screenshots"
    return tmp_path_factory.mktemp("shots")


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    """One Chromium for the module (a fresh profile); tests open their own tabs in it."""
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tmp_path_factory.mktemp("chr-profile")
    try:
        with sync_api.sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(
                str(profile), executable_path=CHROMIUM, headless=True, args=ARGS,
                viewport={"width": 1400, "height": 1000}, accept_downloads=True)
            yield ctx
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Any]:
    """A new tab on the app: a new Streamlit session with the app's initial state."""
    pg = browser.new_page()
    try:
        pg.goto(server)
        yield pg
    finally:
        pg.close()


def _metric(page: Any, label: str) -> Any:
    tile = page.locator('[data-testid="stMetric"]').filter(has_text=label)
    # .first: while a rerun moves the tiles (a flash message came or went) the old ones
    # linger until the run ends
    return tile.locator('[data-testid="stMetricValue"]').first


def _in_view(page: Any, locator: Any) -> bool:
    """The element is wholly inside the viewport (no scrolling needed to see it)."""
    box = locator.bounding_box()
    size = page.viewport_size
    return bool(box and box["x"] >= 0 and box["y"] >= 0
                and box["x"] + box["width"] <= size["width"]
                and box["y"] + box["height"] <= size["height"])


def _start(page: Any) -> Any:
    """Press Start once the app is up; the Step button, enabled."""
    from playwright.sync_api import expect

    start = page.get_by_role("button", name="Start", exact=True)
    expect(start).to_be_enabled(timeout=30_000)
    start.click()
    step = _step_button(page)
    expect(step).to_be_visible(timeout=15_000)
    return step


def _idle(page: Any) -> None:
    """Wait until no script run is in progress: Streamlit marks its root with the run's
    state (``data-test-script-state``), and a rerun draws its elements one after another."""
    from playwright.sync_api import expect

    expect(page.locator('[data-testid="stApp"][data-test-script-state="notRunning"]')
           ).to_have_count(1, timeout=15_000)


def _step_button(page: Any) -> Any:
    """The enabled Step button, by its key: while a rerun draws, the old disabled button can
    linger beside the new one (seen at 1920×1080), and a role lookup then finds two."""
    return page.locator(".st-key-step button:enabled").first


def test_start_and_step_draw_the_charts(page: Any, shots: Path) -> None:
    from playwright.sync_api import expect

    expect(page.get_by_role("button", name="Start", exact=True)).to_be_enabled(timeout=30_000)
    page.screenshot(path=str(shots / "setup.png"))
    step = _start(page)
    for n in range(1, 4):
        step.click()
        expect(_metric(page, "Pages fetched")).to_have_text(str(n), timeout=15_000)
    expect(page.get_by_text("Step 3: fetched", exact=False).first).to_be_visible()
    for key in LIVE_CHARTS:  # Plotly really drew each chart
        expect(page.locator(f".st-key-{key} .js-plotly-plot .main-svg").first).to_be_attached(
            timeout=15_000)
    page.mouse.move(5, 5)  # no tooltip over the picture
    page.wait_for_timeout(500)
    page.screenshot(path=str(shots / "after-3-steps.png"))


def test_run_to_stop_shows_the_verdict_and_continue_anyway(page: Any, shots: Path) -> None:
    from playwright.sync_api import expect

    _start(page)
    page.get_by_role("button", name="Run to stop", exact=True).click()
    banner = page.get_by_text("Stop verdict after step", exact=False)
    expect(banner).to_be_visible(timeout=90_000)
    expect(page.locator(".js-plotly-plot .main-svg").first).to_be_attached(timeout=15_000)
    page.mouse.move(5, 5)
    page.wait_for_timeout(1000)
    # the README picture: the verdict banner, the metrics and the charts after a real stop
    page.screenshot(path=str(shots / "readme.png"), type="png")
    page.get_by_role("button", name="Continue anyway", exact=True).click()
    expect(banner).to_have_count(0, timeout=15_000)
    expect(_step_button(page)).to_be_enabled()


def test_pause_stops_a_run_mid_way(page: Any, shots: Path) -> None:
    from playwright.sync_api import expect

    expect(page.get_by_role("button", name="Start", exact=True)).to_be_enabled(timeout=30_000)
    page.get_by_text("Page limit and stop rules", exact=True).click()
    limit = page.get_by_label("Page limit", exact=True)
    limit.fill("2000")
    limit.press("Enter")
    # the limit's rerun redraws the sidebar: a click on the expander landing in it can be
    # lost (CI: "Stop on verdict" never showed), so open it once the rerun has ended, and
    # again if its content did not show
    _idle(page)
    for _ in range(3):
        page.get_by_text("Advanced", exact=True).click()
        try:
            expect(page.get_by_text("Stop on verdict", exact=True)).to_be_visible(timeout=3_000)
            break
        except AssertionError:
            _idle(page)
    # crawl on through verdicts: the box must say so (a click landing while the limit's
    # rerun redraws the sidebar can be lost, and the crawl would stop at its first verdict)
    stop_on_verdict = page.get_by_label("Stop on verdict", exact=True)
    for _ in range(3):
        page.get_by_text("Stop on verdict", exact=True).click()
        try:
            expect(stop_on_verdict).not_to_be_checked(timeout=3_000)
            break
        except AssertionError:
            continue
    expect(stop_on_verdict).not_to_be_checked()
    page.get_by_role("button", name="Start", exact=True).click()
    expect(page.get_by_text("limit 2000", exact=False)).to_be_visible(timeout=15_000)
    page.get_by_role("button", name="Run to stop", exact=True).click()
    pause = page.get_by_role("button", name="Pause", exact=True)
    expect(pause).to_be_enabled(timeout=15_000)
    fetched = _metric(page, "Pages fetched")
    # mid-way: a few pages in, long before the 2,000 (a fixed wait let a fast machine finish
    # a shorter crawl first), then Pause
    expect(fetched).to_have_text(re.compile(r"^(?:[4-9]|\d{2,})$"), timeout=15_000)
    pause.click()
    step = _step_button(page)
    expect(step).to_be_enabled(timeout=15_000)
    # the rerun after Pause draws the buttons before the tiles: read the count once it has
    # ended (read as soon as Step showed enabled, the tile could still hold the last tick's
    # count: 136, then 189 a moment later, with no step taken in between)
    _idle(page)
    count = fetched.inner_text()
    assert 3 < int(count) < 2000
    page.wait_for_timeout(2000)
    assert fetched.inner_text() == count  # no tick after Pause
    page.screenshot(path=str(shots / "after-pause.png"))


def test_start_the_target_and_the_query_are_in_view_on_first_load(
    page: Any, shots: Path
) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1280, "height": 800})
    start = page.get_by_role("button", name="Start", exact=True)
    expect(start).to_be_enabled(timeout=30_000)
    page.wait_for_timeout(500)
    for element in (start, page.get_by_role("radiogroup", name="Target"),
                    page.get_by_role("combobox", name="Demo scenario"),
                    page.get_by_label("Query", exact=True)):
        assert _in_view(page, element)
    page.screenshot(path=str(shots / "first-load-1280.png"))


def test_a_bad_url_shows_its_error_in_view_and_keeps_the_session(
    page: Any, shots: Path
) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1280, "height": 800})
    _start(page).click()
    expect(_metric(page, "Pages fetched")).to_have_text("1", timeout=15_000)
    page.get_by_text("URL", exact=True).click()
    url = page.get_by_label("Start URL", exact=True)
    url.fill("not a url")
    url.press("Enter")
    page.get_by_role("button", name="Start", exact=True).click()
    error = page.locator('[data-testid="stSidebar"] [data-testid="stAlert"]').filter(
        has_text="Start URL:")
    expect(error).to_be_visible(timeout=15_000)
    assert _in_view(page, error)
    # the crawl that was open is still there, and still live
    expect(_metric(page, "Pages fetched")).to_have_text("1")
    expect(_step_button(page)).to_be_enabled()
    page.screenshot(path=str(shots / "bad-url-1280.png"))


def test_the_frontier_view_stays_selected_after_pin_and_step(page: Any) -> None:
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 1280, "height": 800})
    step = _start(page)
    step.click()
    expect(_metric(page, "Pages fetched")).to_have_text("1", timeout=15_000)
    frontier = page.get_by_role("tab", name="Frontier", exact=True)
    frontier.click()
    expect(frontier).to_have_attribute("aria-selected", "true")
    page.get_by_role("button", name="Pin (fetch next)", exact=True).click()
    expect(page.get_by_text("pinned links are fetched first", exact=False)).to_be_visible(
        timeout=15_000)
    expect(frontier).to_have_attribute("aria-selected", "true")
    step.click()
    expect(_metric(page, "Pages fetched")).to_have_text("2", timeout=15_000)
    page.wait_for_timeout(500)
    expect(frontier).to_have_attribute("aria-selected", "true")


#: Each keyed chart's boxes in page pixels: the data area (plotly's drag layer over the axes'
#: domain), the legend and the x-axis title.
_PLOT_BOXES = """keys => keys.map(key => {
  const p = document.querySelector(`.st-key-${key} .js-plotly-plot`);
  const box = e => { if (!e) return null; const b = e.getBoundingClientRect();
                     return [b.left, b.top, b.right, b.bottom]; };
  if (!p) return {key, svg: null};
  return {key, svg: box(p.querySelector('.main-svg')), plot: box(p.querySelector('.nsewdrag')),
          legend: box(p.querySelector('.legend')), xtitle: box(p.querySelector('.g-xtitle'))};
})"""


def _overlap(a: list[float] | None, b: list[float] | None) -> bool:
    return bool(a and b and a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3])


def _inside(inner: list[float] | None, outer: list[float]) -> bool:
    if not inner or inner[2] - inner[0] <= 0:  # no x-axis title
        return True
    return (inner[0] >= outer[0] - 1 and inner[1] >= outer[1] - 1 and inner[2] <= outer[2] + 1
            and inner[3] <= outer[3] + 1)


def _check_charts(page: Any, keys: tuple[str, ...]) -> None:
    """No legend box intersects its plot's data area or x-axis title; the title is whole;
    the plot keeps a readable height."""
    for key in keys:
        expect_drawn = page.locator(f".st-key-{key} .js-plotly-plot .main-svg").first
        expect_drawn.wait_for(state="visible", timeout=15_000)
    page.wait_for_timeout(1500)  # the last relayout
    for chart in page.evaluate(_PLOT_BOXES, list(keys)):
        assert chart["svg"] and chart["plot"], chart
        assert not _overlap(chart["legend"], chart["plot"]), chart
        assert not _overlap(chart["legend"], chart["xtitle"]), chart
        assert _inside(chart["xtitle"], chart["svg"]), chart  # the title is not cut
        assert chart["plot"][3] - chart["plot"][1] >= 150, chart  # a readable plot height


def _run_to_stop(page: Any) -> None:
    from playwright.sync_api import expect

    _start(page)
    page.get_by_role("button", name="Run to stop", exact=True).click()
    expect(page.get_by_text("Stop verdict after step", exact=False)).to_be_visible(
        timeout=90_000)


@pytest.mark.parametrize("width,height", [(1280, 800), (1920, 1080)])
def test_no_legend_covers_a_plot_and_axis_titles_are_whole(
    page: Any, shots: Path, width: int, height: int
) -> None:
    page.set_viewport_size({"width": width, "height": height})
    _run_to_stop(page)
    _check_charts(page, LIVE_CHARTS)
    page.locator(".st-key-chart_forest").scroll_into_view_if_needed()
    page.mouse.move(5, 5)
    page.wait_for_timeout(500)
    page.screenshot(path=str(shots / f"charts-{width}.png"))
    page.get_by_role("tab", name="What-if stops", exact=True).click()
    _check_charts(page, WHATIF_CHARTS)


def _pick_scenario(page: Any, label: str) -> None:
    page.get_by_role("combobox", name="Demo scenario").click()
    page.get_by_role("option", name=label, exact=True).click()


def test_the_lesson_flow_and_the_what_if_panel(page: Any, shots: Path) -> None:
    """Pick a lesson, Run to the lesson, then move a what-if slider (the README pictures)."""
    from playwright.sync_api import expect

    expect(page.get_by_role("button", name="Start", exact=True)).to_be_enabled(timeout=30_000)
    _pick_scenario(page, "helpdesk (covered)")
    expect(page.get_by_text("What to watch:", exact=False)).to_be_visible(timeout=15_000)
    page.get_by_role("button", name="Run to the lesson", exact=True).click()
    reached = page.get_by_text("Lesson reached at step", exact=False)
    expect(reached).to_be_visible(timeout=90_000)
    page.mouse.move(5, 5)
    page.wait_for_timeout(1500)
    page.screenshot(path=str(shots / "lesson.png"))

    tab = page.get_by_role("tab", name="What-if stops", exact=True)
    tab.click()
    patience = page.get_by_role("slider", name="Patience")
    for _ in range(8):  # 5 → 2, one key at a time: each change reruns the app
        value = int(patience.get_attribute("aria-valuetext") or "0")
        if value == 2:
            break
        patience.focus()
        patience.press("ArrowLeft" if value > 2 else "ArrowRight")
        page.wait_for_timeout(1200)
    page.wait_for_timeout(1500)
    expect(tab).to_have_attribute("aria-selected", "true")
    expect(patience).to_have_attribute("aria-valuetext", "2")
    _check_charts(page, WHATIF_CHARTS)
    page.locator(".st-key-chart_whatif_stale").scroll_into_view_if_needed()
    page.mouse.move(5, 5)
    page.wait_for_timeout(800)
    page.screenshot(path=str(shots / "whatif.png"))
