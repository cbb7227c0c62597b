"""When a queued link is still a lead worth a verdict's forgiveness (docs/DESIGN.md §11.10).

A stop verdict is forgiven while the next links to fetch look like links that have found
on-topic pages on this site (relevance ≥ ``MIN_RELEVANCE``, the link model's positive label,
docs/DESIGN.md §11.9): the next ``LEAD_LINKS`` score, on average (``lead_score``), at least
the lowest score such a link had when it was fetched ("links this weak have found something
before"). The bar is the site's own evidence, so it
means the same on a site whose scores run high as on one whose scores run low; before any
link has led to an on-topic page there is no bar and a verdict stands.

The bar first counted only links to *relevant* pages (≥ ``EVIDENCE_RELEVANCE``): early in a
crawl that is one or two links, often the one to the site's table of contents, and every
queued link scored below it (SQLite ``obsolete`` stopped at page 8 at 0% recall). Counting the
links the link model itself calls successes, replayed over the 22 dev-set crawls: mean recall
at the own stop 0.61 → 0.69, median own stop ÷ pages-to-90% 0.90 → 1.11, own stops within 40
pages 11 → 8; the demo sites stop where they did but helpdesk, three steps later with the
same answers (docs/DECISIONS.md).

Once a verdict has fired, only links that found relevant pages join the bar (``LeadBar``:
each forgiven step fetches the head, and where most pages touch the query the bar followed
the head down and no verdict stood).

A ``coverage_reached`` verdict is judged against another bar (``LeadBar.covered_bar``): the
lowest fetch-time score of the links whose pages brought new evidence (the seed's
``last_fresh``). Every term has its evidence then, and what going on can still buy is more
of it: a link as weak as one that found a page that merely touches the query proves nothing
about that. Measured with ``run_all.py`` on the tuning sets: recall at own stop 0.938 either
way, the median stop ÷ pages-to-90% 1.85 → 1.48 (pydocs' ``concurrency`` stops at 47 pages
instead of its 200-page budget, with the same answers); held out, recall 0.705 → 0.703 and
1.44 either way. The university demo stops at 42 pages with 17 of its 18 answers instead of
70 with all: its last one is reached through a link that names no query word, weaker than
every link that brought evidence (docs/DECISIONS.md, issue 11: "Adopted: a covered query's
bar").

A ``saturated`` verdict while fewer than ``MIN_SOURCES`` pages have given evidence is
forgiven once, whatever the queue holds (``LeadBar.one_source_grace``): the seed asks two
sources before it calls a query covered, and gives a crawl that has found nothing
``COLD_PATIENCE`` × patience pages; a crawl with one source has barely found something, and
one page is too little to call the relevant part read. So such a verdict stands after
2 × patience stale pages, not patience (SQLite ``features`` stood at page 11 with 0% of its
answers, its one source ``features.html``, and reads all of them by page 44 once forgiven;
docs/DECISIONS.md, issue 11: "one source is not yet a find").

A ``saturated`` verdict while fewer than ``THIN_EVIDENCE_SHARE`` of the query's terms have
any evidence at all is forgiven whatever the queue holds (``thin_evidence``): "nothing new
comes" means the relevant part has been read, and a crawl that has seen one or two of its
query's words has not found that part yet. On sites whose pages are named by the words a
query must do without, the crawls stood at such verdicts at pages 9–45 with almost none of
their answers, where crawling on finds most of them (docs/DECISIONS.md, issue 11: "thin
evidence is not saturation").

A verdict is also forgiven while relevant pages still come (``LeadBar.still_finding``):
the last ``patience`` pages read (the seed's own window, ``AdaptiveOptions.patience``) hold
a relevant page (≥ ``EVIDENCE_RELEVANCE``), and at least as large a share of them as of
every page read so far. The seed's verdicts count pages with no *new* evidence block; on a
topic whose answers repeat each other's words (a chapter's pages, each naming what the
chapter page already said) answers keep coming as "stale" pages, and the lead bars, read
off the ranking's own scores, may not see it. The test reads no score, only the crawl's own
rate of relevant pages, so it means the same however the ranking scales its links.
Measured with ``run_all.py`` on all 93 dev queries: recall at the own stop 0.949 → 0.955 on
the tuning sets and 0.706 → 0.720 held out, the median own stop ÷ pages-to-90% unchanged
on both (1.52, 1.45); 9 of the 93 crawls stop later, 4 of them with more answers (SQLite
``overview`` 75% → 88%, PostgreSQL ``extend`` 0% → 74%; docs/DECISIONS.md, issue 11:
"relevant pages still coming").

It replaces the rule "the head is not blind and beats the best blind link" (issue 11,
mechanism 6): with a section floor every early ``saturated`` stop had a blind floor link at
the head, so nothing could be forgiven; and a 0.068-score news link beat the blind ones and
kept a finished crawl running until its queue was empty.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pagesift_ui.frontier.adaptive import (
    COLD_PATIENCE,
    EVIDENCE_RELEVANCE,
    MIN_RELEVANCE,
    MIN_SOURCES,
    StopReason,
)

__all__ = ["LEAD_LINKS", "THIN_EVIDENCE_SHARE", "Lead", "LeadBar", "lead_score",
           "thin_evidence"]

#: A lead is judged by the next this many links the crawl would fetch, by their mean score
#: (``lead_score``). A verdict says the last ``patience`` pages brought nothing new; a lead
#: that forgives it bets that the next pages will, and one strong link at the head of a
#: queue of weak ones is one page, not a run of them. Five is the seed's default patience
#: (``AdaptiveOptions.patience``), the run the verdict was made of; a constant, not the
#: crawl's patience, so a what-if replay with another patience judges the same number.
#: Measured with the best of a link's offers (``offers.py``), on all 93 dev queries: the
#: median own stop ÷ pages-to-90% 1.60 → 1.47 on the tuning sets with recall at the own stop
#: 0.933 either way; held out 1.25 → 1.23, recall 0.719 → 0.710. Judged by the head alone,
#: a difference in the fourth decimal of one score decided whole crawls (docs/DECISIONS.md,
#: issue 11: "Adopted: a queued link at the best of its offers now, and the lead judged by
#: the next five links").
LEAD_LINKS = 5


def lead_score(scores: Sequence[float]) -> float:
    """The score a lead is judged by: the mean of the first ``LEAD_LINKS`` of ``scores`` (the
    next links to fetch, in pop order), a link the queue does not have counting 0.

    >>> lead_score([1.0, 0.5, 0.5, 0.25, 0.25, 0.9])
    0.5
    >>> lead_score([0.5])
    0.1
    """
    return sum(float(score) for score in scores[:LEAD_LINKS]) / LEAD_LINKS

#: A ``saturated`` verdict stands only once at least this share of the query's terms has
#: some evidence (``thin_evidence``). Three quarters: a query worded as a person words it
#: names a few things a site may say otherwise, and most of what it names (docs/DECISIONS.md,
#: issue 11: "thin evidence is not saturation", where the other shares are measured too).
THIN_EVIDENCE_SHARE = 0.75


@dataclass(frozen=True, slots=True)
class Lead:
    """The answer of the pending-lead check at one step, with its numbers.

    ``pending``: a verdict here is forgiven. ``why`` says it in words for the step record,
    whichever way it went. ``head``: the score judged, ``lead_score`` (None: no link queued),
    kept in the record so a replay with other stop options can judge it again against its
    own bar (``session/whatif.py``).
    """

    pending: bool
    why: str
    head: float | None = None


class LeadBar:
    """The scores, at fetch time, of the links whose pages brought new evidence (the bar
    every verdict is judged by, ``new_evidence``, the default), and of the links whose pages
    proved on topic: before the crawl's first stop verdict, a page at or above
    ``MIN_RELEVANCE``; from that verdict on, one at or above ``EVIDENCE_RELEVANCE`` (the bar
    of a verdict other than ``coverage_reached`` with ``new_evidence`` off, the rule before).

    Why one bar of new evidence for every verdict: a verdict says nothing new has come, so
    only a link as strong as one that brought something new is a lead to more; the runs of
    answers that repeat what was read, which the on-topic bar carried, are forgiven by their
    own rule now (``still_finding``). Measured with ``run_all.py`` on all 93 dev queries
    (with relevant pages still coming in place): recall at the own stop 0.955 → 0.932 on the
    tuning sets and 0.720 → 0.709 held out, the median own stop ÷ pages-to-90% 1.52 → 1.42
    and 1.45 → 1.32, pages at the own stop −9% on both (docs/DECISIONS.md, issue 11: "one
    bar for every verdict").

    Why the on-topic bar asks more once a verdict has fired: from then on every forgiven
    step fetches the head, and on a site whose pages nearly all touch the query (pydocs: most
    pages are at 0.05–0.15 on any query) the head's page is on topic more often than not, so
    the bar followed the head down and no verdict ever stood (7 of pydocs' 12 dev queries ran
    to the 200-page budget with 90% of their answers found by page 14–52). Before the first
    verdict the on-topic links are the evidence there is (the link model's positive label,
    §11.9); after it, only a link that found a relevant page shows that links this weak
    still lead to answers (docs/DECISIONS.md, issue 11: "the lead bar after the first
    verdict").
    """

    __slots__ = ("_count", "_fresh_count", "_graced", "_judged", "_lowest", "_lowest_fresh",
                 "_read", "_read_relevant", "finding", "new_evidence", "patience", "thin")

    def __init__(
        self, new_evidence: bool = True, *, thin: bool = False, finding: bool = False,
        patience: int = 0,
    ) -> None:
        for name, value in (("new_evidence", new_evidence), ("thin", thin),
                            ("finding", finding)):
            if not isinstance(value, bool):
                raise ValueError(f"{name} must be true or false, got {value!r}")
        if isinstance(patience, bool) or not isinstance(patience, int) or patience < 0:
            raise ValueError(f"patience must be a non-negative integer, got {patience!r}")
        if finding and patience < 1:
            raise ValueError("relevant pages still coming (finding) reads the last patience "
                             "pages: give the crawl's patience (>= 1)")
        #: every verdict is judged by the links that brought new evidence (else only a
        #: ``coverage_reached`` one, the others by the on-topic bar)
        self.new_evidence = new_evidence
        #: ``grace`` forgives a ``saturated`` verdict on thin evidence (``thin_evidence``)
        self.thin = thin
        #: ``grace`` forgives any verdict while relevant pages still come
        #: (``still_finding`` over the last ``patience`` pages: the crawl's own,
        #: ``AdaptiveOptions.patience``)
        self.finding = finding
        self.patience = patience
        # only the lowest score is ever read, and the count for the words (the what-if
        # replay feeds every record through ``found``)
        self._lowest: float | None = None
        self._count = 0
        # the same of the links whose pages brought new evidence (the seed's last_fresh):
        # the bar of a covered query's verdict (``judge``)
        self._lowest_fresh: float | None = None
        self._fresh_count = 0
        self._judged = False  # a stop verdict has fired (any fate)
        self._graced = False  # the one-source grace was given
        # per page read, in order: 1 if it read as relevant (``still_finding``); a byte a
        # page, so a million-page crawl keeps a megabyte
        self._read = bytearray()
        self._read_relevant = 0

    def __len__(self) -> int:
        return self._count

    def emptied(self) -> LeadBar:
        """A bar with this one's switches and no page read, for a replay of the crawl's
        pages under the user's labels (``session/relabel.py``). The one-source grace stays
        given if it was: it forgave a verdict of the crawl's past, which a label does not
        undo."""
        bar = LeadBar(self.new_evidence, thin=self.thin, finding=self.finding,
                      patience=self.patience)
        bar._graced = self._graced
        return bar

    @property
    def judged(self) -> bool:
        """A stop verdict has fired in this crawl, forgiven or not."""
        return self._judged

    def found(self, score: float, relevance: float, fresh: bool = False) -> None:
        """A link scoring ``score`` when it was fetched led to a page of ``relevance``: it
        joins the bar if that page counts as a find (class docstring), and the covered
        query's bar if the page brought new evidence (``fresh``: the seed's last_fresh)."""
        score = float(score)
        if relevance >= (EVIDENCE_RELEVANCE if self._judged else MIN_RELEVANCE):
            self._lowest = score if self._lowest is None else min(self._lowest, score)
            self._count += 1
        if fresh:
            self._lowest_fresh = (score if self._lowest_fresh is None
                                  else min(self._lowest_fresh, score))
            self._fresh_count += 1

    def page(self, relevance: float, link_score: float | None, fresh: bool) -> None:
        """A page the stop rules observed: counted for ``still_finding`` (``read``), and the
        link that led to it, scoring ``link_score`` when it was fetched (None: the seed, a
        sitemap's URL), offered to the bars (``found``). The crawl, the what-if replay and
        a relabel's replay feed pages through this one method, so none feeds them otherwise
        (a relabel that fed none of them left a labelled page in the bar)."""
        self.read(relevance)
        if link_score is not None:
            self.found(link_score, relevance, fresh)

    def read(self, relevance: float) -> None:
        """A page the stop rules observed (the seed included) read as ``relevance``: counted
        for ``still_finding``."""
        relevant = relevance >= EVIDENCE_RELEVANCE
        self._read.append(relevant)
        self._read_relevant += relevant

    def still_finding(self, patience: int) -> str:
        """Why a verdict that no lead forgives is forgiven all the same because relevant
        pages still come, or "": of the last ``patience`` pages read at least one, and at
        least as large a share as of all the pages read so far, read as relevant (module
        docstring). Fewer than ``patience`` pages read: "" (no window yet)."""
        if isinstance(patience, bool) or not isinstance(patience, int) or patience < 1:
            raise ValueError(f"patience must be an integer >= 1, got {patience!r}")
        pages = len(self._read)
        if pages < patience:
            return ""
        recent = sum(self._read[-patience:])
        if not recent or recent * pages < self._read_relevant * patience:
            return ""
        return (f"{recent} of the last {patience} pages read as relevant (≥ "
                f"{EVIDENCE_RELEVANCE:g}), at least the crawl's share so far "
                f"({self._read_relevant} of {pages}): answers still come though they add no "
                "new evidence, so this verdict is forgiven")

    def verdict_fired(self) -> None:
        """A stop verdict fired at this step (after this step's own ``found``)."""
        self._judged = True

    def one_source_grace(self, reason: StopReason, sources: int) -> str:
        """Why a verdict that no lead forgives is forgiven all the same, or "": the first
        ``saturated`` verdict while fewer than ``MIN_SOURCES`` pages gave evidence (module
        docstring). Asked only of a verdict that stands otherwise; the grace is given once."""
        if self._graced or reason is not StopReason.SATURATED or sources >= MIN_SOURCES:
            return ""
        self._graced = True
        return (f"only {sources} page has given evidence so far, too little to call the "
                f"relevant part read: with one source the crawl waits {COLD_PATIENCE} × "
                "patience pages with nothing new, as it waits for a first find, so this "
                "verdict is forgiven once")

    def grace(self, reason: StopReason, sources: int, evidence: Sequence[int]) -> str:
        """Why a verdict that no lead forgives is forgiven all the same, or "": the
        one-source grace (once), else thin evidence (``thin_evidence``) when the bar was made
        with ``thin``, else relevant pages still coming (``still_finding`` over its
        ``patience`` pages) when made with ``finding``. The crawl
        (``session/stepping.judge``) and the what-if replay ask this one method, each of a
        bar made with its own options."""
        return self.one_source_grace(reason, sources) or (
            thin_evidence(reason, evidence) if self.thin else "") or (
            self.still_finding(self.patience) if self.finding else "")

    def bar(self) -> float | None:
        """The lowest of those scores, or None before the first on-topic page."""
        return self._lowest

    def judge(
        self, head_score: float | None, head_url: str, reason: StopReason | None = None
    ) -> Lead:
        """Are the next links to fetch (not dry), scoring ``head_score`` on average
        (``lead_score``; ``head_url`` the first of them), a lead? The bar is that
        of the links that brought new evidence (``covered_bar``) for every verdict with
        ``new_evidence`` (and at a step with no verdict, ``reason`` None), else for a
        ``coverage_reached`` one only: every term has its evidence, and only more of it is
        worth going on for (docs/DESIGN.md §11.10)."""
        if head_score is None:
            return Lead(False, "no link is queued outside dry subtrees")
        covered = reason is StopReason.COVERAGE_REACHED
        by_new_evidence = covered or self.new_evidence
        bar = self.covered_bar() if by_new_evidence else self.bar()
        if bar is None:
            if covered:
                return Lead(False, "the query is covered and no link has led to a page with "
                                   "new evidence yet, so no queued link is a proven lead to "
                                   "more", head_score)
            if by_new_evidence:
                return Lead(False, "no link has led to a page with new evidence yet, so no "
                                   "queued link is a proven lead to more", head_score)
            return Lead(False, "no link has led to an on-topic page yet, so no queued link "
                               "is a proven kind of lead", head_score)
        found = self._what_found(by_new_evidence)
        head = (f"{'the query is covered; ' if covered else ''}the next {LEAD_LINKS} links "
                f"to fetch score {head_score:.3g} on average (the first: {head_url})")
        if head_score > 0.0 and head_score >= bar:
            return Lead(True, f"{head}, at least {bar:.3g}, the lowest score of {found}",
                        head_score)
        return Lead(False, f"{head}, below {bar:.3g}, the lowest score of {found}", head_score)

    def covered_bar(self) -> float | None:
        """The lowest fetch-time score of the links whose pages brought new evidence (None
        before the first)."""
        return self._lowest_fresh

    def _what_found(self, by_new_evidence: bool) -> str:
        if by_new_evidence:
            return f"the {self._fresh_count} links that led to pages with new evidence"
        n = self._count
        if not self._judged:
            return f"the {n} links that led to on-topic pages"
        return (f"the {n} links that led to on-topic pages before the first verdict or to "
                "relevant pages since")


def thin_evidence(
    reason: StopReason, evidence: Sequence[int], share: float = THIN_EVIDENCE_SHARE
) -> str:
    """Why a ``saturated`` verdict is forgiven because fewer than ``share`` of the query's
    terms have any evidence (module docstring), or "" when it is not such a verdict.
    ``share`` is the crawler's ``THIN_EVIDENCE_SHARE``; benchmarks/replay_stops.py replays
    others."""
    seen = sum(1 for count in evidence if count > 0)
    if reason is not StopReason.SATURATED or not evidence or seen >= share * len(evidence):
        return ""
    return (f"only {seen} of the query's {len(evidence)} terms have any evidence, under "
            f"{share:.0%}: nothing new on a topic barely found does not say the relevant "
            "part is read, so this verdict is forgiven")
