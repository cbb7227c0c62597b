"""The app's ``st.session_state`` in one place: which keys exist, their defaults, and helpers.

Components read state through these helpers and change it only in widget callbacks (the
Run fragment's tick is the one exception, as in the verified recipe). The session object is
a ``ReadableSession``: a live ``CrawlSession`` or a read-only ``SessionView`` imported from a
bundle. A live session carries how it is kept as its sinks: a ``StoreSink`` when it is saved,
a ``RecordingSink`` when it runs unsaved; a replay's source is a ``ReplaySource``. Beside the
session, ``recording`` holds the recorded pages that a replay plays or a bundle came with.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterable, Iterator, MutableMapping
from contextlib import contextmanager
from typing import Any, TypeGuard

from pagesift_ui.session import CrawlSession, ReadableSession
from pagesift_ui.store import StoreError, StoreSink

__all__ = [
    "AnySession",
    "StateKey",
    "add_flash",
    "discard_session",
    "ensure_defaults",
    "field_error",
    "is_live",
    "keep_values",
    "one_run_at_a_time",
    "pop_flashes",
    "set_session",
]

logger = logging.getLogger(__name__)

#: What the UI shows: a live ``CrawlSession`` or an imported ``SessionView``.
AnySession = ReadableSession

#: The key type of ``st.session_state`` (Streamlit accepts int keys beside str ones). The
#: helpers here take ``MutableMapping[StateKey, Any]`` so that ``st.session_state`` fits.
StateKey = str | int

#: Keys that are not widgets: the session, the run loop and the messages.
STATE_DEFAULTS: dict[str, Any] = {
    "session": None,  # CrawlSession | SessionView | None, with the sinks that keep it
    "running": False,  # the Run fragment's timer is on
    "run_mode": "run",  # "run": pause at verdicts (see runner.RunMode); "to_stop": to the stop
    "field_errors": {},  # setup field → message of the last failed Start
    "flashes": [],  # (kind, text) messages shown once at the top of the page
    "static_server": None,  # the StaticServer of a local-folder target
    "accepted_step": None,  # the step whose stop verdict the user accepted
    "fig_memo": None,  # (memo key, figures): charts are rebuilt only when something changed
    "session_serial": 0,  # increases with every new session (widget keys, memo keys)
    # components.persist.Recording: the pages a replay plays or a bundle came with (a live
    # crawl's own recording is in its sink)
    "recording": None,
    "saved_error": None,  # the message of the last failed Resume / Delete
    "upload_error": None,  # the message of the last refused bundle upload
    "saved_newest": None,  # the newest saved session seen: a newer one moves the pick to it
    "lesson": None,  # the scenario whose lesson Run to the lesson runs to (until it happens)
    "lesson_settings": (),  # form keys the chosen lesson's settings changed
    "pause_forgiven": False,  # Run also pauses at verdicts the crawler forgives itself
    "truth": None,  # the answer key of the demo the current session crawls (None: unknown)
}


def ensure_defaults(ss: MutableMapping[StateKey, Any], defaults: dict[str, Any]) -> None:
    """Set every missing key; existing values (and widget values) are left alone."""
    for key, value in defaults.items():
        if key not in ss:
            ss[key] = value.copy() if isinstance(value, dict | list) else value


def keep_values(ss: MutableMapping[StateKey, Any], keys: Iterable[str]) -> None:
    """Keep the values of widgets a run does not draw (a view drawn only while its tab is
    open): Streamlit drops the state of a widget not drawn in a run, unless the script sets
    it again before the run ends, which makes it plain session state until the widget is
    drawn again (issue 15)."""
    for key in keys:
        if key in ss:
            ss[key] = ss[key]


@contextmanager
def one_run_at_a_time(ss: MutableMapping[StateKey, Any]) -> Iterator[None]:
    """Hold the tab's run lock for a script run or a fragment's run (docs/DESIGN.md §14.2).

    Streamlit's own Stop (the header's) marks the running script stopped, and the next
    rerun — the Run fragment's timer, a click — gets a second script thread while the first
    still finishes the step it is in: two threads stepping and drawing one crawl session
    gave two records one step number. A second run waits here until the first has ended,
    which is at its next Streamlit call, a step at most. Re-entrant: the fragments of a full
    run are drawn in its thread.
    """
    lock = ss.get("run_lock")
    if lock is None:
        lock = ss["run_lock"] = threading.RLock()
    with lock:
        yield


def is_live(session: object) -> TypeGuard[CrawlSession]:
    """A session that can still be stepped and steered (not an imported view)."""
    return isinstance(session, CrawlSession)


def set_session(
    ss: MutableMapping[StateKey, Any], session: AnySession, *, recording: Any = None
) -> None:
    """Make ``session`` the current one, closing whatever was there before; ``recording``
    is what it replays or came with (see ``STATE_DEFAULTS``)."""
    discard_session(ss)
    ss["session"] = session
    ss["recording"] = recording
    # a refused upload's or a failed Resume's message was about an earlier attempt: it
    # stayed under the uploader through later Starts (the twenty-ninth session's probe)
    ss["upload_error"] = None
    ss["saved_error"] = None
    ss["session_serial"] = int(ss.get("session_serial", 0)) + 1


def discard_session(ss: MutableMapping[StateKey, Any]) -> None:
    """Close and forget the current session and any folder server started for it."""
    session = ss.get("session")
    if isinstance(session, CrawlSession):
        session.close()
        _release_store(session)
    server = ss.get("static_server")
    if server is not None:
        server.stop()
    ss["session"] = None
    ss["static_server"] = None
    ss["running"] = False
    ss["accepted_step"] = None
    ss["fig_memo"] = None
    ss["recording"] = None
    ss["truth"] = None


def _release_store(session: CrawlSession) -> None:
    """Close a saved session's store connection; a session that never took a step or an
    override is deleted from the store (pressing Start again should not leave clutter)."""
    saving = session.find_sink(StoreSink)
    if saving is None:
        return
    try:
        if not (session.steps or session.overrides or saving.events):
            saving.store.delete(saving.session_id)
    except StoreError as exc:
        logger.warning("could not delete the empty session %s: %s", saving.session_id, exc)
    finally:
        saving.store.close()


def add_flash(ss: MutableMapping[StateKey, Any], kind: str, text: str) -> None:
    """Queue a message (``error``, ``warning``, ``success`` or ``info``) for the next render.

    ``text`` is plain text: the explorer shows it escaped (``md_escape``), so a URL, a file
    name or a query in it is shown as it is; escaped here too, it showed its backslashes."""
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
