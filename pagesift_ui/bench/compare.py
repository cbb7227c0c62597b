"""Two benchmark runs of the same queries, compared query by query.

Issue 11 asks that every change be measured before and after on all dev queries. A median
over 22 queries moves by tenths with the order of a few middle queries (its bootstrap
interval, ``summary.median_interval``, spans 1.67–3.35 on the tuning sets), so a comparison
says more than the two medians: how many queries reached 90% sooner and how many later, the
pages to 90% summed, and how likely so lopsided a count is when the change makes no
difference (the exact sign test, Dixon & Mood 1946).

A query that never reached 90% counts at the pages it ran + 1 in the sum (a lower bound, as
in its ratio to the oracle: the budget + 1 for a crawl that ran to its budget); against a
query that did, it is the later one; two that never did are the same.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from pathlib import Path
from typing import Any

from .summary import QueryRow, Summary, query_row, summarise

__all__ = ["Comparison", "Direction", "QueryChange", "compare", "load_rows"]


class Direction(Enum):
    """Where a query's pages to 90% went from the first run to the second."""

    SOONER = "sooner"
    LATER = "later"
    SAME = "same"


def _pages_to_90(row: QueryRow, crawler: str) -> int | None:
    return row.crawlers[crawler].pages_to[1]


def _counted(row: QueryRow, crawler: str) -> int:
    """Pages to 90%, or its lower bound for a query that never got there (the pages run
    + 1, as ``QueryRow.pages_to_90`` gives it to the ratio)."""
    pages = row.pages_to_90(crawler)
    if pages is None:  # compare() keeps only the rows that have the crawler
        raise ValueError(f"{row.label} has no {crawler} crawl")
    return int(pages.value)


@dataclass(frozen=True, slots=True)
class QueryChange:
    """One query in both runs."""

    before: QueryRow
    after: QueryRow
    crawler: str = "focused"

    @property
    def label(self) -> str:
        return self.before.label

    @property
    def direction(self) -> Direction:
        old = _pages_to_90(self.before, self.crawler)
        new = _pages_to_90(self.after, self.crawler)
        if old == new:  # the same page, or 90% reached in neither
            return Direction.SAME
        if new is None:
            return Direction.LATER
        if old is None or new < old:
            return Direction.SOONER
        return Direction.LATER

    def to_json(self) -> dict[str, Any]:
        before, after = (row.crawlers[self.crawler] for row in (self.before, self.after))
        return {
            "label": self.label, "direction": self.direction.value,
            "pages_to_90": [before.pages_to[1], after.pages_to[1]],
            "own_stop_pages": [before.stop_pages, after.stop_pages],
            "own_stop_recall": [round(before.stop_recall, 4), round(after.stop_recall, 4)],
        }


@dataclass(frozen=True, slots=True)
class Comparison:
    """Two runs over the queries they share; ``only_before`` and ``only_after`` name the
    queries one of them lacks (left out of every number)."""

    changes: tuple[QueryChange, ...]
    before: Summary
    after: Summary
    only_before: tuple[str, ...]
    only_after: tuple[str, ...]
    crawler: str = "focused"

    def count(self, direction: Direction) -> int:
        return sum(1 for change in self.changes if change.direction is direction)

    @property
    def summed(self) -> tuple[int, int]:
        """Pages to 90% summed over the shared queries, before and after (a query never at
        90% counted at its lower bound, ``_counted``)."""
        return (sum(_counted(c.before, self.crawler) for c in self.changes),
                sum(_counted(c.after, self.crawler) for c in self.changes))

    @property
    def sign_p(self) -> float | None:
        """The two-sided exact sign test's p-value for the queries that moved: the chance
        of a split at least this uneven between sooner and later if the change were a coin
        toss for each (``scipy.stats.binomtest``); None when none moved."""
        sooner, later = self.count(Direction.SOONER), self.count(Direction.LATER)
        if sooner + later == 0:
            return None
        from scipy import stats  # ~2.5 s to import: only when a comparison asks for it

        return float(stats.binomtest(sooner, sooner + later, 0.5).pvalue)

    def to_json(self) -> dict[str, Any]:
        before, after = self.summed
        p = self.sign_p
        return {
            "crawler": self.crawler, "queries": len(self.changes),
            "sooner": self.count(Direction.SOONER), "later": self.count(Direction.LATER),
            "same": self.count(Direction.SAME),
            "pages_to_90_summed": [before, after],
            "sign_test_p": None if p is None else round(p, 4),
            "before": self.before.to_json(), "after": self.after.to_json(),
            "only_before": list(self.only_before), "only_after": list(self.only_after),
            "queries_compared": [change.to_json() for change in self.changes],
        }


def compare(before: Sequence[QueryRow], after: Sequence[QueryRow],
            crawler: str = "focused") -> Comparison:
    """``before`` and ``after`` matched by query label (rows without ``crawler`` or the
    oracle are left out, as ``summarise`` leaves them out)."""

    def usable(rows: Sequence[QueryRow]) -> dict[str, QueryRow]:
        return {r.label: r for r in rows if crawler in r.crawlers and "oracle" in r.crawlers}

    old, new = usable(before), usable(after)
    shared = sorted(old.keys() & new.keys())
    changes = tuple(QueryChange(old[label], new[label], crawler) for label in shared)
    return Comparison(
        changes,
        summarise([c.before for c in changes], crawler),
        summarise([c.after for c in changes], crawler),
        tuple(sorted(old.keys() - new.keys())), tuple(sorted(new.keys() - old.keys())),
        crawler,
    )


def load_rows(folder: Path, sites: Iterable[str] | None = None) -> list[QueryRow]:
    """The query rows of the reports saved in ``folder`` (``run_all.py``'s
    ``<site>-<query>.json``; summaries and other files are skipped), only those of ``sites``
    when given."""
    prefixes = None if sites is None else tuple(f"{site}-" for site in sites)
    rows = []
    for path in sorted(folder.glob("*.json")):
        if prefixes is not None and not path.name.startswith(prefixes):
            continue
        report = json.loads(path.read_text(encoding="utf-8"))
        if not isinstance(report, dict) or "crawlers" not in report or "label" not in report:
            continue  # a summary, the stop replays, the step benchmark: not a query's report
        rows.append(query_row(report))
    return rows
