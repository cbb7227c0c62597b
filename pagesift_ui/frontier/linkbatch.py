"""The link score of a whole queue at once, with numpy (docs/DESIGN.md §8, §9; issue 15).

``score_batch`` gives, for many ``LinkSignal``s, the very floats ``links.score`` gives one at a
time (tests hold them to it): the signals are packed into columns (``LinkColumns``), the
features, the credits and the shape are gathered from small tables, and the sum is made in
``links._raw``'s order. A queue keeps the columns per link (``LINK_COLUMNS``, ``column_row``),
and ``score_queued`` rescores its columns, reading back the sums before popularity when
nothing else moved (``PartialSums``): after a page read only popularity moves for most rows.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier.families import FAMILY_WEIGHT
from pagesift_ui.frontier.links import (
    DATED_FACTOR,
    DEPTH_DECAY,
    FURNITURE_FACTOR,
    LANGUAGE_PORTAL_SCORE,
    OTHER_LANGUAGE_FACTOR,
    ROW_DEPTH_SHIFT,
    ROW_FLAGS,
    Credits,
    LinkSignal,
)
from pagesift_ui.frontier.model import as_features
from pagesift_ui.frontier.popularity import POPULARITY_WEIGHT
from pagesift_ui.frontier.queue_values import RowScores
from pagesift_ui.frontier.siblings import NO_GROUP, SIBLING_WEIGHT
from pagesift_ui.frontier.weights import coverage_table, mask_coverage_array

__all__ = [
    "LINK_COLUMNS",
    "LinkColumns",
    "MovedRows",
    "PartialSums",
    "column_row",
    "row_array",
    "score_batch",
    "score_queued",
]

_ROW_DTYPE = np.dtype(
    [("anchor", np.int64), ("locator", np.int64), ("context", np.int64),
     ("code", np.int64), ("parent", np.float64), ("group", np.int64), ("target", np.int64),
     ("meaning", np.float64)]
)


def row_array(size: int) -> npt.NDArray[np.void]:
    """``size`` packed signal rows (``LinkSignal.row``), zeroed: what ``LinkColumns.from_rows``
    reads."""
    return np.zeros(size, dtype=_ROW_DTYPE)


#: ``LinkColumns``' fields as (name, numpy dtype, width; 0: one number): a queue keeps them
#: per link (``queue.Packing``, filled by ``column_row``), so a rescore reads columns
#: instead of packing every signal again (issue 15). One contiguous column per number: a
#: gather indexed by a column of a 2-D block is ~2× slower.
LINK_COLUMNS: tuple[tuple[str, str, int], ...] = (
    ("anchor", "int64", 0), ("locator", "int64", 0), ("context", "int64", 0),
    ("depth", "int64", 0), ("decay", "float64", 0), ("parent", "float64", 0),
    ("flag_code", "int64", 0), ("group", "int64", 0), ("target", "int64", 0),
    ("meaning", "float64", 0), ("partial", "float64", 0),
)
_FLAG_MASK = (1 << len(ROW_FLAGS)) - 1


def column_row(signal: object) -> tuple[Any, ...]:
    """A ``LinkSignal``'s values in ``LINK_COLUMNS`` order, the ones ``from_signals`` packs."""
    if not isinstance(signal, LinkSignal):
        raise TypeError(f"not a link signal: {type(signal).__name__}")
    anchor, locator, context, code, parent, group, target, meaning = signal.row
    depth = code >> ROW_DEPTH_SHIFT
    return (anchor, locator, context, depth, DEPTH_DECAY**depth, parent, code & _FLAG_MASK,
            group, target, meaning, math.nan)


