"""Page relevance by facet (docs/DESIGN.md §7).

A page is relevant to the degree it is *about* the query's units: the query terms, plus each
adjacent pair of terms that the site itself uses as a collocation ("tuition fees"). Per unit
the evidence is (about + head + saturated tf) / 3, where ``about`` = in the title or URL text,
``head`` = in a heading line, and the tf part is BM25's saturation with k₁ = 1, b = 1
(Robertson & Zaragoza 2009, "The Probabilistic Relevance Framework: BM25 and Beyond").
Units are weighted by their IDF over the pages fetched so far, with no floor: a unit on every
page stops counting. The units are combined by the p-norm OR of the extended Boolean model
(Salton, Fox & Wu 1983, "Extended Boolean information retrieval", CACM 26(11)) with p =
``P_NORM`` = 3: (Σ (w·e)ᵖ / Σ wᵖ)^(1/p), between the weighted mean (p = 1, upstream's: every
unit wanted, an AND-like average) and the max (p = ∞: any unit will do). A query of several
wants ("compress and decompress data streams and pack members into a single bundle") is a
disjunction: a page about one or two of them is an answer, and the mean kept such pages under
the stop rules' fixed 0.15. Each weight is raised with its evidence, so the score is
homogeneous in the weights and a unit on every page still stops counting [ours: p = 3 chosen
on whole crawls of issue 11's dev sets, docs/DECISIONS.md]. A unit "occurs" on a page when
it is anywhere on it: title, URL text, heading or body [ours: so a site name in every title
also stops counting]. Upstream measured the weighted mean (p = 1) at AUC 0.86 against 0.79
for plain term coverage.

A pair is a collocation when it follows directly more often than chance: O adjacent
occurrences against E = count(a)·count(b)/total under independence, p = P(Poisson(E) ≥ O), an
exact tail (Dunning 1993: normal approximations fail for rare words), then Benjamini–Hochberg
at level δ over the query's pairs. Adjacency and the total are counted over the body's content
words, stop words skipped [ours]: the query lost its stop words, so "cost of living" gives the
pair (cost, living), which a body only ever shows as "cost of living". Pairs with a CJK term
are never candidates [ours]: CJK text has no word boundaries to count adjacency on.

Everything a page contributes is kept in a ``PageSignal``, so relevance is recomputed under the
current site statistics without the page text.
"""

from __future__ import annotations

import logging
import math
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from itertools import filterfalse
from typing import Any

import numpy as np

from pagesift_ui.frontier.contentwords import read_content
from pagesift_ui.frontier.language import Language, stop_words
from pagesift_ui.frontier.linkrules import locator_text, markdown_text
from pagesift_ui.frontier.meaning import MeaningLift
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.stats import DELTA, bh_adjusted, poisson_upper_tail
from pagesift_ui.frontier.tokens import is_cjk_char, words
from pagesift_ui.frontier.weights import MIN_PAGES, idf

__all__ = [
    "P_NORM",
    "Collocation",
    "FacetStats",
    "PageSignal",
    "RelevanceExplanation",
    "SiteStats",
    "UnitEvidence",
    "evidence",
    "page_signal",
]

logger = logging.getLogger(__name__)

#: p of the p-norm OR that combines the units' evidence (docs/DESIGN.md §7).
P_NORM = 3.0


def evidence(about: bool, head: bool, tf: int, length: int, avg_len: float) -> float:
    """Evidence of one unit on one page: (about + head + tf/(tf + 1 + len/avg_len)) / 3.

    With no average length yet (nothing observed), the page counts as of average length.

    >>> evidence(False, False, 1, 100, 100.0) == (1 / 3) / 3
    True
    """
    ratio = length / avg_len if avg_len > 0 else 1.0
    saturated = tf / (tf + 1.0 + ratio)
    return (float(about) + float(head) + saturated) / 3.0


