"""Link signals and the link score (docs/DESIGN.md §8).

A link found on a fetched page is kept as a ``LinkSignal``: its term bit masks (anchor, URL
words, context line), its parent's relevance, depth and the shape flags of ``linkrules``. The
score is a pure function of the signal, the link model's weights and the *current* term
weights, so rescoring the queue after the weights move never re-reads a page:

    x     = (anchor coverage, locator coverage, context coverage, parent feature, phrase)
    parent feature = parent relevance × 0.5 for a hub parent × 0.5 for a citation
    raw   = max(0, w·x + meaning + SIBLING_WEIGHT × sibling credit
                   + POPULARITY_WEIGHT × popularity + FAMILY_WEIGHT × family credit)
    meaning = the lift of the link's anchor and list title by meaning (``meaning.LinkMeaning``)
    shape = dated × 0.1, else furniture × 0.2;
            English query and portal open: portal max(·, 0.6), else other language × 0.2
    score = shape × 0.9 ** depth

There is no section floor any more (issue 11, mechanism 1): a floor of 0.25 for one-segment
URLs outranked evidence, turned a flat site's table of contents into a breadth-first crawl and
hid the parent's relevance. A blind link now scores what its parent's relevance, its
siblings' proven relevance, its share of the fetched pages that link to it (``siblings.py``)
and its name family's proven relevance (``families.py``) say, and nothing else
(docs/DESIGN.md §8).

``score`` explains nothing and ``explain`` returns every step; ``linkbatch`` gives the same
floats for a whole queue with numpy.
"""

from __future__ import annotations

import enum
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field, fields, replace
from functools import lru_cache
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier.families import FAMILY_WEIGHT
from pagesift_ui.frontier.language import Language
from pagesift_ui.frontier.linkrules import (
    CONTEXT_BYTES,
    FURNITURE_WORDS,
    around,
    is_dated,
    is_described_entry,
    is_furniture,
    is_language_portal,
    is_section_entry,
    link_contexts,
    locator_text,
    other_language,
    query_furniture,
)
from pagesift_ui.frontier.model import FEATURE_NAMES, as_features
from pagesift_ui.frontier.popularity import POPULARITY_WEIGHT
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.siblings import NO_GROUP, SIBLING_WEIGHT
from pagesift_ui.frontier.weights import mask_coverage

__all__ = [
    "CITATION_FACTOR",
    "CONTEXT_BYTES",
    "DATED_FACTOR",
    "DEPTH_DECAY",
    "FURNITURE_FACTOR",
    "FURNITURE_WORDS",
    "SCORE_TERM_NAMES",
    "HUB_FACTOR",
    "LANGUAGE_PORTAL_SCORE",
    "OTHER_LANGUAGE_FACTOR",
    "POPULARITY_WEIGHT",
    "ROW_DEPTH_SHIFT",
    "ROW_FLAGS",
    "SIBLING_WEIGHT",
    "FeatureContribution",
    "LinkExplanation",
    "LinkSignal",
    "LinkVia",
    "ShapeRule",
    "ShapeStep",
    "explain",
    "explain_with",
    "features",
    "is_dated",
    "is_furniture",
    "is_language_portal",
    "is_section_entry",
    "link_contexts",
    "link_signal",
    "locator_text",
    "relinked",
    "other_language",
    "score",
]

logger = logging.getLogger(__name__)

#: A hub parent (fewer prose words than links) passes on half its relevance (docs/DESIGN.md §8).
HUB_FACTOR = 0.5
#: A citation (a link in the running text of the page's main content, outside its lists and
#: its navigation) passes on half its page's relevance, as a hub's link does: a page about
#: the topic cites what its sentences need (``for``, ``abc.ABCMeta``), which is about
#: something else; its lists and navigation are its part of the site's structure
#: (docs/DESIGN.md §8; docs/DECISIONS.md, issue 11: "a citation passes on half its page's
#: relevance").
CITATION_FACTOR = HUB_FACTOR
#: Furniture targets: news, about, privacy… (docs/DESIGN.md §8).
FURNITURE_FACTOR = 0.2
#: Dated leaves (news items), instead of the furniture factor (docs/DESIGN.md §8).
DATED_FACTOR = 0.1
#: The English portal of a non-English site scores at least this much (docs/DESIGN.md §8).
LANGUAGE_PORTAL_SCORE = 0.6
#: Another language's path under an English query (docs/DESIGN.md §8 [ours]).
OTHER_LANGUAGE_FACTOR = 0.2
#: Per link of depth (docs/DESIGN.md §8).
DEPTH_DECAY = 0.9
#: Flag bits of a signal's packed row (``LinkSignal.row``), in ``linkbatch.LinkColumns``'
#: flags column order; the depth sits above them, from bit ROW_DEPTH_SHIFT.
ROW_FLAGS = ("phrase", "furniture", "dated", "section", "portal", "other_language")
ROW_DEPTH_SHIFT = 8

