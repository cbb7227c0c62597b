"""Fetches in flight: the links a session has popped ahead of the page it takes next
(docs/DESIGN.md §11.14).

With ``CrawlConfig.concurrency`` N > 1 a session keeps up to N popped links whose pages are
being fetched while it takes the oldest one into the crawl. A link is popped only at the
start of a step, before that step's page is taken, so which links are popped, and in which
order, depends on the pages taken before and never on how fast the network answers: for a
given site and N the crawl is the same run after run, and N = 1 is the crawl of one fetch
at a time (one pop, its fetch, its page, in every step).

Everything a pop does to the core happens when the link is popped, as it did when pop and
fetch were one: the cluster's count for dispersion, the key counted as fetched (a link to a
page in flight is not queued again), its click depth, and the explanation of its score
under the weights it was ranked with. ``put_back`` undoes these for a link whose page is not
going to be taken (the crawl stopped while it was in flight) and queues it again.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from pagesift_ui.frontier.links import LinkSignal
from pagesift_ui.frontier.queue import Entry, cluster_key
from pagesift_ui.session.state import FrontierState, SetAside, signal_of

__all__ = ["Popped", "park", "popped", "put_back", "unpark"]


@dataclass(frozen=True, slots=True)
class Popped:
    """A link taken off the queue whose page the crawl takes later.

    ``dropped``: the URLs of dry subtrees' links the pops before it dropped (its step
    reports them); ``link_explanation``: its score explained when it was popped (None for
    the seed).
    """

    entry: Entry
    dropped: tuple[str, ...]
    link_explanation: dict[str, Any] | None


def popped(state: FrontierState, entry: Entry, dropped: list[str]) -> Popped:
    """Count ``entry``, just popped, as scheduled: §11.2's bookkeeping of a pop."""
    state.scheduled_by_cluster[cluster_key(entry.url)] += 1
    state.fetched_keys.add(entry.key)
    state.depths.fetched(entry.key, entry.depth)
    signal = signal_of(entry)
    # explain with the weights the link was ranked under, before any page teaches
    explanation = None if signal is None else state.explain(signal).to_dict()
    return Popped(entry, tuple(dropped), explanation)


def put_back(state: FrontierState, link: Popped, room: int) -> None:
    """Undo ``popped`` for a link whose page will not be taken, and queue it again.

    It is offered as a link newly found (a fresh discovery order, scored under the current
    weights, at the shortest depth learned while it was in flight); ``room`` is the queue's
    (``CrawlConfig.max_queued_links``). The undo is exact for the counts; a crawl that goes
    on pops from the queue as it is then, the same way every time.
    """
    entry = link.entry
    cluster = cluster_key(entry.url)
    state.scheduled_by_cluster[cluster] -= 1
    if state.scheduled_by_cluster[cluster] <= 0:
        del state.scheduled_by_cluster[cluster]
    state.fetched_keys.discard(entry.key)
    known = state.depths.forget(entry.key)
    depth = entry.depth if known is None else min(entry.depth, known)
    _offer_again(state, entry.key, entry.url, depth, entry.score, signal_of(entry), room)


def _offer_again(state: FrontierState, key: str, url: str, depth: int, score: float,
                 signal: LinkSignal | None, room: int) -> None:
    """Offer a link taken out of the queue as one newly found, at ``depth``: scored under
    the current weights when it has a signal, else at ``score`` (a seed's)."""
    if signal is None:
        state.queue.offer(key, url, depth, score, None, room)
        return
    if signal.depth != depth:
        signal = replace(signal, depth=depth)
    state.queue.offer(key, url, depth, state.link_score(signal), signal, room)


def park(state: FrontierState, part: str, link: SetAside, room: int) -> bool:
    """Set ``link`` aside while its subtree ``part`` is dry; False when ``room`` (the
    queue's, ``CrawlConfig.max_queued_links``) is spent on links set aside already, or the
    link is set aside already at a score as high (it keeps the shallower depth)."""
    known = state.parked.get(part, {}).get(link.key)
    if known is not None:
        better = link if link.score > known.score else known
        state.parked[part][link.key] = replace(better, depth=min(link.depth, known.depth))
        return False
    if state.parked_count >= room:
        # no empty entry either: the crawl looks for links to give back while any is set
        # aside (CrawlSession._observe_page)
        return False
    state.parked.setdefault(part, {})[link.key] = link
    state.parked_count += 1
    return True


def unpark(state: FrontierState, room: int) -> int:
    """Queue again the links set aside while their subtree was dry (``parked``), for every
    subtree that is no longer dry; returns how many were queued. Forcing a subtree dry,
    then keeping it open or clearing it, had lost its links for good (one of the university
    demo's answers among them: found by using the app), and so did a subtree the
    statistics found dry and later not (the rest's bound fell below it). Each is offered
    as a link newly found, at its depth, scored under the current weights; one fetched or
    queued meanwhile is left as it is."""
    queued = 0
    for part in [part for part in state.parked if not state.is_dry(part)]:
        links = state.parked.pop(part)
        state.parked_count -= len(links)
        for link in links.values():
            if link.key in state.fetched_keys or state.queue.get(link.key) is not None:
                continue
            _offer_again(state, link.key, link.url, link.depth, link.score, link.signal, room)
            queued += 1
    return queued
