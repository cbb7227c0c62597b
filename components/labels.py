"""Words and colours for the engine's outcome enums: one table per enum, the only place the
UI names them. Charts, tiles, pickers and messages look their labels up here. Also the name
of a setting that both the form and a message use (the message tells the user where to
change it).

A test checks that every table covers every member of its enum, so a new member cannot
reach the UI unnamed.
"""

from __future__ import annotations

from dataclasses import dataclass

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import SubtreeState, VerdictFate

__all__ = [
    "LINKS_READ_LABEL", "NO_VALUE", "STOP_REASONS", "SUBTREE_STATES", "VERDICT_FATES", "Label",
]

#: What a table cell or a tile shows for a value that does not exist (no truth to measure
#: recall against, no verdict that stood), instead of "None".
NO_VALUE = "—"

#: What the form calls ``CrawlConfig.max_links_per_page``; the decision log names it when a
#: page had more links than that.
LINKS_READ_LABEL = "Links read per page"


@dataclass(frozen=True, slots=True)
class Label:
    """How the UI shows one enum member: ``words`` (short: a tile, a legend, a picker),
    ``colour`` (CSS, for charts) and a plotly marker ``symbol``."""

    words: str
    colour: str
    symbol: str = "circle"


#: Why a crawl stopped (or a verdict fired). The decision log explains each in numbers.
STOP_REASONS: dict[StopReason, Label] = {
    StopReason.COVERAGE_REACHED: Label("covered", "#2ca02c", "star"),
    StopReason.SATURATED: Label("saturated", "#ff7f0e", "x"),
    # "nothing found" was cut to "nothing fo…" in a tile at 1280 px with the sidebar open
    StopReason.NO_RELEVANT_PAGES: Label("none found", "#d62728", "triangle-down"),
    StopReason.LIMIT_REACHED: Label("limit", "#1f77b4", "square"),
    StopReason.EXHAUSTED: Label("exhausted", "#7f7f7f", "diamond"),
    StopReason.CANCELLED: Label("cancelled", "#9467bd", "circle-open"),
}

#: What became of a verdict.
VERDICT_FATES: dict[VerdictFate, Label] = {
    VerdictFate.STOPPED: Label("stopped", "#d62728"),
    VerdictFate.AUTO_FORGIVEN: Label("forgiven automatically", "#ff7f0e"),
    VerdictFate.USER_FORGIVEN: Label("continued by the user", "#9467bd"),
    VerdictFate.NO_STOP: Label("recorded (no-stop)", "#8c564b"),
    VerdictFate.NONE: Label("no verdict", "#7f7f7f"),
}

#: A subtree's (or cluster's) harvest state.
SUBTREE_STATES: dict[SubtreeState, Label] = {
    SubtreeState.DRY: Label("dry", "#d62728"),
    SubtreeState.PROVEN: Label("proven", "#2ca02c"),
    SubtreeState.OPEN: Label("open", "#7f7f7f"),
}