# --------------------------------------------------------------------------- signals


class LinkVia(enum.StrEnum):
    """Where a link was found: on a fetched page, or in the site's sitemap (§11.13).

    A sitemap link has no anchor, context or parent page: its score is what its URL's words
    say (the locator feature). Where it came from is shown, never scored.
    """

    PAGE = "page"
    SITEMAP = "sitemap"


@dataclass(frozen=True, slots=True)
class LinkSignal:
    """Everything the score of one link needs, without its page (docs/DESIGN.md §8).

    The masks are term bit masks (bit i: query term i occurs); coverage is taken at score time
    under the current term weights. ``phrase`` and ``blind`` are derived from the masks when
    left ``None``; a given value must agree with them.
    """

    url: str
    anchor: str = ""
    context: str = ""
    depth: int = 0
    parent_relevance: float = 0.0
    parent_is_hub: bool = False
    anchor_mask: int = 0
    locator_mask: int = 0
    context_mask: int = 0
    phrase: bool | None = None
    furniture: bool = False
    dated: bool = False
    section: bool = False
    portal: bool = False
    other_language: bool = False
    blind: bool | None = None
    #: The sibling group (``siblings.SiblingCredit``) of the list the link was read from.
    group: int = NO_GROUP
    #: The target's id in the crawl's ``popularity.Popularity`` (-1: none).
    target: int = NO_GROUP
    #: Where the link was found; a sitemap link also keeps its ``<lastmod>`` ("" for none).
    via: LinkVia = LinkVia.PAGE
    lastmod: str = ""
    #: The link sits in the running text of its page's main content (``CITATION_FACTOR``).
    cited: bool = False
    #: What the link's anchor and list title say by meaning, weighted: the crawl's
    #: ``meaning.LinkMeaning`` lift, in [0, 1], added to the raw score (docs/DESIGN.md §8.2).
    meaning: float = 0.0
    #: The key of the page the link was read on ("" for none: the seed, a sitemap's, or a
    #: signal read back from a record), so a user's label of that page can replace
    #: ``parent_relevance`` (docs/DESIGN.md §12.3). The crawl's business, not the score's:
    #: neither compared nor in ``to_dict``.
    parent: str = field(default="", compare=False)
    # (anchor, locator, context mask, flags | depth << 8, parent feature, group, target,
    # meaning): what a batch packs
    _row: tuple[int, int, int, int, float, int, int, float] = field(init=False, repr=False,
                                                                   compare=False)

    def __post_init__(self) -> None:
        _check_numbers(self.depth, self.parent_relevance, self.group, self.target)
        object.__setattr__(self, "parent_relevance", float(self.parent_relevance))
        object.__setattr__(self, "via", LinkVia(self.via))
        if not isinstance(self.cited, bool):
            raise ValueError(f"cited must be a bool, got {self.cited!r}")
        object.__setattr__(self, "meaning", _checked_meaning(self.meaning))
        if not isinstance(self.lastmod, str):
            raise ValueError(f"lastmod must be text, got {self.lastmod!r}")
        if not isinstance(self.parent, str):
            raise ValueError(f"parent must be a page key (text), got {self.parent!r}")
        for name in ("anchor_mask", "locator_mask", "context_mask"):
            mask = getattr(self, name)
            if isinstance(mask, bool) or not isinstance(mask, int) or mask < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {mask!r}")
        phrase = self.anchor_mask.bit_count() >= 2
        blind = not (phrase or self.anchor_mask or self.locator_mask or self.context_mask)
        for name, derived in (("phrase", phrase), ("blind", blind)):
            given = getattr(self, name)
            if given is not None and bool(given) != derived:
                raise ValueError(f"{name}={given!r} contradicts the masks (it is {derived})")
            object.__setattr__(self, name, derived)
        object.__setattr__(self, "_row", _pack(self))

    @classmethod
    def _of_page_link(
        cls,
        url: str,
        anchor: str,
        context: str,
        depth: int,
        parent_relevance: float,
        parent_is_hub: bool,
        cited: bool,
        masks: tuple[int, int, int],
        shape: tuple[bool, bool, bool, bool, bool],
        group: int,
        target: int,
        parent: str = "",
        meaning: float = 0.0,
    ) -> LinkSignal:
        """Internal: the signal of a page's link read by ``link_signal``, without the public
        constructor's checks. Only for callers whose inputs are already what ``__post_init__``
        would accept: ``depth``, ``parent_relevance`` (a float), ``group`` and ``target``
        checked by ``_check_numbers``, ``meaning`` by ``_checked_meaning``, ``masks``
        (anchor, locator, context) non-negative ints from ``Query.hit_mask``, ``shape``
        (furniture, dated, section, portal, other_language) bools. The fields, ``phrase``,
        ``blind`` and the packed row are exactly those the constructor sets (issue 15: its
        checks were ~3% of a step; ``tests/frontier/test_link_signal_unchecked.py`` holds
        the two to the same result)."""
        anchor_mask, locator_mask, context_mask = masks
        furniture, dated, section, portal, other = shape
        phrase = anchor_mask.bit_count() >= 2
        self = object.__new__(cls)
        # each slot set by its own descriptor: object.__setattr__ looks the name up first,
        # twice the cost over 24 fields (issue 15)
        (put_url, put_anchor, put_context, put_depth, put_parent_relevance, put_parent_is_hub,
         put_anchor_mask, put_locator_mask, put_context_mask, put_phrase, put_furniture,
         put_dated, put_section, put_portal, put_other_language, put_blind, put_group,
         put_target, put_via, put_lastmod, put_cited, put_meaning, put_parent,
         put_row) = _SLOT_SETTERS
        put_url(self, url)
        put_anchor(self, anchor)
        put_context(self, context)
        put_depth(self, depth)
        put_parent_relevance(self, parent_relevance)
        put_parent_is_hub(self, parent_is_hub)
        put_anchor_mask(self, anchor_mask)
        put_locator_mask(self, locator_mask)
        put_context_mask(self, context_mask)
        put_phrase(self, phrase)
        put_furniture(self, furniture)
        put_dated(self, dated)
        put_section(self, section)
        put_portal(self, portal)
        put_other_language(self, other)
        put_blind(self, not (phrase or anchor_mask or locator_mask or context_mask))
        put_group(self, group)
        put_target(self, target)
        put_via(self, LinkVia.PAGE)
        put_lastmod(self, "")
        put_cited(self, cited)
        put_meaning(self, meaning)
        put_parent(self, parent)
        # _pack's row, flags in ROW_FLAGS order
        put_row(self, _row(anchor_mask, locator_mask, context_mask, depth,
                           (phrase, furniture, dated, section, portal, other),
                           parent_relevance, parent_is_hub, cited, group, target, meaning))
        return self

    @property
    def row(self) -> tuple[int, int, int, int, float, int, int, float]:
        """(anchor, locator, context mask, flags | depth << ROW_DEPTH_SHIFT, parent feature,
        group, target, meaning): what ``linkbatch`` packs, one attribute per link."""
        return self._row

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready dict; ``LinkSignal.from_dict`` reads it back. ``group``, ``target``,
        ``via``, ``lastmod``, ``cited`` and ``meaning`` only when set, so signals of records
        made before them read the same."""
        data = {f.name: getattr(self, f.name) for f in fields(self) if f.init}
        for name in ("group", "target"):
            if data[name] == NO_GROUP:
                del data[name]
        if self.via is LinkVia.PAGE:
            del data["via"]
        else:
            data["via"] = self.via.value
        if not self.lastmod:
            del data["lastmod"]
        if not self.cited:
            del data["cited"]
        if not self.meaning:
            del data["meaning"]
        del data["parent"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> LinkSignal:
        names = {f.name for f in fields(cls) if f.init}
        unknown = set(data) - names
        if unknown or "url" not in data:
            raise ValueError(f"not a link signal: unknown {sorted(unknown)}, needs 'url'")
        return cls(**dict(data))


#: The setters of ``LinkSignal``'s slots in the order of its fields, ``_row`` last: what
#: ``LinkSignal._of_page_link`` sets (tests/frontier/test_link_signal_unchecked.py holds the
#: order to the fields').
_SLOT_SETTERS = tuple(getattr(LinkSignal, f.name).__set__ for f in fields(LinkSignal))


def _check_numbers(depth: object, parent: object, group: object, target: object) -> None:
    """The checks of a signal's caller-given numbers, in ``__post_init__``'s order."""
    if isinstance(depth, bool) or not isinstance(depth, int) or depth < 0:
        raise ValueError(f"depth must be a non-negative integer, got {depth!r}")
    for name, value in (("group", group), ("target", target)):
        if isinstance(value, bool) or not isinstance(value, int) or value < NO_GROUP:
            raise ValueError(f"{name} must be an integer ≥ {NO_GROUP}, got {value!r}")
    if isinstance(parent, bool) or not isinstance(parent, int | float) or not 0 <= parent <= 1:
        raise ValueError(f"parent_relevance must be a number in [0, 1], got {parent!r}")


def _checked_meaning(meaning: object) -> float:
    """A link's lift by meaning as a float, checked to be a number in [0, 1]."""
    if isinstance(meaning, bool) or not isinstance(meaning, int | float) or not (
            0 <= meaning <= 1):
        raise ValueError(f"meaning must be a number in [0, 1], got {meaning!r}")
    return float(meaning)