@dataclass(frozen=True, slots=True)
class LinkColumns:
    """The numbers of many link signals as numpy columns, built once and rescored often.

    A queue keeps this alongside its signals; ``score_batch`` also accepts a plain sequence of
    signals and packs it on every call (the packing, not the scoring, is then the cost).
    """

    anchor: npt.NDArray[np.int64]  # term bit masks
    locator: npt.NDArray[np.int64]
    context: npt.NDArray[np.int64]
    depth: npt.NDArray[np.int64]
    # DEPTH_DECAY ** depth, the Python float score multiplies by: kept with the link, so a
    # rescore does not look it up by depth (issue 15)
    decay: npt.NDArray[np.float64]
    parent: npt.NDArray[np.float64]  # parent relevance, × HUB_FACTOR (hub), × CITATION_FACTOR
    # the flags as bits (bit i: ROW_FLAGS[i]: phrase, furniture, dated, section, portal,
    # other language), so score_batch reads its phrase feature and shape factors from tables
    # indexed by it rather than from chains of np.where (issue 15)
    flag_code: npt.NDArray[np.int64]
    group: npt.NDArray[np.int64]  # sibling group id, NO_GROUP (-1) for none
    target: npt.NDArray[np.int64]  # popularity target id, -1 for none
    meaning: npt.NDArray[np.float64]  # the link's lift by meaning (LinkSignal.meaning)
    # the raw sum before its popularity term, as score_queued last computed it; NaN: not
    # yet (a link queued or changed since). Written by score_queued only.
    partial: npt.NDArray[np.float64]

    @classmethod
    def from_signals(cls, signals: Sequence[LinkSignal]) -> LinkColumns:
        rows = np.fromiter(
            (signal.row for signal in signals), dtype=_ROW_DTYPE, count=len(signals)
        )
        return cls.from_rows(rows)

    @classmethod
    def from_rows(
        cls, rows: npt.NDArray[np.void], depth: npt.NDArray[np.int64] | None = None
    ) -> LinkColumns:
        """Packed signal rows (``row_array``), at ``depth`` instead of their own when given
        (a link's offers scored at its queued depth, ``offers.py``)."""
        code = rows["code"]
        if depth is None:
            depth = code >> ROW_DEPTH_SHIFT
        deepest = int(depth.max()) if len(depth) else 0
        decay = np.array([DEPTH_DECAY**d for d in range(deepest + 1)])[depth]
        return cls(
            anchor=rows["anchor"].copy(), locator=rows["locator"].copy(),
            context=rows["context"].copy(), depth=depth, decay=decay,
            parent=rows["parent"].copy(), flag_code=code & _FLAG_MASK,
            group=rows["group"].copy(), target=rows["target"].copy(),
            meaning=rows["meaning"].copy(), partial=np.full(len(rows), np.nan),
        )

    @classmethod
    def from_columns(cls, columns: Mapping[str, npt.NDArray[Any]]) -> LinkColumns:
        """The columns a queue kept by ``LINK_COLUMNS`` (views, not copies)."""
        return cls(**{name: columns[name] for name, _, _ in LINK_COLUMNS})

    def __len__(self) -> int:
        return int(self.depth.shape[0])

    def rows(self, index: npt.NDArray[np.intp]) -> LinkColumns:
        """These rows only (copies)."""
        return LinkColumns(**{f.name: getattr(self, f.name)[index] for f in fields(self)})


# The phrase feature by flag code (bit 0): 1.0 or 0.0.
_PHRASE = np.where(np.arange(_FLAG_MASK + 1) & 1 == 1, 1.0, 0.0)


def score_batch(
    signals: Sequence[LinkSignal] | LinkColumns,
    link_weights: Sequence[float],
    term_weights: Sequence[float],
    portal_open: bool,
    english_query: bool,
    credits: Credits = None,
    shares: Credits = None,
    families: Credits = None,
) -> npt.NDArray[np.float64]:
    """``score`` of many links at once, as a float64 array with the very same numbers.

    Every per-link operation of ``score`` is one numpy pass, in the same order, so each
    float is rounded as ``score`` rounds it. A factor that depends on a small id (a mask,
    a flag code, a group, a target) is applied to the small table first and then gathered:
    elementwise, the same floats, with one pass over the links instead of two; the passes
    write into two buffers (a queue of 100k links is rescored twice a step, issue 15).
    """
    weights = as_features(link_weights, "link_weights")
    cols = signals if isinstance(signals, LinkColumns) else LinkColumns.from_signals(signals)
    n = len(cols)
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    total, part = np.empty(n, dtype=np.float64), np.empty(n, dtype=np.float64)
    _sum_before_popularity(cols, weights, term_weights, credits, total, part)
    return _finish(cols, total, part, portal_open, english_query, shares, families)


