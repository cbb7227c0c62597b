"""Export (JSON bundle, pages CSV) and import (a bundle opened read-only).

The download buttons get a *callable* that captures the plain session object: the file is
built only on click, and the callable never touches ``st.session_state`` (it runs on another
thread; recipe §6). The buttons are disabled while Run is on, so a bundle is never built
while a tick is stepping the same session.
"""

from __future__ import annotations

import logging

import streamlit as st

from components.state import AnySession, add_flash, set_session
from pagesift_ui.errors import BundleError
from pagesift_ui.session.bundle import bundle_json, load_bundle, pages_csv, session_bundle
from pagesift_ui.session.view import SessionView

__all__ = ["export_csv", "export_json", "import_bundle", "render_export"]

logger = logging.getLogger(__name__)


def export_json(session: AnySession) -> str:
    """The session bundle exactly as the JSON download button serves it."""
    return bundle_json(session_bundle(session))


def export_csv(session: AnySession) -> str:
    return pages_csv(session)


def import_bundle(data: bytes | str) -> SessionView:
    """A read-only view of an exported bundle; raises ``BundleError`` when it is unusable."""
    return load_bundle(data)


def on_upload() -> None:
    ss = st.session_state
    uploaded = ss.get("upload")
    ss["upload_error"] = None
    if uploaded is None:
        return
    try:
        view = import_bundle(uploaded.getvalue())
    except BundleError as exc:
        ss["upload_error"] = f"{uploaded.name}: {exc}"
        return
    set_session(ss, view)
    add_flash(ss, "success", f"Opened {uploaded.name} read-only: {len(view.steps)} steps.")


def render_export(session: AnySession | None, running: bool) -> None:
    st.header("Session file")
    if session is not None:
        steps = len(session.steps)
        left, right = st.columns(2)
        left.download_button(
            "JSON bundle", data=lambda: export_json(session), key="dl_json",
            file_name=f"pagesift-session-{steps}-steps.json", mime="application/json",
            on_click="ignore", disabled=running, width="stretch")
        right.download_button(
            "Pages CSV", data=lambda: export_csv(session), key="dl_csv",
            file_name=f"pagesift-pages-{steps}-steps.csv", mime="text/csv",
            on_click="ignore", disabled=running, width="stretch")
        if running:
            st.caption("Pause to download.")
    st.file_uploader("Open a session bundle (read-only)", type=["json"], key="upload",
                     on_change=on_upload)
    error = st.session_state.get("upload_error")
    if error:
        st.error(error)
