"""The explorer page: one crawl, step by step — the setup in the sidebar, the controls, the
live panel and the views under it. ``app.py`` routes here (docs/DESIGN.md §14).

Kept out of ``app.py`` so the entry file only routes: Streamlit compiles the entry script
(with its "magic" AST pass) on every run that has no script cache, as each AppTest run does
(~9 ms for the layout below; the server compiles it once).
"""

from __future__ import annotations

import streamlit as st

from components.controls import render_controls
from components.decision_log import md_escape, render_decision_log
from components.export import render_export
from components.inspector import render_inspector
from components.live import render_live
from components.overrides import (
    render_label_overrides,
    render_queue_overrides,
    render_subtree_overrides,
    render_verdict_banner,
)
from components.replay import render_replay
from components.saved import render_saved_sessions, render_storage_note
from components.sidebar import render_setup
from components.state import AnySession, keep_values, pop_flashes
from components.tables import kept_pages, render_frontier, render_pages, render_subtrees
from components.whatif import keep_sliders, render_whatif
from pagesift_ui.session import SubtreeState
from pagesift_ui.session.views import page_budget

__all__ = ["VIEWS", "VIEW_PICKS", "explorer"]

FRONTIER_ROWS = 25
#: The most of the query the page's caption shows: a pasted page is named by its start.
QUERY_SHOWN_CHARS = 200
_FLASH = {"error": st.error, "warning": st.warning, "success": st.success, "info": st.info}
# Less empty space above the title, so the charts fit on the first screen.
_CSS = "<style>[data-testid='stMainBlockContainer']{padding-top:2.5rem}</style>"
_INTRO = """
Press **Start** in the sidebar: the demo target and its query are filled in. Then **Step** one
page at a time or **Run**. Every step says which link was taken and why, what the page added,
and how close the adaptive stop rules are to firing. When a verdict fires you can continue
anyway, and you can steer the crawl: pin or drop queued links, force a subtree dry, relabel
pages. Every crawl is saved as it goes: **Saved sessions** in the sidebar resumes one where it
left off, and **Replay with these settings** crawls a session's recorded pages again offline.
"""
#: The views under the charts. ``st.tabs`` with a key tracks the selected one in session
#: state (``ss["view"]``), so it survives overrides and reruns; clicking a tab reruns the
#: script (``on_change="rerun"``), so each view is drawn only while it is open
#: (``Tab.open``; issue 15): its table, its override widgets and the inspector. The values
#: of the widgets in a closed view (``VIEW_PICKS``, the what-if sliders) are kept meanwhile
#: (Streamlit drops the state of a widget not drawn in a run); the pages table is kept
#: between reruns and takes the steps new since it was last drawn; the what-if view's replay
#: is kept, a new step's record replayed alone.
VIEWS = ("Decision log", "Frontier", "Pages", "Page inspector", "Subtrees", "What-if stops")
#: The pickers of the views, kept while their view is closed (``keep_values``).
VIEW_PICKS = ("queue_pick", "relabel_pick", "inspect_pick", "subtree_pick")


def _tabs(session: AnySession, running: bool) -> None:
    ss = st.session_state
    if running:
        st.caption("The tables below refresh when the run pauses.")
    log, frontier, pages, inspector, subtrees, whatif = st.tabs(list(VIEWS), key="view",
                                                                on_change="rerun")
    keep_values(ss, VIEW_PICKS)  # before any is drawn: a drawn one then takes its value
    with log:
        if log.open is not False:
            render_decision_log(session.steps, session.overrides, session.config)
    rows = (session.frontier(FRONTIER_ROWS)
            if frontier.open is not False or subtrees.open is not False else [])
    with frontier:
        if frontier.open is not False:
            dry = {part.part for part in session.wilson_table()
                   if part.state is SubtreeState.DRY}
            render_frontier(rows, session.config.seed_url, dry)
            render_queue_overrides(session, rows)
    with pages:
        if pages.open is not False:
            # kept between reruns, the new steps' rows appended (docs/DESIGN.md §14.4)
            table = kept_pages(ss, session)
            render_pages(table)
            render_label_overrides(session, table.rows)
    with inspector:
        if inspector.open is not False:
            render_inspector(session)
    with subtrees:
        if subtrees.open is not False:
            wilson = session.wilson_table()
            render_subtrees(wilson)
            render_subtree_overrides(session, wilson, rows)
    with whatif:
        if whatif.open is False:
            keep_sliders(ss)
        else:
            render_whatif(session)


def explorer() -> None:
    """The explorer: one crawl, step by step."""
    ss = st.session_state
    session: AnySession | None = ss["session"]
    running = bool(ss["running"])
    with st.sidebar:
        render_setup()
        render_replay(session, running)
        render_export(session, running)
        render_saved_sessions(running)
    st.html(_CSS)
    st.title("pagesift-ui")
    for kind, text in pop_flashes(ss):
        _FLASH.get(kind, st.info)(md_escape(text))
    if session is None:
        st.markdown(_INTRO)
        render_controls(session, running)
        return
    render_controls(session, running)
    # The query and seed come from the user or from an uploaded bundle: escaped, so a bundle
    # cannot put images or links on the page (issue 12).
    query = session.config.query
    if len(query) > QUERY_SHOWN_CHARS:
        query = query[: QUERY_SHOWN_CHARS - 1] + "…"
    note = session.config.query_note()
    st.caption(f"Query “{md_escape(query)}” in "
               f"{session.config.describe_language()} from "
               f"{md_escape(session.config.seed_url)} · limit {page_budget(session)}"
               + (f" · {md_escape(note)}" if note else ""))
    render_storage_note(ss)
    render_verdict_banner(session)
    render_live(running)
    _tabs(session, running)
