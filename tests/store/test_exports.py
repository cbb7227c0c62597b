"""The public names of the store and WARC packages are explicit, sorted and importable."""

from __future__ import annotations

import importlib

import pytest


@pytest.mark.parametrize("module", ["pagesift_ui.store", "pagesift_ui.warc"])
def test_all_is_sorted_and_every_name_exists(module: str) -> None:
    loaded = importlib.import_module(module)
    assert loaded.__all__ == sorted(loaded.__all__)
    assert all(hasattr(loaded, name) for name in loaded.__all__)
