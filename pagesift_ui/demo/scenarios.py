"""The registry of demo scenarios and :func:`build_site`."""

from __future__ import annotations

import logging
import time
from collections.abc import Callable

from .helpdesk import build_helpdesk
from .multilingual import build_multilingual
from .needle import build_needle
from .site import DemoSite
from .university import build_university

__all__ = ["SCENARIOS", "build_site"]

logger = logging.getLogger(__name__)

_BUILDERS: dict[str, Callable[[int], DemoSite]] = {
    "university": build_university,
    "helpdesk": build_helpdesk,
    "needle": build_needle,
    "multilingual": build_multilingual,
}
SCENARIOS: tuple[str, ...] = tuple(_BUILDERS)


def build_site(name: str, seed: int = 0) -> DemoSite:
    """Build scenario ``name``; the same ``seed`` always gives byte-identical pages.

    Raises
    ------
    ValueError
        ``name`` is not one of :data:`SCENARIOS`, or ``seed`` is not a non-negative int.
    """
    builder = _BUILDERS.get(name)
    if builder is None:
        raise ValueError(f"unknown demo scenario {name!r}; choose one of: {', '.join(SCENARIOS)}")
    if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
        raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
    started = time.perf_counter()
    site = builder(seed)
    logger.info("built demo scenario %s (seed %d): %d pages in %.2f s", name, seed,
                site.page_count, time.perf_counter() - started)
    return site
