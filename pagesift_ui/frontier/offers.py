"""Every distinct offer of a queued link, so that it is ranked by the best of them as they
score now (docs/DESIGN.md §11.11, step 5; issue 11).

A queued link met again used to keep the better-scoring of its stored and its new signal *at
that moment*. What a signal is worth moves afterwards: the list it was offered in proves
relevant or not (sibling credit), the term weights and the link model move, popularity
fades. So a link kept whichever offer was best when the two last met, and an offer passed
over then was never read again, however well it would score now (the Python docs' `text`
query: ``library/text.html``, the chapter of every answer, kept a citation's signal from
``stdtypes.html`` while its offer from ``re.html``, a relevant page, would have scored more).

``LinkOffers`` keeps, per queued link met more than once, every distinct signal it was
offered with (at most ``MAX_OFFERS``) as packed rows, and ``best`` scores them all in one
batch: the crawl gives each link the best of its offers, at its queued depth, after every
page's links are offered (``FrontierState.take_best_offers``). The offers are the ones the
queue saw; no order decides between them. Measured on all 93 dev queries with the lead
judged by the next pops (``session/stepping.pending_lead``): pages to 90% summed 990 → 898
on the tuning sets and 7,175 → 6,884 held out (docs/DECISIONS.md, issue 11: "Adopted: a
queued link at the best of its offers now").

A link offered once has no entry here: its one offer is the queue's signal. The first time
it is met again, the queue's signal joins as its first offer.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import replace
from itertools import chain

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier.linkbatch import LinkColumns, row_array
from pagesift_ui.frontier.links import LinkSignal, relinked

__all__ = ["MAX_OFFERS", "LinkOffers"]

#: The distinct offers kept per link. A link in the navigation of every page is offered once
#: per page with the same few signals; one listed by many pages keeps its first 32 distinct
#: ones, which bounds the work and memory a link costs (each offer is a packed row of 64
#: bytes and a reference to its signal).
MAX_OFFERS = 32
#: The forgotten rows are dropped when they are over half of all rows and the rows number
#: more than this (a crawl's links are popped one by one; a compaction copies every row).
_COMPACT_AT = 1024


class LinkOffers:
    """The distinct offers of the queued links met more than once (module docstring)."""

    __slots__ = ("_by_key", "_dead", "_kept", "_rows", "_signals", "_size")

    def __init__(self) -> None:
        self._by_key: dict[str, list[int]] = {}  # key → its offers' row numbers
        # key → its offers as a set, to tell a new one from those kept by a hash (frozen
        # signals hash their fields) rather than a comparison with each (issue 15)
        self._kept: dict[str, set[LinkSignal]] = {}
        self._signals: list[LinkSignal | None] = []  # by row; None: forgotten
        self._rows = row_array(64)
        self._size = 0
        self._dead = 0

    def __len__(self) -> int:
        """The links with offers kept."""
        return len(self._by_key)

    def __iter__(self) -> Iterator[str]:
        """The links with offers kept, in the order they were first met again."""
        return iter(list(self._by_key))

    def offers(self, key: str) -> list[LinkSignal]:
        """The offers kept for ``key``, in the order they came (empty: met once or never)."""
        return [signal for row in self._by_key.get(key, ())
                if (signal := self._signals[row]) is not None]

    def offer(self, key: str, signal: LinkSignal, queued: LinkSignal | None) -> None:
        """``signal`` offers the queued link ``key`` again; ``queued`` is the signal the queue
        holds for it (its first offer, if none is kept yet). A signal equal to one kept, or
        one past ``MAX_OFFERS``, is not kept."""
        rows = self._by_key.get(key)
        if rows is None:
            rows = self._by_key[key] = []
            kept = self._kept[key] = set()
            if queued is not None:
                rows.append(self._append(queued))
                kept.add(queued)
        else:
            kept = self._kept[key]
        if len(rows) >= MAX_OFFERS or signal in kept:
            return
        rows.append(self._append(signal))
        kept.add(signal)

    def redepth(self, key: str, signal: LinkSignal, depth: int) -> LinkSignal:
        """``signal``, an offer of ``key``, at ``depth`` (a shorter path to the link was
        found): the kept offer becomes that copy, which is returned."""
        moved = replace(signal, depth=depth)
        for row in self._by_key.get(key, ()):
            if self._signals[row] is signal:
                self._signals[row] = moved
                self._rows[row] = moved.row
                # the deeper original stays in the set too: offered again, it would score as
                # its copy does at the queued depth, so it is not worth a row
                self._kept[key].add(moved)
        return moved

    def relink(self, relevance_of: Mapping[str, float]) -> int:
        """The offers read on a page whose relevance is now ``relevance_of[page key]`` (a
        user's label, docs/DESIGN.md §12.3) take it as their parent relevance, as the queue's
        own signals do; returns how many moved."""
        moved = 0
        for key, rows in self._by_key.items():
            kept = self._kept[key]
            for row in rows:
                signal = self._signals[row]
                if signal is None or (moved_signal := relinked(signal, relevance_of)) is None:
                    continue
                self._signals[row] = moved_signal
                self._rows[row] = moved_signal.row
                kept.discard(signal)
                kept.add(moved_signal)
                moved += 1
        return moved

    def forget(self, key: str) -> None:
        """``key`` is no longer queued (fetched, dropped): its offers go."""
        rows = self._by_key.pop(key, None)
        if rows is None:
            return
        del self._kept[key]
        for row in rows:
            self._signals[row] = None
        self._dead += len(rows)
        if self._dead * 2 > self._size and self._size > _COMPACT_AT:
            self._compact()

    def best(
        self,
        queued: Callable[[str], bool],
        score: Callable[[LinkColumns], npt.NDArray[np.float64]],
    ) -> list[tuple[str, LinkSignal]]:
        """Every kept link's best offer under ``score`` (a batch scorer: the queue's scoring,
        ``Focus.score_batch``), as (key, signal); a link no longer ``queued`` is forgotten.
        The offers are scored at depth 0: a link's offers all stand at its queued depth, and
        the depth decay multiplies every one of them alike, last (``linkbatch._finish``), so
        it decides nothing between them. Ties go to the earlier offer."""
        for key in [key for key in self._by_key if not queued(key)]:
            self.forget(key)  # may renumber the rows: before any is read
        if not self._by_key:
            return []
        keys = list(self._by_key)
        kept = list(self._by_key.values())
        sizes = np.fromiter((len(rows) for rows in kept), dtype=np.intp, count=len(kept))
        index = np.fromiter(chain.from_iterable(kept), dtype=np.intp, count=int(sizes.sum()))
        values = score(LinkColumns.from_rows(self._rows[index],
                                             np.zeros(len(index), dtype=np.int64)))
        owner = np.repeat(np.arange(len(keys)), sizes)
        # by link, then by score down, then in the order the offers came: the first of each
        # link's run is its first best offer (one sort, not a call per link; issue 15)
        order = np.lexsort((np.arange(len(index)), -values, owner))
        firsts = order[np.concatenate(([0], np.cumsum(sizes)[:-1]))]
        out = []
        for key, row in zip(keys, index[firsts].tolist(), strict=True):
            signal = self._signals[row]
            assert signal is not None  # a kept key's rows are live
            out.append((key, signal))
        return out

    def _append(self, signal: LinkSignal) -> int:
        if self._size == len(self._rows):
            grown = row_array(2 * len(self._rows))
            grown[: self._size] = self._rows
            self._rows = grown
        self._rows[self._size] = signal.row
        self._signals.append(signal)
        self._size += 1
        return self._size - 1

    def _compact(self) -> None:
        """Drop the forgotten rows, renumbering the rest in order."""
        live = [row for rows in self._by_key.values() for row in rows]
        live.sort()
        renumber = {old: new for new, old in enumerate(live)}
        rows = row_array(max(64, 2 * len(live)))
        if live:
            rows[: len(live)] = self._rows[np.asarray(live, dtype=np.intp)]
        self._signals = [self._signals[old] for old in live]
        self._rows, self._size, self._dead = rows, len(live), 0
        self._by_key = {key: [renumber[row] for row in kept]
                        for key, kept in self._by_key.items()}
