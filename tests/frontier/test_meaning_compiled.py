"""The compiled meaning pass (``_ctext.text_cosine``, ``WordVectors.cosine``; issue 15)
against its reference, numpy's vector and dot: the same sum of rows to the bit, the same
cosines to the six decimals a crawl keeps, the same texts with none."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import meaning as meaning_module
from pagesift_ui.frontier.meaning import Meaning, WordVectors, word_vectors

needs_compiled = pytest.mark.skipif(meaning_module.TEXT_COSINE is None,
                                    reason="the compiled text passes are not built")

QUERY = "how an event loop runs coroutines and schedules tasks"


def _reference(table: WordVectors, text: str, query_vector: np.ndarray) -> float | None:
    vector = table.vector(text)
    return None if vector is None else float(vector @ query_vector)


# the table's own words (so most texts hold several known ones), with other words, digits,
# case and punctuation between them
_VOCABULARY = sorted(word_vectors()._index)[::97]
_TEXTS = st.lists(
    st.one_of(st.sampled_from(_VOCABULARY), st.sampled_from(["Loop", "TASKS", "x9", "—", ""]),
              st.text(max_size=8)),
    max_size=60,
).map(" ".join)


@needs_compiled
@settings(max_examples=400, deadline=None)
@given(_TEXTS)
def test_the_compiled_cosine_is_numpys_below_the_kept_decimals(text: str) -> None:
    table = word_vectors()
    query_vector = table.vector(QUERY)
    assert query_vector is not None
    compiled = table.cosine(text, query_vector)
    reference = _reference(table, text, query_vector)
    if reference is None:
        assert compiled is None
    else:
        assert compiled is not None
        assert abs(compiled - reference) < 1e-12


@needs_compiled
def test_the_compiled_cosine_of_a_long_text_of_repeats_is_numpys_per_dimension() -> None:
    # a query vector that is one axis reads one dimension of the sum over the norm; rows
    # whose products round (scales of a third) and a long text of repeats, where a sum
    # that dropped or doubled a row, or lost its rounding, would show
    words = ["one", "two", "three"]
    codes = np.array([[127, -3, 1], [-128, 77, 5], [33, 1, -90]], dtype=np.int8)
    table = WordVectors(words, codes, np.array([1 / 3, 2 / 3, 0.1], dtype=np.float32))
    text = " ".join(["one two three two"] * 250 + ["three"])
    rows = [table._index[word] for word in meaning_module._words(text)]
    summed = np.multiply(table._codes.take(rows, axis=0),
                         table._scales.take(rows)[:, None]).sum(axis=0)
    for axis in range(3):
        unit = np.zeros(3)
        unit[axis] = 1.0
        cosine = table.cosine(text, unit)
        assert cosine is not None
        assert cosine == pytest.approx(summed[axis] / np.sqrt(summed @ summed), abs=1e-15)


@needs_compiled
def test_a_text_of_no_known_word_or_a_zero_sum_has_no_cosine() -> None:
    codes = np.array([[10, 0], [-10, 0]], dtype=np.int8)
    table = WordVectors(["up", "down"], codes, np.ones(2, dtype=np.float32))
    unit = np.array([1.0, 0.0])
    assert table.cosine("nothing known", unit) is None
    assert table.cosine("", unit) is None
    assert table.cosine("up down", unit) is None  # the rows cancel: no direction
    assert table.cosine("up up down", unit) == 1.0


@needs_compiled
def test_the_compiled_pass_refuses_mismatched_arrays() -> None:
    from pagesift_ui.frontier import _ctext

    codes = np.zeros((2, 3), dtype=np.int8)
    with pytest.raises(ValueError, match="one scale a row"):
        _ctext.text_cosine(["a"], {"a": 0}, codes, np.ones(1), np.ones(3))
    with pytest.raises(ValueError, match="one scale a row"):
        _ctext.text_cosine(["a"], {"a": 0}, codes, np.ones(2), np.ones(2))
    with pytest.raises(IndexError, match="row 5 of 2"):
        _ctext.text_cosine(["a"], {"a": 5}, codes, np.ones(2), np.ones(3))


def test_a_crawls_cosines_are_the_same_with_and_without_the_compiled_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = ("Coroutines and Tasks", ["Awaitables", "Running an asyncio Program"],
            "This section outlines high-level asyncio APIs to work with coroutines and tasks. "
            "An event loop runs asynchronous tasks and callbacks.")
    reader = Meaning(word_vectors(), QUERY, 0.5)
    compiled = reader.cosine(*page)
    monkeypatch.setattr(meaning_module, "TEXT_COSINE", None)
    assert reader.cosine(*page) == compiled
    assert compiled is not None and 0.0 < compiled < 1.0
