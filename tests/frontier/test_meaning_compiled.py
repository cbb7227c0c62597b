"""The compiled meaning pass (``_ctext.WordRows``, ``WordVectors.cosine``; issue 15) against
its reference, ``_words``, a dict and numpy's vector and dot: the same words, the same sum of
rows, the same cosines to the six decimals a crawl keeps, the same texts with none."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import meaning as meaning_module
from pagesift_ui.frontier.meaning import Meaning, WordVectors, word_vectors

needs_compiled = pytest.mark.skipif(meaning_module.WORD_ROWS is None,
                                    reason="the compiled text passes are not built")

QUERY = "how an event loop runs coroutines and schedules tasks"


def _reference(table: WordVectors, text: str, query_vector: np.ndarray) -> float | None:
    vector = table.vector(text)  # the reference: _words, the dict, numpy
    return None if vector is None else float(vector @ query_vector)


# the table's own words (so most texts hold several known ones) in any case, glued to each
# other or not, with the characters whose lower case is ASCII (KELVIN SIGN, "İ"), other
# letters, digits, punctuation and anything between them
_VOCABULARY = sorted(word_vectors()._index)[::97]
_WORD = st.sampled_from(_VOCABULARY).flatmap(
    lambda word: st.sampled_from([word, word.upper(), word.title()]))
_TEXTS = st.lists(
    st.one_of(_WORD, st.sampled_from(["Loop", "TASKS", "x9", "—", "", "\u212a", "İ", "İs",
                                      "\u212aey", "Σ", "é", "a" * 70, "_", "\ud800"]),
              st.text(max_size=8)),
    max_size=60,
).flatmap(lambda parts: st.sampled_from([" ".join(parts), "".join(parts), "-".join(parts)]))


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
    rows = _ctext.WordRows(["a", "b"])
    with pytest.raises(ValueError, match="one row of codes and one scale"):
        rows.cosine("a", codes, np.ones(1), np.ones(3))
    with pytest.raises(ValueError, match="one row of codes and one scale"):
        rows.cosine("a", np.zeros((3, 3), dtype=np.int8), np.ones(3), np.ones(3))
    with pytest.raises(ValueError, match="a query of the rows' dimensions"):
        rows.cosine("a", codes, np.ones(2), np.ones(2))
    with pytest.raises(ValueError, match="1 to 64 characters"):
        _ctext.WordRows(["a", "b" * 65])
    with pytest.raises(TypeError):
        rows.cosine(b"a", codes, np.ones(2), np.ones(3))


def test_a_crawls_cosines_are_the_same_with_and_without_the_compiled_pass(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = ("Coroutines and Tasks", ["Awaitables", "Running an asyncio Program"],
            "This section outlines high-level asyncio APIs to work with coroutines and tasks. "
            "An event loop runs asynchronous tasks and callbacks.")
    reader = Meaning(word_vectors(), QUERY, 0.5)
    compiled = reader.cosine(*page)
    monkeypatch.setattr(word_vectors(), "_rows", None)
    assert reader.cosine(*page) == compiled
    assert compiled is not None and 0.0 < compiled < 1.0


@needs_compiled
def test_the_compiled_vocabulary_finds_each_word_at_its_row_and_the_last_of_a_twice() -> None:
    from pagesift_ui.frontier import _ctext

    table = word_vectors()
    rows = _ctext.WordRows(list(table._index))
    assert len(rows) == len(table) == 75_471
    assert all(rows.row(word) == row for word, row in table._index.items())
    assert rows.row("nosuchwordhere") == -1
    assert _ctext.WordRows(["a", "b", "a"]).row("a") == 2  # as a dict built in order keeps it


def test_a_table_without_the_compiled_pass_reads_texts_by_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(meaning_module, "WORD_ROWS", None)
    table = WordVectors(["cat", "tax"], np.array([[127, 0], [0, 127]], dtype=np.int8),
                        np.ones(2, dtype=np.float32))
    assert table._rows is None
    assert table.cosine("The CAT", np.array([1.0, 0.0])) == 1.0
    assert table.cosine("dog", np.array([1.0, 0.0])) is None


@needs_compiled
def test_table_words_the_reading_cannot_form_are_never_found() -> None:
    # "Cat", "ca t", "" and "\u212a" are no run of a-z: neither reading finds them, even in a
    # text that holds them
    codes = np.array([[10, 0], [0, 10], [5, 5], [1, 1], [3, 4]], dtype=np.int8)
    table = WordVectors(["Cat", "ca t", "", "\u212a", "dog"], codes,
                        np.ones(5, dtype=np.float32))
    unit = np.array([1.0, 0.0])
    for text in ("Cat", "ca t", "\u212a", "cat"):
        assert table.cosine(text, unit) is None
        assert table.vector(text) is None
    assert table.cosine("DOG", unit) == pytest.approx(0.6)