def _pack(signal: LinkSignal) -> tuple[int, int, int, int, float, int, int, float]:
    """The numbers of a signal as one flat tuple, so a batch reads one attribute per link."""
    return _row(signal.anchor_mask, signal.locator_mask, signal.context_mask, signal.depth,
                tuple(bool(getattr(signal, name)) for name in ROW_FLAGS),
                signal.parent_relevance, signal.parent_is_hub, signal.cited, signal.group,
                signal.target, signal.meaning)


def _row(
    anchor_mask: int, locator_mask: int, context_mask: int, depth: int,
    flags: tuple[bool, ...], parent: float, parent_is_hub: bool, cited: bool, group: int,
    target: int, meaning: float,
) -> tuple[int, int, int, int, float, int, int, float]:
    """A packed row: ``flags`` in ``ROW_FLAGS`` order as bits, the depth above them."""
    code = depth << ROW_DEPTH_SHIFT
    for bit, flag in enumerate(flags):
        code |= int(flag) << bit
    return (anchor_mask, locator_mask, context_mask, code,
            _parent_feature(parent, parent_is_hub, cited), group, target, meaning)


def _parent_feature(parent: float, parent_is_hub: bool, cited: bool) -> float:
    """The parent feature: the parent's relevance, halved for a hub parent
    (``HUB_FACTOR``) and for a citation (``CITATION_FACTOR``), in that order, so the row and
    ``features`` hold the same float."""
    if parent_is_hub:
        parent *= HUB_FACTOR
    if cited:
        parent *= CITATION_FACTOR
    return parent


