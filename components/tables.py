"""Tables: pure row → DataFrame builders, and thin renderers around ``st.dataframe``."""

from __future__ import annotations

from collections.abc import MutableMapping, Sequence
from collections.abc import Set as AbstractSet
from dataclasses import dataclass
from typing import Any

import pandas as pd
import streamlit as st

from components.decision_log import short_url
from components.state import AnySession, StateKey
from pagesift_ui.frontier.links import SCORE_TERM_NAMES
from pagesift_ui.session import FrontierRow, PageRow, PartStats
from pagesift_ui.session.views import page_rows

__all__ = [
    "CONTRIBUTION_COLUMNS",
    "PAGE_COLUMNS",
    "PagesTable",
    "frontier_frame",
    "kept_pages",
    "pages_frame",
    "render_frontier",
    "render_pages",
    "render_subtrees",
    "subtrees_frame",
]


#: Contribution columns (value × weight in use), apart from the "anchor" text column: the link
#: model's five features, then the terms that are not learned (siblings, popularity, family,
#: meaning; docs/DESIGN.md §8.2, §8a), which are all a blind link's score.
CONTRIBUTION_COLUMNS = tuple(f"{name}·w" for name in SCORE_TERM_NAMES)


def _contributions(explanation: dict[str, Any] | None) -> dict[str, float]:
    out = dict.fromkeys(CONTRIBUTION_COLUMNS, 0.0)
    if explanation:
        for feature in explanation.get("features", []):
            out[f"{feature['name']}·w"] = float(feature["contribution"])
    return out


def _shape_steps(explanation: dict[str, Any] | None) -> str:
    if not explanation:
        return ""
    return " → ".join(f"{s['rule']} {s['score']:.2f}" for s in explanation.get("steps", []))


def frontier_frame(rows: Sequence[FrontierRow], seed_url: str = "",
                   dry: AbstractSet[str] = frozenset()) -> pd.DataFrame:
    """Top queued links in pop order with each feature's contribution to the score.
    ``dry``: the subtrees found or forced dry, whose links are set aside when their turn
    comes: marked, or a forced-dry link at rank 1 read as the next fetch (found by using
    the app)."""
    records = []
    for row in rows:
        url = short_url(row.url, seed_url) if seed_url else row.url
        sitemap = row.explanation is not None and row.explanation.get("via") == "sitemap"
        anchor = row.anchor or ("(from the sitemap)" if sitemap else "")
        record: dict[str, Any] = {"rank": row.rank, "dry": row.subtree in dry,
                                  "score": row.score, "url": url, "anchor": anchor}
        record.update(_contributions(row.explanation))
        explained = row.explanation.get("score") if row.explanation else row.score
        record.update({"shaping": _shape_steps(row.explanation), "now": explained,
                       "blind": row.blind,
                       "cited": bool(row.explanation and row.explanation.get("cited")),
                       # the title of its list when the query names it (siblings.py)
                       "named list": (row.explanation or {}).get("named_list", ""),
                       "furniture": row.furniture, "pinned": row.pinned,
                       "demoted": row.demoted, "cluster": row.cluster, "depth": row.depth})
        records.append(record)
    # "pinned" beside the rank: a pinned link heads the queue with a lower score than the
    # next, and its flag far to the right read as a ranking error
    columns = ["rank", "pinned", "dry", "score", "url", "anchor", *CONTRIBUTION_COLUMNS, "shaping",
               "now", "blind", "cited", "named list", "furniture", "demoted", "cluster", "depth"]
    return pd.DataFrame.from_records(records, columns=columns)


#: The pages table's columns, in display order.
PAGE_COLUMNS = ("step", "url", "outcome", "relevance", "fresh", "evidence_added", "subtree",
                "user_label", "verdict", "title")
_USER_LABEL = {True: "relevant", False: "irrelevant"}


def _page_cells(row: PageRow) -> tuple[object, ...]:
    """One row's cells in ``PAGE_COLUMNS`` order (the CSV's values, a label as a word)."""
    label = "" if row.user_label is None else _USER_LABEL[row.user_label]
    verdict = "" if row.verdict is None else str(row.verdict)
    return (row.step, row.url, str(row.outcome), row.relevance, row.fresh,
            row.evidence_added, row.subtree, label, verdict, row.title)


