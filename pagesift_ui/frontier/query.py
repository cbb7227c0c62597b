"""The query: its terms and how a term is found in text (docs/DESIGN.md §1)."""

from __future__ import annotations

from collections.abc import Callable, KeysView, Sequence
from functools import partial
from typing import Any

from pagesift_ui.frontier.language import (
    ENGLISH_STOP_WORDS,
    Language,
    query_language,
    stem_function,
    stop_words,
)
from pagesift_ui.frontier.tokens import (
    ASCII_SEPARATORS,
    WORD_CLASSES,
    is_cjk_char,
    unicode_words,
    words,
)

__all__ = [
    "HIT_MASK_CACHE_SIZE",
    "WORD_TABLES",
    "MAX_TERMS",
    "STOP_WORDS",
    "WORD_HITS_CACHE_SIZE",
    "Query",
    "clear_word_tables",
    "stem",
    "words",
]

#: At most this many terms take part (docs/DESIGN.md §1: ``TERMS = 16``).
MAX_TERMS = 16
#: Texts whose term mask a query keeps (anchors and context lines of ≤ ~300 characters:
#: a few MB at most; issue 15).
HIT_MASK_CACHE_SIZE = 16_384
#: Distinct words, per language a text is read in, whose match against the terms a query
#: keeps (a site's pages share most of their words; issue 15).
WORD_HITS_CACHE_SIZE = 65_536

#: The English stop words (``language.ENGLISH_STOP_WORDS``; other languages: ``stop_words``).
STOP_WORDS = ENGLISH_STOP_WORDS

#: Snowball English stem of a case-folded word, so "refunds" matches "refund" (the cached
#: function itself, ``cache_clear`` included; another language's: ``language.stem_function``).
stem = stem_function(Language.ENGLISH)


def _has_cjk(term: str) -> bool:
    return any(is_cjk_char(char) for char in term)