class PartialSums:
    """The inputs under which ``score_queued`` last scored a queue's columns: link and term
    weights, sibling credits, popularity shares, family credits and the two shape flags. The
    next call compares its own with them to find what moved (issue 15): the rows whose
    inputs did not move keep the floats they have."""

    __slots__ = ("_credits", "_families", "_flags", "_last", "_shares", "_term_weights",
                 "_weights")

    def __init__(self) -> None:
        self._last: tuple[object, int] | None = None  # the MovedRows of the last call
        self._weights: tuple[float, ...] | None = None  # None: nothing scored yet
        self._term_weights: tuple[float, ...] = ()
        self._credits = np.zeros(0, dtype=np.float64)
        self._shares = np.zeros(0, dtype=np.float64)
        self._families = np.zeros(0, dtype=np.float64)
        self._flags: tuple[bool, bool] | None = None

    def moved(
        self, weights: tuple[float, ...], term_weights: Sequence[float], credits: Credits,
        shares: Credits, flags: tuple[bool, bool], families: Credits = None,
    ) -> tuple[npt.NDArray[np.intp] | None, npt.NDArray[np.intp] | None]:
        """What moved since the last call, and records the inputs either way: the group ids
        whose credit moved (None: every sum before popularity must be made again) and the
        target ids whose share or family credit moved (None: every score must be finished
        again)."""
        credits_now, shares_now = _table(credits), _table(shares)
        families_now = _table(families)
        groups = None
        if weights == self._weights and tuple(term_weights) == self._term_weights:
            groups = _moved_ids(self._credits, credits_now)
        targets = None
        if groups is not None and flags == self._flags:
            by_share = _moved_ids(self._shares, shares_now)
            by_family = _moved_ids(self._families, families_now)
            if by_share is not None and by_family is not None:
                targets = np.union1d(by_share, by_family) if len(by_family) else by_share
        self._weights, self._term_weights = weights, tuple(term_weights)
        self._credits, self._shares, self._flags = credits_now, shares_now, flags
        self._families = families_now
        return groups, targets

    def follows(self, moved: MovedRows | None) -> bool:
        """Is ``moved`` the queue's next call after the last one these sums saw? Records
        it either way."""
        if moved is None:
            self._last = None
            return False
        last, self._last = self._last, (moved.source, moved.epoch)
        return last is not None and last[0] is moved.source and last[1] + 1 == moved.epoch


class MovedRows(Protocol):
    """What a queue knows of which of its rows moved (``queue.ColumnView``)."""

    @property
    def source(self) -> object: ...

    @property
    def epoch(self) -> int: ...

    def written(self) -> npt.NDArray[np.intp] | None: ...

    def rows_with(self, name: str, values: Sequence[int]) -> npt.NDArray[np.intp] | None: ...


def _table(values: Credits) -> npt.NDArray[np.float64]:
    """Credits or shares as an array that is the caller's no more (empty for None)."""
    return np.zeros(0) if values is None else np.array(values, dtype=np.float64)


