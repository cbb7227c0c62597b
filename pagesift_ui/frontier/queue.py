"""The best-first frontier queue with cluster dispersion (docs/DESIGN.md §9) and template demotion
(§10).

Storage is columnar: score, discovery order, flags and interned cluster/template/part ids
live in numpy arrays indexed by *slot*; keys and URLs in Python lists and signals in an object
array aligned with them. A removed entry frees its slot (a free list reuses it) and the arrays
are compacted once three quarters of the slots are dead, so every array operation is O(live).

Why no heap: ``rescore`` replaces every score at once (a heap would be rebuilt), and
``pop_diverse`` asks for "the best link whose cluster is proven / not this cluster", which a
heap cannot answer without scanning. A masked, vectorised argmax is O(n) per pop but runs at
C speed, a few passes over the score column (``benchmarks/bench_queue.py``). The session
offers every link with a room of ``CrawlConfig.max_queued_links`` (100k), so a link is kept
until it is the best, however low it starts (issue 11, mechanism 2).

What keeps a crawl step's queue work nearly flat in the queue's size (issue 15,
docs/DECISIONS.md): with a ``Packing`` the numbers of each signal are kept in columns when it
is queued, so ``rescore_columns`` scores stored columns and never repacks a signal (and a
packed column may hold what the score function computed for the row last time, reset when
the row is written); the score function sees the rows written since its last call and the
rows of an indexed column's value (``ColumnView``), and may return the new scores of the
rows that moved only (``RowScores``); a full queue evicts from a kept low end of the
eviction order (``_LowEnd``), which follows the moved rows and, after a rescore of every
row, is refilled below a cut taken from the last low end's slots rather than a partition
of the queue; the best entry is kept (``_head``) until a change may have moved it;
``pop_diverse`` gathers the slots above its threshold once and reads nothing else; and
``first_outside`` finds the best entry outside some parts of the site (the session: dry
subtrees) with one masked argmax per part met, never listing the queue.
"""

from __future__ import annotations

import bisect
import logging
import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier.queue_values import (
    MAX_SCORE,
    Entry,
    Offer,
    RowScores,
    as_score,
    as_scores,
    check_count,
    check_offer,
    cluster_key,
    default_cap,
    intern,
)
from pagesift_ui.frontier.urls import template

__all__ = [
    "DIVERSITY_RATIO",
    "MAX_SCORE",
    "BestFirst",
    "ColumnView",
    "Entry",
    "Offer",
    "Packing",
    "RowScores",
    "cluster_key",
    "default_cap",
]

logger = logging.getLogger(__name__)

#: A link may jump ahead of the top for dispersion only if it scores ≥ this share of the top.
DIVERSITY_RATIO = 0.5

_INITIAL_CAPACITY = 64
_COMPACT_MIN_SLOTS = 1024
# Dead slots hold a score below every live one (live scores are clamped to ≥ 0), so a plain
# argmax over the slot arrays never picks a dead slot.
_DEAD = -1.0

# The eviction order's lowest entries kept sorted between full scans (see _LowEnd).
_LOW_END_SIZE = 256
# Slots written between two rescore_columns listed at most (past it: "not known").
_WRITTEN_KEPT = 65_536

BoolArray = npt.NDArray[np.bool_]
ScoreFn = Callable[[list[object]], "Sequence[float] | npt.NDArray[np.floating[Any]]"]
ColumnScoreFn = Callable[
    ["ColumnView"],
    "Sequence[float] | npt.NDArray[np.floating[Any]] | RowScores",
]


@dataclass(frozen=True, slots=True)
class Packing:
    """How a queue keeps the numbers of each signal in numpy columns, so ``rescore_columns``
    scores the stored columns without touching a signal object (issue 15: repacking 100k
    signals was most of a rescore).

    ``columns``: (name, numpy dtype, width) per column, width 0 for one number per entry;
    ``row(signal)``: the signal's values in that order (a sequence of ``width`` for a wide
    column), computed once, when the signal is queued. The columns move with their rows;
    ``score_fn`` of ``rescore_columns`` may write into one (a cache of the row's last
    computation: the row's value from ``row`` says "none", and is written again whenever
    the entry's signal is stored: ``linkbatch.score_queued``).
    """

    columns: tuple[tuple[str, str, int], ...]
    row: Callable[[object], tuple[Any, ...]]
    #: Integer columns (width 0) whose rows the queue finds by value, for values ≥ 0
    #: (``ColumnView.rows_with``)
    indexed: tuple[str, ...] = ()