class Query:
    """A parsed query, read in one language (docs/DESIGN.md §1.1).

    ``language`` is the one chosen, or for ``Language.AUTO`` the one detected from the text
    (``language.query_language``). ``terms`` are the case-folded query words in
    first-occurrence order, that language's stop words and duplicates removed, at most
    ``MAX_TERMS``; ``stems`` are their stems by that language's Snowball stemmer. A word
    whose stem a term already has is a duplicate (a CJK term: the same characters): every
    text matches the two alike, so they would count one word twice (docs/DESIGN.md §1).
    ``len(query)`` is the number of terms. ``left_out`` is the first word past those terms
    ("" when every word was taken): the words from it on are not read at all.

    >>> Query("The refund policy").terms
    ['refund', 'policy']
    >>> q = Query("die Gebühren für das Studium")
    >>> q.language.label, q.terms, q.stems
    ('German', ['gebühren', 'studium'], ('gebuhr', 'studium'))
    """

    __slots__ = ("_any_cjk", "_bits", "_cjk", "_masks", "_stem", "_stems", "_stems_in",
                 "_word_hits", "_word_tables", "language", "left_out", "terms", "text")

    def __init__(self, text: str, language: Language = Language.AUTO) -> None:
        if not isinstance(text, str):
            raise ValueError(f"query text must be a string, got {type(text).__name__}")
        self.text = text
        self.language: Language = query_language(text, language)
        stops = stop_words(self.language)
        self._stem = stem_function(self.language)
        terms: dict[str, None] = {}  # first-occurrence order; read no further than needed
        taken: set[str] = set()  # what the terms match by: their stems (a CJK term itself)
        self.left_out = ""  # the first word past the MAX_TERMS terms, if any (a note says so)
        for word in words(text):
            if word in stops or word in terms:
                continue
            key = word if _has_cjk(word) else self._stem(word)
            if key in taken:
                continue
            if len(terms) == MAX_TERMS:
                self.left_out = word
                break
            terms[word] = None
            taken.add(key)
        self.terms: list[str] = list(terms)
        self._stems = tuple(self._stem(term) for term in self.terms)
        self._cjk = tuple(_has_cjk(term) for term in self.terms)
        self._any_cjk = any(self._cjk)
        # per language a text is read in: stem of a term by that language's stemmer → the
        # bits of the terms with that stem (CJK terms match as substrings, never by stem)
        self._bits: dict[Language, dict[str, int]] = {}
        self._stems_in: dict[Language, tuple[str, ...]] = {}
        # (text, language) → hit_mask: a site's pages repeat their anchors and navigation
        # lines, and each link reads two texts (issue 15); emptied when full, like
        # neardup's word hashes
        self._masks: dict[tuple[str, Language | None], int] = {}
        # per language a text is read in: the words already matched against the terms
        # (``WORD_HITS_CACHE_SIZE``) and, of those, the ones that hit one, with their bits
        self._word_hits: dict[Language, _WordHits] = {}
        # per language a text is read in: the compiled table of each word's term bits and
        # stop-word flag, shared with every query of the same terms (``word_table``)
        self._word_tables: dict[Language, Any] = {}

    def __len__(self) -> int:
        return len(self.terms)

    def __repr__(self) -> str:
        return f"Query({self.text!r}, {self.language.value!r})"

    @property
    def stems(self) -> tuple[str, ...]:
        return self._stems

    @property
    def stem(self) -> Callable[[str], str]:
        """The (cached) stemmer of the query's language."""
        return self._stem

    def _term_bits(self, language: Language) -> dict[str, int]:
        bits = self._bits.get(language)
        if bits is None:
            stem_in = stem_function(language)
            bits = {}
            for i, term in enumerate(self.terms):
                if not self._cjk[i]:
                    key = stem_in(term)
                    bits[key] = bits.get(key, 0) | (1 << i)
            self._bits[language] = bits
        return bits

    def word_masks(self, text_words: Sequence[str], language: Language | None = None) -> list[int]:
        """Per word, the bits of the terms it matches, for words of a text in ``language``
        (None: the query's own).

        A word matches a term when their stems agree by the query's stemmer, or by the text's
        stemmer when the text is in another language (docs/DESIGN.md §1.1): a German page's
        "Gebühren" meets a German term's stem, and an English word on it ("Housing" in a
        link) still meets an English term's.
        """
        own = self._term_bits(self.language)
        stem_own = self._stem
        if language is None or language is self.language:
            return [own.get(stem_own(word), 0) for word in text_words]
        other = self._term_bits(language)
        stem_other: Callable[[str], str] = stem_function(language)
        return [own.get(stem_own(word), 0) | other.get(stem_other(word), 0)
                for word in text_words]

    def stems_in(self, language: Language) -> tuple[str, ...]:
        """The terms' stems by ``language``'s stemmer (``stems`` for the query's own)."""
        if language is self.language:
            return self._stems
        found = self._stems_in.get(language)
        if found is None:
            stem_in = stem_function(language)
            found = self._stems_in[language] = tuple(stem_in(term) for term in self.terms)
        return found

    def hit_mask(self, text: str, language: Language | None = None) -> int:
        """Bit i set when term i occurs in ``text``, a text in ``language`` (None: the
        query's own).

        Whole-word and case-insensitive after Snowball stemming of both sides, by the rule of
        ``word_masks``; a term with CJK characters matches as a substring, since CJK text has
        no spaces between words.
        """
        key = (text, language)
        mask = self._masks.get(key)
        if mask is None:
            if len(self._masks) >= HIT_MASK_CACHE_SIZE:
                self._masks.clear()
            mask = self._masks[key] = self._hit_mask(text, language)
        return mask

    def word_hits(self, text_words: set[str], language: Language | None = None) -> dict[str, int]:
        """The words of ``text_words`` (case-folded words of a text in ``language``; None:
        the query's) that match a term by stem, each with its ``word_masks`` bits (the other
        words' are 0; CJK terms match as substrings of a text, never as a word)."""
        hits = self._hits_in(text_words, language)
        return {word: hits.masks[word] for word in hits.words & text_words}

    def _hits_in(self, text_words: set[str], language: Language | None) -> _WordHits:
        """The language's word hits, after matching the words of ``text_words`` it has not
        seen. Each new word is stemmed once, and the rest of a text's words are looked up
        in C (set operations), where every distinct word of every text went through the
        stem cache (issue 15: ``hit_mask`` of a page's anchors and contexts ~15% faster)."""
        read_in = self.language if language is None else language
        hits = self._word_hits.get(read_in)
        if hits is None:
            hits = self._word_hits[read_in] = _WordHits()
        new = text_words.difference(hits.known)
        if new:
            if len(hits.known) + len(new) > WORD_HITS_CACHE_SIZE:
                hits.clear()
                new = text_words  # the text's words that were known went with the rest
            fresh = list(new)
            for word, mask in zip(fresh, self.word_masks(fresh, language), strict=True):
                if mask:
                    hits.masks[word] = mask
            hits.known.update(fresh)
        return hits

    def word_table(self, language: Language) -> Any:
        """The compiled table (``tokens.WORD_CLASSES``) of the words of texts in ``language``:
        each word's class is its ``word_masks`` bits, shifted left one, with the low bit set
        for a stop word of ``language``; None where the table was not built. Shared with
        every query of the same terms (``WORD_TABLES``), so a query parsed again (each crawl
        parses its own) finds its words kept already; read by ``hit_mask`` and
        ``contentwords``."""
        if WORD_CLASSES is None:
            return None
        table = self._word_tables.get(language)
        if table is None:
            table = self._word_tables[language] = _word_table(self, language)
        return table

    def _hit_mask(self, text: str, language: Language | None) -> int:
        if not self.terms:
            return 0
        # the terms whose stem a word of the text has: the OR of its words' ``word_masks``
        # (by the query's stemmer, and the text's when it is read in another language);
        # by each word's kept bits where the word classes were built (``word_table``)
        read_in = self.language if language is None else language
        table = self.word_table(read_in)
        if table is not None:
            mask: int = table.union(text)
        else:
            text_words = set(words(text))
            hits = self._hits_in(text_words, read_in)
            mask = 0
            for word in hits.words & text_words:
                mask |= hits.masks[word]
        if self._any_cjk:
            folded = text.casefold()
            for i, term in enumerate(self.terms):
                if self._cjk[i] and term in folded:
                    mask |= 1 << i
        return mask


