"""The current crawl's link to the session store, and the recordings a replay can use.

No Streamlit here: callbacks pass ``st.session_state`` in. A crawl started with Start is a
``PersistentSession`` (``ss["persistent"]``) whose ``session`` is ``ss["session"]``; every step
goes through it and every override is followed by :func:`sync_current`. When the store
cannot be opened or a save fails, the crawl goes on unsaved (:func:`fall_back_unsaved`):
the crawl in memory is never lost for the store's sake.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from components.state import StateKey, add_flash
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store import (
    PersistentSession,
    Recorded,
    RecordingSource,
    SessionEvent,
    SessionInfo,
    SessionStore,
    StoreError,
    start_session,
)

__all__ = [
    "ExportSource",
    "Opened",
    "Recording",
    "current_recording",
    "delete_saved",
    "export_source",
    "fall_back_unsaved",
    "list_saved",
    "recording_origin",
    "start_crawl",
    "step_current",
    "stepper",
    "sync_current",
]

logger = logging.getLogger(__name__)

#: What a download button calls for the recorded answers and events (on another thread).
ExportSource = Callable[[], tuple[Sequence[Recorded], Sequence[SessionEvent]]]


@dataclass(frozen=True, slots=True)
class Recording:
    """Page-source answers held outside the store, with the settings they were recorded under.

    ``answers`` is the list an unsaved crawl is still appending to, or a fixed tuple (an
    uploaded bundle's, or the recording a replay plays). ``events`` are the recording
    session's own (only its empty-queue marks go into an export). ``origin`` names it.
    """

    answers: Sequence[Recorded]
    config: CrawlConfig
    origin: str
    events: tuple[SessionEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class Opened:
    """A started crawl: saved (``persistent``) or, with ``warning`` saying why, not."""

    session: CrawlSession
    persistent: PersistentSession | None = None
    recording: Recording | None = None
    warning: str = ""


def start_crawl(config: CrawlConfig) -> Opened:
    """A new crawl saved in the default store; unsaved (recorded in memory) if that fails."""
    store: SessionStore | None = None
    try:
        store = SessionStore()
        persistent = start_session(store, config)
    except StoreError as exc:
        if store is not None:
            store.close()
        logger.warning("crawl not saved: %s", exc)
        answers: list[Recorded] = []
        session = CrawlSession(config, RecordingSource(default_source(config), answers.append))
        recording = Recording(answers, config, "this crawl (unsaved)")
        return Opened(session, recording=recording, warning=(
            f"The session store cannot be used ({exc}). This crawl runs unsaved: it is lost "
            "when the tab closes, so download its JSON bundle to keep it."))
    return Opened(persistent.session, persistent)


def stepper(ss: MutableMapping[StateKey, Any]) -> Callable[[], StepRecord]:
    """What takes one step of the current session: the saved session's ``step`` if saved."""
    persistent: PersistentSession | None = ss.get("persistent")
    if persistent is not None:
        return persistent.step
    session: CrawlSession = ss["session"]
    return session.step


def step_current(ss: MutableMapping[StateKey, Any]) -> StepRecord | None:
    """One step of the current session; a failed save switches to unsaved (None returned)."""
    try:
        return stepper(ss)()
    except StoreError as exc:
        fall_back_unsaved(ss, exc)
        return None


def sync_current(ss: MutableMapping[StateKey, Any]) -> None:
    """Save the overrides just made on the current session (nothing to do when unsaved)."""
    persistent = ss.get("persistent")
    if persistent is None:
        return
    try:
        persistent.sync()
    except StoreError as exc:
        fall_back_unsaved(ss, exc)


def fall_back_unsaved(ss: MutableMapping[StateKey, Any], exc: StoreError) -> None:
    """Saving failed: go on with the same session in memory, unsaved, and say so.

    The store keeps every step saved before (resume it later). The step whose save failed is
    in memory but its answers are not in the store, so the recording is incomplete: this
    crawl can no longer be replayed or exported with its responses.
    """
    persistent: PersistentSession | None = ss.get("persistent")
    ss["persistent"] = None
    ss["recording"] = None
    if persistent is None:
        return
    session = persistent.session
    # Stop recording into the saved session's buffer (nobody empties it now), but keep its
    # live fetcher and thus its per-host politeness clock; the spare one is closed unused.
    wrapper = session.set_source(default_source(session.config))
    if isinstance(wrapper, RecordingSource):
        session.set_source(wrapper.source).close()
    else:
        wrapper.close()
    persistent.store.close()
    logger.warning("saving session %s failed: %s", persistent.session_id, exc)
    add_flash(ss, "warning", (
        f"Saving failed ({exc}). The crawl goes on unsaved, without its recorded pages (no "
        f"replay); session {persistent.session_id} keeps every step saved before and can be "
        "resumed."))


def recording_origin(ss: MutableMapping[StateKey, Any]) -> str | None:
    """What the current session's recorded answers come from, None if it has none to
    replay (cheap: no store read)."""
    persistent: PersistentSession | None = ss.get("persistent")
    if persistent is not None:
        return f"saved session {persistent.session_id}" if persistent.session.steps else None
    recording: Recording | None = ss.get("recording")
    return recording.origin if recording is not None and recording.answers else None


def current_recording(ss: MutableMapping[StateKey, Any]) -> Recording | None:
    """The current session's recording, answers frozen; raises ``StoreError`` if unreadable."""
    persistent: PersistentSession | None = ss.get("persistent")
    if persistent is not None:
        return Recording(persistent.recorded(), persistent.session.config,
                         f"saved session {persistent.session_id}", persistent.events)
    recording: Recording | None = ss.get("recording")
    if recording is None or not recording.answers:
        return None
    return Recording(tuple(recording.answers), recording.config, recording.origin,
                     recording.events)


def export_source(ss: MutableMapping[StateKey, Any]) -> ExportSource | None:
    """For a download: a callable giving the answers and events to put in the bundle.

    It captures plain objects only, never ``st.session_state`` (recipe §6).
    """
    persistent: PersistentSession | None = ss.get("persistent")
    if persistent is not None:
        return lambda: (persistent.recorded(), persistent.events)
    recording: Recording | None = ss.get("recording")
    if recording is None or not recording.answers:
        return None
    answers, events = recording.answers, recording.events
    return lambda: (tuple(answers), events)


def list_saved() -> list[SessionInfo]:
    """The saved sessions of the default store; raises ``StoreError``."""
    with SessionStore() as store:
        return store.list_sessions()


def delete_saved(session_id: str) -> None:
    """Raises ``StoreError`` (``SessionNotFound`` if it is gone already)."""
    with SessionStore() as store:
        store.delete(session_id)
