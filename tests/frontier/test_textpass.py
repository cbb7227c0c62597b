"""The duplicate check's passes (``frontier/textpass.py``): the compiled passes
(``_ctext.pyx``) give the very bytes, hashes and MinHash minima of the Python references."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import neardup, textpass, urls
from pagesift_ui.frontier.urls import text_fingerprints
from pagesift_ui.page.extract import extract
from tests.compiled import refuse_import

PYDOCS = Path("/usr/share/doc/python3.11/html/library")

needs_compiled = pytest.mark.skipif(not textpass.COMPILED,
                                    reason="the compiled text passes are not built")

#: Characters each pass treats apart: white space of every kind (str.split's, which the
#: regex \s shares), digits in and out of ASCII and characters that look like them (²),
#: case mappings that change a word's length or depend on its neighbours (İ, ß, ﬃ, final Σ),
#: the Kelvin sign (lowers to ASCII), a lone surrogate, characters of every str width.
_TRICKY = ["12", "0", " ", "\xa0", "\x1c", "\x1f", "\x85", "\u2028", "\u3000", "\t\n", "a1b",
           "¶", "٣", "３", "²", "\ud800", "é9", "ǅ", "x", "1 2 3", "Σ", "ΑΣ ", "ΌΣΟΣ", "İ",
           "\u212a", "ß", "ﬃ", "A", "Z", "@", "_", "\U0001f600", "\U00010400"]
TEXTS = st.lists(st.one_of(st.sampled_from(_TRICKY), st.text(max_size=6)),
                 max_size=30).map("".join)


def test_a_word_hash_is_its_blake2b() -> None:
    # computed outside the code under test: python3 -c "import hashlib; print(int.from_bytes(
    #   hashlib.blake2b(b'numeric', digest_size=8).digest(), 'little'))"
    assert textpass.word_hash("numeric") == 7630970517078348698
    # a lone surrogate is hashed as its three bytes (surrogatepass: b"a\xed\xa0\x80"),
    # where the strict encoding raised
    assert textpass.word_hash("a\ud800") == 10240264906879234062


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_the_compiled_fingerprint_texts_are_the_python_ones(text: str) -> None:
    assert textpass.fingerprint_texts(text) == textpass._fingerprint_texts_in_python(text)


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(TEXTS)
def test_the_compiled_word_hashes_are_the_python_ones(text: str) -> None:
    compiled = textpass.word_hashes(text)
    assert compiled.dtype == np.uint64
    assert compiled.tolist() == textpass._word_hashes_in_python(text).tolist()
    assert compiled.tolist() == [textpass.word_hash(word) for word in text.lower().split()]


def test_a_str_subclass_is_read_as_its_value() -> None:
    # a compiled function's ``str`` argument would refuse a subclass (bs4's and lxml's
    # strings are subclasses)
    class Text(str):
        pass

    text = Text("Page 2\n of  9 Ünï")
    assert textpass.fingerprint_texts(text) == textpass._fingerprint_texts_in_python(text)
    assert np.array_equal(textpass.word_hashes(text), textpass._word_hashes_in_python(text))


@needs_compiled
@pytest.mark.skipif(not PYDOCS.is_dir(), reason="python3.11-doc is not installed")
def test_the_compiled_passes_read_the_python_docs_as_the_references_do() -> None:
    pages = sorted(PYDOCS.glob("*.html"))[::8]
    assert len(pages) > 20
    for path in pages:
        text = extract(path.read_bytes(), f"http://127.0.0.1/library/{path.name}").text
        assert textpass.fingerprint_texts(text) == textpass._fingerprint_texts_in_python(text)
        assert np.array_equal(textpass.word_hashes(text), textpass._word_hashes_in_python(text))


@needs_compiled
def test_fingerprints_and_signatures_are_the_same_from_the_python_references(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # what a replay without a compiler finds duplicates by: the same fingerprints and MinHash
    # signatures, so the same pages are called copies
    text = " ".join(f"W{n % 97} {n}" for n in range(300))
    prints, signature = text_fingerprints(text), neardup.minhash(text)
    assert signature is not None
    monkeypatch.setattr(textpass, "word_hashes", textpass._word_hashes_in_python)
    monkeypatch.setattr(textpass, "min_hashes", textpass._min_hashes_in_python)
    monkeypatch.setattr(urls, "fingerprint_texts", textpass._fingerprint_texts_in_python)
    assert text_fingerprints(text) == prints
    assert np.array_equal(neardup.minhash(text), signature)


def test_the_python_word_hash_cache_stays_within_its_bound() -> None:
    page = 1_000
    for start in range(0, 3 * textpass.WORD_HASH_CACHE_SIZE, page):
        # each page shares half its words with the one before: some of them are cached
        # when the cache is emptied for the new ones
        text = " ".join(f"w{n}" for n in range(start - page // 2, start + page))
        hashes = textpass._word_hashes_in_python(text)
        assert len(textpass._word_hash_cache) <= textpass.WORD_HASH_CACHE_SIZE
        assert len(hashes) == page + page // 2
    # and what it holds is what a cold cache computes
    text = " ".join(f"w{n}" for n in range(page))
    warm = textpass._word_hashes_in_python(text)
    textpass._word_hash_cache.clear()
    assert np.array_equal(warm, textpass._word_hashes_in_python(text))


def test_a_compiled_module_that_cannot_be_imported_leaves_the_python_passes(
        monkeypatch: pytest.MonkeyPatch) -> None:
    refuse_import(monkeypatch, "pagesift_ui.frontier._ctext")
    assert textpass._compiled_passes() is None


@needs_compiled
def test_the_compiled_word_cache_stays_within_its_bound_and_agrees_when_cold() -> None:
    page = 1_000
    for start in range(0, 3 * textpass.WORD_HASH_CACHE_SIZE, page):
        text = " ".join(f"w{n}" for n in range(start - page // 2, start + page))
        hashes = textpass.word_hashes(text)
        assert 0 < _ctext().cached_words() <= textpass.WORD_HASH_CACHE_SIZE
        assert len(hashes) == page + page // 2
    text = " ".join(f"w{n}" for n in range(page))
    warm = textpass.word_hashes(text)
    _ctext().clear_word_cache()
    assert _ctext().cached_words() == 0
    assert np.array_equal(warm, textpass.word_hashes(text))


@needs_compiled
def test_words_that_share_a_table_slot_keep_their_own_hashes() -> None:
    # the table is keyed by FNV-1a: a hit compares the word's bytes, so a word never takes
    # another's hash, whatever the two keys; and a word too long to keep is hashed each time
    _ctext().clear_word_cache()
    words = [f"x{n}" for n in range(5_000)] + ["y" * 10_000]
    text = " ".join(words * 2)
    assert textpass.word_hashes(text).tolist() == [textpass.word_hash(w) for w in words * 2]
    assert _ctext().cached_words() == 5_000


@needs_compiled
def test_a_word_kept_while_its_hash_was_computed_is_kept_once() -> None:
    # hash_word is Python, during which another thread may use the table; here the table is
    # used re-entrantly, and keeps the same word first
    table = _ctext()
    table.clear_word_cache()

    def hash_word(word: str) -> int:
        if word == "outer":
            table.word_hashes("outer inner", textpass.word_hash)
        return textpass.word_hash(word)

    hashes = np.frombuffer(table.word_hashes("outer", hash_word), dtype=np.uint64)
    assert hashes.tolist() == [textpass.word_hash("outer")]
    assert table.cached_words() == 2


_UINT64 = st.integers(0, 2**64 - 1)
#: uint64 values where wrapping and comparison go wrong first: the ends, the sign bit, ones
#: that overflow a product, and the shingles' own spread.
_EDGES = [0, 1, 2**32 - 1, 2**32, 2**63 - 1, 2**63, 2**64 - 2, 2**64 - 1, 0x9E3779B97F4A7C15]
_HASHES = st.lists(st.one_of(st.sampled_from(_EDGES), _UINT64), min_size=1, max_size=70)


def _uint64(values: list[int]) -> np.ndarray[Any, np.dtype[np.uint64]]:
    return np.array(values, dtype=np.uint64)


@needs_compiled
@settings(max_examples=300, deadline=None)
@given(_HASHES, st.lists(st.tuples(_UINT64, _UINT64), min_size=1, max_size=9))
def test_the_compiled_minima_are_the_python_ones(
    hashes: list[int], rows: list[tuple[int, int]]
) -> None:
    # counts not a multiple of four (the compiled loop takes four at a time), rows of any
    # number (the reference's blocks halve), even multipliers too
    multipliers, keys = _uint64([a for a, _ in rows]), _uint64([b for _, b in rows])
    compiled = textpass.min_hashes(_uint64(hashes), multipliers, keys)
    assert compiled.dtype == np.uint64
    assert compiled.tolist() == textpass._min_hashes_in_python(
        _uint64(hashes), multipliers, keys).tolist()
    # and both are the definition, in Python's integers
    assert compiled.tolist() == [min((a * (h ^ b)) % 2**64 for h in hashes) for a, b in rows]


@pytest.mark.parametrize("minima", ["compiled", "python"])
def test_the_minima_need_a_hash_and_one_key_a_row(minima: str) -> None:
    if minima == "compiled" and not textpass.COMPILED:
        pytest.skip("the compiled text passes are not built")
    min_hashes = textpass.min_hashes if minima == "compiled" else textpass._min_hashes_in_python
    with pytest.raises(ValueError, match="no hashes"):
        min_hashes(_uint64([]), _uint64([3]), _uint64([5]))
    if minima == "compiled":  # numpy's broadcasting refuses the reference's in its own words
        with pytest.raises(ValueError, match="one value a row"):
            min_hashes(_uint64([1]), _uint64([3, 5]), _uint64([5]))


def test_the_reference_minima_in_blocks_are_the_whole_product() -> None:
    # more hashes than one block holds for every row: the rows are taken a few at a time
    rng = np.random.default_rng(7)
    hashes = rng.integers(0, 2**63, size=3 * textpass.MINHASH_BLOCK_ITEMS // 128 + 5,
                          dtype=np.uint64)
    multipliers = rng.integers(0, 2**63, size=128, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    keys = rng.integers(0, 2**63, size=128, dtype=np.uint64)
    whole = ((hashes[None, :] ^ keys[:, None]) * multipliers[:, None]).min(axis=1)
    assert np.array_equal(textpass._min_hashes_in_python(hashes, multipliers, keys), whole)
    assert np.array_equal(textpass.min_hashes(hashes, multipliers, keys), whole)


def _ctext() -> Any:
    from pagesift_ui.frontier import _ctext

    return _ctext


@pytest.mark.skipif(os.environ.get("PAGESIFT_REQUIRE_COMPILED_WALK") != "1",
                    reason="only where the install is known to have a C compiler (CI)")
def test_the_install_built_the_compiled_text_passes() -> None:
    assert textpass.COMPILED, "pip install did not build pagesift_ui/frontier/_ctext.pyx"