def _moved_ids(
    before: npt.NDArray[np.float64], now: npt.NDArray[np.float64]
) -> npt.NDArray[np.intp] | None:
    """The ids whose number differs between the two tables, or None when every link must
    be taken again: the table shrank, or went from empty to not (an empty table adds
    nothing, a full one adds +0.0 for the ids it lacks). An id the old table lacked read
    0.0, so it moved only if its new number is not 0.0."""
    if len(now) < len(before) or (len(before) == 0) != (len(now) == 0):
        return None
    peek = min(_PEEK, len(before))
    if np.count_nonzero(now[:peek] != before[:peek]) > _PEEK // 4:
        return None  # most moved (a page read moves every share): not worth listing them
    head = np.flatnonzero(now[: len(before)] != before)
    tail = np.flatnonzero(now[len(before):] != 0.0) + len(before)
    return np.concatenate([head, tail]) if len(tail) else head


#: The ids ``_moved_ids`` looks at first, to tell "most moved" without listing them.
_PEEK = 64

#: Finish only the rows that moved while they are at most this share of the queue; past
#: it, one pass over every row costs less than gathering them.
_FEW_ROWS = 0.25


def score_queued(
    cols: LinkColumns,
    sums: PartialSums,
    link_weights: Sequence[float],
    term_weights: Sequence[float],
    portal_open: bool,
    english_query: bool,
    credits: Credits = None,
    shares: Credits = None,
    moved: MovedRows | None = None,
    families: Credits = None,
) -> npt.NDArray[np.float64] | RowScores:
    """``score_batch`` of a queue's columns (the same floats), keeping each link's raw sum
    before its popularity term in ``cols.partial``, and made again only where its inputs
    moved since the last call (``sums``; issue 15):

    - the sums of the rows queued or changed since (NaN) and of the rows whose sibling
      group's credit moved; every sum when the link or term weights moved;
    - the scores of those rows and of the rows whose popularity share or family credit
      moved, returned as ``RowScores`` (the other rows score what they scored: the queue
      keeps their floats);
      every score, as an array, when the shape flags or most shares moved (a page read
      moves every share).

    ``moved`` is the queue's view of its rows (``queue.ColumnView``): without it, or when
    another function rescored the queue since this one's last call, every score is made
    again (the sums are still read back). It lists the rows written since the last call
    and the rows of a group, so neither is a pass over the queue.

    The sum is left to right, so the partial sum is exactly the one a full sum passes."""
    weights = as_features(link_weights, "link_weights")
    n = len(cols)
    if n == 0:
        return np.zeros(0, dtype=np.float64)
    part = np.empty(n, dtype=np.float64)
    follows = sums.follows(moved)
    groups, targets = sums.moved(weights, term_weights, credits, shares,
                                 (portal_open, english_query), families)
    if groups is None:
        _sum_before_popularity(cols, weights, term_weights, credits, cols.partial, part)
        stale = None
    else:
        stale = _unsummed(cols.partial, moved.written() if moved and follows else None)
        if len(groups):
            stale = np.union1d(stale, _rows_reading(cols.group, groups, credits, moved))
        if len(stale):
            some = cols.rows(stale)
            _sum_before_popularity(some, weights, term_weights, credits, some.partial,
                                   np.empty(len(stale), dtype=np.float64))
            cols.partial[stale] = some.partial
    # the kept scores are this function's own only if the queue says no other call wrote
    # scores since this one's last (``follows``)
    if follows and stale is not None and targets is not None and len(targets) <= _FEW_ROWS * n:
        if len(targets):
            # the longer of the two per-target tables sizes the flags (the ids of either)
            by_target = shares if _size(shares) >= _size(families) else families
            stale = np.union1d(stale, _rows_reading(cols.target, targets, by_target))
        if len(stale) <= _FEW_ROWS * n:
            some = cols.rows(stale)
            scores = _finish(some, some.partial.copy(), np.empty(len(stale)), portal_open,
                             english_query, shares, families)
            return RowScores(stale, scores)
    return _finish(cols, cols.partial.copy(), part, portal_open, english_query, shares,
                   families)


def _size(values: Credits) -> int:
    return 0 if values is None else len(values)


