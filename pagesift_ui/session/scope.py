"""Which URLs a crawl may enter (``CrawlConfig.scope``)."""

from __future__ import annotations

from urllib.parse import urlsplit

from pagesift_ui.frontier.linkrules import same_site
from pagesift_ui.session.config import Scope

__all__ = ["in_scope"]


def in_scope(url: str, seed_host: str, scope: Scope) -> bool:
    """True when ``url`` may be crawled from a seed on ``seed_host`` under ``scope``."""
    host = (urlsplit(url).hostname or "").lower()
    if not host:
        return False
    if scope is Scope.HOST:
        return host == seed_host.lower()
    return same_site(host, seed_host)
