"""Term weights from the site itself: an IDF over the pages fetched so far (docs/DESIGN.md §6).

A term that every page of the site mentions ("students" on a university site) says nothing
about where the topic is; a rare one does. Each fetched page, useless ones included, counts once
for every query term its body hits. Until ``MIN_PAGES`` pages were seen every weight is 1 (three
pages are too few to call anything common); afterwards weight = the IDF of the term, with a floor
``MIN_WEIGHT`` so that no query term is ever switched off for link scoring.

Coverage of a term bit mask, Σ_{i∈mask} wᵢ / Σ wᵢ, is computed here for one mask and for a whole
numpy array of masks; the two give bit-identical numbers (the link score relies on it, see
``linkbatch.score_batch``).
"""

from __future__ import annotations

import logging
import math
from collections.abc import Sequence

import numpy as np
import numpy.typing as npt

__all__ = [
    "MIN_PAGES",
    "MIN_WEIGHT",
    "RESCORE_DELTA",
    "TermWeights",
    "coverage_table",
    "idf",
    "mask_coverage",
    "mask_coverage_array",
]

logger = logging.getLogger(__name__)

#: Pages needed before the weights leave 1 (docs/DESIGN.md §6).
MIN_PAGES = 3
#: Floor of a term weight for link scoring (docs/DESIGN.md §6): a common term still counts a little.
MIN_WEIGHT = 0.15
#: A weight move this large since the last rescoring makes queued scores stale (docs/DESIGN.md §6
#: [ours]).
RESCORE_DELTA = 0.1

# Masks are summed in chunks of this many bits, one 2**8-entry lookup table per chunk, so a
# numpy array of masks is covered with a few table look-ups instead of a bit loop.
_CHUNK_BITS = 8
_CHUNK_SIZE = 1 << _CHUNK_BITS
_CHUNK_MASK = _CHUNK_SIZE - 1


def idf(n: int, df: int, floor: float = MIN_WEIGHT) -> float:
    """Site IDF of a term found on ``df`` of ``n`` pages, clamped to ``[floor, 1]``.

    ``ln((n+1)/(df+0.5)) / ln(n+1)`` (docs/DESIGN.md §6); the facet relevance of §7 uses
    ``floor=0``. With ``n == 0`` there is no evidence and the weight is 1.

    >>> round(idf(10, 1), 4), round(idf(10, 5), 4), idf(10, 0), idf(10, 10)
    (0.8309, 0.2891, 1.0, 0.15)
    """
    if isinstance(n, bool) or not isinstance(n, int) or n < 0:
        raise ValueError(f"n (pages) must be a non-negative integer, got {n!r}")
    if isinstance(df, bool) or not isinstance(df, int) or not 0 <= df <= n:
        raise ValueError(f"df must be an integer in [0, n={n}], got {df!r}")
    if not 0.0 <= floor <= 1.0:
        raise ValueError(f"floor must be in [0, 1], got {floor!r}")
    if n == 0:
        return 1.0
    raw = math.log((n + 1) / (df + 0.5)) / math.log(n + 1)
    return min(1.0, max(floor, raw))


def _chunk_tables(weights: Sequence[float]) -> list[npt.NDArray[np.float64]]:
    """Per 8-bit chunk, the table mask → Σ of that chunk's weights, summed in ascending bit order.

    Built by doubling: table[m | 1<<k] = table[m] + w[k] for m < 2**k, which is exactly the
    left-to-right sum ``_masked_sum`` computes, so both give the same float.
    """
    tables: list[npt.NDArray[np.float64]] = []
    for start in range(0, len(weights), _CHUNK_BITS):
        chunk = weights[start : start + _CHUNK_BITS]
        table = np.zeros(_CHUNK_SIZE, dtype=np.float64)
        for k, weight in enumerate(chunk):
            table[1 << k : 2 << k] = table[: 1 << k] + float(weight)
        tables.append(table)
    return tables


def _masked_sum(mask: int, weights: Sequence[float]) -> float:
    """Σ_{i∈mask} wᵢ in the order the chunk tables use (ascending bits, chunk by chunk)."""
    total = 0.0
    for start in range(0, len(weights), _CHUNK_BITS):
        chunk_mask = (mask >> start) & _CHUNK_MASK
        partial = 0.0
        for k in range(min(_CHUNK_BITS, len(weights) - start)):
            if chunk_mask & (1 << k):
                partial += float(weights[start + k])
        total += partial
    return total


def _check_mask(mask: int, n_terms: int) -> None:
    if isinstance(mask, bool) or not isinstance(mask, int) or mask < 0:
        raise ValueError(f"mask must be a non-negative integer, got {mask!r}")
    if mask >> n_terms:
        raise ValueError(f"mask {mask:#b} has bits beyond the {n_terms} terms")


