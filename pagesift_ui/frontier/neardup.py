"""Near-duplicate pages: MinHash over word shingles (Broder 1997), pure and deterministic.

Two pages whose texts share nearly all their 5-word shingles (estimated Jaccard similarity
≥ ``NEAR_DUPLICATE_JACCARD``) are one page for the crawl: the second is a duplicate step,
refunded like an exact duplicate (docs/DESIGN.md §10), so release notes that read alike cost
one fetch and count once (issue 11, mechanism 7). Exact and digit-blind duplicates are caught
before this by ``urls.text_fingerprints``; this catches the ones that differ in a few words.

Short texts are left out (``MIN_SHINGLES``): a page of a dozen words shares most of its
shingles with any page of the same template, and an estimate over a handful of shingles is
noise. A shingle's hash is built from its words' ``textpass.word_hash``, so signatures are the
same in every process (no ``PYTHONHASHSEED``), and a replay finds the same duplicates.
"""

from __future__ import annotations

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier import textpass

__all__ = [
    "MIN_SHINGLES",
    "NEAR_DUPLICATE_JACCARD",
    "NearDuplicates",
    "SHINGLE_WORDS",
    "minhash",
]

#: Words per shingle: long enough that two unrelated pages share few (Broder 1997 used 10
#: on web pages; 5 keeps short documentation pages measurable).
SHINGLE_WORDS = 5
#: Pages with fewer shingles than this are never near-duplicates.
MIN_SHINGLES = 50
#: Estimated Jaccard similarity at or above which a page is a copy of an earlier one.
NEAR_DUPLICATE_JACCARD = 0.9
#: Hash functions in a signature: the estimate's standard error is √(J(1−J)/k), 0.027 at
#: J = 0.9 with k = 128.
SIGNATURE_SIZE = 128

_rng = np.random.default_rng(20261201)  # fixed: signatures must not change between runs
# odd multipliers and xor keys of the multiply-shift hash functions
_A = _rng.integers(0, 1 << 63, size=SIGNATURE_SIZE, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
_B = _rng.integers(0, 1 << 63, size=SIGNATURE_SIZE, dtype=np.uint64)
#: The multiplier of the shingle hash: odd, 2⁶⁴/φ (Knuth's multiplicative hashing constant).
_P = np.uint64(0x9E3779B97F4A7C15)


def _shingle_hashes(text: str) -> npt.NDArray[np.uint64]:
    """The distinct shingles' hashes: each word hashed once (``textpass.word_hashes``, in C
    where it was built), a shingle's hash the polynomial Σ wᵢ·P^(4−i) of its words' over
    uint64 (wrapping), in numpy. Hashing every 5-word string took a blake2b call and a join
    per shingle, 16% of a step on the Python docs (issue 15)."""
    word_hashes = textpass.word_hashes(text)
    count = len(word_hashes) - SHINGLE_WORDS + 1
    if count <= 0:
        return np.zeros(0, dtype=np.uint64)
    hashes = word_hashes[:count].copy()
    for offset in range(1, SHINGLE_WORDS):
        hashes *= _P
        hashes += word_hashes[offset:offset + count]
    # np.unique's result by a sort and a mask: numpy 2's unique took 4-7× as long (issue 15)
    hashes.sort()
    distinct = np.empty(count, dtype=bool)
    distinct[0] = True
    np.not_equal(hashes[1:], hashes[:-1], out=distinct[1:])
    return hashes[distinct]


def minhash(text: str) -> npt.NDArray[np.uint64] | None:
    """The MinHash signature of a text's shingles, or None when it has too few of them."""
    hashes = _shingle_hashes(text)
    if len(hashes) < MIN_SHINGLES:
        return None
    # one multiply-shift hash per row, h ↦ a·(h ⊕ b) mod 2⁶⁴ with odd a (Dietzfelbinger et
    # al. 1997), then the minimum over the shingles: in C where it was built (textpass)
    return textpass.min_hashes(hashes, _A, _B)


class NearDuplicates:
    """The signatures of the pages seen so far, and which earlier page a new one copies."""

    __slots__ = ("_signatures", "_urls")

    def __init__(self) -> None:
        # rows 0..len(urls)-1 are the pages' signatures; grown by doubling, so a check
        # compares against one array instead of stacking every signature again
        self._signatures = np.zeros((16, SIGNATURE_SIZE), dtype=np.uint64)
        self._urls: list[str] = []

    def __len__(self) -> int:
        return len(self._urls)

    def check(self, url: str, text: str) -> tuple[str, float]:
        """The earliest page ``text`` nearly copies and the estimated similarity, or
        ``("", best similarity)``; a page that copies none is remembered."""
        signature = minhash(text)
        if signature is None:
            return "", 0.0
        similarity, seen = 0.0, len(self._urls)
        if seen:
            shares = (self._signatures[:seen] == signature).mean(axis=1)
            hits = np.flatnonzero(shares >= NEAR_DUPLICATE_JACCARD)
            if len(hits):
                first = int(hits[0])
                return self._urls[first], float(shares[first])
            similarity = float(shares.max())
        if seen == len(self._signatures):
            self._signatures = np.concatenate([self._signatures, np.zeros_like(self._signatures)])
        self._signatures[seen] = signature
        self._urls.append(url)
        return "", similarity