def relinked(signal: LinkSignal, relevance_of: Mapping[str, float]) -> LinkSignal | None:
    """``signal`` with the parent relevance its page has now (``relevance_of`` by page key:
    a user's label, docs/DESIGN.md §12.3), or None when it was not read on one of those
    pages or already has it."""
    if not signal.parent:
        return None
    relevance = relevance_of.get(signal.parent)
    if relevance is None or relevance == signal.parent_relevance:
        return None
    return replace(signal, parent_relevance=relevance)


def link_signal(
    query: Query,
    url: str,
    anchor: str,
    context: str,
    depth: int,
    parent_relevance: float,
    parent_is_hub: bool,
    seed_host: str,
    group: int = NO_GROUP,
    target: int = NO_GROUP,
    language: Language | None = None,
    cited: bool = False,
    parent: str = "",
    meaning: float = 0.0,
) -> LinkSignal:
    """Read one link: its term masks, the shape rules of ``linkrules`` and its sibling group.

    The anchor, context and URL words are read in ``language``, the language of the page
    that has the link (None: the query's; docs/DESIGN.md §1.1). ``cited``: the link sits in
    the running text of the page's main content (``CITATION_FACTOR``). ``parent``: the key
    of that page (``LinkSignal.parent``). ``meaning``: the link's lift by meaning
    (``meaning.LinkMeaning.read_page``), in [0, 1].
    """
    if not isinstance(query, Query):
        raise ValueError(f"query must be a Query, got {type(query).__name__}")
    relevance = float(parent_relevance)
    _check_numbers(depth, relevance, group, target)
    lift = _checked_meaning(meaning)
    # the numbers checked and the masks from hit_mask: the constructor's checks would pass
    return LinkSignal._of_page_link(
        url, anchor, context, depth, relevance, bool(parent_is_hub), bool(cited),
        (query.hit_mask(anchor, language), _locator_mask(query, url, language),
         # the anchor's hits are the anchor feature's (and the phrase's); counted again in
         # the context they weighed anchor + context = 3.0 instead of the prior's 2.0
         # (issue 11)
         query.hit_mask(around(context, anchor), language)),
        (_is_furniture(query, url, anchor, context, group), is_dated(url),
         is_section_entry(url, anchor, seed_host), is_language_portal(url, anchor),
         other_language(url)),
        group, target, parent, lift,
    )


