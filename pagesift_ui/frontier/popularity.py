"""Topical popularity: how much of what the crawl read links to each target (docs/DESIGN.md
§8a). The backlink count of Cho, Garcia-Molina & Page (1998), each backlink weighted by its
page's relevance (Bharat & Henzinger 1998; Chakrabarti et al. 1999), with the plain backlink
share counted only as far as the site's popular pages proved relevant (hub trust). Evidence
about a link from the pages that link to it, as ``siblings.py`` is from the lists it is in.
"""

from __future__ import annotations

from array import array
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE

__all__ = ["POPULARITY_WEIGHT", "Popularity"]


#: Weight of a link's popularity in its raw score: that of the parent feature's prior (0.5),
#: the other evidence that comes from the pages that link to it (docs/DESIGN.md §8a).
POPULARITY_WEIGHT = 0.5


class Popularity:
    """How much of what the crawl read links to each target: its topical backlink share.

    Each fetched page counts with a weight, its relevance and at least ``MIN_RELEVANCE``
    (below that bar relevance is noise, and an off-topic page still says what the site
    links to), once per target it links to::

        share = Σ weight of the pages linking to it / (Σ weight of all pages read + mean weight)

    A page the whole site links to (a table of contents in the navigation bar) nears 1 as
    the crawl reads on, whatever the pages' relevance; a link found on one page fades as
    ``1 / (n + 1)`` among pages of equal weight (the mean weight is one pseudo-page). With
    every weight equal this is Cho, Garcia-Molina & Page's (1998) backlink count over the
    pages read, ``count / (pages + 1)``. Weighting each backlink by its page's relevance is
    the topic-specific form (Bharat & Henzinger 1998; Chakrabarti et al. 1999's distiller):
    a chapter page that its relevant entries all link up to rises above a target that only
    off-topic pages name, though both are linked from as many pages. On the dev sets the
    chapter page of a query's answers was what came late (pydocs ``persistence.html`` at
    page 94 while its six entries came by page 23; docs/DECISIONS.md, issue 11: "topical
    popularity").

    The share has two parts: the plain backlink share ``count / (pages + 1)`` (how much of
    the site links to the target: a hub, whatever the topic) and the topical excess over it
    (how much more the relevant pages link to it). A target in every page's navigation has
    no excess; whether its plain share is worth anything is a fact about the site: SQLite's
    navigation leads to ``docs.html``, whose sections are the answers, pydocs' to
    ``download``, ``genindex``, ``bugs`` and ``license``. So the plain part counts only as
    far as the site has borne it out, by ``hub_trust``::

        share = max(topical share − (1 − hub trust) × plain share, 0)

    Each fetched page is a trial of the plain share, weighted by its plain share at fetch
    beyond the one backlink every discovered page has, ``(count − 1) / (pages + 1)``, and a
    success when the page proved relevant (``EVIDENCE_RELEVANCE``); the trust is the
    weighted success rate with one pseudo-success, ``(1 + hits) / (1 + trials)``, so it
    starts at 1 (the share above) and falls as popular pages prove off-topic. Trust 0 would
    leave the topical excess alone (measured: it fixes pydocs and breaks SQLite, whose hub
    it delays; docs/DECISIONS.md, issue 11: "hub trust").
    """

    __slots__ = (
        "_counts", "_hub_hits", "_hub_trials", "_ids", "_linked_from", "_read", "_reading",
        "_sums", "_total", "_weight", "changed", "pages",
    )

    def __init__(self) -> None:
        self._ids: dict[str, int] = {}
        # Σ weight of the pages linking to each target, by id, grown by doubling: shares()
        # runs at every rescore, and converting a list of 100k sums each time was a third of
        # a rescore (issue 15)
        self._sums = np.zeros(64, dtype=np.float64)
        self._counts = np.zeros(64, dtype=np.float64)  # pages linking to each target, by id
        # Σ plain share beyond one backlink of the fetched pages at fetch, and of the relevant
        # ones among them (hub_trust)
        self._hub_trials = 0.0
        self._hub_hits = 0.0
        self._linked_from: dict[int, str] = {}  # target id → the last page counted for it
        self._weight = 1.0  # the weight of the page being read
        self._total = 0.0  # Σ weight of the pages read
        # per page read, in order: its key, relevance, trial of hub_trust (None: none) and
        # the targets it was counted for; what ``relabel`` counts again (issue 11, §12.3)
        self._read: list[_PageRead] = []
        self._reading = array("q")  # the targets of the page being read (its _PageRead's)
        #: Fetched pages whose links were counted.
        self.pages = 0
        #: True after a page was counted: every share moved, the queue must be rescored.
        self.changed = False

    def __len__(self) -> int:
        return len(self._ids)

    def page_read(self, relevance: float, key: str | None = None) -> None:
        """One more fetched page's links are being counted; ``relevance`` is the page's and
        ``key`` the target key it was linked by (None, or a key never linked, such as the
        seed's: the page is no trial of ``hub_trust``)."""
        if not 0.0 <= relevance <= 1.0:
            raise ValueError(f"relevance must be in [0, 1], got {relevance!r}")
        own = self._ids.get(key) if key is not None else None
        beyond_one: float | None = None
        if own is not None:
            # one backlink is what every discovered page has: only links beyond it say "hub"
            beyond_one = float(self._counts[own] - 1.0) / (self.pages + 1)
            self._hub_trials += beyond_one
            if relevance >= EVIDENCE_RELEVANCE:
                self._hub_hits += beyond_one
        self._weight = max(relevance, MIN_RELEVANCE)
        self._total += self._weight
        page = _PageRead(key, relevance, beyond_one)
        self._read.append(page)
        self._reading = page.targets
        self.pages += 1
        self.changed = True

    def linked(self, parent_key: str, target_key: str) -> int:
        """``parent_key`` (the page being read) links to ``target_key``: counted once per
        page, with the page's weight. Returns the target's id."""
        target = self._ids.get(target_key)
        if target is None:
            target = self._ids[target_key] = len(self._ids)
            if target == len(self._sums):
                self._sums = np.concatenate([self._sums, np.zeros_like(self._sums)])
                self._counts = np.concatenate([self._counts, np.zeros_like(self._counts)])
        if self._linked_from.get(target) != parent_key:
            self._linked_from[target] = parent_key
            self._sums[target] += self._weight
            self._counts[target] += 1.0
            self._reading.append(target)
        return target

    def relabel(self, relevances: Mapping[str, float]) -> bool:
        """The pages read, counted again with the relevance the user's labels give them
        (page key, as ``page_read`` took it → relevance; a key left out keeps its own): the
        weights of their backlinks and ``hub_trust``'s hits. Counted in the order read, so
        giving each page its own relevance restores every share exactly. True when a share
        moved (and ``changed`` is set: the queue must be rescored)."""
        for relevance in relevances.values():
            if not 0.0 <= relevance <= 1.0:
                raise ValueError(f"relevance must be in [0, 1], got {relevance!r}")
        before = (self._sums.copy(), self._total, self._hub_hits)
        self._sums[:] = 0.0
        self._total, self._hub_hits, self._hub_trials = 0.0, 0.0, 0.0
        for page in self._read:
            relevance = page.relevance
            if page.key is not None:
                relevance = relevances.get(page.key, relevance)
            if page.beyond_one is not None:
                self._hub_trials += page.beyond_one
                if relevance >= EVIDENCE_RELEVANCE:
                    self._hub_hits += page.beyond_one
            self._weight = max(relevance, MIN_RELEVANCE)
            self._total += self._weight
            if page.targets:
                self._sums[np.frombuffer(page.targets, dtype=np.int64)] += self._weight
        moved = (self._total != before[1] or self._hub_hits != before[2]
                 or not np.array_equal(self._sums, before[0]))
        self.changed = self.changed or moved
        return moved

    def _denominator(self) -> float:
        """Σ weight of the pages read plus their mean weight (1.0 before any page)."""
        return (self._total + self._total / self.pages) if self.pages else 1.0

    def hub_trust(self) -> float:
        """How far the plain backlink share still counts, in (0, 1]: the fetched pages'
        relevance rate weighted by their plain share beyond one backlink, with one
        pseudo-success, ``(1 + hits) / (1 + trials)`` (class docstring)."""
        return (1.0 + self._hub_hits) / (1.0 + self._hub_trials)

    def share(self, target: int) -> float:
        """The target's share (class docstring): its topical share less the distrusted part
        of its plain share, at least 0; 0 for -1."""
        if target < 0:
            return 0.0
        topical = float(self._sums[target]) / self._denominator()
        plain = float(self._counts[target]) / (self.pages + 1)
        return max(topical - (1.0 - self.hub_trust()) * plain, 0.0)

    def shares(self) -> npt.NDArray[np.float64]:
        """Every target's share, by id (the numbers ``share`` gives, the same floats)."""
        n = len(self._ids)
        topical = self._sums[:n] / self._denominator()
        plain = self._counts[:n] / (self.pages + 1)
        shares: npt.NDArray[np.float64] = np.maximum(
            topical - (1.0 - self.hub_trust()) * plain, 0.0)
        return shares


class _PageRead:
    """One page ``Popularity`` counted: what ``Popularity.relabel`` needs to count it again."""

    __slots__ = ("beyond_one", "key", "relevance", "targets")

    def __init__(self, key: str | None, relevance: float, beyond_one: float | None) -> None:
        self.key = key
        self.relevance = relevance
        self.beyond_one = beyond_one
        self.targets = array("q")  # target ids, each once, in the order counted