def mask_coverage(mask: int, weights: Sequence[float]) -> float:
    """Σ_{i∈mask} wᵢ / Σ wᵢ; 0 for an empty mask or no terms (docs/DESIGN.md §6)."""
    _check_mask(mask, len(weights))
    if mask == 0:
        return 0.0
    total = _masked_sum((1 << len(weights)) - 1, weights)
    if total <= 0.0:
        return 0.0
    return _masked_sum(mask, weights) / total


def mask_coverage_array(
    masks: npt.NDArray[np.int64], weights: Sequence[float]
) -> npt.NDArray[np.float64]:
    """``mask_coverage`` of every mask in an integer array, with identical floats."""
    masks = np.asarray(masks, dtype=np.int64)
    n_terms = len(weights)
    if masks.size and (masks.min() < 0 or int(masks.max()) >> n_terms):
        raise ValueError(f"masks must be non-negative with bits only in the {n_terms} terms")
    total = _masked_sum((1 << n_terms) - 1, weights)
    if n_terms == 0 or total <= 0.0:
        return np.zeros(masks.shape, dtype=np.float64)
    tables = _chunk_tables(weights)
    if len(tables) == 1:
        # one gather (a queue rescores up to 100k links a step, issue 15): the same floats,
        # as 0.0 + x == x for the non-negative sums and each division is done once per value
        covered_once: npt.NDArray[np.float64] = (tables[0] / total)[masks]
        return covered_once
    covered = np.zeros(masks.shape, dtype=np.float64)
    for index, table in enumerate(tables):
        covered = covered + table[(masks >> (index * _CHUNK_BITS)) & _CHUNK_MASK]
    return covered / total


def coverage_table(weights: Sequence[float]) -> npt.NDArray[np.float64] | None:
    """By mask, ``mask_coverage`` of every mask of up to 8 terms (one chunk), the floats
    ``mask_coverage_array`` gathers; None for more terms. A caller that scales a coverage
    may scale this table and gather once: elementwise, the same floats (issue 15)."""
    n_terms = len(weights)
    if n_terms > _CHUNK_BITS:
        return None
    total = _masked_sum((1 << n_terms) - 1, weights)
    if n_terms == 0 or total <= 0.0:
        return np.zeros(1 << n_terms, dtype=np.float64)
    table: npt.NDArray[np.float64] = _chunk_tables(weights)[0][: 1 << n_terms] / total
    return table


class TermWeights:
    """Site IDF weights of the query terms, updated with every fetched page (docs/DESIGN.md §6).

    Parameters
    ----------
    n_terms : int
        Number of query terms (``len(query)``).
    """

    __slots__ = ("_df", "_pages", "_recorded", "_weights")

    def __init__(self, n_terms: int) -> None:
        if isinstance(n_terms, bool) or not isinstance(n_terms, int) or n_terms < 0:
            raise ValueError(f"n_terms must be a non-negative integer, got {n_terms!r}")
        self._weights = [1.0] * n_terms
        self._df = [0] * n_terms
        self._pages = 0
        self._recorded = list(self._weights)  # weights at the last rescoring

    @property
    def weights(self) -> list[float]:
        """The current weight of every term, in query order (a copy)."""
        return list(self._weights)

    @property
    def pages(self) -> int:
        """Pages observed so far."""
        return self._pages

    @property
    def df(self) -> list[int]:
        """Per term, the observed pages whose body hits it (a copy)."""
        return list(self._df)

    def observe(self, mask: int) -> None:
        """Count one fetched page whose body hits the terms in ``mask``."""
        _check_mask(mask, len(self._df))
        self._pages += 1
        for i in range(len(self._df)):
            if mask & (1 << i):
                self._df[i] += 1
        if self._pages >= MIN_PAGES:
            self._weights = [idf(self._pages, df) for df in self._df]

    def coverage(self, mask: int) -> float:
        """Share of the total term weight that the terms in ``mask`` carry."""
        return mask_coverage(mask, self._weights)

    def moved(self, delta: float = RESCORE_DELTA) -> bool:
        """True when some weight moved by ≥ ``delta`` since the last True (docs/DESIGN.md §6).

        On True the current weights are recorded as the new reference: the caller must rescore
        the queued links now.
        """
        if not (math.isfinite(delta) and delta > 0.0):
            raise ValueError(f"delta must be a positive finite number, got {delta!r}")
        shift = max(
            (abs(now - then) for now, then in zip(self._weights, self._recorded, strict=True)),
            default=0.0,
        )
        if shift < delta:
            return False
        logger.debug("term weights moved by %.3f: %s", shift, self._weights)
        self._recorded = list(self._weights)
        return True