def _unsummed(
    partial: npt.NDArray[np.float64], written: npt.NDArray[np.intp] | None
) -> npt.NDArray[np.intp]:
    """The rows whose partial sum is NaN: among ``written`` (every row written since the
    last call, which left none), or among all."""
    if written is None:
        return np.flatnonzero(np.isnan(partial))
    return written[np.isnan(partial[written])]


def _rows_reading(
    ids: npt.NDArray[np.int64], moved: npt.NDArray[np.intp], values: Credits,
    index: MovedRows | None = None, name: str = "group",
) -> npt.NDArray[np.intp]:
    """The rows whose id (a group or a target) is one of ``moved``, ids of ``values``:
    from the queue's index of the column ``name`` when it has one."""
    rows = None if index is None else index.rows_with(name, moved.tolist())
    if rows is not None:
        return rows
    size = 0 if values is None else len(values)
    if _in_range(ids, NO_GROUP, size):
        # one gather of a flag per id; -1 reads the last flag, which is False
        flag = np.zeros(size + 1, dtype=bool)
        flag[moved] = True
        return np.flatnonzero(np.take(flag, ids, mode="wrap"))
    return np.flatnonzero(np.isin(ids, moved))


def _sum_before_popularity(
    cols: LinkColumns, weights: tuple[float, ...], term_weights: Sequence[float],
    credits: Credits, total: npt.NDArray[np.float64], part: npt.NDArray[np.float64],
) -> None:
    """Into ``total``: 0.0 + w₀x₀ + … + w₄x₄ + meaning + SIBLING_WEIGHT × credit, left to
    right as ``_raw`` sums. 0.0 + y is done on the first table (it turns -0.0 into +0.0);
    the sum is never -0.0 after it. ``part`` is a buffer of the same length."""
    masks = (cols.anchor, cols.locator, cols.context)
    table = _coverage_table(tuple(term_weights))
    if table is None:
        for k, mask in enumerate(masks):
            scaled = weights[k] * mask_coverage_array(mask, term_weights)
            total[:] = 0.0 + scaled if k == 0 else total + scaled
    else:
        if not _bits_within(masks, len(table)):
            raise ValueError(f"masks must be non-negative with bits only in the "
                             f"{len(term_weights)} terms")
        _gather(0.0 + weights[0] * table, cols.anchor, total)
        total += _gather(weights[1] * table, cols.locator, part)
        total += _gather(weights[2] * table, cols.context, part)
    total += np.multiply(cols.parent, weights[3], out=part)
    if not _bits_within((cols.flag_code,), _FLAG_MASK + 1):
        raise ValueError("flag codes must be in [0, 63]")
    total += _gather(weights[4] * _PHRASE, cols.flag_code, part)
    total += cols.meaning
    if credits is not None and len(credits):
        # without any: + 0.0 would leave a sum that is not -0.0 as it is
        total += _credit_column(cols.group, np.asarray(credits, dtype=np.float64),
                                SIBLING_WEIGHT, part)


def _finish(
    cols: LinkColumns, total: npt.NDArray[np.float64], part: npt.NDArray[np.float64],
    portal_open: bool, english_query: bool, shares: Credits, families: Credits = None,
) -> npt.NDArray[np.float64]:
    """The popularity and family terms, max(·, 0), the shape steps and the depth decay, in
    place."""
    if shares is not None and len(shares):
        total += _credit_column(cols.target, np.asarray(shares, dtype=np.float64),
                                POPULARITY_WEIGHT, part)
    if families is not None and len(families):
        total += _credit_column(cols.target, np.asarray(families, dtype=np.float64),
                                FAMILY_WEIGHT, part)
    # ≥ +0.0, so × 1.0 and max(·, 0.0) below leave a value as it is: the same floats as
    # _shape's steps
    value = np.maximum(total, 0.0, out=total)
    factor, lowered, floor = _shape_tables(portal_open, english_query)
    value *= _gather(factor, cols.flag_code, part)
    if english_query:
        value *= _gather(lowered, cols.flag_code, part)
        if portal_open:
            np.maximum(value, _gather(floor, cols.flag_code, part), out=value)
    # the same Python floats as score's DEPTH_DECAY ** depth, kept per link
    value *= cols.decay
    return value


