"""What a page means, beside the words it shares with the query (docs/DESIGN.md §7a).

Lexical relevance (``relevance.py``) recognises a page by the query's own words. Real
documentation names its pages by their subject ("Client/Server Authentication") while a
person asks in other words ("who may connect and how they prove it"): on the held-out manuals
the answers' lexical relevance is often no higher than their neighbours'. ``WordVectors``
gives a text a vector by meaning: the SIF-weighted sum of static word vectors (Arora, Liang
& Ma 2017, "A simple but tough-to-beat baseline for sentence embeddings", ICLR), the words'
vectors distilled from a sentence embedding (all-MiniLM-L6-v2, Apache-2.0: each of 75,471
common English words embedded alone; the SIF weights from ``wordfreq``'s frequencies;
``benchmarks/semantic_proto/``). The table ships in its reduced form: 128 dimensions by PCA,
int8 with one scale per word, the SIF weights and the removal of the vocabulary's common
component folded in (both linear, so exact), 9.5 MB (docs/DECISIONS.md "Adopted: page
relevance fused with meaning").

``Meaning`` is one crawl's use of it: the query's vector, the cosines of the pages read so
far, and ``lift``, a page's cosine above the median page read, scaled to [0, 1] and weighted
(``CrawlConfig.meaning_weight``): a page is recognised by meaning only against the rest of
the same site, whose pages all share its vocabulary. English only: the words are English.
"""

from __future__ import annotations

import heapq
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier import ctext

if TYPE_CHECKING:
    from pagesift_ui.frontier import _ctext


__all__ = ["LINK_TEXTS_KEPT", "LINK_TEXT_CHARS", "LINK_TEXT_QUANTILE", "MEANING_TEXT_CHARS",
           "MEDIAN_COUNTS_KEPT", "LinkMeaning", "Meaning", "MeaningLift", "RunningMedian",
           "RunningQuantile", "WordVectors", "scaled_excess", "word_vectors"]

#: The page text read for its meaning: the head of a long page says what it is about, and the
#: vector of a whole reference page is the average of everything it lists.
MEANING_TEXT_CHARS = 6_000
#: Cosines are kept to this many decimals: a sum of float vectors can differ in its last bits
#: between CPUs (SIMD), and a crawl must repeat on any machine (docs/DESIGN.md §11.12).
_COSINE_DECIMALS = 6
#: The table's own words: it holds lowercase ASCII words only, so a text is split as it was
#: when the table was measured (the runs of ``a-z`` in the lower-cased text, the regex
#: ``[a-z]+``), not by ``tokens.words`` (which keeps digits and other letters). They are found
#: by a byte table over the UTF-8 bytes: every byte but ``a-z`` becomes a space. A character
#: outside ASCII is encoded in bytes ≥ 0x80 only, so it separates words as the regex's class
#: does, and ``split()`` gives exactly the regex's runs, faster (issue 15).
_LETTER_BYTES = bytes(byte if 0x61 <= byte <= 0x7A else 0x20 for byte in range(256))
_TABLE = "word_vectors.npz"


_compiled = ctext.load("meaning pass")
#: The compiled reading of a text by meaning (``_ctext.WordRows``, ``WordVectors.cosine``),
#: or None where the install did not build it: numpy's vector, then its dot. A table built
#: while it is None reads texts by the reference.
WORD_ROWS: type[_ctext.WordRows] | None = None if _compiled is None else _compiled.WordRows


#: The share of the link texts read that a link's text must be nearer the query than, to be
#: lifted by meaning (``LinkMeaning``): the upper quartile. Over the median half of every
#: page's link texts took a lift, and lifts of a few thousandths ordered the links the words
#: leave tied (the Python docs' front page for "pack members into a single bundle": 10 of its
#: 22 links lifted, by 0.002-0.022; over the upper quartile 5, by at most 0.011). Measured on
#: all 93 dev queries (docs/DECISIONS.md, "Adopted: a link lifted by meaning only above three
#: in four link texts").
LINK_TEXT_QUANTILE = 0.75
#: The cosines a median is taken over, at most: a crawl of ``MAX_LIMIT`` pages reads up to
#: ``max_links_per_page`` link texts a page, and its memory must stay bounded. Past this
#: many the median stays where it is: the site's pages and links are well sampled by then.
MEDIAN_COUNTS_KEPT = 262_144


