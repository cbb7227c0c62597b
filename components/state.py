"""The app's ``st.session_state`` in one place: which keys exist, their defaults, and helpers.

Components read state through these helpers and change it only in widget callbacks (the
Run fragment's tick is the one exception, as in the verified recipe). The session object is
either a live ``CrawlSession`` or a read-only ``SessionView`` imported from a bundle.
"""

from __future__ import annotations

import logging
from collections.abc import MutableMapping
from typing import Any

from pagesift_ui.session import CrawlSession
from pagesift_ui.session.view import SessionView

__all__ = [
    "AnySession",
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
}


def ensure_defaults(ss: MutableMapping[str, Any], defaults: dict[str, Any]) -> None:
    """Set every missing key; existing values (and widget values) are left alone."""
    for key, value in defaults.items():
        if key not in ss:
            ss[key] = value.copy() if isinstance(value, dict | list) else value


def is_live(session: object) -> bool:
    """A session that can still be stepped and steered (not an imported view)."""
    return isinstance(session, CrawlSession)


def set_session(ss: MutableMapping[str, Any], session: AnySession) -> None:
    """Make ``session`` the current one, closing whatever was there before."""
    discard_session(ss)
    ss["session"] = session
    ss["session_serial"] = int(ss.get("session_serial", 0)) + 1


def discard_session(ss: MutableMapping[str, Any]) -> None:
    """Close and forget the current session and any folder server started for it."""
    session = ss.get("session")
    if isinstance(session, CrawlSession):
        session.close()
    server = ss.get("static_server")
    if server is not None:
        server.stop()
    ss["session"] = None
    ss["static_server"] = None
    ss["running"] = False
    ss["accepted_step"] = None
    ss["fig_memo"] = None


def add_flash(ss: MutableMapping[str, Any], kind: str, text: str) -> None:
    """Queue a message (``error``, ``warning``, ``success`` or ``info``) for the next render."""
    if kind == "error":
        logger.warning("shown to the user: %s", text)
    ss["flashes"] = [*ss.get("flashes", []), (kind, text)]


def pop_flashes(ss: MutableMapping[str, Any]) -> list[tuple[str, str]]:
    flashes = list(ss.get("flashes", []))
    ss["flashes"] = []
    return flashes


def field_error(ss: MutableMapping[str, Any], field: str) -> str | None:
    """The message of the last failed Start for ``field``, if any."""
    errors = ss.get("field_errors") or {}
    return errors.get(field)