def _is_furniture(query: Query, url: str, anchor: str, context: str, group: int) -> bool:
    """Furniture by the URL's or the anchor's words, unless the link is a list entry that
    says what its page holds (``linkrules.is_described_entry``, asked only of furniture: it
    reads the context's words)."""
    return (is_furniture(url, anchor, _wanted_furniture(query))
            and not (group != NO_GROUP and is_described_entry(context, anchor)))


@lru_cache(maxsize=64)
def _wanted_furniture(query: Query) -> frozenset[str]:
    """The furniture words the query names, which mark no link as furniture (linkrules'
    ``query_furniture``); one set per query (a ``Query`` is keyed by identity)."""
    return query_furniture(lambda word: query.hit_mask(word) != 0)


@lru_cache(maxsize=65_536)
def _locator_mask(query: Query, url: str, language: Language | None) -> int:
    """The query terms in the URL's words, read in the linking page's ``language``: the same
    for every page in that language that links to it (issue 15; a ``Query`` is keyed by
    identity, a session keeps one). Bounded like linkrules' caches."""
    return query.hit_mask(locator_text(url), language)


# --------------------------------------------------------------------------- scoring

#: The names of a link explanation's terms: the link model's features, then the four that
#: are not learned (``siblings.py``, ``popularity.py``, ``families.py``, ``meaning.py``).
SCORE_TERM_NAMES = (*FEATURE_NAMES, "siblings", "popularity", "family", "meaning")


class ShapeRule(enum.StrEnum):
    """The shape steps of the score, in the order they apply (docs/DESIGN.md §8)."""

    DATED = "dated"
    FURNITURE = "furniture"
    LANGUAGE_PORTAL = "language portal"
    OTHER_LANGUAGE = "other language"
    DEPTH = "depth"


class ShapeStep(NamedTuple):
    """One applied shape step: the rule, its factor (or floor), the score after it."""

    rule: ShapeRule
    factor: float
    score: float


@dataclass(frozen=True, slots=True)
class FeatureContribution:
    """One feature's part in the raw score: value × weight = contribution."""

    name: str
    value: float
    weight: float
    contribution: float


@dataclass(frozen=True, slots=True)
class LinkExplanation:
    """Why a link scores what it scores: features, raw score, shape steps, final score, and
    where the link was found (a sitemap link's ``lastmod`` with it, shown, not scored)."""

    features: tuple[FeatureContribution, ...]
    raw: float
    steps: tuple[ShapeStep, ...]
    score: float
    blind: bool
    via: LinkVia = LinkVia.PAGE
    lastmod: str = ""
    #: The link is a citation: its parent feature is the page's relevance × CITATION_FACTOR.
    cited: bool = False
    #: The title of the link's list when the query names it in full: its sibling credit
    #: holds ``siblings.NAMED_LIST_CREDIT`` (docs/DESIGN.md §8a); "" otherwise.
    named_list: str = ""

    def to_dict(self) -> dict[str, Any]:
        """Plain values; ``via`` and ``lastmod`` only for a sitemap link, so the explanations
        of page links read as they did before sitemaps; ``cited`` and ``named_list`` only
        when set."""
        out: dict[str, Any] = {
            "features": [asdict(feature) for feature in self.features],
            "raw": self.raw,
            "steps": [
                {"rule": str(s.rule), "factor": s.factor, "score": s.score} for s in self.steps
            ],
            "score": self.score,
            "blind": self.blind,
        }
        if self.via is not LinkVia.PAGE:
            out["via"] = self.via.value
            out["lastmod"] = self.lastmod
        if self.cited:
            out["cited"] = True
        if self.named_list:
            out["named_list"] = self.named_list
        return out


