"""pagesift-ui: a focused-crawl explorer.

The public names below load lazily (PEP 562): ``import pagesift_ui.frontier`` must not pull in
httpx through this package's ``__init__`` (the frontier core is sans-IO).
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = [
    "AdaptiveOptions",
    "BundleError",
    "ConfigError",
    "CrawlConfig",
    "CrawlSession",
    "FetchError",
    "PagesiftError",
    "SessionDone",
    "SessionStore",
    "StepRecord",
    "StopReason",
    "WarcError",
    "__version__",
    "resume",
    "start_session",
]

__version__ = "0.1.0"

_LAZY = {
    "AdaptiveOptions": "pagesift_ui.frontier.adaptive",
    "StopReason": "pagesift_ui.frontier.adaptive",
    "BundleError": "pagesift_ui.errors",
    "ConfigError": "pagesift_ui.errors",
    "FetchError": "pagesift_ui.errors",
    "PagesiftError": "pagesift_ui.errors",
    "WarcError": "pagesift_ui.errors",
    "CrawlConfig": "pagesift_ui.session",
    "CrawlSession": "pagesift_ui.session",
    "SessionDone": "pagesift_ui.session",
    "StepRecord": "pagesift_ui.session",
    "SessionStore": "pagesift_ui.store",
    "resume": "pagesift_ui.store",
    "start_session": "pagesift_ui.store",
}


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'pagesift_ui' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)
