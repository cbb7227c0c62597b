"""Export (JSON bundle, pages CSV) and import (a bundle opened read-only).

The download buttons get a *callable* that captures the plain session object: the file is
built only on click, and the callable never touches ``st.session_state`` (it runs on another
thread; docs/DESIGN.md §14.6). The buttons are disabled while Run is on, so a bundle is never built
while a tick is stepping the same session.

The JSON bundle carries the session's recorded responses when it has them (a saved crawl, an
unsaved one recorded in memory, a replay: the recording it plays, an imported bundle: the
ones it came with), so a downloaded session can be uploaded again and replayed offline.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence

import streamlit as st
from streamlit.runtime.uploaded_file_manager import UploadedFile

from components.decision_log import md_escape
from components.persist import ExportSource, Recording, export_source
from components.sidebar import show_settings
from components.state import AnySession, add_flash, set_session
from pagesift_ui.errors import BundleError
from pagesift_ui.session.bundle import bundle_json, pages_csv, session_bundle
from pagesift_ui.session.view import SessionView
from pagesift_ui.store import Recorded, SessionEvent, StoreError
from pagesift_ui.store.portable import Portable, bundle_with_responses, load_portable

__all__ = ["bundle_recording", "export_csv", "export_json", "import_bundle", "render_export"]

logger = logging.getLogger(__name__)


def export_json(
    session: AnySession,
    responses: Sequence[Recorded] | None = None,
    events: Sequence[SessionEvent] = (),
) -> str:
    """The session bundle exactly as the JSON download button serves it: with ``responses``
    (and the empty-queue marks of ``events``) when given, else without."""
    if responses is None:
        return bundle_json(session_bundle(session))
    return bundle_json(bundle_with_responses(session, responses, events))


def _export_with(session: AnySession, source: ExportSource | None) -> str:
    """The download's data; without responses (logged) if the store cannot be read now."""
    if source is None:
        return export_json(session)
    try:
        responses, events = source()
    except StoreError:
        logger.exception("exporting without the recorded responses")
        return export_json(session)
    return export_json(session, responses, events)


def export_csv(session: AnySession) -> str:
    return pages_csv(session)


def import_bundle(data: bytes | str) -> SessionView:
    """A read-only view of an exported bundle; raises ``BundleError`` when it is unusable."""
    return load_portable(data).view


def bundle_recording(opened: Portable, name: str) -> Recording | None:
    """The recorded responses of an opened bundle; None when it has none."""
    if opened.responses is None:
        return None
    return Recording(opened.responses, opened.view.config, f"the bundle {name}", opened.events)


def on_upload() -> None:
    """Open the uploaded bundle, checked in full (``load_portable``): a bad one is reported
    with the field at fault, and the session open before stays open. The file name and the
    message come from the file: both are shown escaped."""
    ss = st.session_state
    uploaded: UploadedFile | None = ss.get("upload")
    ss["upload_error"] = None
    if uploaded is None:
        return
    try:
        opened = load_portable(uploaded.getvalue())
    except BundleError as exc:
        ss["upload_error"] = f"{uploaded.name}: {exc}"
        return
    recording = bundle_recording(opened, uploaded.name)
    set_session(ss, opened.view, recording=recording)
    show_settings(ss, opened.view.config)
    replayable = " with its recorded responses: it can be replayed" if recording else ""
    add_flash(ss, "success", f"Opened {uploaded.name} read-only: "
                             f"{len(opened.view.steps)} steps{replayable}.")


def render_export(session: AnySession | None, running: bool) -> None:
    st.header("Session file")
    if session is not None:
        steps = len(session.steps)
        source = export_source(st.session_state)
        left, right = st.columns(2)
        left.download_button(
            "JSON bundle", data=lambda: _export_with(session, source), key="dl_json",
            file_name=f"pagesift-session-{steps}-steps.json", mime="application/json",
            on_click="ignore", disabled=running, width="stretch")
        right.download_button(
            "Pages CSV", data=lambda: export_csv(session), key="dl_csv",
            file_name=f"pagesift-pages-{steps}-steps.csv", mime="text/csv",
            on_click="ignore", disabled=running, width="stretch")
        if running:
            st.caption("Pause to download.")
        elif source is not None:
            st.caption("The JSON bundle includes the recorded pages: upload it to replay.")
    st.file_uploader("Open a session bundle (read-only)", type=["json"], key="upload",
                     on_change=on_upload)
    error = st.session_state.get("upload_error")
    if error:
        st.error(md_escape(error))