def _in_range(ids: npt.NDArray[np.int64], low: int, high: int) -> bool:
    return not len(ids) or (int(ids.min()) >= low and int(ids.max()) < high)


def _bits_within(columns: Sequence[npt.NDArray[np.int64]], size: int) -> bool:
    """Every value of the columns is in [0, size), ``size`` a power of two: one OR per
    column (a negative value sets the sign bit), not a min and a max."""
    bits = 0
    for column in columns:
        if len(column):
            bits |= int(np.bitwise_or.reduce(column))
    return 0 <= bits < size


def _gather(
    table: npt.NDArray[np.float64], ids: npt.NDArray[np.int64], out: npt.NDArray[np.float64]
) -> npt.NDArray[np.float64]:
    """``table[ids]`` into ``out``, for ids in [-len(table), len(table)) (checked by the
    caller): -1 is the last entry, as in indexing. ``take`` with ``out`` buffers everything
    in its default mode (~5× slower); ``wrap`` does not, and leaves these ids as they are."""
    return np.take(table, ids, out=out, mode="wrap")


@lru_cache(maxsize=16)
def _coverage_table(term_weights: tuple[float, ...]) -> npt.NDArray[np.float64] | None:
    """``coverage_table``, kept for the last few term weights (read only): the rescore of a
    few moved rows is otherwise mostly the making of its tables (issue 15)."""
    table = coverage_table(term_weights)
    if table is not None:
        table.setflags(write=False)
    return table


@lru_cache(maxsize=4)
def _shape_tables(
    portal_open: bool, english_query: bool
) -> tuple[npt.NDArray[np.float64], npt.NDArray[np.float64], npt.NDArray[np.float64]]:
    """By flag code: the dated/furniture factor, the other-language factor, the portal floor
    (the factors 1.0 and the floor 0.0 where a rule does not apply), as ``_shape`` applies them."""
    codes = np.arange(_FLAG_MASK + 1)
    bit = {name: (codes >> i) & 1 == 1 for i, name in enumerate(ROW_FLAGS)}
    factor = np.where(bit["dated"], DATED_FACTOR,
                      np.where(bit["furniture"], FURNITURE_FACTOR, 1.0))
    portal = bit["portal"] & portal_open & english_query
    lowered = np.where(bit["other_language"] & ~portal, OTHER_LANGUAGE_FACTOR, 1.0)
    floor = np.where(portal, LANGUAGE_PORTAL_SCORE, 0.0)
    for table in (factor, lowered, floor):
        table.setflags(write=False)  # kept by lru_cache for every later call
    return factor, lowered, floor


def _credit_column(
    group: npt.NDArray[np.int64], credits: npt.NDArray[np.float64], weight: float,
    out: npt.NDArray[np.float64],
) -> npt.NDArray[np.float64]:
    """``weight`` × each link's number by id, into ``out``, as ``sibling_credit`` /
    ``popularity`` give it (0 for none); ``credits`` is not empty."""
    if 4 * len(group) < len(credits):
        # a few rows (score_queued's moved ones): their own numbers, not a table of all
        known = (group >= 0) & (group < len(credits))
        out[:] = np.where(known, weight * credits[np.where(known, group, 0)], 0.0)
        return out
    if _in_range(group, NO_GROUP, len(credits)):
        # the ids a crawl hands out: -1 reads a 0.0 after the last, one gather; the
        # table is scaled and padded in one pass (it is as long as the queue, issue 15)
        table = np.empty(len(credits) + 1, dtype=np.float64)
        np.multiply(credits, weight, out=table[:-1])
        table[-1] = 0.0
        return _gather(table, group, out)
    known = (group >= 0) & (group < len(credits))
    out[:] = np.where(known, weight * credits[np.clip(group, 0, len(credits) - 1)], 0.0)
    return out