class RunningQuantile:
    """The ``quantile`` of the numbers counted so far, in O(log n) a number (two heaps: the
    lower part, negated, holding the ⌊q·(n − 1)⌋ + 1 smallest, and the upper part): the same
    float as linear interpolation between the two sorted numbers around position q·(n − 1),
    ``(1 − f)·a + f·b`` (numpy's default ``quantile``; at q = 0.5 the middle number, or the
    mean of the two middle ones, to the last bit). At most ``MEDIAN_COUNTS_KEPT`` numbers
    are counted; later ones leave it as it is."""

    __slots__ = ("_high", "_low", "quantile")

    def __init__(self, quantile: float) -> None:
        if isinstance(quantile, bool) or not isinstance(quantile, int | float) or not (
                0.0 <= quantile <= 1.0):
            raise ValueError(f"quantile must be a number in [0, 1], got {quantile!r}")
        self.quantile = float(quantile)
        self._low: list[float] = []  # the lower part, negated: -_low[0] is its largest
        self._high: list[float] = []  # the upper part: _high[0] is its smallest

    def __len__(self) -> int:
        return len(self._low) + len(self._high)

    def add(self, value: float) -> None:
        low, high = self._low, self._high
        count = len(low) + len(high)
        if count >= MEDIAN_COUNTS_KEPT:
            return
        if not low or value <= -low[0]:
            heapq.heappush(low, -value)
        else:
            heapq.heappush(high, value)
        # the lower part holds the number at ⌊q·(n − 1)⌋, n counting this one; it grows by
        # at most one number a call, so one move restores it
        wanted = int(self.quantile * count) + 1
        if len(low) > wanted:
            heapq.heappush(high, -heapq.heappop(low))
        elif len(low) < wanted:
            heapq.heappush(low, -heapq.heappop(high))

    @property
    def value(self) -> float | None:
        """None before the first number."""
        low, high = self._low, self._high
        if not low:
            return None
        position = self.quantile * (len(low) + len(high) - 1)
        fraction = position - int(position)
        below = -low[0]
        if fraction == 0.0 or not high:
            return below
        return (1.0 - fraction) * below + fraction * high[0]


class RunningMedian(RunningQuantile):
    """``RunningQuantile`` at 0.5: the middle number, or the mean of the two middle ones."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(0.5)

    @property
    def median(self) -> float | None:
        """None before the first number."""
        return self.value


@dataclass(frozen=True, slots=True)
class MeaningLift:
    """What a page's meaning added to its relevance: ``relevance`` = 1 − (1 − ``lexical``)(1 −
    ``lift``), ``lift`` = weight × the ``cosine``'s excess over the ``median`` page read,
    scaled to [0, 1]."""

    cosine: float
    median: float
    lift: float
    lexical: float

    def to_dict(self) -> dict[str, float]:
        return {"cosine": self.cosine, "median": self.median, "lift": self.lift,
                "lexical": self.lexical}


class WordVectors:
    """The static word-vector table: a text's vector is the sum of its known words' rows.

    Parameters
    ----------
    words : sequence of str
        The vocabulary, one row each (lowercase ASCII words).
    codes : int8 array, words × dimensions
        Each word's vector, SIF weight folded in, as int8 codes.
    scales : float32 array, one per word
        The scale of each word's codes.
    """

    __slots__ = ("_codes", "_index", "_rows", "_scales")

    def __init__(
        self,
        words: list[str],
        codes: npt.NDArray[np.int8],
        scales: npt.NDArray[np.float32],
    ) -> None:
        if codes.ndim != 2 or codes.shape[0] != len(words) or scales.shape != (len(words),):
            raise ValueError(
                f"need one row of codes and one scale per word: {len(words)} words, codes "
                f"{codes.shape}, scales {scales.shape}"
            )
        self._index = {word: row for row, word in enumerate(words)}
        self._codes = np.ascontiguousarray(codes, dtype=np.int8)
        self._scales = np.ascontiguousarray(scales, dtype=np.float64)
        # the vocabulary by its bytes, for the compiled pass: only the words it can read,
        # runs of a-z (ASCII letters all lower case); the rest are never found by either
        # reading, and stand as "-", which no text's words are
        self._rows = (WORD_ROWS([word if word.isascii() and word.isalpha() and word.islower()
                                 else "-" for word in words])
                      if WORD_ROWS is not None else None)

    def __len__(self) -> int:
        return len(self._index)

    @property
    def dimensions(self) -> int:
        return int(self._codes.shape[1])

    def vector(self, text: str) -> npt.NDArray[np.float64] | None:
        """The unit vector of ``text``'s known words, None when it has none."""
        index = self._index
        rows = [index[word] for word in _words(text) if word in index]
        if not rows:
            return None
        ids = np.array(rows)
        # the int8 codes widened inside the product, not copied to floats first: the same
        # float products summed in the same order (issue 15)
        summed = np.multiply(self._codes.take(ids, axis=0), self._scales.take(ids)[:, None])
        summed = summed.sum(axis=0)
        norm = float(np.sqrt(summed @ summed))
        return summed / norm if norm else None

    def cosine(self, text: str, query_vector: npt.NDArray[np.float64]) -> float | None:
        """The cosine of ``text``'s vector with ``query_vector`` (a vector of this table's
        dimensions), unrounded; None when ``vector`` is. Compiled where the install built
        ``_ctext`` (``_ctext.WordRows``: one pass over the text, the same sum of rows; its
        norm and dot may differ from numpy's in the last bits, below the six decimals a
        cosine is kept to), else ``vector``'s dot with the query (issue 15)."""
        if self._rows is not None:
            return self._rows.cosine(text, self._codes, self._scales, query_vector)
        vector = self.vector(text)
        return None if vector is None else float(vector @ query_vector)


