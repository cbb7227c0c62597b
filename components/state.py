"""The app's ``st.session_state`` in one place: which keys exist, their defaults, and helpers.

Components read state through these helpers and change it only in widget callbacks (the
Run fragment's tick is the one exception, as in the verified recipe). The session object is
either a live ``CrawlSession`` or a read-only ``SessionView`` imported from a bundle. A live
session is saved (``persistent`` holds its ``PersistentSession``), unsaved with its answers
recorded in memory (``recording``), or an offline replay of a recording (``replay_source``).
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from typing import Any, TypeGuard

from pagesift_ui.session import CrawlSession
from pagesift_ui.session.view import SessionView
from pagesift_ui.store import StoreError

__all__ = [
    "AnySession",
    "StateKey",
    "add_flash",
    "discard_session",
    "ensure_defaults",
    "field_error",
    "is_live",
    "pop_flashes",
    "set_session",
]

logger = logging.getLogger(__name__)

AnySession = CrawlSession | SessionView

#: The key type of ``st.session_state`` (Streamlit accepts int keys beside str ones). The
#: helpers here take ``MutableMapping[StateKey, Any]`` so that ``st.session_state`` fits.
StateKey = str | int

#: Keys that are not widgets: the session, the run loop and the messages.
STATE_DEFAULTS: dict[str, Any] = {
    "session": None,  # CrawlSession | SessionView | None
    "running": False,  # the Run fragment's timer is on
    "run_mode": "run",  # "run": pause at any verdict; "to_stop": go on until the crawl stops
    "field_errors": {},  # setup field → message of the last failed Start
    "flashes": [],  # (kind, text) messages shown once at the top of the page
    "static_server": None,  # the StaticServer of a local-folder target
    "accepted_step": None,  # the step whose stop verdict the user accepted
    "fig_memo": None,  # (memo key, figures): charts are rebuilt only when something changed
    "session_serial": 0,  # increases with every new session (widget keys, memo keys)
    "persistent": None,  # the PersistentSession saving ``session``, None when not saved
    "recording": None,  # components.persist.Recording: answers held outside the store
    "replay_source": None,  # the ReplaySource of a replay (its ``unavailable`` URLs)
    "replay_of": "",  # what the current replay plays, e.g. "saved session 1a2b3c4d"
    "saved_error": None,  # the message of the last failed Resume / Delete
}


def ensure_defaults(ss: MutableMapping[StateKey, Any], defaults: dict[str, Any]) -> None:
    """Set every missing key; existing values (and widget values) are left alone."""
    for key, value in defaults.items():
        if key not in ss:
            ss[key] = value.copy() if isinstance(value, dict | list) else value


def is_live(session: object) -> TypeGuard[CrawlSession]:
    """A session that can still be stepped and steered (not an imported view)."""
    return isinstance(session, CrawlSession)


def set_session(
    ss: MutableMapping[StateKey, Any],
    session: AnySession,
    *,
    persistent: Any = None,
    recording: Any = None,
    replay_source: Any = None,
    replay_of: str = "",
) -> None:
    """Make ``session`` the current one, closing whatever was there before; the keywords
    say how it is saved or what it replays (see ``STATE_DEFAULTS``)."""
    discard_session(ss)
    ss["session"] = session
    ss["persistent"] = persistent
    ss["recording"] = recording
    ss["replay_source"] = replay_source
    ss["replay_of"] = replay_of
    ss["session_serial"] = int(ss.get("session_serial", 0)) + 1


def discard_session(ss: MutableMapping[StateKey, Any]) -> None:
    """Close and forget the current session and any folder server started for it."""
    session = ss.get("session")
    if isinstance(session, CrawlSession):
        session.close()
    _release_store(ss.get("persistent"))
    server = ss.get("static_server")
    if server is not None:
        server.stop()
    ss["session"] = None
    ss["static_server"] = None
    ss["running"] = False
    ss["accepted_step"] = None
    ss["fig_memo"] = None
    for key in ("persistent", "recording", "replay_source"):
        ss[key] = None
    ss["replay_of"] = ""


def _release_store(persistent: Any) -> None:
    """Close a saved session's store connection; a session that never took a step or an
    override is deleted from the store (pressing Start again should not leave clutter)."""
    if persistent is None:
        return
    store = persistent.store
    try:
        session = persistent.session
        if not (session.steps or session.overrides or persistent.events):
            store.delete(persistent.session_id)
    except StoreError as exc:
        logger.warning("could not delete the empty session %s: %s", persistent.session_id, exc)
    finally:
        store.close()


def add_flash(ss: MutableMapping[StateKey, Any], kind: str, text: str) -> None:
    """Queue a message (``error``, ``warning``, ``success`` or ``info``) for the next render."""
    if kind == "error":
        logger.warning("shown to the user: %s", text)
    ss["flashes"] = [*ss.get("flashes", []), (kind, text)]


def pop_flashes(ss: MutableMapping[StateKey, Any]) -> list[tuple[str, str]]:
    flashes = list(ss.get("flashes", []))
    ss["flashes"] = []
    return flashes


def field_error(ss: MutableMapping[StateKey, Any], field: str) -> str | None:
    """The message of the last failed Start for ``field``, if any."""
    errors = ss.get("field_errors") or {}
    return errors.get(field)
