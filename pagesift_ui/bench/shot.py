"""A PNG of an HTML plot, rendered by Debian's Chromium through Playwright (no download)."""

from __future__ import annotations

import logging
import shutil
import tempfile
from pathlib import Path

__all__ = ["CHROMIUM", "screenshot_html"]

logger = logging.getLogger(__name__)

CHROMIUM = "/usr/bin/chromium"
# docs/DESIGN.md §15.2: flags that keep Chromium off the (closed) network
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def screenshot_html(html: Path, png: Path, width: int = 920, height: int = 520) -> bool:
    """Write ``png`` from ``html``; False (and a log line) when Chromium is not available."""
    if not Path(CHROMIUM).exists():
        logger.warning("no PNG for %s: %s is not installed (apt-get install chromium)", html,
                       CHROMIUM)
        return False
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        logger.warning("no PNG for %s: the playwright package is not installed", html)
        return False
    profile = tempfile.mkdtemp(prefix="pagesift-chr-")
    try:
        with sync_playwright() as p:
            ctx = p.chromium.launch_persistent_context(
                profile, executable_path=CHROMIUM, headless=True, args=ARGS,
                viewport={"width": width, "height": height},
            )
            page = ctx.new_page()
            page.goto(html.resolve().as_uri())
            page.wait_for_selector(".main-svg", timeout=30_000)
            page.screenshot(path=str(png))
            ctx.close()
    finally:
        shutil.rmtree(profile, ignore_errors=True)
    return True