def _words(text: str) -> list[str]:
    """The runs of ``a-z`` in ``text.lower()``, in order (``_LETTER_BYTES``)."""
    lowered = text.lower().encode("utf-8", "surrogatepass")
    return lowered.translate(_LETTER_BYTES).decode("ascii").split()


@lru_cache(maxsize=1)
def word_vectors() -> WordVectors:
    """The table shipped with the package, read once per process (~0.1 s, ~20 MB)."""
    with resources.files(__package__).joinpath(_TABLE).open("rb") as handle:
        with np.load(handle, allow_pickle=False) as table:
            words = table["words"].tobytes().decode("utf-8").split("\n")
            return WordVectors(words, table["codes"], table["scales"])


def scaled_excess(cosine: float, median: float) -> float:
    """A cosine's excess over the site's median, scaled to [0, 1]: 0 at or below the median,
    1 at a cosine of 1 (§7a, §8.2: a page or a link against the rest of the same site)."""
    excess = (cosine - median) / (1.0 - median) if median < 1.0 else 0.0
    return min(1.0, max(0.0, excess))


def _cosine_with(
    vectors: WordVectors, query_vector: npt.NDArray[np.float64] | None, text: str
) -> float | None:
    """``text``'s cosine with the query, kept to six decimals (``_COSINE_DECIMALS``); None
    when the table knows none of its words, or none of the query's."""
    if query_vector is None:
        return None
    cosine = vectors.cosine(text, query_vector)
    return None if cosine is None else round(cosine, _COSINE_DECIMALS)


def _check_weight(weight: float) -> None:
    if not 0.0 < weight <= 1.0:
        raise ValueError(f"weight must be in (0, 1], got {weight!r}")


class Meaning:
    """One crawl's reading of pages by meaning (module docstring).

    Parameters
    ----------
    vectors : WordVectors
        The table.
    query : str
        The query's text.
    weight : float in (0, 1]
        The most a page's meaning adds to its relevance: relevance' = 1 − (1 − r)(1 − lift).
    """

    __slots__ = ("_query_vector", "_read", "_vectors", "weight")

    def __init__(self, vectors: WordVectors, query: str, weight: float) -> None:
        _check_weight(weight)
        self._vectors = vectors
        self._query_vector = vectors.vector(query)
        self._read = RunningMedian()  # the cosines of the pages read
        self.weight = weight

    @property
    def active(self) -> bool:
        """False when the table knows none of the query's words: nothing to compare."""
        return self._query_vector is not None

    def cosine(self, title: str, headings: Sequence[str], text: str) -> float | None:
        """A page's cosine with the query: its title twice (the title names the page), its
        headings and the head of its text; None when nothing in it is known."""
        if self._query_vector is None:
            return None  # the page's text is not even joined
        return _cosine_with(self._vectors, self._query_vector,
                            " ".join([title, title, *headings, text[:MEANING_TEXT_CHARS]]))

    def observe(self, cosine: float) -> None:
        """Count a read page's cosine in the site's median."""
        self._read.add(cosine)

    @property
    def median(self) -> float | None:
        """The median cosine of the pages read (None before the first)."""
        return self._read.median

    def lift(self, cosine: float, lexical: float) -> MeaningLift | None:
        """What a page of this ``cosine`` and ``lexical`` relevance gains by its meaning: the
        weight × the cosine's excess over the median page read, scaled to [0, 1]. None
        before any page is read."""
        median = self.median
        if median is None:
            return None
        return MeaningLift(cosine, median, self.weight * scaled_excess(cosine, median), lexical)