class BestFirst:
    """Best-first queue keyed by (score desc, discovery order asc), with user overrides.

    Pinned entries pop first, in pin order; then ``pop_diverse``'s rules apply (docs/DESIGN.md §9)
    to the entries whose template is not demoted, and to the demoted ones only when nothing else is
    left (docs/DESIGN.md §10). Equal scores pop in discovery order, so on a site where nothing
    matches the crawl is breadth-first.
    """

    def __init__(
        self, packing: Packing | None = None, part_of: Callable[[str], str] = cluster_key
    ) -> None:
        self._packing = packing
        # the part of the site a URL is in, for first_outside (the session: its subtree)
        self._part_of = part_of
        # the lowest unpinned entries in eviction order, or None until the next full scan,
        # and the slots of the last one dropped: where the next scan looks for its cut
        self._low: _LowEnd | None = None
        self._low_hint: list[int] = []
        # the best live slot (pins ignored), or None until the next scan asks for it
        self._head: int | None = None
        self._slot_of: dict[str, int] = {}
        self._keys: list[str | None] = []
        self._urls: list[str | None] = []
        self._pins: dict[str, None] = {}  # insertion-ordered set: pin order
        self._free: list[int] = []
        self._size = 0  # slots in use or freed; slots ≥ _size were never used
        self._next_seq = 0
        self._cluster_index: dict[str, int] = {}
        self._cluster_names: list[str] = []
        self._template_index: dict[str, int] = {}
        self._template_names: list[str] = []
        self._part_index: dict[str, int] = {}
        self._part_names: list[str] = []
        self._allocate(_INITIAL_CAPACITY)
        self._moves = _Moves(() if packing is None else packing.indexed)
        # (name, position in a packed row) of each indexed column
        names = [] if packing is None else [name for name, _, _ in packing.columns]
        self._indexed_at = [] if packing is None else [
            (name, names.index(name)) for name in packing.indexed]

    def _allocate(self, capacity: int) -> None:
        self._scores = np.full(capacity, _DEAD)
        self._seqs = np.zeros(capacity, dtype=np.int64)
        self._depths = np.zeros(capacity, dtype=np.int64)
        self._live = np.zeros(capacity, dtype=bool)
        self._has_signal = np.zeros(capacity, dtype=bool)
        self._cluster_ids = np.zeros(capacity, dtype=np.int64)
        self._template_ids = np.zeros(capacity, dtype=np.int64)
        self._part_ids = np.zeros(capacity, dtype=np.int64)
        self._signals = np.empty(capacity, dtype=object)
        columns = () if self._packing is None else self._packing.columns
        self._packed = {
            name: np.zeros((capacity, width) if width else capacity, dtype=dtype)
            for name, dtype, width in columns
        }
        self._keys = [None] * capacity
        self._urls = [None] * capacity

    def _columns(self) -> list[npt.NDArray[Any]]:
        columns = [
            self._scores, self._seqs, self._depths, self._live, self._has_signal,
            self._cluster_ids, self._template_ids, self._part_ids, self._signals,
        ]  # fmt: skip
        return columns + list(self._packed.values())

    def _rebuild(self, slots: npt.NDArray[np.intp], capacity: int) -> None:
        """Move the given slots to 0..len(slots)-1 of fresh arrays of ``capacity``."""
        old_columns, keys, urls = self._columns(), self._keys, self._urls
        self._low, self._low_hint, self._head = None, [], None  # their slots move
        self._allocate(capacity)
        for new, old in zip(self._columns(), old_columns, strict=True):
            new[: len(slots)] = old[slots]
        self._keys[: len(slots)] = [keys[slot] for slot in slots.tolist()]
        self._urls[: len(slots)] = [urls[slot] for slot in slots.tolist()]
        self._slot_of = {
            key: slot for slot, key in enumerate(self._keys[: len(slots)]) if key is not None
        }
        self._free, self._size = [], len(slots)
        if self._packing is not None:
            self._moves.rebuilt({name: self._packed[name][: self._size]
                                 for name in self._packing.indexed},
                                self._live[: self._size] & self._has_signal[: self._size])

    def _take_slot(self) -> int:
        if self._free:
            return self._free.pop()
        if self._size == len(self._scores):
            self._rebuild(np.arange(self._size), 2 * len(self._scores))
        self._size += 1
        return self._size - 1

    def _remove(self, slot: int) -> Entry:
        entry = self._entry(slot)
        self._free_slot(slot, entry.key, entry.score, entry.seq)
        return entry

    def _free_slot(self, slot: int, key: str, score: float, seq: int) -> None:
        """Take a live slot out of the queue (its entry read first, if wanted)."""
        if self._low is not None:
            self._low.discard(slot, score, seq)
        if slot == self._head:
            self._head = None
        del self._slot_of[key]
        self._pins.pop(key, None)
        self._unindex(slot)
        self._live[slot] = self._has_signal[slot] = False
        self._scores[slot] = _DEAD
        self._signals[slot] = self._keys[slot] = self._urls[slot] = None
        self._free.append(slot)
        if self._size >= _COMPACT_MIN_SLOTS and 4 * len(self._slot_of) <= self._size:
            live = np.flatnonzero(self._live[: self._size])
            self._rebuild(live, max(_INITIAL_CAPACITY, 2 * len(live)))

    def _entry(self, slot: int) -> Entry:
        key = self._keys[slot]
        url = self._urls[slot]
        assert key is not None and url is not None, "slot is not live"
        return Entry(
            key=key,
            url=url,
            depth=int(self._depths[slot]),
            score=float(self._scores[slot]),
            signal=self._signals[slot],
            seq=int(self._seqs[slot]),
            pinned=key in self._pins,
            template=self._template_names[self._template_ids[slot]],
            cluster=self._cluster_names[self._cluster_ids[slot]],
        )

    def __len__(self) -> int:
        return len(self._slot_of)

    def __contains__(self, key: object) -> bool:
        return key in self._slot_of

    def get(self, key: str) -> Entry | None:
        """The queued entry for ``key``, or None."""
        slot = self._slot_of.get(key)
        return None if slot is None else self._entry(slot)

    def queued(self, key: str) -> tuple[int, float, object | None] | None:
        """(depth, score, signal) of the queued entry for ``key`` (the values ``get``'s
        ``Entry`` holds), or None: without building the ``Entry``, for a caller that meets
        every link of a page (the session's enqueue; issue 15: an ``Entry`` a link was
        ~2.5% of a step)."""
        slot = self._slot_of.get(key)
        if slot is None:
            return None
        return int(self._depths[slot]), float(self._scores[slot]), self._signals[slot]

    def offer(
        self, key: str, url: str, depth: int, score: float, signal: object | None, room: int
    ) -> tuple[Offer, str | None]:
        """Offer a link; the outcome says what happened (docs/DESIGN.md §9). See ``Offer``.

        A queued key is re-ranked (new score, signal and depth; discovery order and URL kept)
        only if the new score is higher. A new key is queued while fewer than ``room`` entries
        are held. When full, it replaces the worst unpinned entry if it scores strictly higher
        (ties among the worst: the latest discovered goes) and the evicted key is returned;
        otherwise, and always when ``room ≤ 0``, it is rejected. The queue never grows while
        it holds ``room`` or more entries.

        Raises
        ------
        ValueError
            For an empty key, a negative depth, a non-numeric score or a non-http(s) URL.
        """
        check_offer(key, depth, room)
        value = as_score(score)
        slot = self._slot_of.get(key)
        if slot is not None:
            if value > self._scores[slot]:
                self._set(slot, depth, value, signal)
            return Offer.ALREADY_QUEUED, None
        # validate before any change
        shape, cluster, part = template(url), cluster_key(url), self._part_of(url)
        if room <= 0:
            return Offer.REJECTED, None
        if len(self) < room:
            self._insert(key, url, depth, value, signal, (shape, cluster, part))
            return Offer.QUEUED, None
        worst = self._worst_evictable()
        if worst is None or value <= self._scores[worst]:
            return Offer.REJECTED, None
        # no Entry for the evicted link: only its key goes back (a full queue evicts at
        # most offers, issue 15)
        evicted, worst_score = self._keys[worst], float(self._scores[worst])
        assert evicted is not None, "the worst evictable slot is live"
        self._free_slot(worst, evicted, worst_score, int(self._seqs[worst]))
        logger.debug("evicted %s (%.4g) for %s (%.4g)", evicted, worst_score, key, value)
        self._insert(key, url, depth, value, signal, (shape, cluster, part))
        return Offer.EVICTED, evicted

    def update(self, key: str, depth: int, score: float, signal: object | None) -> bool:
        """Replace a queued entry's depth, score and signal (discovery order, URL and pin
        kept): a shorter path to it was found (docs/DESIGN.md §9). False if not queued."""
        check_offer(key, depth, 1)
        slot = self._slot_of.get(key)
        if slot is None:
            return False
        self._set(slot, depth, as_score(score), signal)
        return True

    def _set(self, slot: int, depth: int, score: float, signal: object | None) -> None:
        """A live entry's new depth, score and signal; its place in the eviction order moves."""
        seq, old = int(self._seqs[slot]), float(self._scores[slot])
        if self._low is not None:
            self._low.discard(slot, old, seq)
        self._scores[slot], self._depths[slot] = score, depth
        self._store_signal(slot, signal)
        if self._low is not None and self._keys[slot] not in self._pins:
            self._low.add(slot, score, seq)
        self._moved_head(slot, score < old)

    def _store_signal(self, slot: int, signal: object | None) -> None:
        self._unindex(slot)
        self._signals[slot], self._has_signal[slot] = signal, signal is not None
        if self._packing is not None and signal is not None:
            row = self._packing.row(signal)
            for column, value in zip(self._packed.values(), row, strict=True):
                column[slot] = value
            self._moves.add(slot, {name: int(row[at]) for name, at in self._indexed_at})

    def _unindex(self, slot: int) -> None:
        """A slot's packed row is about to go: out of the index (if it had one)."""
        if self._packing is not None and self._has_signal[slot]:
            self._moves.discard(slot, {name: int(self._packed[name][slot])
                                       for name in self._packing.indexed})

    def _insert(
        self, key: str, url: str, depth: int, score: float, signal: object | None,
        names: tuple[str, str, str],
    ) -> None:  # fmt: skip
        """A new entry in a free slot; ``names``: its template, cluster and part."""
        shape, cluster, part = names
        slot = self._take_slot()
        self._slot_of[key], self._keys[slot], self._urls[slot] = slot, key, url
        self._scores[slot], self._seqs[slot], self._depths[slot] = score, self._next_seq, depth
        self._live[slot] = True
        self._store_signal(slot, signal)
        if self._low is not None:
            self._low.add(slot, score, self._next_seq)
        self._cluster_ids[slot] = intern(self._cluster_index, self._cluster_names, cluster)
        self._template_ids[slot] = intern(self._template_index, self._template_names, shape)
        self._part_ids[slot] = intern(self._part_index, self._part_names, part)
        self._next_seq += 1
        self._moved_head(slot, False)

    def _moved_head(self, slot: int, fell: bool) -> None:
        """``slot``'s score was written (``fell``: lower than before): the kept head stays
        right, is replaced by ``slot``, or is forgotten until the next scan."""
        head = self._head
        if head is None:
            return
        if slot == head:
            if fell:
                self._head = None
            return
        score, best = self._scores[slot], self._scores[head]
        if score > best or (score == best and self._seqs[slot] < self._seqs[head]):
            self._head = slot

    def _worst_evictable(self) -> int | None:
        """Lowest score among unpinned entries; ties: the latest discovered.

        From the kept low end of the eviction order; a full scan refills it only when it is
        empty or a rescore or pin invalidated it, so offers to a full queue do not scan it
        one by one (issue 15)."""
        if self._low is None or not self._low:
            self._low = self._scan_low_end()
        return self._low.worst()

    def _scan_low_end(self) -> _LowEnd:
        """The first ``_LOW_END_SIZE`` unpinned entries by (score asc, seq desc)."""
        scores = self._scores[: self._size]
        if self._pins or len(self._slot_of) < self._size:
            # dead and pinned slots sort after every evictable one
            scores = np.where(self._live[: self._size], scores, np.inf)
            for key in self._pins:
                scores[self._slot_of[key]] = np.inf
        evictable = len(self._slot_of) - len(self._pins)
        if evictable <= 0:
            return _LowEnd([], [], [])
        # one comparison for the slots at or below a cut (ties at the cut included, so the
        # seq order among them is taken in full): the cut is the highest score now of the
        # last low end's slots if that keeps the slots few, else one partition finds it
        kept = min(_LOW_END_SIZE, evictable)
        slots = self._below_hint(scores, kept)
        if slots is None:
            cut = np.partition(scores, kept - 1)[kept - 1]
            slots = np.flatnonzero(scores <= cut)
        low, seqs = self._scores[slots], self._seqs[slots]
        order = np.lexsort((-seqs, low))[:_LOW_END_SIZE]
        return _LowEnd(low[order].tolist(), (-seqs[order]).tolist(), slots[order].tolist())

    def _below_hint(
        self, scores: npt.NDArray[np.float64], kept: int
    ) -> npt.NDArray[np.intp] | None:
        """The slots scoring at most the highest of the last low end's slots that are still
        evictable (``scores``: +inf for the others), if there are at least ``kept`` / 2 of
        those and at most four low ends of slots; else None. A rescore moves scores
        little, so the last low end is still near the bottom (issue 15: a partition of the
        queue at every step's first eviction)."""
        hint = np.asarray([slot for slot in self._low_hint if slot < len(scores)], dtype=np.intp)
        values = scores[hint]
        values = values[values < np.inf]
        if 2 * len(values) < kept:
            return None
        slots = np.flatnonzero(scores <= values.max())
        if len(slots) <= 4 * _LOW_END_SIZE:
            return slots
        if 8 * len(slots) > len(scores):
            return None  # not few: the partition of every score costs as much
        # the cut among these slots only (every slot at or below it is one of them)
        below = scores[slots]
        cut = np.partition(below, kept - 1)[kept - 1]
        kept_slots: npt.NDArray[np.intp] = slots[below <= cut]
        return kept_slots

    def _best(self, candidates: BoolArray | None = None) -> int | None:
        """Highest score among candidates (all live if None; a subset of the live slots);
        ties: the earliest discovered. None if there is no candidate. The best of all live
        slots is kept until a change may have moved it (``_head``)."""
        scores = self._scores[: self._size]
        if candidates is None:
            if not self._slot_of:
                return None
            if self._head is None:
                tied = np.flatnonzero(scores == scores.max())
                self._head = int(tied[np.argmin(self._seqs[tied])])
            return self._head
        else:
            if not candidates.any():
                return None
            # Multiply, don't np.where: a scattered mask makes np.where's branches ~8× slower,
            # and live scores are finite and ≥ 0, so non-candidates (0) never beat a candidate.
            masked = scores * candidates
            tied = np.flatnonzero((masked == masked.max()) & candidates)
        return int(tied[np.argmin(self._seqs[tied])])

    def _demoted_mask(self, demoted_templates: AbstractSet[str]) -> BoolArray | None:
        """Live slots whose template is demoted, or None when there are none (docs/DESIGN.md
        §10)."""
        ids = [self._template_index[t] for t in demoted_templates if t in self._template_index]
        if not ids:
            return None
        is_demoted = np.zeros(len(self._template_names), dtype=bool)
        is_demoted[ids] = True
        mask = is_demoted[self._template_ids[: self._size]] & self._live[: self._size]
        return mask if mask.any() else None

    def _unpinned_pools(self, demoted_templates: AbstractSet[str]) -> list[BoolArray]:
        """Unpinned live entries split into [not demoted, demoted], served in that order."""
        live = self._live[: self._size].copy()
        for key in self._pins:
            live[self._slot_of[key]] = False
        demoted = self._demoted_mask(demoted_templates)
        return [live] if demoted is None else [live & ~demoted, live & demoted]

    def pop_diverse(
        self,
        scheduled: Mapping[str, int],
        cap: int,
        proven: Callable[[str], bool],
        demoted_templates: AbstractSet[str] = frozenset(),
    ) -> Entry | None:
        """Remove and return the next link to fetch, or None when the queue is empty.

        Pinned entries first, in pin order. Otherwise, among the entries whose template is not
        in ``demoted_templates`` (or among the demoted ones if nothing else is left), with
        ``top`` the best entry and ``thr = DIVERSITY_RATIO × top.score`` (docs/DESIGN.md §9):

        1. ``proven(cluster_key(top.url))`` → ``top``;
        2. else the best link with score ≥ thr whose cluster is proven, if any;
        3. else, if ``scheduled.get(top's cluster, 0) ≥ cap``, the best link of another
           cluster with score ≥ thr, or ``top`` if there is none;
        4. else ``top``.

        ``proven`` is called at most once per call for each cluster that has a link with
        score ≥ thr; the order pinned → not demoted → demoted is the one ``top`` shows.
        """
        check_count("cap", cap)
        if not self._slot_of:
            return None
        if self._pins:
            return self._remove(self._slot_of[next(iter(self._pins))])
        pool = demoted = self._demoted_mask(demoted_templates)  # None: every live entry
        if demoted is not None and int(demoted.sum()) < len(self):
            # Demoted links only once nothing else is left (docs/DESIGN.md §10: demote, never
            # discard).
            pool = self._live[: self._size] & ~demoted
        top = self._best(pool)
        assert top is not None, "a non-empty queue has a best entry"
        return self._remove(self._dispersed(top, pool, scheduled, cap, proven))

    def _dispersed(
        self, top: int, pool: BoolArray | None, scheduled: Mapping[str, int], cap: int,
        proven: Callable[[str], bool],
    ) -> int:  # fmt: skip
        """Spec §9 rules 1-4 for the pool's best entry ``top``; returns the slot to pop.

        Rules 2 and 3 look at the eligible slots only (score ≥ thr), gathered once: the
        rest of the queue is never read again (issue 15)."""
        top_cluster = int(self._cluster_ids[top])
        if proven(self._cluster_names[top_cluster]):
            return top
        # Dead slots score -1 < thr, so the threshold also keeps the slots within the live ones.
        eligible = np.flatnonzero(self._scores[: self._size] >= DIVERSITY_RATIO * self._scores[top])
        if pool is not None:
            eligible = eligible[pool[eligible]]
        clusters = self._cluster_ids[eligible]
        best_proven = self._best_of(eligible[self._proven_lookup(clusters, top_cluster, proven)])
        if best_proven is not None:
            return best_proven
        if scheduled.get(self._cluster_names[top_cluster], 0) >= cap:
            other = self._best_of(eligible[clusters != top_cluster])
            return top if other is None else other
        return top

    def _best_of(self, slots: npt.NDArray[np.intp]) -> int | None:
        """The best of these live slots by (score desc, seq asc), or None if there are none."""
        if len(slots) == 0:
            return None
        scores = self._scores[slots]
        tied = slots[scores == scores.max()]
        return int(tied[np.argmin(self._seqs[tied])])

    def _proven_lookup(
        self, clusters: npt.NDArray[np.int64], known_unproven: int,
        proven: Callable[[str], bool],
    ) -> BoolArray:  # fmt: skip
        """Per eligible slot (its cluster id): is its cluster proven? ``proven`` is asked
        once per cluster, in id order."""
        present = np.zeros(len(self._cluster_names), dtype=bool)
        present[clusters] = True
        is_proven = np.zeros(len(self._cluster_names), dtype=bool)
        for cluster in np.flatnonzero(present).tolist():
            if cluster != known_unproven:
                is_proven[cluster] = bool(proven(self._cluster_names[cluster]))
        lookup: BoolArray = is_proven[clusters]
        return lookup

    def pin(self, key: str) -> bool:
        """User override: serve ``key`` before everything not pinned earlier. False if absent."""
        if key not in self._slot_of:
            return False
        self._pins.setdefault(key, None)
        self._low = None  # a pinned entry is never evicted
        return True

    def pins_before(self, key: str) -> int:
        """How many pinned entries are served before the pinned ``key`` (0: it is next)."""
        return list(self._pins).index(key)

    def drop(self, key: str) -> Entry | None:
        """User override: remove ``key`` and return its entry, or None if it was not queued."""
        slot = self._slot_of.get(key)
        return None if slot is None else self._remove(slot)

    def rescore(self, score_fn: ScoreFn) -> None:
        """Replace every score computed from a signal, in one vectorised batch (docs/DESIGN.md §9).

        ``score_fn`` receives the list of all non-None signals (in an unspecified but
        consistent order) and must return one score per signal, in the same order, as a
        sequence or numpy array. Entries whose signal is None (seeds) keep their score;
        ``score_fn`` is not called when no entry has a signal. Scores are sanitised as in
        ``offer``; discovery order and pins are unchanged.

        Raises
        ------
        ValueError
            If ``score_fn`` returns a different number of scores than it was given signals.
        """
        slots = np.flatnonzero(self._live[: self._size] & self._has_signal[: self._size])
        if len(slots) == 0:
            return
        self._rescored(slots, score_fn(self._signals[slots].tolist()))
        if self._packing is not None:
            # the packed rows say "nothing computed" again: a score function of the columns
            # may keep the scores of rows whose inputs did not move (RowScores), and these
            # scores are not its own
            for slot in slots.tolist():
                self._store_signal(slot, self._signals[slot])

    def rescore_columns(self, score_fn: ColumnScoreFn) -> None:
        """``rescore`` from the stored columns (``Packing``): ``score_fn`` receives each
        column by name, one row per slot, and returns one score per row. Rows of free slots
        and of entries without a signal hold stale numbers or zeros, and their scores are
        thrown away: scoring them costs less than gathering the live rows. The columns
        are views of the queue's own: what ``score_fn`` writes into them stays with the rows.

        ``score_fn`` may instead return ``RowScores``: the new scores of some rows, the
        others keeping theirs. It gets a ``ColumnView``, which says which rows were written
        since the previous call (and which rows hold a value of an indexed column), so a
        function that remembers its inputs can score only the rows whose inputs moved.

        Raises
        ------
        ValueError
            Without a ``Packing``, or if ``score_fn`` returns the wrong number of scores
            (or rows outside the queue's).
        """
        if self._packing is None:
            raise ValueError("rescore_columns needs a queue made with a Packing")
        scored = self._live[: self._size] & self._has_signal[: self._size]
        if not scored.any():
            return
        columns = ColumnView({name: column[: self._size]
                              for name, column in self._packed.items()}, self._moves.take())
        result = score_fn(columns)
        if isinstance(result, RowScores):
            self._rescored_rows(result)
            return
        scores = np.asarray(result, dtype=np.float64)
        if scores.shape != (self._size,):
            raise ValueError(f"score_fn returned {scores.shape} scores for {self._size} rows")
        if scored.all() and math.isfinite(float(scores.sum())):
            # the usual case at capacity (freed slots are taken again at once): no mask,
            # and as_scores of finite scores is max(·, 0), written in place
            np.maximum(scores, 0.0, out=self._scores[: self._size])
        else:
            self._scores[: self._size] = np.where(
                scored, as_scores(scores), self._scores[: self._size])
        self._moved_all()

    def _rescored_rows(self, result: RowScores) -> None:
        """``rescore_columns`` of the rows that moved: the kept low end and head follow
        them, one by one, while they are few."""
        rows = np.asarray(result.rows, dtype=np.intp)
        scores = np.asarray(result.scores, dtype=np.float64)
        if rows.ndim != 1 or scores.shape != rows.shape:
            raise ValueError(f"score_fn returned {scores.shape} scores for {rows.shape} rows")
        if len(rows) and (int(rows.min()) < 0 or int(rows.max()) >= self._size):
            raise ValueError(f"score_fn returned rows outside 0..{self._size - 1}")
        keep = self._live[rows] & self._has_signal[rows]
        rows, new = rows[keep], as_scores(scores[keep])
        if len(rows) > _LOW_END_SIZE:
            self._scores[rows] = new
            self._moved_all()
            return
        old = self._scores[rows].tolist()
        self._scores[rows] = new
        seqs = self._seqs[rows].tolist()
        moved = list(zip(rows.tolist(), old, new.tolist(), seqs, strict=True))
        if any(slot == self._head and after < before for slot, before, after, _ in moved):
            self._head = None  # first: a row that rose must not take the place of a fallen head
        for slot, before, after, seq in moved:
            if self._low is not None:
                self._low.discard(slot, before, seq)
                if self._keys[slot] not in self._pins:
                    self._low.add(slot, after, seq)
            self._moved_head(slot, after < before)

    def _moved_all(self) -> None:
        """Every score may have moved: the kept low end and head are dropped."""
        if self._low is not None:
            self._low_hint = self._low.slots()
        self._low, self._head = None, None

    def _rescored(
        self, slots: npt.NDArray[np.intp], new: Sequence[float] | npt.NDArray[np.floating[Any]]
    ) -> None:
        scores = np.asarray(new, dtype=np.float64)
        if scores.shape != (len(slots),):
            raise ValueError(f"score_fn returned {scores.shape} scores for {len(slots)} signals")
        self._scores[slots] = as_scores(scores)
        self._moved_all()

    def peek_score(self) -> float | None:
        """The highest score queued (pins, demotion and dispersion ignored), or None."""
        head = self._best()
        return None if head is None else float(self._scores[head])

    def _ranked(self, candidates: BoolArray, limit: int | None) -> list[int]:
        """Slots of the candidates by (score desc, seq asc), the first ``limit`` (or all)."""
        if limit == 0:
            return []
        if limit == 1:
            # top(1): a masked argmax, no partition or sort
            head = self._best(candidates)
            return [] if head is None else [head]
        slots = np.flatnonzero(candidates)
        if limit is not None and limit < len(slots):
            scores = self._scores[slots]
            cut = len(slots) - limit
            nth_best = np.partition(scores, cut)[cut]
            above, tied = slots[scores > nth_best], slots[scores == nth_best]
            wanted = limit - len(above)  # ≥ 1: fewer than `limit` score above the n-th best
            if wanted < len(tied):
                tied = tied[np.argpartition(self._seqs[tied], wanted - 1)[:wanted]]
            slots = np.concatenate([above, tied])
        order = np.lexsort((self._seqs[slots], -self._scores[slots]))
        best: list[int] = slots[order][:limit].tolist()
        return best

    def _pop_order(self, limit: int | None, demoted_templates: AbstractSet[str]) -> list[int]:
        slots = [self._slot_of[key] for key in self._pins][:limit]
        for pool in self._unpinned_pools(demoted_templates):
            left = None if limit is None else limit - len(slots)
            if left is not None and left <= 0:
                break
            slots.extend(self._ranked(pool, left))
        return slots

    def first_outside(self, excluded: Callable[[str], bool]) -> Entry | None:
        """The first entry in ``top``'s order (pins in pin order, then by score and
        discovery order; dispersion and demotion ignored) whose part (``part_of`` its URL)
        is not ``excluded``, or None. ``excluded`` is asked once per part met on the way.

        A masked argmax per part met, no listing or sorting of the queue: the session asks
        it at every step for the best link outside dry subtrees (docs/DESIGN.md §11.10,
        issue 15)."""
        answers: dict[int, bool] = {}

        def out(part: int) -> bool:
            if part not in answers:
                answers[part] = bool(excluded(self._part_names[part]))
            return answers[part]

        for key in self._pins:
            pinned = self._slot_of[key]
            if not out(int(self._part_ids[pinned])):
                return self._entry(pinned)
        # every pin's part is excluded: the rest of the pop order is the unpinned entries
        candidates = None if not answers else self._outside(answers)
        while (best := self._best(candidates)) is not None:
            if not out(int(self._part_ids[best])):
                return self._entry(best)
            candidates = self._outside(answers)
        return None

    def count_in(self, chosen: Callable[[str], bool]) -> int:
        """How many live entries have a part (``part_of`` their URL) that is ``chosen``;
        ``chosen`` is asked once per part ever queued. One masked sum, no listing."""
        if not self._part_names:
            return 0
        picked = np.fromiter((bool(chosen(name)) for name in self._part_names), dtype=bool,
                             count=len(self._part_names))
        if not picked.any():
            return 0
        live = self._live[: self._size] & picked[self._part_ids[: self._size]]
        return int(live.sum())

    def _outside(self, answers: Mapping[int, bool]) -> BoolArray:
        """Live slots whose part is not among the excluded ones in ``answers``."""
        excluded = np.zeros(len(self._part_names), dtype=bool)
        excluded[[part for part, out in answers.items() if out]] = True
        mask: BoolArray = self._live[: self._size] & ~excluded[self._part_ids[: self._size]]
        return mask

    def top(self, n: int, demoted_templates: AbstractSet[str] = frozenset()) -> list[Entry]:
        """The best ``n`` entries in pop order, dispersion ignored, without popping.

        Pinned first (pin order), then by score and discovery order; entries of
        ``demoted_templates`` after all others.
        """
        check_count("n", n)
        return [self._entry(slot) for slot in self._pop_order(n, demoted_templates)]

    def entries(self, demoted_templates: AbstractSet[str] = frozenset()) -> list[Entry]:
        """Every entry in pop order (as ``top``), e.g. to save a session and restore it."""
        return [self._entry(slot) for slot in self._pop_order(None, demoted_templates)]

    def entries_where(self, url_test: Callable[[str], bool]) -> list[Entry]:
        """The entries whose URL passes ``url_test``, in ``entries()``'s order: every URL is
        tested, but only the entries that pass are built and ranked (an ``Entry`` for each
        of 100k queued links took ~0.4 s; issue 15)."""
        passed = np.zeros(self._size, dtype=bool)
        for slot, url in enumerate(self._urls[: self._size]):
            if url is not None and url_test(url):
                passed[slot] = True
        pinned = [self._slot_of[key] for key in self._pins]
        slots = [slot for slot in pinned if passed[slot]]
        passed[pinned] = False
        slots.extend(self._ranked(passed, None))
        return [self._entry(slot) for slot in slots]


