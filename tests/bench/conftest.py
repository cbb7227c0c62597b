"""Fixtures of the bench tests."""

from __future__ import annotations

from types import ModuleType

import pytest


@pytest.fixture(scope="module")
def make_truth(request: pytest.FixtureRequest) -> ModuleType:
    """The ``make_truth.py`` of the dev set a doc-set test module names as its ``DOCSET``."""
    module: ModuleType = request.module.DOCSET.make_truth()
    return module
