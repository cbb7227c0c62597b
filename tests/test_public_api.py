"""The public surface is explicit (STYLE habit 10) and the frontier core stays importable alone."""

from __future__ import annotations

import importlib

import pytest

import pagesift_ui

MODULES_WITH_ALL = [
    "pagesift_ui",
    "pagesift_ui.errors",
    "pagesift_ui.net.fetcher",
    "pagesift_ui.page.extract",
    "pagesift_ui.page.sitemap",
    "pagesift_ui.net.sitemaps",
    "pagesift_ui.session.seeding",
    "pagesift_ui.session",
    "pagesift_ui.frontier.stats",
    "pagesift_ui.frontier.query",
    "pagesift_ui.frontier.model",
    "pagesift_ui.frontier.adaptive",
    "pagesift_ui.frontier.harvest",
    "pagesift_ui.frontier.queue",
    "pagesift_ui.frontier.urls",
]


def test_top_level_all_is_sorted_and_every_name_resolves() -> None:
    assert pagesift_ui.__all__ == sorted(pagesift_ui.__all__)
    for name in pagesift_ui.__all__:
        assert getattr(pagesift_ui, name) is not None
    with pytest.raises(AttributeError):
        _ = pagesift_ui.nothing_here  # type: ignore[attr-defined]


@pytest.mark.parametrize("module_name", MODULES_WITH_ALL)
def test_every_exported_name_exists(module_name: str) -> None:
    module = importlib.import_module(module_name)
    for name in module.__all__:
        assert hasattr(module, name), f"{module_name}.{name}"


def test_seed_core_names_from_the_issue_exist() -> None:
    from pagesift_ui.frontier import adaptive, harvest, model, query, stats, tokens

    for module, names in [
        (stats, ["DELTA", "Z1", "Z2", "wilson"]),
        (query, ["Query"]),
        (tokens, ["estimate_tokens", "blocks"]),
        (model, ["FEATURES", "PRIOR_PRECISION", "LinkModel"]),
        (adaptive, ["MIN_RELEVANCE", "EVIDENCE_RELEVANCE", "COLD_PATIENCE", "MIN_SOURCES",
                    "StopReason", "AdaptiveOptions", "Adaptive"]),
        (harvest, ["Harvest", "subtree"]),
    ]:
        for name in names:
            assert hasattr(module, name), f"{module.__name__}.{name}"
