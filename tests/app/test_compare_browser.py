"""A real click on the sweep heatmap, in headless Debian Chromium (as tests/app/test_browser.py:
never ``playwright install``). AppTest cannot click a plotly chart, so this is where the
heatmap's click-to-pick is shown to work: the click lands on a cell's centre, the "Cell" box
names that cell, and its sessions open in the Compare page."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest

from components.sweepview import PREFERRED_METRICS, axis_choices, grid_label
from pagesift_ui.sweep.results import heatmap_grid, metric_columns
from tests.app.test_browser import ARGS, CHROMIUM, _free_port, _healthy
from tests.app.test_compare import sweep_folder  # noqa: F401 (the fixture)

ROOT = Path(__file__).resolve().parents[2]

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not os.path.exists(CHROMIUM),
                       reason=f"{CHROMIUM} is missing: apt-get install -y chromium"),
]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    port = _free_port()
    store = tmp_path_factory.mktemp("compare-store") / "sessions.sqlite3"
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


@pytest.fixture
def page(server: str, tmp_path: Path) -> Iterator[Any]:
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tmp_path / "chr-profile"
    try:
        with sync_api.sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(
                str(profile), executable_path=CHROMIUM, headless=True, args=ARGS,
                viewport={"width": 1400, "height": 1000})
            pg = ctx.new_page()
            pg.goto(server + "/sweeps")
            yield pg
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)


#: The centre of heatmap cell (row i, column j) in page pixels, from plotly's own axes.
CENTRE = """([i, j]) => {
  const gd = document.querySelector('.st-key-sweep_heatmap .js-plotly-plot');
  const L = gd._fullLayout, r = gd.getBoundingClientRect();
  return [r.left + L.xaxis._offset + L.xaxis.l2p(j), r.top + L.yaxis._offset + L.yaxis.l2p(i)];
}"""


def test_a_click_on_a_heatmap_cell_picks_it_and_opens_its_sessions(
        page: Any, sweep_folder: Path) -> None:  # noqa: F811
    from playwright.sync_api import expect

    cells = pd.read_parquet(sweep_folder / "cells.parquet")
    x, y = axis_choices(cells)[:2]
    metrics = metric_columns(cells)
    metric = next(m for m in PREFERRED_METRICS if m in metrics)
    grid = heatmap_grid(cells, x, y, metric)
    box = page.get_by_label("Results folder")
    expect(box).to_be_visible(timeout=30_000)
    box.fill(str(sweep_folder))
    box.press("Enter")
    page.get_by_role("button", name="Open", exact=True).click()
    heat = page.locator(".st-key-sweep_heatmap .js-plotly-plot")
    expect(heat).to_be_visible(timeout=30_000)
    time.sleep(1.0)  # plotly lays the axes out after the element appears
    heat.scroll_into_view_if_needed()
    left, top = page.evaluate(CENTRE, [1, 0])
    page.mouse.click(left, top)
    expect(page.locator(".st-key-sweep_pick input")).to_have_value(
        re.compile("^" + re.escape(grid_label(grid, "1,0"))), timeout=15_000)
    n = len(grid.cell_ids[1][0])
    page.get_by_role("button", name=f"Compare {n} sessions").click()
    expect(page.get_by_role("heading", name="Compare crawls")).to_be_visible(timeout=15_000)
    expect(page.locator(".st-key-compare_chart .main-svg").first).to_be_attached()
