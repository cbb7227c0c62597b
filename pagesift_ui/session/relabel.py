"""What a relabel does to a session's state, and its account of it (docs/DESIGN.md §12.3).

A user's label replaces the crawler's verdict on a page in every statistic that used it:

- the link model is rebuilt from the prior by replaying, in order, every link it learned
  from (``Sample``) with the label substituted: the seed-exact update rule, run again;
- the stop rules' state (evidence, coverage, the stale and cold counters) and both harvests
  (the page's freshness per subtree and cluster) are replayed from the step records by
  ``session/rules.py`` with the labelled relevance;
- the relevant-page count reads the labels directly.

Replaying instead of adjusting keeps every number what the seed code would have produced
had the label been known, so undoing a label restores the state exactly.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, MIN_RELEVANCE
from pagesift_ui.frontier.model import FEATURE_NAMES, LinkModel
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.record import Override, StepRecord, SubtreeState
from pagesift_ui.session.rules import labelled_relevance, replay_rules
from pagesift_ui.session.state import FrontierState, part_state

__all__ = ["LabelState", "Sample", "account", "apply_labels", "label_state", "rebuild_model"]


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


def apply_labels(
    state: FrontierState,
    config: CrawlConfig,
    steps: Sequence[StepRecord],
    overrides: Sequence[Override],
    samples: Sequence[Sample],
    labels: Mapping[str, bool],
) -> tuple[Mapping[int, bool], bool]:
    """Swap the rebuilt link model, stop rules and harvests into ``state``.

    Returns each observed step's freshness under the labels, and whether the queue was
    rescored (the link weights in use changed).
    """
    replayed = replay_rules(config, steps, overrides, labels)
    state.adaptive = replayed.adaptive
    state.subtrees = replayed.subtrees
    state.clusters = replayed.clusters
    weights = state.focus.model.weights
    state.focus.model = rebuild_model(state.focus.model, samples, labels)
    rescored = state.focus.model.weights != weights and state.rescore()
    return replayed.fresh, rescored


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
        }


def label_state(
    state: FrontierState, part: str, fresh: bool, relevant_pages: int
) -> LabelState:
    """The statistics of ``state`` for a page of subtree ``part`` whose freshness is
    ``fresh``, with the session's ``relevant_pages``."""
    adaptive = state.adaptive
    pages, hits = state.subtrees.counts(part)
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
    )


def account(
    record: StepRecord,
    label: bool | None,
    learned: bool,
    rescored: bool,
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
        "rescored": rescored,
        "subtree": record.subtree,
        "before": before.to_dict(),
        "after": after.to_dict(),
    }
    return _note(record.subtree, label, crawler, relevance, learned, rescored, before,
                 after), changes


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


def _word(relevant: bool) -> str:
    return "relevant" if relevant else "not relevant"


def _counts(values: Sequence[int]) -> str:
    return "/".join(str(v) for v in values)
