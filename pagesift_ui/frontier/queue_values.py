"""Values and checks of the best-first queue: what an offer did, a queued entry, clusters."""

from __future__ import annotations

import enum
import math
import sys
from dataclasses import dataclass
from urllib.parse import urlsplit

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier.checks import is_count

__all__ = [
    "MAX_SCORE",
    "Entry",
    "Offer",
    "RowScores",
    "as_score",
    "as_scores",
    "check_count",
    "check_offer",
    "cluster_key",
    "default_cap",
    "intern",
]

#: +inf scores are stored as the largest finite float: they rank above every finite score,
#: tie with each other (discovery order), and keep the masked arithmetic free of NaN.
MAX_SCORE = sys.float_info.max


class Offer(enum.Enum):
    """What ``BestFirst.offer`` did with a link, and what the caller must do about it."""

    #: Added. Remember the key as queued.
    QUEUED = "queued"
    #: The key was queued already; re-ranked if the new score was higher. Nothing to do.
    ALREADY_QUEUED = "already_queued"
    #: Added in place of the worst entry, whose key comes back with the outcome: forget that
    #: key so it may be offered again later (docs/DESIGN.md §9).
    EVICTED = "evicted"
    #: Not added (no room and not better than the worst). The caller may offer it again later.
    REJECTED = "rejected"


@dataclass(frozen=True, slots=True)
class Entry:
    """One queued link, as the UI and session bundles see it."""

    key: str  #: dedupe key (``urls.dedupe_key``)
    url: str  #: the cleaned URL to fetch
    depth: int  #: link depth, the seed is 0
    score: float  #: current score, ≥ 0 (+inf is stored as MAX_SCORE)
    signal: object | None  #: why it scores so (a LinkSignal); None for a seed
    seq: int  #: discovery order, 0 for the first link ever offered
    pinned: bool  #: the user moved it to the front
    template: str  #: ``urls.template(url)``, for demotion (docs/DESIGN.md §10)
    cluster: str  #: ``cluster_key(url)``, for dispersion (docs/DESIGN.md §9)


@dataclass(frozen=True, slots=True)
class RowScores:
    """New scores of some rows of a queue's columns (``BestFirst.rescore_columns``): the
    other rows' inputs did not move, so they keep the scores they have (issue 15).

    ``rows``: row indices, distinct (rows of free slots and of entries without a signal
    are ignored); ``scores``: one score per row, sanitised as ``as_score`` does."""

    rows: npt.NDArray[np.intp]
    scores: npt.NDArray[np.float64]


def cluster_key(url: str) -> str:
    """Host (lower-cased, leading ``www.`` dropped) + ``/`` + first path segment (docs/DESIGN.md
    §9).

    >>> cluster_key("https://www.e.edu/news/2024/x")
    'e.edu/news'
    >>> cluster_key("https://E.edu")
    'e.edu/'
    """
    parts = urlsplit(url) if isinstance(url, str) else None
    if parts is None or parts.scheme not in ("http", "https") or not parts.hostname:
        raise ValueError(f"cluster_key needs an absolute http(s) URL, got {url!r}")
    first = next((segment for segment in parts.path.split("/") if segment), "")
    return f"{parts.hostname.removeprefix('www.')}/{first}"


def default_cap(limit: int) -> int:
    """Pages a cluster may have scheduled before dispersion kicks in: max(3, ⌈limit/4⌉) [ours]."""
    check_count("limit", limit)
    return max(3, -(-int(limit) // 4))


def as_score(score: float) -> float:
    """NaN, negatives and -inf count as 0 (docs/DESIGN.md §9); +inf becomes ``MAX_SCORE``."""
    try:
        value = float(score)
    except (TypeError, ValueError):
        raise ValueError(f"score must be a number, got {score!r}") from None
    return 0.0 if math.isnan(value) or value < 0.0 else min(value, MAX_SCORE)


def as_scores(scores: npt.NDArray[np.float64]) -> npt.NDArray[np.float64]:
    """``as_score`` for an array."""
    with np.errstate(over="ignore"):  # an overflow is an answer here, not a fault
        total = float(scores.sum())
    if math.isfinite(total):
        # every value is finite (one inf or NaN makes the sum inf or NaN; a sum that
        # overflows takes the long way, with the same result): nan_to_num would leave
        # every value as it is, and it costs five passes (issue 15)
        clean: npt.NDArray[np.float64] = np.maximum(scores, 0.0)
        return clean
    finite = np.nan_to_num(scores, nan=0.0, posinf=MAX_SCORE, neginf=0.0)
    return np.maximum(finite, 0.0)


def check_count(name: str, value: int) -> None:
    if not is_count(value) or value < 0:
        raise ValueError(f"{name} must be an integer ≥ 0, got {value!r}")


def check_offer(key: str, depth: int, room: int) -> None:
    if not isinstance(key, str) or not key:
        raise ValueError(f"key must be a non-empty string, got {key!r}")
    check_count("depth", depth)
    if not is_count(room):
        raise ValueError(f"room must be an integer, got {room!r}")


def intern(index: dict[str, int], names: list[str], name: str) -> int:
    found = index.get(name)
    if found is None:
        found = index[name] = len(names)
        names.append(name)
    return found