class _LowEnd:
    """The lowest entries of the eviction order (score asc, seq desc), sorted; every
    unpinned entry left out of it comes later in that order than its last one, so its first
    is the worst evictable entry while it is not empty. An entry added below its last one is
    inserted; an entry removed or moved is taken out (docs/DESIGN.md §9: eviction)."""

    __slots__ = ("_order", "_slots")

    def __init__(self, scores: list[float], negated_seqs: list[int], slots: list[int]) -> None:
        self._order: list[tuple[float, int, int]] = list(zip(scores, negated_seqs, slots,
                                                             strict=True))
        self._slots = set(slots)

    def __bool__(self) -> bool:
        return bool(self._order)

    def worst(self) -> int | None:
        return self._order[0][2] if self._order else None

    def slots(self) -> list[int]:
        return [slot for _, _, slot in self._order]

    def add(self, slot: int, score: float, seq: int) -> None:
        item = (score, -seq, slot)
        if self._order and item < self._order[-1]:
            bisect.insort(self._order, item)
            self._slots.add(slot)

    def discard(self, slot: int, score: float, seq: int) -> None:
        if slot in self._slots:
            self._slots.discard(slot)
            self._order.remove((score, -seq, slot))


class _Moves:
    """What a queue with a ``Packing`` knows of its packed rows between two
    ``rescore_columns``: the slots written since the last one, and the live rows by the
    value of each indexed column (issue 15: finding the rows of one sibling group was a
    gather of the whole group column)."""

    __slots__ = ("_by_value", "_epoch", "_written")

    def __init__(self, indexed: tuple[str, ...]) -> None:
        self._by_value: dict[str, dict[int, set[int]]] = {name: {} for name in indexed}
        self._written: list[int] | None = []  # None: slots moved since, not known
        self._epoch = 0

    def add(self, slot: int, values: Mapping[str, int]) -> None:
        if self._written is not None:
            self._written.append(slot)
            if len(self._written) > _WRITTEN_KEPT:
                self._written = None  # a queue never rescored (breadth-first) keeps none
        for name, value in values.items():
            if value >= 0:
                self._by_value[name].setdefault(value, set()).add(slot)

    def discard(self, slot: int, values: Mapping[str, int]) -> None:
        for name, value in values.items():
            rows = self._by_value[name].get(value)
            if rows is not None:
                rows.discard(slot)
                if not rows:
                    del self._by_value[name][value]

    def rebuilt(self, columns: Mapping[str, npt.NDArray[Any]], indexed: BoolArray) -> None:
        """The slots moved: index the rows of ``indexed`` slots again."""
        self._written = None
        slots = np.flatnonzero(indexed).tolist()
        for name, column in columns.items():
            by_value: dict[int, set[int]] = {}
            for slot, value in zip(slots, column[slots].tolist(), strict=True):
                if value >= 0:
                    by_value.setdefault(value, set()).add(slot)
            self._by_value[name] = by_value

    def take(self) -> _Snapshot:
        """What one ``rescore_columns`` passes on; the written slots start again."""
        written = None if self._written is None else np.unique(
            np.asarray(self._written, dtype=np.intp))
        self._written, self._epoch = [], self._epoch + 1
        return _Snapshot(self, self._epoch, written, self._by_value)


