"""Saved sessions: the store's list, Resume (rebuild offline, then go on live) and Delete.

Resume rebuilds the chosen session from its saved steps and page answers, with no network,
to the exact state after its last saved step (``pagesift_ui.store.resume``); a session whose
rebuild does not give the saved steps (``ReplayDiverged``), a damaged or missing one
(``StoreError``, ``SessionNotFound``) is reported here and nothing else changes.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any

import pandas as pd
import streamlit as st

from components.decision_log import md_escape
from components.persist import delete_saved, list_saved, saving_of
from components.sidebar import show_settings
from components.state import StateKey, add_flash, is_live, set_session
from pagesift_ui.errors import PagesiftError
from pagesift_ui.session import FORGIVABLE
from pagesift_ui.store import ClaimMode, ReplaySource, SessionInfo, SessionStore, resume

__all__ = [
    "render_saved_sessions",
    "render_storage_note",
    "saved_frame",
    "shown_sessions",
    "storage_note",
]

logger = logging.getLogger(__name__)

SAVED_COLUMNS = ["id", "query", "seed", "steps", "status", "stop reason", "updated"]


def saved_frame(infos: Sequence[SessionInfo]) -> pd.DataFrame:
    """One row per saved session, most recently updated first (the store's order)."""
    rows = [{"id": info.session_id, "query": info.query, "seed": info.seed,
             "steps": info.steps, "status": info.status.value,
             "stop reason": info.stop_reason or "",
             "updated": datetime.fromtimestamp(info.updated_at).strftime("%Y-%m-%d %H:%M")}
            for info in infos]
    return pd.DataFrame.from_records(rows, columns=SAVED_COLUMNS)


def storage_note(ss: Mapping[StateKey, Any]) -> str | None:
    """Where the current session is kept, in one line (None for an imported bundle or a
    replay, which say so elsewhere). It names the store file, not its folder: the full path
    is the caption's help (a screenshot shows no machine's paths)."""
    session = ss.get("session")
    saving = saving_of(session)
    if saving is not None:
        return (f"Saved as session {saving.session_id} in {Path(saving.store.path).name}: "
                "every step is written as it completes, and Saved sessions → Resume "
                "continues it.")
    if is_live(session) and not isinstance(session.source, ReplaySource):
        return "Not saved: download the JSON bundle to keep this crawl."
    return None


def shown_sessions(infos: Sequence[SessionInfo]) -> list[SessionInfo]:
    """The saved sessions worth resuming: those with at least one step, newest first."""
    return [info for info in infos if info.steps > 0]


def _current_id(ss: Mapping[StateKey, Any]) -> str | None:
    saving = saving_of(ss.get("session"))
    return saving.session_id if saving is not None else None


def on_resume() -> None:
    ss = st.session_state
    session_id = ss.get("saved_pick")
    ss["saved_error"] = None
    if not session_id:
        return
    if session_id == _current_id(ss):
        add_flash(ss, "info", f"Session {session_id} is the one open now.")
        return
    store: SessionStore | None = None
    try:
        store = SessionStore()
        with st.spinner(f"Rebuilding session {session_id} from its saved steps…"):
            # refused while a command-line crawl holds it; other tabs of the app hold no
            # claim (a tab left open keeps its session), and meet the store's step check
            session = resume(store, session_id, claim=ClaimMode.CHECK)
    except PagesiftError as exc:  # StoreError, SessionNotFound, ReplayDiverged
        if store is not None:
            store.close()
        logger.warning("resuming %s failed: %s", session_id, exc)
        ss["saved_error"] = f"Session {session_id} cannot be resumed: {exc}"
        return
    set_session(ss, session)
    show_settings(ss, session.config)
    # the buttons under a stopped crawl are Continue anyway and Accept (found by using the
    # app: the words named a Stop that is greyed out there)
    stopped = ""
    if session.done:
        stopped = (f" It had stopped ({session.stop_reason})"
                   + (": Continue anyway, or Accept to keep the stop."
                      if session.stop_reason in FORGIVABLE else "."))
    add_flash(ss, "success", f"Resumed session {session_id} at step {len(session.steps)}: "
                             f"frontier, model and statistics rebuilt.{stopped}")


def on_delete() -> None:
    ss = st.session_state
    session_id = ss.get("saved_pick")
    ss["saved_error"] = None
    if not session_id or not ss.get("confirm_delete"):
        return
    if session_id == _current_id(ss):
        ss["saved_error"] = (f"Session {session_id} is open now: press Reset first, "
                             "then delete it.")
        return
    try:
        delete_saved(session_id)
    except PagesiftError as exc:
        ss["saved_error"] = f"Session {session_id} cannot be deleted: {exc}"
        return
    ss["confirm_delete"] = False
    add_flash(ss, "success", f"Deleted the saved session {session_id}.")


def _pick_and_act(infos: Sequence[SessionInfo], running: bool) -> None:
    """The pick defaults to the newest session, and follows a newer one when it appears
    unless the user picked another: another tab's or a command-line crawl's new session
    took the pick from under the user, and Resume opened it (found by using the app).

    The choices are labelled without their step counts (the table shows them): a label
    that changed while another tab stepped the session no longer matched the browser's
    choice, and Streamlit handed its old label to Resume as the id."""
    ss = st.session_state
    labels = {info.session_id: f"{info.session_id} · {info.query}" for info in infos}
    newest = infos[0].session_id
    previous = ss.get("saved_newest")
    if ss.get("saved_pick") not in labels or (
            previous != newest and ss.get("saved_pick") in (previous, None)):
        ss["saved_pick"] = newest
    ss["saved_newest"] = newest
    st.selectbox("Session", list(labels), key="saved_pick",
                 format_func=lambda key: labels.get(key, key))
    left, right = st.columns(2)
    left.button("Resume", key="resume", on_click=on_resume, disabled=running,
                width="stretch", help="rebuild it offline at its last saved step, then go on")
    right.button("Delete", key="delete_saved", on_click=on_delete, width="stretch",
                 disabled=running or not ss.get("confirm_delete"))
    st.checkbox("Yes, delete the chosen session for good", key="confirm_delete")


def render_saved_sessions(running: bool) -> None:
    with st.expander("Saved sessions"):
        error = st.session_state.get("saved_error")
        if error:  # may quote a saved step (a divergence) or a path: shown literally
            st.error(md_escape(error))
        try:
            infos = shown_sessions(list_saved())
        except PagesiftError as exc:
            st.warning("The session store cannot be opened, so crawls are not saved: "
                       f"{md_escape(str(exc))}")
            return
        if not infos:
            st.caption("None yet. Every crawl started with Start is saved step by step.")
            return
        st.dataframe(saved_frame(infos), key="saved_table", hide_index=True, width="stretch")
        _pick_and_act(infos, running)


def render_storage_note(ss: Mapping[StateKey, Any]) -> None:
    note = storage_note(ss)
    saving = saving_of(ss.get("session"))
    if note:
        st.caption(md_escape(note),
                   help=f"the store: {saving.store.path}" if saving is not None else None)
