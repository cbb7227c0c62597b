"""Read each page of a benchmark site once: ``extract`` memoised for the length of a run.

A crawl step on the documentation sites spends about two thirds of its time in
``pagesift_ui.page.extract.extract`` (BeautifulSoup over pages of up to 2.5 MB), and a
benchmark run extracts the same few hundred pages again for every crawl of every query
(breadth-first even reads them in the same order each time). ``extract`` is a pure function
of (body, URL, encoding) returning a frozen ``Page`` of tuples, so memoising it changes no
result, only the run time: measured on pydocs-asyncio, 72 s for a 200-page focused crawl
without it, 35-39 s with it.

:func:`shared_extraction` swaps the memoised function in for every loaded ``pagesift_ui``
module that holds the original under the name ``extract`` (the crawl session, the oracle's
graph recorder), and puts the originals back on exit. If a module of the crawl layer stops
importing it by that name the run is only slower, never different; ``ExtractionStats`` says
how many calls were answered from memory, so a run that was not sped up shows it.
"""

from __future__ import annotations

import functools
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from types import ModuleType

import pagesift_ui.bench.graph  # noqa: F401  (loaded so its ``extract`` is swapped too)
import pagesift_ui.page.extract as extract_module
import pagesift_ui.session  # noqa: F401
from pagesift_ui.page.extract import Page

__all__ = ["ExtractionStats", "shared_extraction"]


@dataclass(slots=True)
class ExtractionStats:
    """What the memo did: modules patched, calls answered from memory, pages parsed."""

    modules: list[str]
    hits: int = 0
    misses: int = 0

    def __str__(self) -> str:
        return (f"extract memo: {self.hits} of {self.hits + self.misses} calls answered "
                f"from memory, {self.misses} pages parsed ({len(self.modules)} modules)")


@contextmanager
def shared_extraction(maxsize: int = 4096) -> Iterator[ExtractionStats]:
    """Memoise ``extract`` within the block; clear the memo and restore the modules after."""
    original = extract_module.extract
    cached = functools.lru_cache(maxsize=maxsize)(original)

    def extract(html: bytes | str, url: str, encoding: str | None = None) -> Page:
        return cached(html, url, encoding)

    patched: list[ModuleType] = [
        module for name, module in list(sys.modules.items())
        if name.startswith("pagesift_ui") and module is not None
        and getattr(module, "extract", None) is original
    ]
    for module in patched:
        module.extract = extract  # type: ignore[attr-defined]
    stats = ExtractionStats([m.__name__ for m in patched])
    try:
        yield stats
    finally:
        info = cached.cache_info()
        stats.hits, stats.misses = info.hits, info.misses
        for module in patched:
            module.extract = original  # type: ignore[attr-defined]
        cached.cache_clear()
