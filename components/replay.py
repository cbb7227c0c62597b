"""Replay with these settings: the current session's recorded pages, crawled again offline.

The recording is a saved session's answers (read from the store on click), an unsaved crawl's
(kept in memory), or an uploaded bundle's ``responses``. The replay takes the sidebar's
current settings, with the recording's start URL, and gets its pages from a ``ReplaySource``:
no request leaves the machine, and a URL the recording never fetched becomes a
``not_recorded`` step. A replay is not saved: resuming a saved session continues it on the
live web, which a replay must never do, and its recording stays where it came from.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping, MutableMapping
from typing import Any

import streamlit as st

from components.decision_log import md_escape
from components.persist import Recording, current_recording, recording_origin
from components.sidebar import config_mapping, form_defaults
from components.state import AnySession, StateKey, add_flash, is_live, set_session
from pagesift_ui.errors import ConfigError, PagesiftError
from pagesift_ui.session import CrawlConfig, CrawlSession
from pagesift_ui.store import ReplaySource

__all__ = [
    "on_replay",
    "render_replay",
    "render_replay_status",
    "replay_config",
    "replay_label",
    "replay_source",
]

logger = logging.getLogger(__name__)


def replay_config(recorded: CrawlConfig, values: Mapping[str, Any]) -> CrawlConfig:
    """The sidebar's settings (``form_defaults`` keys) on the recording's start URL.

    Settings the sidebar does not show (body size cap, read timeout, strategy) stay as
    recorded. Raises ``ConfigError`` naming the field, like Start.
    """
    merged = recorded.to_dict()
    for key, value in config_mapping(values, recorded.seed_url).items():
        if key == "adaptive":
            merged["adaptive"] = {**merged.get("adaptive", {}), **value}
        else:
            merged[key] = value
    return CrawlConfig.from_mapping(merged)


def replay_label(unavailable: int) -> str:
    noun = "URL" if unavailable == 1 else "URLs"
    return f"Replay (offline): {unavailable} {noun} unavailable so far"


def on_replay() -> None:
    ss = st.session_state
    ss["field_errors"] = {}
    try:
        recording = current_recording(ss)
    except PagesiftError as exc:  # the store could not be read
        ss["field_errors"] = {"replay": f"The recording cannot be read: {exc}"}
        return
    if recording is None:
        add_flash(ss, "info", "This session has no recorded pages to replay.")
        return
    values = {key: ss.get(key) for key in form_defaults()}
    try:
        config = replay_config(recording.config, values)
    except ConfigError as exc:
        ss["field_errors"] = {exc.field: exc.message}
        return
    _start_replay(ss, recording, config)


def _start_replay(
    ss: MutableMapping[StateKey, Any], recording: Recording, config: CrawlConfig
) -> None:
    source = ReplaySource(recording.answers)
    session = CrawlSession(config, source)
    # A replay plays the recording, not itself: its own events are not the recording's.
    played = Recording(recording.answers, recording.config, recording.origin)
    set_session(ss, session, recording=played)
    logger.info("replaying %s offline for %r", recording.origin, config.query)
    made = sum(event.override is not None for event in recording.events)
    # a budget raised 15 -> 30 replayed to 15 without a word (found by using the app)
    not_applied = ("" if not made else
                   " Its override (a budget raise, a pin, a label, …) is not applied: steer "
                   "the replay yourself." if made == 1 else
                   f" Its {made} overrides (budget raises, pins, labels, …) are not applied: "
                   "steer the replay yourself.")
    add_flash(ss, "info", f"Replaying {recording.origin} offline "
                          f"({len(source.urls)} recorded URLs) for “{config.query}”. "
                          f"Step or Run as usual.{not_applied}")


def render_replay(session: AnySession | None, running: bool) -> None:
    """The button under Start, and where its recording comes from."""
    ss = st.session_state
    origin = recording_origin(ss) if session is not None else None
    st.button("Replay with these settings", key="replay", on_click=on_replay,
              disabled=running or origin is None, width="stretch",
              help="crawl the current session's recorded pages again, offline, with the "
                   "settings above (the start URL stays the recorded one)")
    if session is not None and origin is not None:
        st.caption(f"Replays the pages recorded by {md_escape(origin)} from "
                   f"{md_escape(session.config.seed_url)}, with no network.")
    elif session is not None:
        st.caption("Replay needs recorded pages: take a step, or open a bundle exported "
                   "with its responses.")
    message = (ss.get("field_errors") or {}).get("replay")
    if message:
        st.error(md_escape(message))


def replay_source(ss: Mapping[StateKey, Any]) -> ReplaySource | None:
    """The ``ReplaySource`` the current session replays from, None when it is no replay."""
    session = ss.get("session")
    if is_live(session) and isinstance(session.source, ReplaySource):
        return session.source
    return None


def render_replay_status(ss: Mapping[StateKey, Any]) -> None:
    """The replay's label in the live panel (it updates with every Run tick)."""
    source = replay_source(ss)
    if source is None:
        return
    recording: Recording | None = ss.get("recording")
    origin = recording.origin if recording is not None else "the recording"
    st.info(f"**{replay_label(len(source.unavailable))}.** Pages come from "
            f"{md_escape(origin)}; nothing is fetched, and a "
            "page the recording never fetched is shown as `not_recorded`.")
