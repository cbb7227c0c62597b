"""A text's words as facet relevance counts them (``relevance._Text``, docs/DESIGN.md §7): how
many words it has, how many are content words (not stop words of its language), and which
content words match a query term, where they stand among the content words and their stems.

Read in C where the install built ``_ctext.pyx``, by the query's word table
(``Query.word_table``: each word's term bits and stop-word flag, kept by the word's bytes), so
a word met before costs no ``str``, where ``tokens.words`` makes one for every word of a
page (with the filtering and matching after it, ~5% of a step on the Python docs; issue 15,
docs/DECISIONS.md, "the step, thirteenth pass"). Where it was not built, the Python
reference below reads the text, with the same counts (tests/frontier/test_contentwords.py).
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import compress, filterfalse

from pagesift_ui.frontier.language import Language, stop_words
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.tokens import WORD_CLASSES, words

__all__ = ["COMPILED", "ContentWords", "read_content"]

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


#: True when texts are read by the compiled word classes; the CLI's ``--version`` says so.
COMPILED = WORD_CLASSES is not None


def read_content(text: str, query: Query, language: Language) -> ContentWords:
    """The counts of ``text``, read in ``language``, which must be the query's own (the
    other languages' are counted by term bits, in ``relevance``)."""
    table = query.word_table(language)
    if table is None:
        return _read_in_python(text, query, language)
    total, content, positions, bits = table.read(text)
    # in the query's own language a word has a term's bits exactly when its stem is that
    # term's (``Query.word_masks``), so the stem is the lowest bit's term's
    stems = query.stems
    return ContentWords(total, content, positions,
                        [stems[(mask & -mask).bit_length() - 1] for mask in bits])
