"""A text's words as facet relevance counts them (``relevance._Text``, docs/DESIGN.md §7): how
many words it has, how many are content words (not stop words of its language), and which
content words match a query term, where they stand among the content words and their stems.

Read in C where the install built ``_ctext.pyx``: its ``WordClasses`` keeps each word's class
(a stop word, a content word, or a content word with the stem of a term) by the word's bytes,
so a word met before costs no ``str``, where ``tokens.words`` makes one for every word of a
page (with the filtering and matching after it, ~5% of a step on the Python docs; issue 15,
docs/DECISIONS.md, "the step, thirteenth pass"). Where it was not built, the Python
reference below reads the text, with the same counts (tests/frontier/test_contentwords.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, filterfalse
from typing import Any

from pagesift_ui.frontier.language import Language, stop_words
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.tokens import ASCII_SEPARATORS, WORD_CLASSES, unicode_words, words

__all__ = ["CLASSED_WORDS", "CLASS_TABLES", "COMPILED", "ContentWords", "clear_word_classes",
           "read_content"]

#: Words whose class a table keeps (``_ctext._CLASS_WORDS``), emptied when full; a word of
#: more than 64 bytes is classified each time, never kept.
CLASSED_WORDS = 65_536


@dataclass(frozen=True, slots=True)
class ContentWords:
    """What relevance counts of one text read in the query's language.

    ``words``: all its words (``tokens.words``); ``content``: those that are not stop words;
    ``positions``: the place among the content words of each one whose stem is a term's,
    in order; ``stems``: that stem, for each of them.
    """

    words: int
    content: int
    positions: list[int]
    stems: list[str]


def _read_in_python(text: str, query: Query, language: Language) -> ContentWords:
    tokens = words(text)
    stops = stop_words(language)
    content = list(filterfalse(stops.__contains__, tokens))
    # the query's word cache: a word new to the crawl is stemmed once, the rest are set
    # operations in C, and the positions of the matching words are found in C (``compress``)
    matching = query.word_hits(set(content), language)
    stem = query.stem
    stems = {word: stem(word) for word in matching}
    positions = list(compress(range(len(content)), map(matching.__contains__, content)))
    return ContentWords(len(tokens), len(content), positions,
                        [stems[content[at]] for at in positions])


class _Classes:
    """One query's word classes in one language, for ``_ctext.WordClasses``: -1 for a stop
    word, 0 for a content word that matches no term, and 1 + the index of its stem in
    ``stems`` for one that does."""

    __slots__ = ("_ids", "_language", "_query", "_stops", "stems", "table")

    def __init__(self, words_table: Any, query: Query, language: Language) -> None:
        self._query = query
        self._language = language
        self._stops = stop_words(language)
        self._ids: dict[str, int] = {}
        self.stems: list[str] = []
        self.table = words_table(self._classify, unicode_words, ASCII_SEPARATORS)

    def _classify(self, word: str) -> int:
        if word in self._stops:
            return -1
        # word_masks, not the query's word cache: a table is shared by the queries of the
        # same terms, sessions on other threads among them, and a class must never depend
        # on a cache another thread may be emptying
        if not self._query.word_masks([word], self._language)[0]:
            return 0
        stem = self._query.stem(word)
        index = self._ids.get(stem)
        if index is None:
            index = self._ids[stem] = len(self.stems)
            self.stems.append(stem)
        return index + 1


#: ``tokens.WORD_CLASSES``, or None to read every text in Python.
_WORDS_TABLE = WORD_CLASSES
#: True when texts are read by the compiled word classes; the CLI's ``--version`` says so.
COMPILED = _WORDS_TABLE is not None
#: Tables kept at most, each ~3 MB: a crawl reads in one language or two, and a sweep or the
#: app's sessions run a few queries at a time. Emptied when full, like the other caches.
CLASS_TABLES = 4
#: The classes by (the query's terms, its language, the language read): every ``Query`` with
#: those terms answers alike, so a query parsed again (each crawl parses its own) finds its
#: words classed already, as the query's own word cache would not.
_CLASSES: dict[tuple[tuple[str, ...], Language, Language], _Classes] = {}


def read_content(text: str, query: Query, language: Language) -> ContentWords:
    """The counts of ``text``, read in ``language``, which must be the query's own (the
    other languages' are counted by term bits, in ``relevance``)."""
    if _WORDS_TABLE is None:
        return _read_in_python(text, query, language)
    key = (tuple(query.terms), query.language, language)
    classes = _CLASSES.get(key)
    if classes is None:
        if len(_CLASSES) >= CLASS_TABLES:
            _CLASSES.clear()
        classes = _CLASSES[key] = _Classes(_WORDS_TABLE, query, language)
    total, content, positions, ids = classes.table.read(text)
    stems = classes.stems
    return ContentWords(total, content, positions, [stems[index - 1] for index in ids])


def clear_word_classes() -> None:
    """Forget every word's class (the benchmark's cold caches; tests)."""
    _CLASSES.clear()
