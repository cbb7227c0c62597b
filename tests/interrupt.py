"""A page source that breaks off one fetch, as Ctrl-C or a Streamlit rerun would."""

from __future__ import annotations

from collections.abc import Sequence

from pagesift_ui.net.fetcher import FetchResult
from pagesift_ui.session import PageSource


class Interrupting:
    """Passes every call on to ``source``, but its ``at``-th fetch raises KeyboardInterrupt
    (after the robots answers and fetches before it were given)."""

    def __init__(self, source: PageSource, at: int) -> None:
        self.source, self.at, self.fetches = source, at, 0

    def fetch(self, url: str) -> FetchResult:
        self.fetches += 1
        if self.fetches == self.at:
            raise KeyboardInterrupt
        return self.source.fetch(url)

    def prefetch(self, urls: Sequence[str]) -> None:
        self.source.prefetch(urls)

    def allowed_by_robots(self, url: str) -> bool:
        return self.source.allowed_by_robots(url)

    def close(self) -> None:
        self.source.close()
