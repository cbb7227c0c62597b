"""The one crawl configuration: built once from the UI or CLI, validated, frozen."""

from __future__ import annotations

import enum
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from typing import Any
from urllib.parse import urlsplit

from pagesift_ui.errors import ConfigError
from pagesift_ui.frontier.adaptive import AdaptiveOptions
from pagesift_ui.frontier.model import FEATURES, PRIOR_WEIGHTS
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.stats import DELTA

__all__ = ["MAX_LIMIT", "CrawlConfig", "Scope", "Strategy"]

#: The largest page budget a session accepts (a guard against typos like 1e9).
MAX_LIMIT = 100_000


class Scope(enum.StrEnum):
    """Which hosts a crawl may enter."""

    HOST = "host"  # the seed's host only
    SITE = "site"  # the seed's host and its sibling sub-domains (journals.e.edu beside www.e.edu)


class Strategy(enum.StrEnum):
    """How the next link is chosen."""

    FOCUSED = "focused"  # best-first by link score, with dispersion, dry subtrees, demotion
    BFS = "bfs"  # breadth-first: every link scores the same, so discovery order decides (the
    # benchmark's baseline; the stop rules still observe every page)


@dataclass(frozen=True, slots=True)
class CrawlConfig:
    """Everything that decides how a crawl runs. Defaults live here and nowhere else.

    ``scope`` defaults to ``SITE``: a query crawl is after a topic, and sites put topics on
    sub-domains (journals, events, help centres); ``HOST`` keeps to the seed's host.
    ``stop_on_verdict=False`` records every stop verdict but keeps crawling to the limit, as if
    "continue anyway" were chosen each time (the CLI's ``--no-stop``).
    """

    seed_url: str
    query: str
    limit: int = 100
    adaptive: AdaptiveOptions = field(default_factory=AdaptiveOptions)
    delay_s: float = 1.0
    respect_robots: bool = True
    allow_private: bool = False
    scope: Scope = Scope.SITE
    delta: float = DELTA
    prior_weights: tuple[float, ...] = PRIOR_WEIGHTS
    dispersion_cap: int | None = None
    stop_on_verdict: bool = True
    max_body_bytes: int = 5_000_000
    read_timeout_s: float = 10.0
    strategy: Strategy = Strategy.FOCUSED

    def __post_init__(self) -> None:
        _check_url(self.seed_url)
        if not isinstance(self.query, str) or not self.query.strip():
            raise ConfigError("query", "enter at least one word to search for")
        if len(Query(self.query)) == 0:
            raise ConfigError(
                "query", f"{self.query!r} has only stop words; add a word that names the topic"
            )
        _check_int("limit", self.limit, 1, MAX_LIMIT)
        _check_float("delay_s", self.delay_s, 0.0, 60.0)
        _check_float("delta", self.delta, 1e-6, 0.5, inclusive_low=True)
        _check_prior(self.prior_weights)
        if self.dispersion_cap is not None:
            _check_int("dispersion_cap", self.dispersion_cap, 1, MAX_LIMIT)
        _check_int("max_body_bytes", self.max_body_bytes, 1_000, 1_000_000_000)
        _check_float("read_timeout_s", self.read_timeout_s, 0.1, 300.0)
        if not isinstance(self.scope, Scope):
            raise ConfigError("scope", f"must be one of {[s.value for s in Scope]}")
        if not isinstance(self.strategy, Strategy):
            raise ConfigError("strategy", f"must be one of {[s.value for s in Strategy]}")

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> CrawlConfig:
        """Build from plain values (UI widgets, CLI flags, a bundle's ``config``).

        Raises ``ConfigError`` naming the field for any bad or unknown value.
        """
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(values) - known)
        if unknown:
            raise ConfigError(unknown[0], f"unknown setting; known ones are {sorted(known)}")
        kwargs = dict(values)
        if "adaptive" in kwargs and isinstance(kwargs["adaptive"], Mapping):
            try:
                kwargs["adaptive"] = AdaptiveOptions(**kwargs["adaptive"])
            except (TypeError, ValueError) as exc:
                raise ConfigError("adaptive", str(exc)) from exc
        if "scope" in kwargs and not isinstance(kwargs["scope"], Scope):
            try:
                kwargs["scope"] = Scope(kwargs["scope"])
            except ValueError as exc:
                raise ConfigError("scope", f"must be one of {[s.value for s in Scope]}") from exc
        if "strategy" in kwargs and not isinstance(kwargs["strategy"], Strategy):
            try:
                kwargs["strategy"] = Strategy(kwargs["strategy"])
            except ValueError as exc:
                raise ConfigError(
                    "strategy", f"must be one of {[s.value for s in Strategy]}"
                ) from exc
        if "prior_weights" in kwargs and isinstance(kwargs["prior_weights"], list | tuple):
            kwargs["prior_weights"] = tuple(kwargs["prior_weights"])
        try:
            return cls(**kwargs)
        except ConfigError:
            raise
        except (TypeError, ValueError) as exc:
            raise ConfigError("config", str(exc)) from exc

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values; ``from_mapping(to_dict())`` gives an equal config."""
        out = asdict(self)
        out["scope"] = self.scope.value
        out["strategy"] = self.strategy.value
        out["prior_weights"] = list(self.prior_weights)
        return out

    @property
    def seed_host(self) -> str:
        return (urlsplit(self.seed_url).hostname or "").lower()


def _check_url(url: object) -> None:
    if not isinstance(url, str) or not url.strip():
        raise ConfigError("seed_url", "enter a start URL such as https://www.example.edu/")
    parts = urlsplit(url.strip())
    if parts.scheme not in ("http", "https"):
        raise ConfigError(
            "seed_url", f"{url!r} is not an http(s) URL; it must start with http:// or https://"
        )
    if not parts.hostname:
        raise ConfigError("seed_url", f"{url!r} has no host name")
    try:
        _ = parts.port
    except ValueError as exc:
        raise ConfigError("seed_url", f"{url!r} has an invalid port") from exc
    if url != url.strip() or any(c.isspace() for c in url):
        raise ConfigError("seed_url", f"{url!r} contains spaces")


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(name, f"must be a whole number from {low} to {high}, got {value!r}")


def _check_float(
    name: str, value: object, low: float, high: float, *, inclusive_low: bool = True
) -> None:
    ok = (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and (low <= value if inclusive_low else low < value)
        and value <= high
    )
    if not ok:
        raise ConfigError(name, f"must be a number from {low} to {high}, got {value!r}")


def _check_prior(weights: object) -> None:
    if not isinstance(weights, tuple) or len(weights) != FEATURES:
        raise ConfigError("prior_weights", f"needs {FEATURES} numbers, got {weights!r}")
    for w in weights:
        if isinstance(w, bool) or not isinstance(w, int | float) or not math.isfinite(w) or w < 0:
            raise ConfigError("prior_weights", f"each weight must be a number >= 0, got {w!r}")
