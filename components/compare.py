"""The Compare page: two or more sessions' curves on shared axes, their stops, and the
settings in which they differ.

Sessions come from the explorer (the open one, as it is now), the session store, uploaded
bundles, or a sweep's results folder (the Sweeps page adds its cells). State changes only in
the callbacks here; the figures and tables come from ``compare_charts``.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from components.compare_charts import (
    XAxis,
    compare_figure,
    differences_frame,
    recall_missing,
    series_of,
    summary_frame,
    uses_recall,
)
from components.compare_set import (
    Compared,
    add_compared,
    bundle_entry,
    open_entry,
    remove_compared,
    saved_entry,
)
from components.decision_log import md_escape
from components.labels import NO_VALUE
from components.persist import list_saved
from components.saved import shown_sessions
from components.targets import demo_truth
from pagesift_ui.errors import PagesiftError
from pagesift_ui.frontier.model import FEATURE_NAMES
from pagesift_ui.store import SessionInfo, SessionStore

__all__ = ["render_compare"]

logger = logging.getLogger(__name__)


# -- callbacks ----------------------------------------------------------------------------


def on_add_open() -> None:
    ss = st.session_state
    session = ss.get("session")
    ss["compare_error"] = None
    if session is None or not session.steps:
        ss["compare_error"] = "The explorer has no session with steps to add."
        return
    truth = ss.get("truth") or demo_truth(session.config.seed_url, session.config.query)
    add_compared(ss, open_entry(session, int(ss.get("session_serial", 0)), truth))


def on_add_saved() -> None:
    ss = st.session_state
    ss["compare_error"] = None
    picked: Sequence[str] = ss.get("compare_saved") or ()
    try:
        with SessionStore() as store:
            for session_id in picked:
                add_compared(ss, saved_entry(store, session_id, demo_truth))
    except PagesiftError as exc:  # StoreError, SessionNotFound
        logger.warning("adding saved sessions failed: %s", exc)
        ss["compare_error"] = f"A saved session cannot be compared: {exc}"
        return
    ss["compare_saved"] = []


def on_compare_upload() -> None:
    ss = st.session_state
    ss["compare_error"] = None
    files: Sequence[UploadedFile] = ss.get("compare_upload") or ()
    read: frozenset[str] = ss.get("compare_uploads_read") or frozenset()
    errors = []
    for uploaded in files:
        if uploaded.file_id in read:
            continue
        read |= {uploaded.file_id}
        data = uploaded.getvalue()
        try:
            add_compared(ss, bundle_entry(uploaded.name, data, demo_truth))
        except PagesiftError as exc:  # BundleError
            errors.append(f"{uploaded.name}: {exc}")
    ss["compare_uploads_read"] = read
    if errors:
        ss["compare_error"] = "; ".join(errors)


def on_remove() -> None:
    ss = st.session_state
    remove_compared(ss, ss.get("compare_remove") or ())
    ss["compare_remove"] = []


# -- drawing ------------------------------------------------------------------------------


def _saved_label(info: SessionInfo) -> str:
    return f"{info.session_id} · {info.query} · {info.steps} steps"


def _add_saved() -> None:
    try:
        infos = shown_sessions(list_saved())
    except PagesiftError as exc:
        st.caption(f"The session store cannot be opened: {exc}")
        return
    labels = {info.session_id: _saved_label(info) for info in infos}
    st.multiselect("Saved sessions", list(labels), key="compare_saved",
                   format_func=lambda key: labels.get(key, key),
                   placeholder="none saved yet" if not labels else "choose sessions")
    st.button("Add saved", key="compare_add_saved", on_click=on_add_saved,
              disabled=not st.session_state.get("compare_saved"))


def _sources(running: bool) -> None:
    ss = st.session_state
    with st.expander("Add sessions", expanded=len(ss["compare"]) < 2):
        left, middle, right = st.columns(3)
        with left:
            session = ss.get("session")
            st.markdown("**The explorer's session**")
            st.button("Add the open session", key="compare_add_open", on_click=on_add_open,
                      disabled=running or session is None or not session.steps,
                      help="as it is now: it does not change when the explorer goes on")
            # greyed out with no reason while the explorer ran (found by using the app)
            if running:
                st.caption("The explorer's crawl is running: Pause it there to add it as it "
                           "is then. Its Run goes on only while the Explorer page is open.")
            elif session is None or not session.steps:
                st.caption("No crawl with a step is open in the explorer.")
            st.caption("Sweep cells: open a results folder on the Sweeps page and pick a "
                       "cell of its heatmap.")
        with middle:
            _add_saved()
        with right:
            st.file_uploader("Session bundles", type=["json"], key="compare_upload",
                             accept_multiple_files=True, on_change=on_compare_upload)
    error = ss.get("compare_error")
    if error:
        st.error(md_escape(error))


def _compared(entries: Sequence[Compared]) -> None:
    ss = st.session_state
    left, right, _ = st.columns([2, 2, 3])
    x_axis = XAxis(left.radio("x axis", [a.value for a in XAxis], key="compare_x",
                              horizontal=True))
    feature = right.selectbox("Link weight", FEATURE_NAMES, key="compare_feature")
    recall = uses_recall(entries)
    if not recall:
        st.caption("Relevant pages found: not every session has a truth to measure recall "
                   "against (the demo sites and sweep cells with a truth file have one).")
    series = [series_of(e, x_axis, recall) for e in entries]
    st.plotly_chart(compare_figure(series, x_axis, recall, feature), key="compare_chart",
                    width="stretch")
    st.caption("Markers: each session's own stop (the first verdict that stood), with its "
               "stop reason's symbol; an open symbol where it ended later or otherwise.")
    # a cell with no value (no truth, no verdict that stood) reads "—", not "None" (found by
    # using the app: mixed tables read "None" under recall for the sessions without truth)
    st.dataframe(summary_frame(entries), key="compare_summary", hide_index=True,
                 width="stretch", placeholder=NO_VALUE)
    if recall_missing(entries):
        st.caption(f"{NO_VALUE} under recall: that session has no truth to measure recall "
                   "against; under stop step: no verdict stood.")
    st.subheader("Setting differences")
    differences = differences_frame(entries)
    if differences.empty:
        st.caption("The sessions have the same settings.")
    else:
        st.dataframe(differences, key="compare_differences", hide_index=True,
                     width="stretch")
    with st.expander("Remove sessions"):
        st.multiselect("Sessions", [e.name for e in entries], key="compare_remove")
        st.button("Remove", key="compare_remove_button", on_click=on_remove,
                  disabled=not ss.get("compare_remove"))


def render_compare() -> None:
    """The page: where sessions come from, then their curves and tables."""
    ss = st.session_state
    st.title("Compare crawls")
    _sources(bool(ss.get("running")))
    entries: Sequence[Compared] = ss["compare"]
    if not entries:
        st.info("Add two or more sessions: the explorer's, saved ones, bundles or sweep "
                "cells.")
        return
    if len(entries) < 2:
        st.info("One session so far: add another to compare.")
    _compared(entries)
