"""The focus of a crawl: the query with everything learned about it on this site.

``Focus`` ties together the term weights (docs/DESIGN.md §6), the facet statistics of page relevance
(§7), the link model (§3) and the language-portal state of the link score (§8), so the crawl
loop talks to one object: it turns a page into a ``PageSignal`` and observes it, reads links
into ``LinkSignal``s and scores them, learns from the relevance of each fetched link's page and
asks whether the queue needs rescoring (docs/DESIGN.md §11.6 and §11.9).
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable, Iterable, Sequence

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier import linkbatch, links
from pagesift_ui.frontier.families import NameFamilies
from pagesift_ui.frontier.language import DETECT_CHARS, Language, page_language
from pagesift_ui.frontier.linkbatch import LinkColumns
from pagesift_ui.frontier.linkrules import is_english_section, markdown_text
from pagesift_ui.frontier.links import LinkExplanation, LinkSignal
from pagesift_ui.frontier.meaning import LinkMeaning, Meaning
from pagesift_ui.frontier.model import PRIOR_WEIGHTS, LinkModel
from pagesift_ui.frontier.popularity import Popularity
from pagesift_ui.frontier.prequential import logistic
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.queue_values import RowScores
from pagesift_ui.frontier.relevance import (
    FacetStats,
    PageSignal,
    RelevanceExplanation,
    page_signal,
)
from pagesift_ui.frontier.siblings import NO_GROUP, SiblingCredit, title_named
from pagesift_ui.frontier.stats import Z1
from pagesift_ui.frontier.weights import TermWeights

__all__ = ["Focus", "markdown_language"]

logger = logging.getLogger(__name__)


def markdown_language(declared: str, markdown: str, fallback: Language) -> Language:
    """The language a page with this ``<html lang>`` and ``markdown`` is read in
    (``language.page_language`` on the words a reader sees: link URLs are not page text).

    A replay of a session finds each page's language again from its record with this.
    """
    if not isinstance(declared, str) or not isinstance(markdown, str):
        raise ValueError("declared and markdown must be strings")
    # a declared language needs no look at the text (the common case); detection reads only
    # the first DETECT_CHARS, so the rest of a long page is not rendered for it (a link cut
    # at the end may leave its URL words in: one link's worth)
    text = "" if declared.strip() else markdown_text(markdown[:DETECT_CHARS])
    return page_language(declared, text, fallback)


def _is_english(lang: str) -> bool:
    return lang.strip().lower().startswith("en")


class Focus:
    """The query and what the crawl has learned about it so far.

    Parameters
    ----------
    query : Query
        The parsed query.
    prior : sequence of 5 floats
        Prior mean of the link-model weights (default: the upstream fixed weights).
    z : float
        Quantile of the link model's "significantly moved" rule (default ``Z1``).
    meaning : Meaning, optional
        Reads English pages by meaning as well (``frontier/meaning.py``): their relevance is
        fused with their meaning's lift. None: lexical relevance only.
    link_meaning : LinkMeaning, optional
        Reads the links of English pages by meaning as well: a link's anchor and list title,
        lifted by their meaning, add to its raw score (docs/DESIGN.md §8.2). None: words only.
    """

    __slots__ = (
        "_english_found",
        "_model_changed",
        "_seed_lang",
        "english_query",
        "facets",
        "families",
        "link_meaning",
        "meaning",
        "model",
        "popularity",
        "query",
        "siblings",
        "term_weights",
    )

    def __init__(
        self,
        query: Query,
        prior: Sequence[float] = PRIOR_WEIGHTS,
        z: float = Z1,
        meaning: Meaning | None = None,
        link_meaning: LinkMeaning | None = None,
    ) -> None:
        if not isinstance(query, Query):
            raise ValueError(f"query must be a Query, got {type(query).__name__}")
        if meaning is not None and not isinstance(meaning, Meaning):
            raise ValueError(f"meaning must be a Meaning or None, got {type(meaning).__name__}")
        if link_meaning is not None and not isinstance(link_meaning, LinkMeaning):
            raise ValueError(f"link_meaning must be a LinkMeaning or None, got "
                             f"{type(link_meaning).__name__}")
        self.query = query
        self.term_weights = TermWeights(len(query))
        self.facets = FacetStats(query)
        self.model = LinkModel(prior, z)
        self.siblings = SiblingCredit()
        self.popularity = Popularity()
        self.families = NameFamilies()
        #: The query is English when it is read in English and all its terms are ASCII
        #: (docs/DESIGN.md §8 language portal, §1.1): a German query is not.
        self.english_query = query.language is Language.ENGLISH and all(
            term.isascii() for term in query.terms
        )
        #: The words of the meaning table are English: a query read in another language is
        #: read lexically only, and so is a page read in another language (page_signal).
        self.meaning = meaning if meaning is not None and self.english_query else None
        self.link_meaning = link_meaning if self.english_query else None
        self._seed_lang: str | None = None  # lang of the first observed page, the seed
        self._english_found = False
        self._model_changed = False

    # ------------------------------------------------------------------ pages

    def page_language(self, declared: str, markdown: str) -> Language:
        """The language a fetched page is read in (docs/DESIGN.md §1.1): its declared
        ``<html lang>`` when supported, else the one detected from the words a reader sees
        of its ``markdown``, else the query's (``markdown_language``)."""
        return markdown_language(declared, markdown, self.query.language)

    def page_signal(
        self,
        url: str,
        title: str,
        headings: Sequence[str],
        body_text: str,
        language: Language | None = None,
    ) -> PageSignal:
        """What a fetched page, read in ``language`` (None: the query's), says about the
        query's units (docs/DESIGN.md §7) and, read in English with a ``meaning``, its cosine
        with the query by meaning (§7a)."""
        meaning = self.meaning
        cosine = None
        if meaning is not None and (language or self.query.language) is Language.ENGLISH:
            cosine = meaning.cosine(title, headings, body_text)
        return page_signal(self.query, url, title, headings, body_text, language, cosine)

    def named_titles(
        self, titles: Sequence[str], language: Language | None = None
    ) -> dict[int, str]:
        """Block index → title, for the list titles of a page (``list_blocks_titled``) that
        the query names in full, read in ``language`` (``siblings.title_named``)."""
        return {block: title for block, title in enumerate(titles)
                if title and title_named(self.query, title, language)}

    def observe_page(self, signal: PageSignal, lang: str = "") -> None:
        """Count a fetched page in the term weights and facet statistics (every fetched page).

        ``lang`` is the page's declared language ("de", "en-GB", "" when unknown). The first
        observed page is the seed: a non-English seed under an English query opens the
        language portal, until an English page under a portal path (``/en/…``, ``en.`` host)
        is fetched.
        """
        if not isinstance(lang, str):
            raise ValueError(f"lang must be a string, got {type(lang).__name__}")
        self.facets.observe(signal)
        self.term_weights.observe(signal.body_mask)
        if signal.cosine is not None and self.meaning is not None:
            self.meaning.observe(signal.cosine)
        if self._seed_lang is None:
            self._seed_lang = lang.strip().lower()
        elif _is_english(lang) and is_english_section(signal.url):
            if self.portal_open:
                logger.info("English home found at %s: language portal closed", signal.url)
            self._english_found = True

    @property
    def portal_open(self) -> bool:
        """English query, non-English seed, no English home fetched yet (docs/DESIGN.md §8).

        A seed of unknown language (``lang=""``) does not open the portal [ours]: most pages
        without a declared language are in the language of their query.
        """
        seed = self._seed_lang
        return (
            self.english_query
            and bool(seed)
            and not _is_english(seed or "")
            and not self._english_found
        )

    def relevance(self, signal: PageSignal) -> float:
        """A page's relevance under the current site statistics, in [0, 1]."""
        return self.explain_relevance(signal).relevance

    def explain_relevance(self, signal: PageSignal) -> RelevanceExplanation:
        """Facet relevance (§7), fused with the page's meaning when it was read for it
        (§7a): 1 − (1 − lexical)(1 − lift), so meaning raises a page the query's words
        missed and never lowers one they found."""
        explanation = self.facets.explain_relevance(signal)
        if signal.cosine is None or self.meaning is None:
            return explanation
        lift = self.meaning.lift(signal.cosine, explanation.relevance)
        if lift is None:
            return explanation
        fused = 1.0 - (1.0 - explanation.relevance) * (1.0 - lift.lift)
        return dataclasses.replace(explanation, relevance=fused, meaning=lift)

    @staticmethod
    def is_hub(word_count: int, link_count: int) -> bool:
        """A hub page has fewer prose words than links [ours] (docs/DESIGN.md §8 ``HUB_FACTOR``)."""
        for name, value in (("word_count", word_count), ("link_count", link_count)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        return word_count < link_count

    # ------------------------------------------------------------------ links

    def link_signal(
        self,
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
        """Read one link of a fetched page, read in ``language``, into its signal
        (docs/DESIGN.md §8); ``cited``: it sits in the page's running text; ``parent``: the
        page's key; ``meaning``: its lift by meaning (``link_lifts``)."""
        return links.link_signal(
            self.query, url, anchor, context, depth, parent_relevance, parent_is_hub, seed_host,
            group, target, language, cited, parent, meaning,
        )

    def link_lifts(
        self, texts: Iterable[str], language: Language | None = None
    ) -> dict[str, float]:
        """The lifts by meaning of one page's link texts (``linkrules.anchor_and_title``),
        for a page read in English (None: the query's language) with a ``link_meaning``; a
        text absent from the answer has none (docs/DESIGN.md §8.2). ``texts`` is not read
        when links are not read by meaning."""
        reader = self.link_meaning
        if reader is None or (language or self.query.language) is not Language.ENGLISH:
            return {}
        return reader.read_page(texts)

    def score(self, link_signal: LinkSignal) -> float:
        """The link's score under the current model and term weights (``explain``'s)."""
        return links.score_with(
            link_signal,
            self.model.weights,
            self.term_weights.weights,
            self.portal_open,
            self.english_query,
            self.siblings.credit(link_signal.group),
            self.popularity.share(link_signal.target),
            self.families.credit(link_signal.target),
        )

    def link_scorer(self) -> Callable[[LinkSignal], float]:
        """``score`` with the model's and the term weights and the portal read once
        (``links.scorer``): for the links of one page, between which none of them moves.
        The sibling credit, popularity and the family credit, which do move, are read per
        link."""
        score_one = links.scorer(self.model.weights, self.term_weights.weights,
                                 self.portal_open, self.english_query)
        credit, share, family = self.siblings.credit, self.popularity.share, self.families.credit
        return lambda signal: score_one(signal, credit(signal.group), share(signal.target),
                                        family(signal.target))

    def score_batch(
        self,
        signals: Sequence[LinkSignal] | LinkColumns,
        weights: Sequence[float] | None = None,
    ) -> npt.NDArray[np.float64]:
        """``score`` of many links at once (the same numbers), for rescoring the queue;
        ``weights`` replaces the model's weights in use (a posterior draw, ``thompson.py``)."""
        return linkbatch.score_batch(
            signals,
            self.model.weights if weights is None else weights,
            self.term_weights.weights,
            self.portal_open,
            self.english_query,
            self.siblings.credits(),
            self.popularity.shares(),
            self.families.credits(len(self.popularity)),
        )

    def score_queued(
        self, columns: LinkColumns, sums: linkbatch.PartialSums,
        weights: Sequence[float] | None = None, moved: linkbatch.MovedRows | None = None,
    ) -> npt.NDArray[np.float64] | RowScores:
        """``score_batch`` of a queue's columns, made again only where their inputs moved
        since ``sums`` (``linkbatch.score_queued``): every row's score, or the rows' that
        moved."""
        return linkbatch.score_queued(
            columns,
            sums,
            self.model.weights if weights is None else weights,
            self.term_weights.weights,
            self.portal_open,
            self.english_query,
            self.siblings.credits(),
            self.popularity.shares(),
            moved,
            self.families.credits(len(self.popularity)),
        )

    def explain(
        self, link_signal: LinkSignal, weights: Sequence[float] | None = None
    ) -> LinkExplanation:
        """Every step of the link's score now (under ``weights`` instead of the model's
        weights in use, when given)."""
        # the link's own credit and share: the arrays of every group and target cost
        # O(queue) per link offered (issue 15); Popularity.share, SiblingCredit.credit and
        # NameFamilies.credit give the floats shares() and the credits() hold
        return links.explain_with(
            link_signal,
            self.model.weights if weights is None else weights,
            self.term_weights.weights,
            self.portal_open,
            self.english_query,
            self.siblings.credit(link_signal.group),
            self.popularity.share(link_signal.target),
            self.families.credit(link_signal.target),
            self.siblings.named(link_signal.group),
        )

    def predict(self, link_signal: LinkSignal) -> tuple[float, float]:
        """Prequential predictions for a fetched link, before ``learn`` sees its label:
        P(relevant) under the model now and under the prior-only model (prior weights,
        intercept 0), both with the features ``learn`` would take (``prequential.py``)."""
        x = links.features(link_signal, self.term_weights.weights)
        prior_logit = sum(w * xi for w, xi in zip(self.model.prior, x, strict=True))
        return self.model.predict(x), logistic(prior_logit)

    def learn(self, link_signal: LinkSignal, hit: bool) -> bool:
        """Teach the link model one fetched link: was its page relevant (docs/DESIGN.md §3, §11.9)?

        The features are taken under the current term weights. Returns True when the weights
        in use changed: the queue must be rescored (``needs_rescore`` also reports it).
        """
        x = links.features(link_signal, self.term_weights.weights)
        changed = self.model.observe(x, bool(hit))
        if changed:
            logger.debug("link weights changed to %s", self.model.weights)
            self._model_changed = True
        return changed

    def needs_rescore(self) -> bool:
        """The queued scores are stale: the link weights changed since the last rescoring,
        the term weights moved by ≥ ``RESCORE_DELTA``, a sibling group's or a name family's
        credit moved or a page's links were counted for popularity.
        True means "rescore now"; asking again without a change returns False.
        """
        # moved() first and always: it records the weights it reports as moved
        weights_moved = self.term_weights.moved()
        changed = (self._model_changed or weights_moved or self.siblings.changed
                   or self.popularity.changed or self.families.changed)
        self._model_changed = self.siblings.changed = self.popularity.changed = False
        self.families.changed = False
        return changed