def _json_ready(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


@dataclass(frozen=True, slots=True)
class PageSignal:
    """What one fetched page contributes to facet relevance, without its text.

    ``units`` are the candidate units: the ``n_terms`` query terms, then every candidate pair
    of adjacent terms (written "a b"). ``about``, ``head`` and ``tf`` are per unit; ``length`` is
    the body's word count, ``content_words`` its words minus stop words (the collocation test
    counts on those), ``body_mask`` the terms the body hits (for the term weights of §6).
    ``cosine`` is the page's cosine with the query by meaning (``frontier/meaning.py``), None
    when it was not read for meaning (no meaning weight, not English, no known word).
    """

    url: str
    n_terms: int
    units: tuple[str, ...]
    about: tuple[bool, ...]
    head: tuple[bool, ...]
    tf: tuple[int, ...]
    length: int
    content_words: int
    body_mask: int
    cosine: float | None = None

    def __post_init__(self) -> None:
        n_units = len(self.units)
        if not 0 <= self.n_terms <= n_units:
            raise ValueError(f"n_terms must be in [0, {n_units}], got {self.n_terms!r}")
        for name in ("about", "head", "tf"):
            if len(getattr(self, name)) != n_units:
                got = len(getattr(self, name))
                raise ValueError(f"{name} needs one value per unit ({n_units}), got {got}")
        if any(count < 0 for count in self.tf):
            raise ValueError(f"tf counts must be non-negative, got {self.tf!r}")
        if self.length < 0 or not 0 <= self.content_words <= self.length:
            raise ValueError(
                f"need 0 <= content_words <= length, got {self.content_words}, {self.length}"
            )
        if not 0 <= self.body_mask < (1 << self.n_terms):
            raise ValueError(f"body_mask {self.body_mask!r} has bits beyond {self.n_terms} terms")
        if self.cosine is not None and not -1.0 <= self.cosine <= 1.0:
            raise ValueError(f"cosine must be in [-1, 1] or None, got {self.cosine!r}")

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; ``PageSignal.from_dict`` reads it back."""
        return {f.name: _json_ready(getattr(self, f.name)) for f in fields(self)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PageSignal:
        try:
            return cls(
                url=str(data["url"]),
                n_terms=int(data["n_terms"]),
                units=tuple(str(u) for u in data["units"]),
                about=tuple(bool(b) for b in data["about"]),
                head=tuple(bool(b) for b in data["head"]),
                tf=tuple(int(n) for n in data["tf"]),
                length=int(data["length"]),
                content_words=int(data["content_words"]),
                body_mask=int(data["body_mask"]),
                cosine=None if data.get("cosine") is None else float(data["cosine"]),
            )
        except KeyError as missing:
            raise ValueError(f"page signal lacks the field {missing}") from None


@dataclass(frozen=True, slots=True)
class UnitEvidence:
    """One active unit's part in a page's relevance."""

    unit: str
    about: bool
    head: bool
    tf: int
    evidence: float
    weight: float

    def to_dict(self) -> dict[str, Any]:
        # ``asdict``'s dict of these scalars, without its deep copy of each (that was most of
        # a step record's relevance detail; issue 15)
        return {"unit": self.unit, "about": self.about, "head": self.head, "tf": self.tf,
                "evidence": self.evidence, "weight": self.weight}


@dataclass(frozen=True, slots=True)
class RelevanceExplanation:
    """How a page's relevance comes out under the current site statistics; ``meaning``:
    what its meaning added (``Focus.explain_relevance``), None when nothing was fused."""

    units: tuple[UnitEvidence, ...]
    relevance: float
    avg_len: float
    pages: int
    meaning: MeaningLift | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "units": [unit.to_dict() for unit in self.units],
            "relevance": self.relevance,
            "avg_len": self.avg_len,
            "pages": self.pages,
        }
        if self.meaning is not None:
            out["meaning"] = self.meaning.to_dict()
        return out


@dataclass(frozen=True, slots=True)
class Collocation:
    """The collocation test of one adjacent pair of query terms."""

    pair: str
    observed: int
    expected: float
    p_value: float
    adjusted: float
    significant: bool

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


# A unit as matched in text: the index of one term, or of two terms that must follow each
# other; a CJK term instead matches its case-folded text as a substring.
_Unit = tuple[int, ...]


def _candidate_pairs(query: Query) -> list[tuple[int, int]]:
    terms = query.terms
    return [
        (i, i + 1)
        for i in range(len(terms) - 1)
        if not (_is_cjk(terms[i]) or _is_cjk(terms[i + 1]))
    ]


def _is_cjk(term: str) -> bool:
    return any(is_cjk_char(char) for char in term)


class _Text:
    """A text prepared for counting units, read in ``language``: its content words (the words
    that are not stop words of that language), counted one by one and in adjacent pairs.

    In the query's language a content word is its stem, and a unit's key the term's stem, as
    before pages had languages. In another language it is the bits of the terms it matches
    (``Query.word_masks``: by either stemmer) and a unit's key the term's index; counting a
    term's bit over the words, or a pair's over adjacent words, is the same count.
    """

    __slots__ = ("_text", "keys", "length", "pairs", "singles", "size")

    def __init__(self, text: str, query: Query, language: Language) -> None:
        self._text = text
        if language is query.language:
            # ``count`` only ever asks for the query's stems and their adjacent pairs, so
            # only words whose stem is a term's are counted: counting every word pair of a
            # docs page was most of this class's time. ``read_content`` finds them (in C
            # where it was built, by each word's kept class) with the text's word counts
            # (issue 15). (Words stemming to a CJK term's stem are left out: ``count`` reads
            # CJK units off the text, never off these counters.)
            read = read_content(text, query, language)
            self.length = read.words
            self.size = read.content
            self.keys: Sequence[str | int] = query.stems
            stems, positions = read.stems, read.positions
            self.singles: Counter[str | int] = Counter(stems)
            # two matching words are adjacent content words when their positions are
            self.pairs: Counter[tuple[str | int, str | int]] = Counter(
                (stems[at], stems[at + 1])
                for at in range(len(positions) - 1)
                if positions[at + 1] == positions[at] + 1
            )
            return
        tokens = words(text)
        content = list(filterfalse(stop_words(language).__contains__, tokens))
        self.length = len(tokens)
        self.size = len(content)
        found = query.word_hits(set(content), language)
        masks = [found.get(word, 0) for word in content]  # Query.word_masks of the content
        self.keys = range(len(query))
        self.singles = Counter()
        self.pairs = Counter()
        # each word with the one after it (0 after the last; no pair at all for no word)
        for mask, after in zip(masks, [*masks[1:], 0], strict=False):
            if mask:
                terms = _bits(mask)
                self.singles.update(terms)
                if after:
                    self.pairs.update((i, j) for i in terms for j in _bits(after))

    def count(self, unit: _Unit, cjk: str | None) -> int:
        if cjk is not None:
            return self._text.casefold().count(cjk)
        keys = self.keys
        if len(unit) == 1:
            return self.singles[keys[unit[0]]]
        return self.pairs[(keys[unit[0]], keys[unit[1]])]


def _bits(mask: int) -> list[int]:
    """The indices of the set bits of ``mask``, lowest first."""
    found = []
    while mask:
        low = mask & -mask
        found.append(low.bit_length() - 1)
        mask ^= low
    return found


def _units(query: Query) -> tuple[tuple[str, ...], list[_Unit], list[str | None]]:
    """Names, term indices and CJK texts (None: matched by stem) of the candidate units:
    terms, then pairs."""
    names: list[str] = list(query.terms)
    keys: list[_Unit] = [(i,) for i in range(len(query))]
    cjk: list[str | None] = [term if _is_cjk(term) else None for term in query.terms]
    for i, j in _candidate_pairs(query):
        names.append(f"{query.terms[i]} {query.terms[j]}")
        keys.append((i, j))
        cjk.append(None)
    return tuple(names), keys, cjk


def page_signal(
    query: Query,
    url: str,
    title: str,
    headings: Sequence[str],
    body_text: str,
    language: Language | None = None,
    cosine: float | None = None,
) -> PageSignal:
    """Count what a page says about each candidate unit (docs/DESIGN.md §7); ``cosine`` is
    its cosine with the query by meaning, when it was read for it (§7a).

    ``about``: the unit is in the title or the URL text (``linkrules.locator_text``); ``head``:
    in one heading line; ``tf``: occurrences in the body. Terms match by Snowball stem, as in
    ``Query.hit_mask``; a pair matches when its two terms follow each other (stop words between
    them skipped). Markdown links and images count as their anchor or alt text, not their URLs
    [ours]. The page is read in ``language`` (None: the query's), its stop words and stemmer
    (docs/DESIGN.md §1.1).
    """
    if not isinstance(query, Query):
        raise ValueError(f"query must be a Query, got {type(query).__name__}")
    for name, value in (("url", url), ("title", title), ("body_text", body_text)):
        if not isinstance(value, str):
            raise ValueError(f"{name} must be a string, got {type(value).__name__}")
    if isinstance(headings, str):
        raise ValueError("headings must be a sequence of heading lines, not one string")
    if language is None:
        language = query.language
    names, units, cjk = _units(query)
    labels = [_Text(markdown_text(title), query, language),
              _Text(locator_text(url), query, language)]
    heads = [_Text(markdown_text(line), query, language) for line in headings]
    body = _Text(markdown_text(body_text), query, language)
    tf = tuple(body.count(unit, flag) for unit, flag in zip(units, cjk, strict=True))
    n_terms = len(query)
    return PageSignal(
        url=url,
        n_terms=n_terms,
        units=names,
        about=tuple(any(t.count(u, c) for t in labels) for u, c in zip(units, cjk, strict=True)),
        head=tuple(any(t.count(u, c) for t in heads) for u, c in zip(units, cjk, strict=True)),
        tf=tf,
        length=body.length,
        content_words=body.size,
        body_mask=sum(1 << i for i in range(n_terms) if tf[i] > 0),
        cosine=cosine,
    )


class FacetStats:
    """Site statistics of facet relevance: document frequency per unit, body lengths, and the
    unigram and bigram counts of the collocation test (docs/DESIGN.md §7).

    ``observe`` every fetched page; ``relevance`` and ``explain_relevance`` use the statistics
    as they are now, so a stored signal can be re-evaluated at any time.
    """

    __slots__ = (
        "_collocations",
        "_counts",
        "_df",
        "_n_terms",
        "_pairs",
        "_total_content",
        "_total_words",
        "_units",
        "pages",
    )

    def __init__(self, query: Query) -> None:
        if not isinstance(query, Query):
            raise ValueError(f"query must be a Query, got {type(query).__name__}")
        self._units, _, _ = _units(query)
        self._n_terms = len(query)
        self._pairs = _candidate_pairs(query)
        self._df = [0] * len(self._units)
        self._counts = [0] * len(self._units)  # Σ tf per unit: count(a), or O for a pair
        self._total_words = 0
        self._total_content = 0
        self.pages = 0
        self._collocations: tuple[Collocation, ...] | None = None

    @property
    def units(self) -> tuple[str, ...]:
        """The candidate units: the terms, then the candidate pairs."""
        return self._units

    @property
    def avg_len(self) -> float:
        """Average body word count of the observed pages; 0 before any."""
        return self._total_words / self.pages if self.pages else 0.0

    @property
    def df(self) -> list[int]:
        """Per candidate unit, the observed pages where it occurs anywhere (a copy)."""
        return list(self._df)

    def _check(self, signal: PageSignal) -> None:
        if not isinstance(signal, PageSignal):
            raise ValueError(f"expected a PageSignal, got {type(signal).__name__}")
        if signal.units != self._units or signal.n_terms != self._n_terms:
            raise ValueError(
                f"signal of {signal.url!r} has units {signal.units!r}, expected {self._units!r}"
            )

    def observe(self, signal: PageSignal) -> None:
        """Count one fetched page (every fetched page, useless ones included)."""
        self._check(signal)
        self.pages += 1
        self._total_words += signal.length
        self._total_content += signal.content_words
        for i, tf in enumerate(signal.tf):
            # a unit occurs on a page when it is anywhere on it: title, URL, heading or body
            self._df[i] += int(signal.about[i] or signal.head[i] or tf > 0)
            self._counts[i] += tf
        self._collocations = None

    def collocations(self) -> tuple[Collocation, ...]:
        """The collocation test of every candidate pair, in query order (cached)."""
        if self._collocations is None:
            self._collocations = self._test_collocations()
        return self._collocations

    def _test_collocations(self) -> tuple[Collocation, ...]:
        if not self._pairs:
            return ()
        observed: list[int] = []
        expected: list[float] = []
        p_values: list[float] = []
        for k, (i, j) in enumerate(self._pairs):
            o = self._counts[self._n_terms + k]
            total = self._total_content
            e = self._counts[i] * self._counts[j] / total if total else 0.0
            observed.append(o)
            expected.append(e)
            # P(Poisson(E) ≥ O); with E = 0 no adjacency can occur (O = 0): p = 1
            p_values.append(poisson_upper_tail(o, e))
        adjusted = bh_adjusted(np.asarray(p_values))
        return tuple(
            Collocation(
                pair=self._units[self._n_terms + k],
                observed=observed[k],
                expected=expected[k],
                p_value=p_values[k],
                adjusted=float(adjusted[k]),
                significant=observed[k] >= 1 and float(adjusted[k]) <= DELTA,
            )
            for k in range(len(self._pairs))
        )

    def _active_units(self) -> list[tuple[int, float]]:
        """(index, weight) of every active unit: the terms, then the significant pairs.

        Before ``MIN_PAGES`` pages every term weighs 1 and no pair is active (docs/DESIGN.md §7).
        """
        n = self._n_terms
        if self.pages < MIN_PAGES:
            return [(i, 1.0) for i in range(n)]
        terms = [(i, idf(self.pages, self._df[i], floor=0.0)) for i in range(n)]
        pairs = [
            (n + k, idf(self.pages, self._df[n + k], floor=0.0))
            for k, test in enumerate(self.collocations())
            if test.significant
        ]
        return terms + pairs

    def unit_weights(self) -> tuple[float, ...]:
        """Weight of every candidate unit now; 0 for a pair that is not an active unit."""
        weights = [0.0] * len(self._units)
        for i, weight in self._active_units():
            weights[i] = weight
        return tuple(weights)

    def explain_relevance(self, signal: PageSignal) -> RelevanceExplanation:
        """Relevance of a page and each active unit's part, under the current statistics."""
        self._check(signal)
        avg_len = self.avg_len
        parts = []
        numerator = denominator = 0.0
        for i, weight in self._active_units():
            about, head, tf = signal.about[i], signal.head[i], signal.tf[i]
            e = evidence(about, head, tf, signal.length, avg_len)
            parts.append(UnitEvidence(self._units[i], about, head, tf, e, weight))
            numerator += (weight * e) ** P_NORM
            denominator += weight**P_NORM
        relevance = (numerator / denominator) ** (1.0 / P_NORM) if denominator > 0 else 0.0
        # Σ(we)ᵖ ≤ Σwᵖ exactly; the clamp only removes rounding residue
        relevance = min(1.0, max(0.0, relevance)) if math.isfinite(relevance) else 0.0
        return RelevanceExplanation(tuple(parts), relevance, avg_len, self.pages)

    def relevance(self, signal: PageSignal) -> float:
        """(Σ (weight·evidence)ᵖ / Σ weightᵖ)^(1/p) over the active units, p = ``P_NORM``,
        in [0, 1] (docs/DESIGN.md §7)."""
        return self.explain_relevance(signal).relevance


#: The name the design notes also use for ``FacetStats``.
SiteStats = FacetStats