def features(signal: LinkSignal, term_weights: Sequence[float]) -> tuple[float, ...]:
    """The five features of a link under the current term weights (docs/DESIGN.md §8)."""
    return (
        mask_coverage(signal.anchor_mask, term_weights),
        mask_coverage(signal.locator_mask, term_weights),
        mask_coverage(signal.context_mask, term_weights),
        _parent_feature(signal.parent_relevance, signal.parent_is_hub, signal.cited),
        1.0 if signal.phrase else 0.0,
    )


#: Per-id numbers of a crawl: sibling credits by group (``SiblingCredit.credits``),
#: popularity by target (``Popularity.shares``) or family credits by target
#: (``NameFamilies.credits``); None: none. One link's score is better
#: served by ``explain_with`` and the link's own two floats (no array of every id).
Credits = npt.NDArray[np.float64] | None


def _lookup(index: int, values: Credits) -> float:
    if values is None or index < 0 or index >= len(values):
        return 0.0
    return float(values[index])


def sibling_credit(signal: LinkSignal, credits: Credits) -> float:
    """The credit of the link's sibling group under ``credits`` (0 outside any group)."""
    return _lookup(signal.group, credits)


def popularity(signal: LinkSignal, shares: Credits) -> float:
    """The target's share of the fetched pages that link to it (0 when unknown)."""
    return _lookup(signal.target, shares)


def family_credit(signal: LinkSignal, families: Credits) -> float:
    """The credit of the target's name family (``families.py``; 0 when unknown)."""
    return _lookup(signal.target, families)


def _raw(
    x: Sequence[float], weights: Sequence[float], credit: float, share: float, family: float,
    meaning: float,
) -> float:
    # left to right, like score_batch's column sums, so both give the same float (+ 0.0 of
    # a link without meaning leaves the sum as it is: it is never -0.0 here)
    total = 0.0
    for weight, value in zip(weights, x, strict=True):
        total += weight * value
    total += meaning
    total += SIBLING_WEIGHT * credit
    total += POPULARITY_WEIGHT * share
    total += FAMILY_WEIGHT * family
    return max(0.0, total)


def _shape(
    signal: LinkSignal,
    raw: float,
    portal_open: bool,
    english_query: bool,
    steps: list[ShapeStep] | None = None,
) -> float:
    """The shaped score of ``raw``; each applied step also goes into ``steps`` when given
    (``explain``), and nothing is built when not (``score_with``, the queue's hot path)."""
    value = raw
    if signal.dated:
        value *= DATED_FACTOR
        if steps is not None:
            steps.append(ShapeStep(ShapeRule.DATED, DATED_FACTOR, value))
    elif signal.furniture:
        value *= FURNITURE_FACTOR
        if steps is not None:
            steps.append(ShapeStep(ShapeRule.FURNITURE, FURNITURE_FACTOR, value))
    if english_query and portal_open and signal.portal:
        value = max(value, LANGUAGE_PORTAL_SCORE)
        if steps is not None:
            steps.append(ShapeStep(ShapeRule.LANGUAGE_PORTAL, LANGUAGE_PORTAL_SCORE, value))
    elif english_query and signal.other_language:
        value *= OTHER_LANGUAGE_FACTOR
        if steps is not None:
            steps.append(ShapeStep(ShapeRule.OTHER_LANGUAGE, OTHER_LANGUAGE_FACTOR, value))
    decay = DEPTH_DECAY**signal.depth
    value *= decay
    if steps is not None:
        steps.append(ShapeStep(ShapeRule.DEPTH, decay, value))
    return value


def explain(
    signal: LinkSignal,
    link_weights: Sequence[float],
    term_weights: Sequence[float],
    portal_open: bool,
    english_query: bool,
    credits: Credits = None,
    shares: Credits = None,
    families: Credits = None,
) -> LinkExplanation:
    """Every step of a link's score (docs/DESIGN.md §8); ``explain(...).score == score(...)``.

    The features are the link model's five, then the link's meaning when it has any, the
    sibling credit when the link is in a sibling group, and its popularity and its family's
    credit when it has a target id (none is learned: the meaning is weighted already, the
    others' weights are ``SIBLING_WEIGHT``, ``POPULARITY_WEIGHT`` and ``FAMILY_WEIGHT``).
    """
    return explain_with(signal, link_weights, term_weights, portal_open, english_query,
                        sibling_credit(signal, credits), popularity(signal, shares),
                        family_credit(signal, families))


