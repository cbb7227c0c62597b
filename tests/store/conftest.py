"""Fixtures of the session-store tests: a store in a temporary folder, recorded crawls."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from pagesift_ui.store import SessionStore
from tests.fixture_site import FixtureSite


@pytest.fixture(autouse=True)
def _private_default_db(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """No test may touch the user's real session store."""
    monkeypatch.setenv("PAGESIFT_DB", str(tmp_path / "default.sqlite3"))


@pytest.fixture
def store(tmp_path: Path) -> Iterator[SessionStore]:
    with SessionStore(tmp_path / "sessions.sqlite3") as opened:
        yield opened


@pytest.fixture(scope="module")
def site() -> Iterator[FixtureSite]:
    """One fixture site per module: its pages never change, so tests may share it."""
    with FixtureSite() as running:
        yield running
