"""When a queued link is still a lead worth a verdict's forgiveness (docs/DESIGN.md §11.10).

A stop verdict is forgiven while the best queued link looks like a link that has found an
on-topic page on this site (relevance ≥ ``MIN_RELEVANCE``, the link model's positive label,
docs/DESIGN.md §11.9): it scores at least the lowest score such a link had when it was fetched
("a link this weak has found something before"). The bar is the site's own evidence, so it
means the same on a site whose scores run high as on one whose scores run low; before any
link has led to an on-topic page there is no bar and a verdict stands.

The bar first counted only links to *relevant* pages (≥ ``EVIDENCE_RELEVANCE``): early in a
crawl that is one or two links, often the one to the site's table of contents, and every
queued link scored below it (SQLite ``obsolete`` stopped at page 8 at 0% recall). Counting the
links the link model itself calls successes, replayed over the 22 dev-set crawls: mean recall
at the own stop 0.61 → 0.69, median own stop ÷ pages-to-90% 0.90 → 1.11, own stops within 40
pages 11 → 8; the demo sites stop where they did but helpdesk, three steps later with the
same answers (docs/DECISIONS.md).

It replaces the rule "the head is not blind and beats the best blind link" (issue 11,
mechanism 6): with a section floor every early ``saturated`` stop had a blind floor link at
the head, so nothing could be forgiven; and a 0.068-score news link beat the blind ones and
kept a finished crawl running until its queue was empty.
"""

from __future__ import annotations

import bisect
from dataclasses import dataclass

__all__ = ["Lead", "LeadBar"]


@dataclass(frozen=True, slots=True)
class Lead:
    """The answer of the pending-lead check at one step, with its numbers.

    ``pending``: a verdict here is forgiven. ``why`` says it in words for the step record,
    whichever way it went.
    """

    pending: bool
    why: str


class LeadBar:
    """The scores, at fetch time, of the links whose pages proved on topic."""

    __slots__ = ("_scores",)

    def __init__(self) -> None:
        self._scores: list[float] = []  # sorted

    def __len__(self) -> int:
        return len(self._scores)

    def found_on_topic(self, score: float) -> None:
        """A link scoring ``score`` when it was fetched led to an on-topic page."""
        bisect.insort(self._scores, float(score))

    def bar(self) -> float | None:
        """The lowest of those scores, or None before the first on-topic page."""
        return self._scores[0] if self._scores else None

    def judge(self, head_score: float | None, head_url: str) -> Lead:
        """Is the best queued (not dry) link, scoring ``head_score``, a lead?"""
        bar = self.bar()
        if head_score is None:
            return Lead(False, "no link is queued outside dry subtrees")
        if bar is None:
            return Lead(False, "no link has led to an on-topic page yet, so no queued link "
                               "is a proven kind of lead")
        n = len(self._scores)
        if head_score > 0.0 and head_score >= bar:
            return Lead(True, f"the best queued link scores {head_score:.3g} ({head_url}), at "
                              f"least {bar:.3g}, the lowest score of the {n} links that "
                              "led to on-topic pages")
        return Lead(False, f"the best queued link scores {head_score:.3g} ({head_url}), below "
                           f"{bar:.3g}, the lowest score of the {n} links that led to "
                           "on-topic pages")
