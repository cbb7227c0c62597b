from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.fixture_site import FixtureSite


@pytest.fixture
def fixture_site() -> Iterator[FixtureSite]:
    """The fixture website (tests/fixture_site.py) running on 127.0.0.1 for one test."""
    with FixtureSite() as site:
        yield site
