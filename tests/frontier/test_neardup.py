"""Near-duplicate detection (``frontier/neardup.py``): MinHash over 5-word shingles."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import neardup, textpass
from pagesift_ui.frontier.neardup import MIN_SHINGLES, NearDuplicates, minhash

_VOCABULARY = [f"w{i}" for i in range(400)]


def _text(seed: int, words: int = 400) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(_VOCABULARY) for _ in range(words))


def _shingles(text: str) -> set[tuple[str, ...]]:
    words = text.lower().split()
    return {tuple(words[i:i + 5]) for i in range(len(words) - 4)}


def test_a_copy_with_a_few_words_changed_is_the_earlier_page() -> None:
    pages = NearDuplicates()
    notes = _text(1, 2000)
    assert pages.check("/notes/1", notes) == ("", 0.0)
    changed = notes.split()
    changed[1000] = "changed"
    copy_of, similarity = pages.check("/notes/2", " ".join(changed))
    assert copy_of == "/notes/1" and similarity >= 0.9


def test_an_unrelated_page_is_new_and_remembered() -> None:
    pages = NearDuplicates()
    pages.check("/a", _text(1))
    copy_of, similarity = pages.check("/b", _text(2))
    assert copy_of == "" and similarity < 0.2
    assert len(pages) == 2


def test_a_text_with_too_few_shingles_has_no_signature() -> None:
    assert minhash(_text(3, MIN_SHINGLES + 3)) is None  # 49 shingles
    assert minhash(_text(3, MIN_SHINGLES + 4)) is not None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.integers(0, 10_000))
def test_the_estimate_is_close_to_the_true_jaccard_similarity(left: int, right: int) -> None:
    # two texts sharing their first half: a true similarity well inside (0, 1)
    shared = _text(left, 300)
    a, b = f"{shared} {_text(right, 300)}", f"{shared} {_text(right + 1, 300)}"
    sa, sb = _shingles(a), _shingles(b)
    truth = len(sa & sb) / len(sa | sb)
    sig_a, sig_b = minhash(a), minhash(b)
    assert sig_a is not None and sig_b is not None
    estimate = float((sig_a == sig_b).mean())
    assert abs(estimate - truth) < 5 * np.sqrt(truth * (1 - truth) / len(sig_a)) + 0.02


def test_signatures_are_the_same_however_many_words_are_cached(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the Python reference of the word hashes keeps a cache (the compiled pass needs none)
    monkeypatch.setattr(textpass, "word_hashes", textpass._word_hashes_in_python)
    text = _text(5)
    first = minhash(text)
    textpass._word_hash_cache.clear()
    assert np.array_equal(first, minhash(text))


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([64, 400, 1_023, 1_024, 1_025, 2_049, 70_000]), st.integers(0, 2**16))
def test_the_signature_is_the_minimum_over_every_shingle_whatever_the_block(
    words: int, seed: int
) -> None:
    # the signature is computed a few rows at a time (issue 15); it must be the plain
    # minimum of each row's hash over the distinct shingles, as one whole product gives it
    rng = random.Random(seed)
    text = " ".join(f"v{rng.randrange(words * 2)}" for _ in range(words + 4))
    shingles = np.unique(neardup._shingle_hashes(text))
    assert len(shingles) == len(set(_shingles(text)))  # distinct: one hash per shingle here
    whole = ((shingles[None, :] ^ neardup._B[:, None]) * neardup._A[:, None]).min(axis=1)
    signature = minhash(text)
    assert signature is not None
    assert np.array_equal(signature, whole)
