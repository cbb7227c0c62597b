"""The duplicate check's passes: two over a page's text, the whitespace-normalised text and
its digitless form (the fingerprints' input, ``urls.text_fingerprints``) and the hashes of
its lower-cased words (the shingles' input, ``neardup``); and one over the shingles' hashes,
the MinHash signature's minima (``neardup.minhash``).

Each is computed in C where the install built ``_ctext.pyx`` (``setup.py``) and by the
Python reference below where it did not, with the same bytes and the same hashes
(tests/frontier/test_textpass.py). The text references split the text into one ``str`` per
word and join, translate, lower or hash each: about half a raw lxml parse of a docs page
between them, a twelfth of a step on the Python docs (docs/DECISIONS.md, "the step, twelfth
pass"); the minima's reference makes three numpy passes where C makes one (the thirteenth
pass; issue 15).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier import ctext

__all__ = [
    "COMPILED",
    "WORD_HASH_CACHE_SIZE",
    "MINHASH_BLOCK_ITEMS",
    "clear_word_caches",
    "fingerprint_texts",
    "min_hashes",
    "word_hash",
    "word_hashes",
]


#: Distinct words whose hash is kept (a bound, like the URL caches): by the Python
#: reference's dict, and by the compiled pass's table (``_ctext._MAX_WORDS``).
WORD_HASH_CACHE_SIZE = 65_536

_DIGITS = re.compile(r"\d+")
#: A decimal digit (``\d``: Unicode's Nd) that is not ASCII.
_NON_ASCII_DIGIT = re.compile(r"[^\x00-\x7f\D]")
_ASCII_DIGITS = b"0123456789"
#: Every ASCII byte: deleted from a text's UTF-8, it leaves the text's other characters whole
#: (their bytes are all ≥ 0x80), where a digit outside ASCII is looked for in a few
#: characters instead of the whole text (issue 15).
_ASCII_BYTES = bytes(range(0x80))


def word_hash(word: str) -> int:
    """A word's 64-bit hash: blake2b, the same in every process (no ``PYTHONHASHSEED``), so
    a replay finds the same near-duplicates. (surrogatepass: a lone surrogate is hashed too,
    where the strict encoding raised.)"""
    data = word.encode("utf-8", "surrogatepass")
    return int.from_bytes(hashlib.blake2b(data, digest_size=8).digest(), "little")


#: word → ``word_hash(word)`` for the Python reference: a plain dict read by ``map`` in C,
#: emptied when a page's new words would not fit, so it stays within
#: ``WORD_HASH_CACHE_SIZE`` words and one page's.
_word_hash_cache: dict[str, int] = {}


def _word_hashes_in_python(text: str) -> npt.NDArray[np.uint64]:
    words = text.lower().split()
    cache = _word_hash_cache
    missing = set(words).difference(cache)
    if missing:
        if len(cache) + len(missing) > WORD_HASH_CACHE_SIZE:
            cache.clear()
            missing = set(words)  # the page's words that were cached went with the rest
        for word in missing:
            cache[word] = word_hash(word)
    return np.fromiter(map(cache.__getitem__, words), dtype=np.uint64, count=len(words))


def _fingerprint_texts_in_python(text: str) -> tuple[bytes, bytes]:
    # str.split() splits on exactly the characters the regex ``\s`` matches (both use
    # str.isspace), so the join is ``re.sub(r"\s+", " ", text).strip()`` at a few times the
    # speed (issue 15)
    normalised = " ".join(text.split())
    data = normalised.encode("utf-8", "surrogatepass")  # surrogatepass: any str is hashed
    if normalised.isascii() or _NON_ASCII_DIGIT.search(_non_ascii(data)) is None:
        # the digits are ASCII: removed from the UTF-8 bytes, where a multi-byte character
        # has no ASCII byte and the only white space left is single spaces, so the words
        # re-joined are the text's below, encoded
        return data, b" ".join(data.translate(None, _ASCII_DIGITS).split())
    digitless = " ".join(_DIGITS.sub("", normalised).split())
    return data, digitless.encode("utf-8", "surrogatepass")


#: Values in the minima reference's scratch block: 1 MB of uint64, so the block stays in a
#: core's cache.
MINHASH_BLOCK_ITEMS = 131_072


def _min_hashes_in_python(
    hashes: npt.NDArray[np.uint64], multipliers: npt.NDArray[np.uint64],
    keys: npt.NDArray[np.uint64],
) -> npt.NDArray[np.uint64]:
    # one multiply-shift hash per row, h ↦ a·(h ⊕ b) mod 2⁶⁴ (numpy's uint64 product wraps),
    # then the minimum over the hashes. A few rows at a time, in place, in one scratch block
    # of at most MINHASH_BLOCK_ITEMS values: the whole rows × hashes product was two
    # temporaries of 16 MB on a long page, and building them cost 3-4× the arithmetic
    # (issue 15)
    if len(hashes) == 0:
        raise ValueError("no hashes: a minimum needs one at least")
    rows = _rows_per_block(len(multipliers), len(hashes))
    signature: npt.NDArray[np.uint64] = np.empty(len(multipliers), dtype=np.uint64)
    scratch = np.empty((rows, len(hashes)), dtype=np.uint64)
    for first in range(0, len(multipliers), rows):
        block = scratch[: len(multipliers[first:first + rows])]
        np.bitwise_xor(hashes[None, :], keys[first:first + rows, None], out=block)
        np.multiply(block, multipliers[first:first + rows, None], out=block)
        block.min(axis=1, out=signature[first:first + rows])
    return signature


def _rows_per_block(rows: int, count: int) -> int:
    """The most of ``rows`` (halved from all of them) whose scratch block of ``rows × count``
    values stays within ``MINHASH_BLOCK_ITEMS``."""
    while rows > 1 and rows * count > MINHASH_BLOCK_ITEMS:
        rows //= 2
    return rows


def _non_ascii(data: bytes) -> str:
    """The characters outside ASCII of the text whose UTF-8 is ``data``, in order."""
    return data.translate(None, _ASCII_BYTES).decode("utf-8", "surrogatepass")


def clear_word_caches() -> None:
    """Forget every word hash kept, the Python reference's and the compiled pass's (the
    benchmark's cold caches)."""
    _word_hash_cache.clear()
    compiled = ctext.load("text passes") if COMPILED else None
    if compiled is not None:
        compiled.clear_word_cache()


_MinHashes = Callable[
    [npt.NDArray[np.uint64], npt.NDArray[np.uint64], npt.NDArray[np.uint64]],
    npt.NDArray[np.uint64],
]


def _compiled_passes() -> tuple[
    Callable[[str], tuple[bytes, bytes]], Callable[[str], npt.NDArray[np.uint64]], _MinHashes
] | None:
    """The compiled passes (``_ctext.pyx``), or None when the install did not build them (no
    Cython or no C compiler: ``setup.py``)."""
    _ctext = ctext.load("text passes")
    if _ctext is None:
        return None
    compiled_hashes = _ctext.word_hashes

    def hashes(text: str) -> npt.NDArray[np.uint64]:
        return np.frombuffer(compiled_hashes(text, word_hash), dtype=np.uint64)

    def minima(hashes: npt.NDArray[np.uint64], multipliers: npt.NDArray[np.uint64],
               keys: npt.NDArray[np.uint64]) -> npt.NDArray[np.uint64]:
        signature: npt.NDArray[np.uint64] = np.empty(len(multipliers), dtype=np.uint64)
        _ctext.min_hashes(hashes, multipliers, keys, signature)
        return signature

    return _ctext.fingerprint_texts, hashes, minima


_COMPILED_PASSES = _compiled_passes()
#: True when the passes run compiled; the CLI's ``--version`` says so.
COMPILED = _COMPILED_PASSES is not None
#: ``text`` as the fingerprints read it: the UTF-8 of ``" ".join(text.split())``, and of the
#: same words with every decimal digit (``\\d``) removed and the words left empty dropped.
fingerprint_texts: Callable[[str], tuple[bytes, bytes]] = (
    _COMPILED_PASSES[0] if _COMPILED_PASSES else _fingerprint_texts_in_python)
#: The ``word_hash`` of each word of ``text.lower().split()``, in order.
word_hashes: Callable[[str], npt.NDArray[np.uint64]] = (
    _COMPILED_PASSES[1] if _COMPILED_PASSES else _word_hashes_in_python)
#: Row r of the signature: the minimum over ``hashes`` of ``multipliers[r] · (h ⊕ keys[r])``
#: mod 2⁶⁴ (contiguous uint64 arrays; ``hashes`` not empty).
min_hashes: _MinHashes = _COMPILED_PASSES[2] if _COMPILED_PASSES else _min_hashes_in_python