#: What the pages table is kept for: session serial, the session object's id (a resumed or
#: imported session may reuse a serial only through a new object), overrides count.
PagesKey = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class PagesTable:
    """The pages table kept between reruns (``ss["pages_memo"]``): the rows and their cells
    column by column, oldest first. A new step appends its row; any override (a relabel
    changes labels and freshness of older rows) or another session starts it again, so the
    frame is always what :func:`pages_frame` builds from all rows (issue 15: rebuilding
    2,000 rows was ~25 ms a rerun)."""

    key: PagesKey
    rows: tuple[PageRow, ...] = ()
    cells: tuple[tuple[object, ...], ...] = tuple(() for _ in PAGE_COLUMNS)

    def extended(self, rows: Sequence[PageRow]) -> PagesTable:
        """This table with ``rows`` (the next steps') appended."""
        if not rows:
            return self
        new = list(zip(*(_page_cells(row) for row in rows), strict=True))
        return PagesTable(self.key, self.rows + tuple(rows),
                          tuple(old + tuple(add) for old, add in zip(self.cells, new,
                                                                     strict=True)))

    def frame(self) -> pd.DataFrame:
        """Every step's page, newest first."""
        if not self.rows:  # object columns, as a frame of rows would have (not float64)
            return pd.DataFrame(columns=list(PAGE_COLUMNS))
        return pd.DataFrame({name: list(reversed(column))
                             for name, column in zip(PAGE_COLUMNS, self.cells, strict=True)},
                            columns=list(PAGE_COLUMNS))


def pages_frame(rows: Sequence[PageRow]) -> pd.DataFrame:
    """Every step's page, newest first."""
    return PagesTable((0, 0, 0)).extended(rows).frame()


def kept_pages(ss: MutableMapping[StateKey, Any], session: AnySession) -> PagesTable:
    """The session's pages table, only the steps new since the last rerun turned into rows
    (``page_rows(session, start)``); built again after an override or for another session."""
    key = (int(ss.get("session_serial", 0)), id(session), len(session.overrides))
    memo: PagesTable | None = ss.get("pages_memo")
    kept = memo if memo is not None and memo.key == key and len(memo.rows) <= len(
        session.steps) else PagesTable(key)
    if len(kept.rows) < len(session.steps):
        kept = kept.extended(page_rows(session, len(kept.rows)))
    if kept is not memo:
        ss["pages_memo"] = kept
    return kept


def subtrees_frame(rows: Sequence[PartStats]) -> pd.DataFrame:
    return pd.DataFrame.from_records([row.to_dict() for row in rows], columns=[
        "part", "pages", "hits", "low", "high", "rest_low", "rest_high", "state", "forced"])


_NUMBER = st.column_config.NumberColumn(format="%.2f")


def render_frontier(rows: Sequence[FrontierRow], seed_url: str,
                    dry: AbstractSet[str] = frozenset()) -> None:
    st.caption("The queue in pop order. A score is the sum of the feature contributions "
               "(value × weight in use: the link model's five, then siblings, popularity, "
               "name family and meaning, which are not learned), then shaped (dated, "
               "furniture, language, depth decay); 'now' is that sum under today's weights "
               "(the queue is rescored when they move enough). Blind: no query word in the "
               "anchor, URL or context. Cited: named in a page's running text, so it takes "
               "half that page's relevance. Dry: its subtree is found or forced dry, so "
               "it is set aside, not fetched, when its turn comes.")
    config = {name: _NUMBER for name in ("score", "now", *CONTRIBUTION_COLUMNS)}
    st.dataframe(frontier_frame(rows, seed_url, dry), key="frontier_table", hide_index=True,
                 column_config=config, width="stretch")


def render_pages(table: PagesTable) -> None:
    st.caption("Every step, newest first. Evidence added = new relevant blocks; fresh = the "
               "page counts as a harvest hit for its subtree.")
    st.dataframe(table.frame(), key="pages_table", hide_index=True,
                 column_config={"relevance": _NUMBER}, width="stretch")


def render_subtrees(rows: Sequence[PartStats]) -> None:
    config = {name: _NUMBER for name in ("low", "high", "rest_low", "rest_high")}
    st.dataframe(subtrees_frame(rows), key="subtree_table", hide_index=True,
                 column_config=config, width="stretch")
