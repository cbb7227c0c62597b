"""Tables: pure row → DataFrame builders, and thin renderers around ``st.dataframe``."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import pandas as pd
import streamlit as st

from components.decision_log import short_url
from pagesift_ui.frontier.model import FEATURE_NAMES
from pagesift_ui.session import FrontierRow, PageRow, PartStats

__all__ = [
    "CONTRIBUTION_COLUMNS",
    "frontier_frame",
    "pages_frame",
    "render_frontier",
    "render_pages",
    "render_subtrees",
    "subtrees_frame",
]


#: Contribution columns (value × weight in use), apart from the "anchor" text column.
CONTRIBUTION_COLUMNS = tuple(f"{name}·w" for name in FEATURE_NAMES)


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


def frontier_frame(rows: Sequence[FrontierRow], seed_url: str = "") -> pd.DataFrame:
    """Top queued links in pop order with each feature's contribution to the score."""
    records = []
    for row in rows:
        url = short_url(row.url, seed_url) if seed_url else row.url
        sitemap = row.explanation is not None and row.explanation.get("via") == "sitemap"
        anchor = row.anchor or ("(from the sitemap)" if sitemap else "")
        record: dict[str, Any] = {"rank": row.rank, "score": row.score, "url": url,
                                  "anchor": anchor}
        record.update(_contributions(row.explanation))
        explained = row.explanation.get("score") if row.explanation else row.score
        record.update({"shaping": _shape_steps(row.explanation), "now": explained,
                       "blind": row.blind,
                       "furniture": row.furniture, "pinned": row.pinned,
                       "demoted": row.demoted, "cluster": row.cluster, "depth": row.depth})
        records.append(record)
    columns = ["rank", "score", "url", "anchor", *CONTRIBUTION_COLUMNS, "shaping", "now", "blind",
               "furniture", "pinned", "demoted", "cluster", "depth"]
    return pd.DataFrame.from_records(records, columns=columns)


def pages_frame(rows: Sequence[PageRow]) -> pd.DataFrame:
    """Every step's page, newest first."""
    columns = ["step", "url", "outcome", "relevance", "fresh", "evidence_added", "subtree",
               "user_label", "verdict", "title"]
    frame = pd.DataFrame.from_records([row.to_dict() for row in rows], columns=[
        "step", "url", "title", "outcome", "status", "relevance", "relevant", "user_label",
        "fresh", "evidence_added", "subtree", "depth", "score", "blind", "verdict"])
    frame = frame[columns]
    frame["user_label"] = frame["user_label"].map(
        {True: "relevant", False: "irrelevant"}).fillna("")
    return frame.iloc[::-1].reset_index(drop=True)


def subtrees_frame(rows: Sequence[PartStats]) -> pd.DataFrame:
    return pd.DataFrame.from_records([row.to_dict() for row in rows], columns=[
        "part", "pages", "hits", "low", "high", "rest_low", "rest_high", "state", "forced"])


_NUMBER = st.column_config.NumberColumn(format="%.2f")


def render_frontier(rows: Sequence[FrontierRow], seed_url: str) -> None:
    st.caption("The queue in pop order. A score is the sum of the feature contributions "
               "(value × weight in use), then shaped (furniture, floors, depth decay); 'now' "
               "is that sum under today's weights (the queue is rescored when they move "
               "enough). Blind links scored from a floor only.")
    config = {name: _NUMBER for name in ("score", "now", *CONTRIBUTION_COLUMNS)}
    st.dataframe(frontier_frame(rows, seed_url), key="frontier_table", hide_index=True,
                 column_config=config, width="stretch")


def render_pages(rows: Sequence[PageRow]) -> None:
    st.caption("Every step, newest first. Evidence added = new relevant blocks; fresh = the "
               "page counts as a harvest hit for its subtree.")
    st.dataframe(pages_frame(rows), key="pages_table", hide_index=True,
                 column_config={"relevance": _NUMBER}, width="stretch")


def render_subtrees(rows: Sequence[PartStats]) -> None:
    config = {name: _NUMBER for name in ("low", "high", "rest_low", "rest_high")}
    st.dataframe(subtrees_frame(rows), key="subtree_table", hide_index=True,
                 column_config=config, width="stretch")