def explain_with(
    signal: LinkSignal,
    link_weights: Sequence[float],
    term_weights: Sequence[float],
    portal_open: bool,
    english_query: bool,
    credit: float,
    share: float,
    family: float = 0.0,
    named_list: str = "",
) -> LinkExplanation:
    """``explain`` given the link's own sibling credit, popularity share and family credit,
    so one link is explained without building the arrays of every group and target
    (issue 15); ``named_list``: the title of its list when the query names it."""
    weights = as_features(link_weights, "link_weights")
    x = features(signal, term_weights)
    parts = tuple(
        FeatureContribution(name, value, weight, weight * value)
        for name, value, weight in zip(FEATURE_NAMES, x, weights, strict=True)
    )
    if signal.meaning:
        # weighted already (LinkMeaning's weight), so its own weight here is 1
        parts += (FeatureContribution(SCORE_TERM_NAMES[8], signal.meaning, 1.0,
                                      signal.meaning),)
    if signal.group >= 0:
        parts += (FeatureContribution(SCORE_TERM_NAMES[5], credit, SIBLING_WEIGHT,
                                      SIBLING_WEIGHT * credit),)
    if signal.target >= 0:
        parts += (FeatureContribution(SCORE_TERM_NAMES[6], share, POPULARITY_WEIGHT,
                                      POPULARITY_WEIGHT * share),
                  FeatureContribution(SCORE_TERM_NAMES[7], family, FAMILY_WEIGHT,
                                      FAMILY_WEIGHT * family))
    raw = _raw(x, weights, credit, share, family, signal.meaning)
    steps: list[ShapeStep] = []
    final = _shape(signal, raw, portal_open, english_query, steps)
    return LinkExplanation(parts, raw, tuple(steps), final, bool(signal.blind), signal.via,
                           signal.lastmod, signal.cited, named_list)


def score_with(
    signal: LinkSignal,
    link_weights: Sequence[float],
    term_weights: Sequence[float],
    portal_open: bool,
    english_query: bool,
    credit: float,
    share: float,
    family: float = 0.0,
) -> float:
    """``explain_with(...).score`` without building the explanation: the same floats by the
    same operations (a link offered or met again is scored, not explained; the explanation's
    objects were most of the cost of scoring one, issue 15)."""
    weights = as_features(link_weights, "link_weights")
    return _shape(signal, _raw(features(signal, term_weights), weights, credit, share, family,
                               signal.meaning),
                  portal_open, english_query)


def scorer(
    link_weights: Sequence[float],
    term_weights: Sequence[float],
    portal_open: bool,
    english_query: bool,
) -> Callable[[LinkSignal, float, float, float], float]:
    """``score_with`` under fixed weights, as a function of (signal, credit, share, family
    credit): the link weights are checked once, not on every call, and each term mask's
    coverage is computed once (by ``mask_coverage``) and remembered. The same floats by the
    same operations (issue 15: the session scores a page's links with one, while the weights
    do not move). The weights are read now: a scorer must not outlive them."""
    weights = as_features(link_weights, "link_weights")
    terms = list(term_weights)
    coverage: dict[int, float] = {}

    def cover(mask: int) -> float:
        value = coverage.get(mask)
        if value is None:
            value = coverage[mask] = mask_coverage(mask, terms)
        return value

    def score_one(signal: LinkSignal, credit: float, share: float, family: float = 0.0) -> float:
        # features(), off the packed row (its parent feature has the hub factor applied)
        anchor, locator, context, _, parent, _, _, meaning = signal.row
        x = (cover(anchor), cover(locator), cover(context), parent,
             1.0 if signal.phrase else 0.0)
        return _shape(signal, _raw(x, weights, credit, share, family, meaning), portal_open,
                      english_query)

    return score_one


def score(
    signal: LinkSignal,
    link_weights: Sequence[float],
    term_weights: Sequence[float],
    portal_open: bool,
    english_query: bool,
    credits: Credits = None,
    shares: Credits = None,
    families: Credits = None,
) -> float:
    """The link's score: raw = max(0, w·x + meaning + SIBLING_WEIGHT × credit +
    POPULARITY_WEIGHT × share + FAMILY_WEIGHT × family credit), shaped, × DEPTH_DECAY **
    depth (docs/DESIGN.md §8)."""
    return score_with(signal, link_weights, term_weights, portal_open, english_query,
                      sibling_credit(signal, credits), popularity(signal, shares),
                      family_credit(signal, families))
