from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fixture_site import FixtureSite


@pytest.fixture
def fixture_site() -> Iterator[FixtureSite]:
    """The fixture website (tests/fixture_site.py) running on 127.0.0.1 for one test."""
    with FixtureSite() as site:
        yield site


@pytest.fixture(autouse=True)
def _private_session_store(tmp_path_factory: pytest.TempPathFactory,
                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Crawls save to the session store by default: keep every test's store private, never the
    user's data folder."""
    store = tmp_path_factory.mktemp("store") / "sessions.sqlite3"
    monkeypatch.setenv("PAGESIFT_DB", str(store))