@dataclass(frozen=True, slots=True)
class _Snapshot:
    source: _Moves
    epoch: int
    written: npt.NDArray[np.intp] | None
    by_value: Mapping[str, Mapping[int, AbstractSet[int]]]


class ColumnView(Mapping[str, "npt.NDArray[Any]"]):
    """The packed columns ``rescore_columns`` gives its score function (views of the
    queue's own, one row per slot), and what the queue knows of which rows moved: a score
    function that keeps what it computed per row may then read only those (issue 15)."""

    __slots__ = ("_columns", "_moves")

    def __init__(self, columns: dict[str, npt.NDArray[Any]], moves: _Snapshot) -> None:
        self._columns, self._moves = columns, moves

    def __getitem__(self, name: str) -> npt.NDArray[Any]:
        return self._columns[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._columns)

    def __len__(self) -> int:
        return len(self._columns)

    @property
    def source(self) -> object:
        """The same object for every call on one queue, another for another queue."""
        return self._moves.source

    @property
    def epoch(self) -> int:
        """The number of this ``rescore_columns`` call on the queue: 1, 2, …"""
        return self._moves.epoch

    def written(self) -> npt.NDArray[np.intp] | None:
        """The rows whose packed values were written since the previous call (``epoch`` -
        1), sorted; None when the rows moved since (the queue grew or was compacted)."""
        return self._moves.written

    def rows_with(self, name: str, values: Sequence[int]) -> npt.NDArray[np.intp] | None:
        """The live rows with a signal whose column ``name`` holds one of ``values``,
        sorted; None when the queue does not index that column (``Packing.indexed``) or
        a value is negative."""
        by_value = self._moves.by_value.get(name)
        if by_value is None or any(value < 0 for value in values):
            return None
        rows: set[int] = set()
        for value in values:
            rows.update(by_value.get(value, ()))
        return np.asarray(sorted(rows), dtype=np.intp)
