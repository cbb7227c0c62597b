"""The pure parts of one crawl step (docs/DESIGN.md §11), over explicit inputs.

Each function reads (and, where its name says so, updates) the ``FrontierState`` it is given;
none of them knows the session, its page source or its sinks.
"""

from __future__ import annotations

from collections.abc import Mapping

from pagesift_ui.frontier.harvest import subtree
from pagesift_ui.frontier.links import SECTION_FLOOR
from pagesift_ui.frontier.queue import Entry
from pagesift_ui.frontier.urls import text_fingerprints
from pagesift_ui.session.state import FrontierState, signal_of

__all__ = [
    "has_fetchable",
    "next_entry",
    "pending_lead",
    "record_text",
    "relevant_count",
]


def next_entry(state: FrontierState, seed_host: str, dropped: list[str]) -> Entry | None:
    """§11.2: pop with the dispersion rule; links of dry subtrees are dropped (their URLs
    appended to ``dropped``) and the pop repeats. None: the queue is empty."""
    while True:
        entry = state.queue.pop_diverse(
            state.scheduled_by_cluster,
            state.dispersion_cap(),
            state.clusters.is_proven,
            demoted_templates=state.demoted_templates(),
        )
        if entry is None or not state.is_dry(subtree(seed_host, entry.url)):
            return entry
        dropped.append(entry.url)


def record_text(state: FrontierState, url: str, text: str) -> str:
    """§11.5: count the page in the template statistics and remember its text.

    Returns the URL of an earlier page with the same text ("" when the text is new): the
    page is then a duplicate, and its text is not remembered again.
    """
    prints = text_fingerprints(text)
    first = state.text_seen.get(prints.exact) or state.text_seen.get(prints.digitless)
    state.templates.observe(url, first is not None)
    if first is not None:
        return first
    state.text_seen.setdefault(prints.exact, url)
    state.text_seen.setdefault(prints.digitless, url)
    return ""


def pending_lead(state: FrontierState, seed_host: str) -> str:
    """§11.10: why to go on despite a verdict, or "" to let it stand.

    The head of the queue must be a non-blind link scoring above the best blind one (or,
    with no blind link queued, above the section floor a blind link would get).
    """
    head: Entry | None = None
    best_blind = None
    for entry in state.queue.entries():
        if state.is_dry(subtree(seed_host, entry.url)):
            continue
        signal = signal_of(entry)
        blind = signal is None or signal.blind
        if head is None:
            head = entry
            if blind:
                return ""
        elif blind:
            best_blind = entry.score
            break
    if head is None:
        return ""
    bar = SECTION_FLOOR if best_blind is None else best_blind
    if head.score <= bar:
        return ""
    return (
        f"a link with clues scoring {head.score:.3g} is still queued ({head.url}), above "
        f"the best blind link ({bar:.3g})"
    )


def has_fetchable(state: FrontierState, seed_host: str) -> bool:
    """§11.1: some queued link is outside a dry subtree. Runs after every step, so it looks
    at the head first and lists the whole queue only when the head is dry."""
    head = state.queue.top(1)
    if not head:
        return False
    if not state.is_dry(subtree(seed_host, head[0].url)):
        return True
    return any(not state.is_dry(subtree(seed_host, e.url)) for e in state.queue.entries())


def relevant_count(relevant_urls: set[str], labels: Mapping[str, bool]) -> int:
    """Pages at or above EVIDENCE_RELEVANCE, after the user's labels."""
    labelled = {url for url, label in labels.items() if label}
    unlabelled = {url for url, label in labels.items() if not label}
    return len((relevant_urls - unlabelled) | labelled)
