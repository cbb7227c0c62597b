"""Ground truth: the relevant URLs of a site for one query, and the truth-file format."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit

from pagesift_ui.errors import ConfigError, shown
from pagesift_ui.frontier.urls import clean, dedupe_key
from pagesift_ui.session.record import StepOutcome, StepRecord

__all__ = ["Truth", "found_keys", "url_key", "url_keys"]


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}"


def url_key(url: str) -> str:
    """The identity of a page for recall: the crawl's own dedupe key of the cleaned URL."""
    return dedupe_key(clean(url))


def url_keys(urls: Iterable[str]) -> set[str]:
    """The keys of those of ``urls`` that parse (a step's requested and final URL, say)."""
    keys = set()
    for url in urls:
        try:
            keys.add(url_key(url))
        except ValueError:
            continue
    return keys


def found_keys(record: StepRecord) -> set[str]:
    """The page keys a step found: its requested and final URL, if it read a page there. A
    failed fetch found nothing (a replay's URL missing from its snapshot counted as found,
    and a thin snapshot read as high recall)."""
    if record.outcome is StepOutcome.ERROR:
        return set()
    return url_keys((record.url, record.final_url))


@dataclass(frozen=True, slots=True)
class Truth:
    """``# query: Q`` and ``# seed: URL`` lines, then one relevant absolute URL per line."""

    query: str
    seed: str
    urls: tuple[str, ...]

    @property
    def keys(self) -> frozenset[str]:
        return frozenset(url_key(u) for u in self.urls)

    @classmethod
    def parse(cls, text: str, source: str = "truth file") -> Truth:
        query = seed = ""
        urls: list[str] = []
        for number, raw in enumerate(text.splitlines(), start=1):
            line = raw.strip()
            if not line:
                continue
            if line.startswith("#"):
                name, _, value = line[1:].partition(":")
                if name.strip() == "query":
                    query = value.strip()
                elif name.strip() == "seed":
                    seed = value.strip()
                continue
            if not line.startswith(("http://", "https://")):
                raise ConfigError("truth", f"{source} line {number}: {shown(line)} is not a URL")
            urls.append(line)
        if not query or not seed:
            raise ConfigError("truth", f"{source} needs '# query:' and '# seed:' lines")
        return cls(query, seed, tuple(urls))

    @classmethod
    def load(cls, path: Path) -> Truth:
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise ConfigError("truth", f"cannot read {path}: {exc.strerror}") from exc
        return cls.parse(text, str(path))

    def rebased(self, seed: str) -> Truth:
        """The same truth for a site served elsewhere: URLs on the recorded seed's origin
        (scheme://host:port) move to the new seed's origin, so a truth file written for one
        port works when the folder is served on another."""
        old, new = _origin(self.seed), _origin(seed)
        urls = tuple(new + u[len(old):] if u.startswith(old + "/") else u for u in self.urls)
        return Truth(self.query, seed, urls)
