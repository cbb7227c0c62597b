"""The languages a query or a page is read in: stemmer, stop words, detection (docs/DESIGN.md §1.1).

A language is supported when Snowball has a stemmer for it and the ``stop-words`` package a
list (docs/DECISIONS.md, "Other languages"): 23 of them. English keeps the short list this
project always had (``ENGLISH_STOP_WORDS``), so an English query on an English page stems and
stops exactly as before; the package's English list (1,333 words) also drops topic words
such as "research", "information" and "course".

Detection is a count, not a model [ours]: each supported language scores the occurrences of
its stop words in the text, and the highest score wins; English wins a tie, then the order of
``Language`` (roughly the languages' share of the web). No stop word at all says nothing
(``None``). The same text always gives the same language, which a replayed or resumed crawl
relies on.
"""

from __future__ import annotations

import enum
import logging
from collections import Counter
from collections.abc import Callable
from functools import cache, lru_cache

import snowballstemmer
import stop_words as stop_words_package

from pagesift_ui.frontier.tokens import words

__all__ = [
    "DETECT_CHARS",
    "ENGLISH_STOP_WORDS",
    "SUPPORTED",
    "Language",
    "declared_language",
    "detect",
    "page_language",
    "query_language",
    "stem_function",
    "stop_words",
]

logger = logging.getLogger(__name__)


class Language(enum.StrEnum):
    """A supported language by its ISO 639-1 code, or ``AUTO``: detect it from the text.

    The member's name, lower-cased, is its Snowball stemmer and its ``stop-words`` list.
    """

    AUTO = "auto"
    # the order breaks a tie of detection [ours]: English, then roughly by the share of web
    # content in each language (W3Techs' ranking), so "die Miete" (a German and a Dutch stop
    # word) reads German
    ENGLISH = "en"
    SPANISH = "es"
    GERMAN = "de"
    RUSSIAN = "ru"
    FRENCH = "fr"
    PORTUGUESE = "pt"
    ITALIAN = "it"
    TURKISH = "tr"
    PERSIAN = "fa"
    DUTCH = "nl"
    POLISH = "pl"
    ARABIC = "ar"
    CZECH = "cs"
    INDONESIAN = "id"
    GREEK = "el"
    SWEDISH = "sv"
    HUNGARIAN = "hu"
    ROMANIAN = "ro"
    DANISH = "da"
    FINNISH = "fi"
    NORWEGIAN = "nb"
    CATALAN = "ca"
    HINDI = "hi"

    @property
    def label(self) -> str:
        """The language's English name: "German"; "Auto" for ``AUTO``."""
        return self.name.title()


#: Detection reads at most this many characters of a text [ours]: a page's first screens say
#: its language as well as all of it, and a 15k-word page took 16-30 ms to count in full.
DETECT_CHARS = 20_000

#: The languages a text can be read in (every member but ``AUTO``), English first: the order
#: in which detection breaks ties.
SUPPORTED: tuple[Language, ...] = tuple(lang for lang in Language if lang is not Language.AUTO)

# Declared codes that name a supported language under another code: Norwegian Snowball stems
# Bokmål, and "no"/"nn" pages are read with it [ours].
_ALIASES = {"no": Language.NORWEGIAN, "nn": Language.NORWEGIAN}

#: The English stop words (docs/DESIGN.md §1 [ours]): function words that carry no topic.
ENGLISH_STOP_WORDS = frozenset(
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


def _checked(language: Language) -> Language:
    if not isinstance(language, Language) or language is Language.AUTO:
        raise ValueError(f"need a supported language, got {language!r}")
    return language


@cache
def stop_words(language: Language) -> frozenset[str]:
    """The case-folded stop words of ``language``, as ``words()`` splits text.

    An entry of several words ("por qué", "par-devant") adds each of them.
    """
    if _checked(language) is Language.ENGLISH:
        return ENGLISH_STOP_WORDS
    entries = stop_words_package.get_stop_words(language.name.lower())
    return frozenset(word for entry in entries for word in words(entry))


@cache
def stem_function(language: Language) -> Callable[[str], str]:
    """The cached Snowball stemmer of ``language``: case-folded word → stem.

    Each language has its own cache (65,536 words), so a crawl that reads two languages does
    not evict one with the other.
    """
    algorithm = snowballstemmer.stemmer(_checked(language).name.lower())

    @lru_cache(maxsize=65536)
    def stem(word: str) -> str:
        if word.isascii() and word.isdigit():
            # Snowball leaves a run of ASCII digits as it is (no vowel, no suffix of its
            # rules; tests/frontier/test_query_tokens.py checks it), and pages are full of
            # numbers
            return word
        return str(algorithm.stemWord(word))

    return stem


def detect(text: str) -> Language | None:
    """The supported language whose stop words occur most often in ``text`` (its first
    ``DETECT_CHARS`` characters); None if none do.

    >>> detect("Gebühren für das Studium"), detect("fees for the degree"), detect("Talheim")
    (<Language.GERMAN: 'de'>, <Language.ENGLISH: 'en'>, None)
    """
    counts = Counter(words(text[:DETECT_CHARS]))
    if not counts:
        return None
    found = set(counts)
    best: Language | None = None
    best_hits = 0
    for language in SUPPORTED:
        hits = sum(counts[word] for word in found & stop_words(language))
        if hits > best_hits:  # strictly: an earlier language keeps a tie
            best, best_hits = language, hits
    return best


def query_language(text: str, chosen: Language = Language.AUTO) -> Language:
    """The language a query is read in: ``chosen``, or for ``AUTO`` the detected one, English
    when the query has no stop word of any language (a bare "tuition fees")."""
    if not isinstance(chosen, Language):
        raise ValueError(f"language must be a Language, got {chosen!r}")
    if chosen is not Language.AUTO:
        return chosen
    return detect(text) or Language.ENGLISH


def declared_language(lang: str) -> Language | None:
    """The supported language an ``<html lang>`` value names ("de-DE" → German), or None."""
    primary = lang.strip().lower().replace("_", "-").split("-", 1)[0]
    if primary in _ALIASES:
        return _ALIASES[primary]
    try:
        language = Language(primary)
    except ValueError:
        return None
    return None if language is Language.AUTO else language


def page_language(declared: str, text: str, fallback: Language) -> Language:
    """The language a page is read in (docs/DESIGN.md §1.1).

    The declared ``<html lang>`` wins when it names a supported language. A page that declares
    none is detected from its ``text``. A page in an unsupported language ("ja"), or one with
    no stop word of any language, is read in ``fallback``, the query's language: as every page
    was before pages had languages.
    """
    _checked(fallback)
    if declared.strip():
        return declared_language(declared) or fallback
    return detect(text) or fallback