#: A link text is read by meaning to this many characters: an anchor is a few words (a list
#: title at most ``LIST_TITLE_BYTES``), and a page may wrap whole paragraphs in a link; the
#: cut bounds the cache below (``LINK_TEXTS_KEPT`` × this) whatever the pages hold.
LINK_TEXT_CHARS = 300
#: Link texts whose cosines a crawl remembers (one per distinct anchor and list title): a
#: site's navigation repeats on every page, and a text is read once (bounded, as the other
#: per-text caches of a step, issue 15).
LINK_TEXTS_KEPT = 65_536


class LinkMeaning:
    """One crawl's reading of links by meaning (docs/DESIGN.md §8.2): a link's anchor and
    the title of its list, read as a page is read (``WordVectors``), against the query.

    The words of an anchor rarely are the query's ("Database Connection Control Functions"
    for "opening a session, sending statements"; on the held-out manuals 33–98% of the
    answers are never linked by an anchor that holds a query word), so a link the words call
    blind may still say what the query asks. Its ``lift`` is the weight × its cosine's
    excess over the ``quantile`` of the link texts read so far (the ``reference``), scaled
    to [0, 1]: as for a page (§7a), a link is recognised by meaning only against the other
    links of the same site. The upper quartile by default (``LINK_TEXT_QUANTILE``): over
    the median, half of every page's link texts took a lift, and lifts of a few thousandths
    decided the order of links the words leave tied (docs/DECISIONS.md, "Adopted: a link
    lifted by meaning only above three in four link texts").

    Parameters
    ----------
    vectors : WordVectors
        The table.
    query : str
        The query's text.
    weight : float in (0, 1]
        The most a link's meaning adds to its raw score.
    quantile : float in [0, 1]
        The share of the link texts read that a text's cosine must pass to be lifted at all.
    """

    __slots__ = ("_cosines", "_query_vector", "_read", "_vectors", "weight")

    def __init__(self, vectors: WordVectors, query: str, weight: float,
                 quantile: float = LINK_TEXT_QUANTILE) -> None:
        _check_weight(weight)
        self._vectors = vectors
        self._query_vector = vectors.vector(query)
        self._cosines: dict[str, float | None] = {}  # text → cosine, LINK_TEXTS_KEPT at most
        self._read = RunningQuantile(quantile)  # the cosines of the link texts read
        self.weight = weight

    def cosine(self, text: str) -> float | None:
        """A link text's cosine with the query (six decimals), read to ``LINK_TEXT_CHARS``;
        None when the table knows none of its words, or none of the query's."""
        text = text[:LINK_TEXT_CHARS]
        cosines = self._cosines
        if text in cosines:
            return cosines[text]
        cosine = _cosine_with(self._vectors, self._query_vector, text)
        if len(cosines) >= LINK_TEXTS_KEPT:
            cosines.clear()
        cosines[text] = cosine
        return cosine

    def read_page(self, texts: Iterable[str]) -> dict[str, float]:
        """The lifts of one page's link texts, each distinct text (as read, to
        ``LINK_TEXT_CHARS``) counted once in the site's ``reference`` before any is lifted
        (so a page's first links are not read against themselves alone). A text with no
        known word is absent: no lift."""
        known: dict[str, float] = {}
        counted: set[str] = set()
        for text in dict.fromkeys(texts):
            cosine = self.cosine(text)
            if cosine is not None:
                known[text] = cosine
                read = text[:LINK_TEXT_CHARS]
                if read not in counted:
                    counted.add(read)
                    self._read.add(cosine)
        reference = self.reference
        if reference is None:
            return {}
        return {text: self._lift(cosine, reference) for text, cosine in known.items()}

    @property
    def quantile(self) -> float:
        """The share of the link texts read that a text must pass to be lifted."""
        return self._read.quantile

    @property
    def reference(self) -> float | None:
        """The ``quantile`` of the cosines of the link texts read (None before the first):
        the cosine a text's lift is measured from."""
        return self._read.value

    def _lift(self, cosine: float, reference: float) -> float:
        return round(self.weight * scaled_excess(cosine, reference), _COSINE_DECIMALS)
