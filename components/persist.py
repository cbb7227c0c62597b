"""How the current crawl is kept, and the recordings a replay can use.

No Streamlit here: callbacks pass ``st.session_state`` in. A crawl started with Start is a
``CrawlSession`` saved by its ``StoreSink``: every step and every override is written as it
happens. When the store cannot be opened the crawl runs unsaved, recorded in memory by a
``RecordingSink``; when a save fails, it goes on unsaved (:func:`fall_back_unsaved`): the
crawl in memory is never lost for the store's sake.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from typing import Any

from components.decision_log import md_escape
from components.state import StateKey, add_flash
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.crawl import default_source
from pagesift_ui.store import (
    ClaimMode,
    Recorded,
    RecordingSink,
    RecordingSource,
    SessionEvent,
    SessionInfo,
    SessionStore,
    StoreError,
    StoreSink,
    start_session,
)

__all__ = [
    "UNSAVED_ORIGIN",
    "ExportSource",
    "Opened",
    "Recording",
    "current_recording",
    "delete_saved",
    "export_source",
    "fall_back_unsaved",
    "list_saved",
    "override_current",
    "recording_origin",
    "saving_of",
    "start_crawl",
    "step_current",
]

logger = logging.getLogger(__name__)

#: What a download button calls for the recorded answers and events (on another thread).
ExportSource = Callable[[], tuple[Sequence[Recorded], Sequence[SessionEvent]]]
#: The origin of an unsaved crawl's recording, as the replay and export captions name it.
UNSAVED_ORIGIN = "this crawl (unsaved)"


@dataclass(frozen=True, slots=True)
class Recording:
    """Page-source answers with the settings they were recorded under, frozen.

    A snapshot of a live crawl's recording, an uploaded bundle's, or the one a replay plays.
    ``events`` are the recording session's own (only its empty-queue marks go into an
    export). ``origin`` names it.
    """

    answers: Sequence[Recorded]
    config: CrawlConfig
    origin: str
    events: tuple[SessionEvent, ...] = ()


@dataclass(frozen=True, slots=True)
class Opened:
    """A started crawl: saved, or, with ``warning`` saying why, recorded in memory only."""

    session: CrawlSession
    warning: str = ""


def start_crawl(config: CrawlConfig) -> Opened:
    """A new crawl saved in the default store; unsaved (recorded in memory) if that fails."""
    store: SessionStore | None = None
    try:
        store = SessionStore()
        # no claim: a tab left open keeps its session, and another tab may resume it
        # (pagesift_ui/store/claims.py)
        return Opened(start_session(store, config, claim=ClaimMode.NONE))
    except StoreError as exc:
        if store is not None:
            store.close()
        logger.warning("crawl not saved: %s", exc)
        memory = RecordingSink()
        session = CrawlSession(config, memory.record(default_source(config)), sinks=[memory])
        return Opened(session, warning=(
            f"The session store cannot be used ({md_escape(str(exc))}). This crawl runs "
            "unsaved: it is lost when the tab closes, so download its JSON bundle to keep it."))


def saving_of(session: object) -> StoreSink | None:
    """The sink saving ``session`` to the store, None when it is not saved."""
    return session.find_sink(StoreSink) if isinstance(session, CrawlSession) else None


def step_current(ss: MutableMapping[StateKey, Any]) -> StepRecord | None:
    """One turn of the current session's loop: its record, or None when it stopped instead
    (``stop_reason`` says why) or saving failed (the crawl then goes on unsaved)."""
    session: CrawlSession = ss["session"]
    try:
        records = session.run(max_steps=1)
    except StoreError as exc:
        fall_back_unsaved(ss, exc)
        return None
    return records[0] if records else None


def override_current(
    ss: MutableMapping[StateKey, Any], action: Callable[[CrawlSession], object]
) -> None:
    """Steer the current session with ``action`` (its store sink saves the override at
    once); a failed save switches the crawl to unsaved. ``ValueError`` (nothing to
    forgive, a link no longer queued, ...) propagates for the caller to show."""
    session: CrawlSession = ss["session"]
    try:
        action(session)
    except StoreError as exc:
        fall_back_unsaved(ss, exc)


def fall_back_unsaved(ss: MutableMapping[StateKey, Any], exc: StoreError) -> None:
    """Saving failed: go on with the same session in memory, unsaved, and say so.

    The store keeps every step saved before (resume it later). The step or override whose
    save failed is in memory but not in the store, so the recording is incomplete: this
    crawl can no longer be replayed or exported with its responses.
    """
    session = ss.get("session")
    saving = saving_of(session)
    if not isinstance(session, CrawlSession) or saving is None:
        return
    session.remove_sink(saving)  # the session may go on without it
    # Stop recording into the sink's buffer (nobody empties it now), but keep the live
    # fetcher and thus its per-host politeness clock; the spare one is closed unused.
    wrapper = session.set_source(default_source(session.config))
    if isinstance(wrapper, RecordingSource):
        session.set_source(wrapper.source).close()
    else:
        wrapper.close()
    saving.store.close()
    logger.warning("saving session %s failed: %s", saving.session_id, exc)
    add_flash(ss, "warning", (
        f"Saving failed ({exc}). The crawl goes on unsaved, without its "
        f"recorded pages (no replay); session {saving.session_id} keeps every step saved "
        "before and can be resumed."))


def recording_origin(ss: MutableMapping[StateKey, Any]) -> str | None:
    """What the current session's recorded answers come from, None if it has none to
    replay (cheap: no store read)."""
    session = ss.get("session")
    saving = saving_of(session)
    if isinstance(session, CrawlSession) and saving is not None:
        return f"saved session {saving.session_id}" if session.steps else None
    memory = session.find_sink(RecordingSink) if isinstance(session, CrawlSession) else None
    if memory is not None:
        return UNSAVED_ORIGIN if memory.answers else None
    recording: Recording | None = ss.get("recording")
    return recording.origin if recording is not None and recording.answers else None


def current_recording(ss: MutableMapping[StateKey, Any]) -> Recording | None:
    """The current session's recording, answers frozen; raises ``StoreError`` if unreadable."""
    session = ss.get("session")
    if isinstance(session, CrawlSession):
        saving = session.find_sink(StoreSink)
        if saving is not None:
            return Recording(saving.recorded(), session.config,
                             f"saved session {saving.session_id}", saving.events)
        memory = session.find_sink(RecordingSink)
        if memory is not None:
            if not memory.answers:
                return None
            return Recording(tuple(memory.answers), session.config, UNSAVED_ORIGIN,
                             tuple(memory.events))
    recording: Recording | None = ss.get("recording")
    if recording is None or not recording.answers:
        return None
    return recording


def export_source(ss: MutableMapping[StateKey, Any]) -> ExportSource | None:
    """For a download: a callable giving the answers and events to put in the bundle.

    It captures plain objects only, never ``st.session_state`` (docs/DESIGN.md §14.6).
    """
    session = ss.get("session")
    if isinstance(session, CrawlSession):
        saving = session.find_sink(StoreSink)
        if saving is not None:
            return lambda: (saving.recorded(), saving.events)
        memory = session.find_sink(RecordingSink)
        if memory is not None:
            if not memory.answers:
                return None
            return lambda: (tuple(memory.answers), tuple(memory.events))
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
