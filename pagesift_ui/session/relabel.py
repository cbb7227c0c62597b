"""What a relabel does to a session's state, and its account of it (docs/DESIGN.md §12.3).

A user's label replaces the crawler's verdict on a page in every statistic that used it:

- the link model is rebuilt from the prior by replaying, in order, every link it learned
  from (``Sample``) with the label substituted: the seed-exact update rule, run again;
- the stop rules' state (evidence, coverage, the stale and cold counters) and both harvests
  (the page's freshness per subtree and cluster) are replayed from the step records by
  ``session/rules.py`` with the labelled relevance, and so are the bars a verdict's
  pending lead is judged by (§11.10: the links that led to new evidence or on-topic pages,
  and the rate of relevant pages read);
- what the pages proved about the links still queued (docs/DESIGN.md §8, §8a) is counted
  again with the labelled relevance and freshness: the sibling credit of every list a page
  is in and of its name family, the topical popularity of every target it links to, and
  the parent feature of the queued links read on it; then the queue is rescored, so a page
  the user calls relevant lifts its siblings and its links as the crawler's own verdict
  would have;
- the relevant-page count reads the labels directly.

Replaying instead of adjusting keeps every number what the seed code would have produced
had the label been known, so undoing a label restores the state exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE
from pagesift_ui.frontier.leads import LeadBar
from pagesift_ui.frontier.links import relinked
from pagesift_ui.frontier.model import FEATURE_NAMES, LinkModel
from pagesift_ui.frontier.siblings import sibling_evidence
from pagesift_ui.frontier.urls import clean, dedupe_key
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.record import Override, StepRecord, SubtreeState
from pagesift_ui.session.rules import labelled_relevance, observed, replay_rules, rules_relevance
from pagesift_ui.session.state import FrontierState, part_state, signal_of

__all__ = [
    "LabelState",
    "Relabelled",
    "Sample",
    "account",
    "apply_labels",
    "label_state",
    "rebuild_model",
    "replay_leads",
]


@dataclass(frozen=True, slots=True)
class Sample:
    """One link the link model learned from: the URL of the page it led to, the link's
    features as they were taken then, and that page's relevance (the crawler's label is
    relevance ≥ ``MIN_RELEVANCE``)."""

    url: str
    features: tuple[float, ...]
    relevance: float


def rebuild_model(
    model: LinkModel, samples: Sequence[Sample], labels: Mapping[str, bool]
) -> LinkModel:
    """A model with ``model``'s prior and z that learned ``samples`` in order, each labelled
    by the user where ``labels`` says so (docs/DESIGN.md §3's update, replayed)."""
    rebuilt = LinkModel(model.prior, model.z)
    for sample in samples:
        relevance = labelled_relevance(sample.relevance, labels.get(sample.url))
        rebuilt.observe(sample.features, relevance >= MIN_RELEVANCE)
    return rebuilt


@dataclass(frozen=True, slots=True)
class Relabelled:
    """What ``apply_labels`` did: each observed step's freshness under the labels, and what
    moved in the queue's inputs."""

    fresh: Mapping[int, bool]
    weights_switched: bool  # the link weights in use switched
    credits_moved: bool  # a sibling group's credit moved
    shares_moved: bool  # a target's popularity share moved
    families_moved: bool  # a name family's credit moved
    parents_moved: int  # queued links whose parent feature took a label
    rescored: bool  # the queue was rescored


def apply_labels(
    state: FrontierState,
    config: CrawlConfig,
    steps: Sequence[StepRecord],
    overrides: Sequence[Override],
    samples: Sequence[Sample],
    labels: Mapping[str, bool],
) -> Relabelled:
    """Swap the rebuilt link model, stop rules and harvests into ``state``, count the pages'
    evidence about the queued links again under ``labels``, and rescore the queue if any of
    it moved."""
    replayed = replay_rules(config, steps, overrides, labels)
    state.adaptive = replayed.adaptive
    state.leads = replay_leads(state.leads, steps, labels, replayed.fresh)
    state.subtrees = replayed.subtrees
    state.clusters = replayed.clusters
    focus = state.focus
    weights = focus.model.weights
    focus.model = rebuild_model(focus.model, samples, labels)
    # what each page proves under the labels, keyed as the crawl keyed it (docs/DESIGN.md
    # §8a): its lists' credit under the key of the link that led to it (the queue's key of
    # the record's ``url``), its backlinks and its links' parent under the key of the page
    # itself (``final_url``); both URLs were clean when recorded, and cleaning is idempotent
    # (a list's credit reads whether the page added any block not read before, a name
    # family's whether it passed the gain test too, as CrawlSession._observe_page feeds them)
    proven: dict[str, float] = {}
    proven_family: dict[str, float] = {}
    relevance_of: dict[str, float] = {}
    for record in steps:
        if not observed(record):
            continue
        relevance = rules_relevance(record, labels)
        key = dedupe_key(clean(record.url))
        proven[key] = _proven(record, labels, relevance, replayed.new[record.step])
        proven_family[key] = _proven(record, labels, relevance, replayed.fresh[record.step])
        relevance_of[dedupe_key(clean(record.final_url))] = relevance
    credits_moved = focus.siblings.relabel(proven)
    shares_moved = focus.popularity.relabel(relevance_of)
    families_moved = focus.families.relabel(proven_family)
    parents_moved = _relink(state, relevance_of)
    weights_switched = focus.model.weights != weights
    rescored = False
    # needs_rescore() resets the flags the relabels set, so the next step does not rescore
    # for them again
    if focus.needs_rescore() or weights_switched or parents_moved:
        rescored = state.rescore()
    return Relabelled(replayed.fresh, weights_switched, credits_moved, shares_moved,
                      families_moved, parents_moved, rescored)


def replay_leads(
    previous: LeadBar, steps: Sequence[StepRecord], labels: Mapping[str, bool],
    fresh: Mapping[int, bool],
) -> LeadBar:
    """§11.10's bars as if ``labels`` had been known all along: every page read counts for
    relevant pages still coming, and the link that led to it joins the bars it earns under
    its labelled relevance and replayed freshness, as the crawl fed them
    (``CrawlSession._observe_page``). A page labelled not relevant that had brought new
    evidence no longer lowers the bar a later verdict is judged by."""
    leads = previous.emptied()
    for record in steps:
        if not observed(record):
            continue
        # the seed (and a sitemap's URL) was reached by no link
        leads.page(rules_relevance(record, labels),
                   record.score if record.link is not None else None, fresh[record.step])
        if record.verdict is not None:
            leads.verdict_fired()
    return leads


def _proven(
    record: StepRecord, labels: Mapping[str, bool], relevance: float, fresh: bool
) -> float:
    """What a page proves about the lists it is in (``siblings.sibling_evidence``) under the
    labels. A page the user calls relevant against the crawler's verdict proves its labelled
    relevance even if it added no new evidence block: that rule tells a repetition of what
    was read from news, and the user's word is about this page (its words may simply not be
    the query's). Otherwise the crawler's rule, on the labelled relevance and freshness."""
    crawler_relevance = record.relevance if record.relevance is not None else 0.0
    if labels.get(record.final_url) is True and crawler_relevance < EVIDENCE_RELEVANCE:
        return relevance
    return sibling_evidence(relevance, fresh)


def _relink(state: FrontierState, relevance_of: Mapping[str, float]) -> int:
    """Queued links read on a page whose relevance differs from their parent feature's take
    the page's relevance (``LinkSignal.parent``; a link met again keeps the better-scoring
    signal, so one whose kept signal came from another page keeps that page's). Returns how
    many moved."""
    # the offers kept for the links met more than once follow too, or the next page's
    # best offer would bring back a parent relevance read before the label (offers.py)
    state.offers.relink(relevance_of)
    moved = 0
    for entry in state.queue.entries():
        signal = signal_of(entry)
        moved_signal = None if signal is None else relinked(signal, relevance_of)
        if moved_signal is None:
            continue
        # the score stays until the rescore that follows any move (apply_labels): scoring
        # each link here as well would be the same work twice
        state.queue.update(entry.key, entry.depth, entry.score, moved_signal)
        moved += 1
    return moved


@dataclass(frozen=True, slots=True)
class LabelState:
    """The statistics a label can change, as a relabel reports them before and after."""

    link_weights: tuple[float, ...]
    coverage: float
    covered: bool
    evidence: tuple[int, ...]
    stale: int
    cold: int
    subtree_state: SubtreeState
    subtree_pages: int
    subtree_hits: int
    fresh: bool
    relevant_pages: int
    # the queue's head: its best link in pop order, dispersion aside (the next pop may be
    # another link of a proven cluster, docs/DESIGN.md §9), and its score; "" and None for none.
    # Bundles made before a relabel rescored the queue have no such keys
    queue_head: str = ""
    queue_head_score: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return {
            "link_weights": list(self.link_weights),
            "coverage": self.coverage,
            "covered": self.covered,
            "evidence": list(self.evidence),
            "stale": self.stale,
            "cold": self.cold,
            "subtree_state": self.subtree_state.value,
            "subtree_pages": self.subtree_pages,
            "subtree_hits": self.subtree_hits,
            "fresh": self.fresh,
            "relevant_pages": self.relevant_pages,
            "queue_head": self.queue_head,
            "queue_head_score": self.queue_head_score,
        }


def label_state(
    state: FrontierState, part: str, fresh: bool, relevant_pages: int
) -> LabelState:
    """The statistics of ``state`` for a page of subtree ``part`` whose freshness is
    ``fresh``, with the session's ``relevant_pages``."""
    adaptive = state.adaptive
    pages, hits = state.subtrees.counts(part)
    head = state.queue.top(1)
    return LabelState(
        link_weights=state.focus.model.weights,
        coverage=adaptive.coverage(),
        covered=adaptive.covered(),
        evidence=tuple(adaptive.evidence),
        stale=adaptive.stale,
        cold=adaptive.cold,
        subtree_state=part_state(state.subtrees, part, state.forced(part)),
        subtree_pages=pages,
        subtree_hits=hits,
        fresh=fresh,
        relevant_pages=relevant_pages,
        queue_head=head[0].url if head else "",
        queue_head_score=head[0].score if head else None,
    )


def account(
    record: StepRecord,
    label: bool | None,
    learned: bool,
    done: Relabelled,
    before: LabelState,
    after: LabelState,
) -> tuple[str, dict[str, Any]]:
    """The note and the ``changes`` of a relabel of ``record``'s page: what the user said,
    what the crawler had said, and each statistic before → after."""
    relevance = record.relevance if record.relevance is not None else 0.0
    crawler = relevance >= EVIDENCE_RELEVANCE
    changes: dict[str, Any] = {
        "label": label,
        "crawler_relevant": crawler,
        "relevance": relevance,
        "learned": learned,
        "rescored": done.rescored,
        "credits_moved": done.credits_moved,
        "shares_moved": done.shares_moved,
        "families_moved": done.families_moved,
        "parents_moved": done.parents_moved,
        "subtree": record.subtree,
        "before": before.to_dict(),
        "after": after.to_dict(),
    }
    note = _note(record.subtree, label, crawler, relevance, learned,
                 done.weights_switched and done.rescored, before, after)
    return note + _queue_text(done, before, after), changes


def _note(
    part: str,
    label: bool | None,
    crawler: bool,
    relevance: float,
    learned: bool,
    rescored: bool,
    before: LabelState,
    after: LabelState,
) -> str:
    said = f"the crawler: {_word(crawler)}, relevance {relevance:.3g}"
    if label is None:
        head = f"label removed ({said})"
    elif label == crawler:
        head = f"labelled {_word(label)}, as the crawler judged it ({said})"
    else:
        head = f"labelled {_word(label)} ({said})"
    if before == after:
        return f"{head}: nothing changed"
    parts = [_weights_text(learned, rescored, before, after)]
    if before.coverage != after.coverage or before.evidence != after.evidence:
        parts.append(
            f"coverage {before.coverage:.2f} → {after.coverage:.2f} (evidence "
            f"{_counts(before.evidence)} → {_counts(after.evidence)})"
        )
    if before.stale != after.stale or before.cold != after.cold:
        parts.append(f"stale {before.stale} → {after.stale}, cold {before.cold} → {after.cold}")
    if before.fresh != after.fresh:
        parts.append(f"the page is {'' if after.fresh else 'no longer '}new on-topic content")
    if (before.subtree_state, before.subtree_hits) != (after.subtree_state, after.subtree_hits):
        parts.append(
            f"subtree {part} {before.subtree_state.value} → {after.subtree_state.value} "
            f"(new content on {before.subtree_hits} → {after.subtree_hits} of "
            f"{after.subtree_pages} pages)"
        )
    if before.relevant_pages != after.relevant_pages:
        parts.append(f"relevant pages {before.relevant_pages} → {after.relevant_pages}")
    return f"{head}: " + "; ".join(p for p in parts if p)


def _weights_text(learned: bool, rescored: bool, before: LabelState, after: LabelState) -> str:
    if not learned:
        return "no link led to this page (the seed): the link model has nothing to relearn"
    moved = [
        f"{name} {old:.3g} → {new:.3g}"
        for name, old, new in zip(FEATURE_NAMES, before.link_weights, after.link_weights,
                                  strict=True)
        if old != new
    ]
    if not moved:
        return "link model relearned with this label: the weights in use did not switch"
    return "link weights " + ", ".join(moved) + (" (queue rescored)" if rescored else "")


def _queue_text(done: Relabelled, before: LabelState, after: LabelState) -> str:
    """What the labels did to the queue's inputs and its head, or "" when nothing moved."""
    moved = []
    if done.parents_moved:
        moved.append(f"parent feature of {done.parents_moved} queued "
                     f"link{'s' if done.parents_moved != 1 else ''}")
    if done.credits_moved:
        moved.append("sibling credit")
    if done.shares_moved:
        moved.append("popularity")
    if done.families_moved:
        moved.append("family credit")
    if not moved:
        return ""
    if not done.rescored:  # breadth-first: every link scores 1, the order is discovery's
        return f"; {', '.join(moved)} moved under the labels (breadth-first: no order changes)"
    text = f"; queue rescored ({', '.join(moved)} under the labels)"
    if _head_text(before) != _head_text(after):
        text += f": head {_head_text(before)} → {_head_text(after)}"
    return text


def _head_text(state: LabelState) -> str:
    if state.queue_head_score is None:
        return "nothing queued"
    return f"{state.queue_head} ({state.queue_head_score:.3g})"


def _word(relevant: bool) -> str:
    return "relevant" if relevant else "not relevant"


def _counts(values: Sequence[int]) -> str:
    return "/".join(str(v) for v in values)