#: Word tables kept at most (``Query.word_table``, ~3 MB each): a crawl reads in one
#: language or two, and a sweep or the app's sessions run a few queries at a time. Emptied
#: when full, like the other caches.
WORD_TABLES = 4
#: The tables by (terms, the query's language, the language read): every ``Query`` with those
#: terms answers alike.
_WORD_TABLES: dict[tuple[tuple[str, ...], Language, Language], Any] = {}


def _word_table(query: Query, read_in: Language) -> Any:
    key = (tuple(query.terms), query.language, read_in)
    table = _WORD_TABLES.get(key)
    if table is None:
        if len(_WORD_TABLES) >= WORD_TABLES:
            _WORD_TABLES.clear()
        table = _WORD_TABLES[key] = WORD_CLASSES(
            partial(_word_class, query, read_in, stop_words(read_in)), unicode_words,
            ASCII_SEPARATORS)
    return table


def _word_class(query: Query, read_in: Language, stops: frozenset[str], word: str) -> int:
    # word_masks, not the word cache (``word_hits``): a table is shared by the queries of
    # the same terms, sessions on other threads among them, and a kept class must never
    # depend on a cache another thread may be emptying
    return query.word_masks([word], read_in)[0] << 1 | (word in stops)


def clear_word_tables() -> None:
    """Forget every word kept in the tables (the benchmark's cold caches; tests)."""
    _WORD_TABLES.clear()


class _WordHits:
    """The words of one language's texts already matched against a query's terms: all of
    them (``known``), and the ones that match a term with their term bits (``masks``).
    Emptied when full, like ``Query``'s mask cache."""

    __slots__ = ("known", "masks")

    def __init__(self) -> None:
        self.known: set[str] = set()
        self.masks: dict[str, int] = {}

    @property
    def words(self) -> KeysView[str]:
        """The known words that match a term: ``masks``' keys, a set-like view."""
        return self.masks.keys()

    def clear(self) -> None:
        self.known.clear()
        self.masks.clear()
