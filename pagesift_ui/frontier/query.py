"""The query: its terms and how a term is found in text (docs/DESIGN.md §1)."""

from __future__ import annotations

import re
from functools import lru_cache

import snowballstemmer

from pagesift_ui.frontier.tokens import is_cjk_char

__all__ = ["MAX_TERMS", "STOP_WORDS", "Query", "stem", "words"]

#: At most this many terms take part (docs/DESIGN.md §1: ``TERMS = 16``).
MAX_TERMS = 16

# A small English stop-word list (docs/DESIGN.md §1 [ours]): function words that carry no topic.
STOP_WORDS = frozenset(
    """
    a about above after again against all am an and any are as at be because been before being
    below between both but by can could did do does doing down during each few for from further
    had has have having he her here hers herself him himself his how i if in into is it its
    itself just me more most my myself no nor not now of off on once only or other our ours
    ourselves out over own same she should so some such than that the their theirs them
    themselves then there these they this those through to too under until up very was we were
    what when where which while who whom why will with would you your yours yourself yourselves
    """.split()
)

# Words are runs of letters and digits; everything else (including "_") separates them.
_WORD = re.compile(r"[^\W_]+")

_STEMMER = snowballstemmer.stemmer("english")


def words(text: str) -> list[str]:
    """Unicode case-folded words of ``text``, split on non-alphanumerics."""
    return _WORD.findall(text.casefold())


@lru_cache(maxsize=65536)
def stem(word: str) -> str:
    """Snowball English stem of a case-folded word, so "refunds" matches "refund"."""
    if word.isascii() and word.isdigit():
        # Snowball leaves a run of ASCII digits as it is (no vowel, no suffix of its rules;
        # tests/frontier/test_query_tokens.py checks it), and pages are full of numbers
        return word
    return str(_STEMMER.stemWord(word))


def _has_cjk(term: str) -> bool:
    return any(is_cjk_char(char) for char in term)


class Query:
    """A parsed query.

    ``terms`` are the case-folded query words in first-occurrence order, stop words and
    duplicates removed, at most ``MAX_TERMS``. ``len(query)`` is the number of terms.

    >>> Query("The refund policy").terms
    ['refund', 'policy']
    """

    __slots__ = ("_cjk", "_stems", "terms", "text")

    def __init__(self, text: str) -> None:
        if not isinstance(text, str):
            raise ValueError(f"query text must be a string, got {type(text).__name__}")
        self.text = text
        terms: list[str] = []
        for word in words(text):
            if word in STOP_WORDS or word in terms:
                continue
            terms.append(word)
        self.terms: list[str] = terms[:MAX_TERMS]
        self._stems = tuple(stem(term) for term in self.terms)
        self._cjk = tuple(_has_cjk(term) for term in self.terms)

    def __len__(self) -> int:
        return len(self.terms)

    def __repr__(self) -> str:
        return f"Query({self.text!r})"

    @property
    def stems(self) -> tuple[str, ...]:
        return self._stems

    def hit_mask(self, text: str) -> int:
        """Bit i set when term i occurs in ``text``.

        Whole-word and case-insensitive after Snowball stemming of both sides; a term with CJK
        characters matches as a substring, since CJK text has no spaces between words.
        """
        if not self.terms:
            return 0
        text_stems = {stem(word) for word in words(text)}
        folded = text.casefold() if any(self._cjk) else ""
        mask = 0
        for i, term in enumerate(self.terms):
            found = term in folded if self._cjk[i] else self._stems[i] in text_stems
            if found:
                mask |= 1 << i
        return mask
