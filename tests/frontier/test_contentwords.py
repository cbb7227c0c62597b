"""A text's words as relevance counts them (``frontier/contentwords.py``): the compiled word
classes (``_ctext.WordClasses``) give the counts of the Python reference."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import contentwords, relevance, tokens
from pagesift_ui.frontier import query as query_module
from pagesift_ui.frontier.language import Language
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.tokens import ASCII_SEPARATORS, unicode_words, words
from pagesift_ui.page.extract import extract
from tests.compiled import refuse_import

PYDOCS = Path("/usr/share/doc/python3.11/html/library")

needs_compiled = pytest.mark.skipif(not contentwords.COMPILED,
                                    reason="the compiled word classes are not built")

ENGLISH = Query("running asynchronous tasks and the event loop")
GERMAN = Query("die Gebühren für das Studium und die Prüfungen")

#: Words each query's classes tell apart (stop words, terms and their other forms, words
#: that stem alike, digits, "_"), separators outside ASCII, and characters that send a run
#: to the Unicode rule: letters and digits outside ASCII, ones whose case folding is ASCII
#: (the Kelvin sign) or longer ("ß", "ﬁ", "İ" with its combining dot, which is no letter),
#: a combining mark, signs that are neither.
_PIECES = [" ", "the", "The", "and", "running", "Runs", "run", "tasks", "task", "asynchronous",
           "ASYNC", "event", "loop", "loops", "x9", "42", "_", "-", "\n", "die", "für",
           "studium", "Studiums", "gebühr", "ss", ".", "a_b", *ASCII_SEPARATORS, "é", "\u212a",
           "ß", "ﬁ", "İ", "\u0307", "٣", "²", "Σ", "×", "naïve", "STRAẞE", "\U0001d400", "\ud800"]
TEXTS = st.lists(st.one_of(st.sampled_from(_PIECES), st.text(max_size=4)),
                 max_size=40).map("".join)


def _python(text: str, query: Query) -> contentwords.ContentWords:
    return contentwords._read_in_python(text, query, query.language)


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(TEXTS, st.sampled_from([ENGLISH, GERMAN]))
def test_the_compiled_counts_are_the_python_ones(text: str, query: Query) -> None:
    assert contentwords.read_content(text, query, query.language) == _python(text, query)


def test_the_counts_of_a_text_are_its_words_content_words_and_matching_stems() -> None:
    read = contentwords.read_content("The event loop runs; the loop's tasks", ENGLISH,
                                     Language.ENGLISH)
    # words: the event loop runs the loop s tasks; content: event loop runs loop s tasks
    assert read == contentwords.ContentWords(8, 6, [0, 1, 2, 3, 5],
                                             ["event", "loop", "run", "loop", "task"])


@needs_compiled
@pytest.mark.skipif(not PYDOCS.is_dir(), reason="python3.11-doc is not installed")
def test_the_pages_of_the_python_docs_count_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = [extract(path.read_bytes(), f"http://127.0.0.1/library/{path.name}")
             for path in sorted(PYDOCS.glob("*.html"))[:40]]
    compiled = [relevance.page_signal(ENGLISH, page.url, page.title, page.headings,
                                      page.markdown) for page in pages]
    monkeypatch.setattr(query_module, "WORD_CLASSES", None)
    assert [relevance.page_signal(ENGLISH, page.url, page.title, page.headings,
                                  page.markdown) for page in pages] == compiled


def _table(classify: Any) -> Any:
    from pagesift_ui.frontier import _ctext

    return _ctext.WordClasses(classify, unicode_words, ASCII_SEPARATORS)


@needs_compiled
@settings(max_examples=500, deadline=None)
@given(TEXTS)
def test_a_table_reads_the_words_that_words_reads(text: str) -> None:
    met: list[str] = []

    def classify(word: str) -> int:
        met.append(word)
        return 1 << 1  # counted, with bit 0

    total, counted, positions, classes = _table(classify).read(text)
    found = words(text)
    assert total == counted == len(found) and positions == list(range(total))
    assert met == list(dict.fromkeys(found))  # each word asked once, in the order met


@needs_compiled
def test_a_table_keeps_at_most_its_bound_and_long_words_not_at_all() -> None:
    asked: list[str] = []

    def classify(word: str) -> int:
        asked.append(word)
        return (1, 0, 1 << 1)[len(word) % 3]  # uncounted; counted; counted with bit 0

    table = _table(classify)
    page = 1_000
    for start in range(0, 2 * tokens.CLASSED_WORDS + page, page):
        text = " ".join(f"w{n}" for n in range(start, start + page))
        total, counted, positions, classes = table.read(text)
        assert total == page and 0 < len(table) <= tokens.CLASSED_WORDS
        assert classes == [1 for n in range(start, start + page) if len(f"w{n}") % 3 == 2]
    long_word = "x" * 65
    asked.clear()
    assert table.read(f"{long_word} {long_word} {'y' * 64} {'y' * 64}") is not None
    assert asked == [long_word, long_word, "y" * 64]  # 64 bytes are kept, 65 are not


@needs_compiled
def test_a_classify_that_empties_the_table_leaves_the_counts_right() -> None:
    # classify is Python: whatever it does to the table, the word is found again
    holder: list[Any] = []

    def classify(word: str) -> int:
        holder[0].clear()
        return 1 << 1 if word.startswith("t") else 0

    table = _table(classify)
    holder.append(table)
    assert table.read("task x task tree x") == (5, 5, [0, 2, 3], [1, 1, 1])


@needs_compiled
def test_a_negative_class_is_refused() -> None:
    with pytest.raises(ValueError, match="0 or more"):
        _table(lambda word: -1).read("word")


@needs_compiled
def test_a_query_parsed_again_finds_its_words_classed_and_the_tables_are_bounded() -> None:
    query_module.clear_word_tables()
    contentwords.read_content("tasks and loops", Query("event loop tasks"), Language.ENGLISH)
    again = Query("event loop tasks")
    assert contentwords.read_content("loops", again, Language.ENGLISH).stems == ["loop"]
    assert len(query_module._WORD_TABLES) == 1
    for n in range(2 * query_module.WORD_TABLES):
        contentwords.read_content("loops", Query(f"loop{n}"), Language.ENGLISH)
        assert len(query_module._WORD_TABLES) <= query_module.WORD_TABLES


def test_without_the_compiled_module_texts_are_read_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    refuse_import(monkeypatch, "pagesift_ui.frontier._ctext")
    assert tokens._compiled_word_classes() is None
    monkeypatch.setattr(query_module, "WORD_CLASSES", None)
    text = "the event loop runs tasks"
    assert contentwords.read_content(text, ENGLISH, Language.ENGLISH) == _python(text, ENGLISH)


@needs_compiled
def test_a_kept_class_or_mask_never_reads_the_querys_word_cache(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # the tables are shared by the queries of the same terms, sessions on other threads
    # among them: a class or mask read from a cache another thread may be emptying could be
    # kept wrong for good, so they come from word_masks, which keeps nothing
    text = "The event loop runs asynchronous tasks; naïve loops"
    expected = _python(text, ENGLISH)
    query_module.clear_word_tables()

    def refuse(*args: object) -> None:
        raise AssertionError("the word cache was read")

    query = Query(ENGLISH.text)
    monkeypatch.setattr(Query, "word_hits", refuse)
    assert contentwords.read_content(text, query, query.language) == expected
    assert query.hit_mask(text) == 0b11111  # running (runs), asynchronous, tasks, event, loop
