"""Step / Run / Run to stop / Pause / Stop. The buttons sit outside the live fragment, so each
click is a full rerun that switches the fragment's timer on or off (docs/DESIGN.md §14.1)."""

from __future__ import annotations

import logging

import streamlit as st

from components.persist import override_current, step_current
from components.runner import RunMode
from components.state import AnySession, add_flash, is_live
from pagesift_ui.errors import PagesiftError

__all__ = ["render_controls"]

logger = logging.getLogger(__name__)


def on_step() -> None:
    ss = st.session_state
    session = ss.get("session")
    if not is_live(session):
        return
    try:
        record = step_current(ss)
    except PagesiftError as exc:  # SessionBroken: a step was interrupted; resume it
        logger.exception("step failed")
        add_flash(ss, "error", f"The step failed: {exc}")
        return
    if record is None and session.done:
        add_flash(ss, "info", f"The crawl has stopped ({session.stop_reason}).")


def _start_running(mode: RunMode) -> None:
    ss = st.session_state
    session = ss.get("session")
    if not is_live(session):
        return
    if session.done:
        add_flash(ss, "info", f"The crawl has stopped ({session.stop_reason}).")
        return
    ss["run_mode"] = mode.value
    ss["running"] = True


def on_run() -> None:
    _start_running(RunMode.RUN)


def on_run_to_stop() -> None:
    _start_running(RunMode.TO_STOP)


def on_pause() -> None:
    st.session_state["running"] = False


def on_stop() -> None:
    ss = st.session_state
    session = ss.get("session")
    ss["running"] = False
    if is_live(session) and not session.done:
        override_current(ss, lambda s: s.stop(note="stopped from the controls"))


def render_controls(session: AnySession | None, running: bool) -> None:
    live = is_live(session)
    can_step = live and session is not None and not session.done and not running
    cols = st.columns(5)
    cols[0].button("Step", key="step", on_click=on_step, disabled=not can_step,
                   help="one step: fetch the best queued link (a duplicate or a failed fetch is a "
                        "step too, not a page)", width="stretch")
    cols[1].button("Run", key="run", on_click=on_run, disabled=not can_step, width="stretch",
                   help="keep stepping; pause at a verdict that stands while the crawl goes "
                        "on (Stop on verdict off) and, if ticked below, at one the crawler "
                        "forgives itself")
    cols[2].button("Run to stop", key="run_to_stop", on_click=on_run_to_stop, width="stretch",
                   disabled=not can_step,
                   help="keep stepping until the crawl itself stops (limit, empty queue or a "
                        "verdict that stands)")
    cols[3].button("Pause", key="pause", on_click=on_pause, disabled=not running,
                   width="stretch")
    cols[4].button("Stop", key="stop", on_click=on_stop, width="stretch",
                   disabled=not (live and session is not None and not session.done),
                   help="end the crawl now (cancelled)")
    if live:
        st.checkbox("Run pauses at verdicts the crawler forgives itself", key="pause_forgiven",
                    help="off (the default): Run goes through them, as the crawl does; on: "
                         "it pauses at each, to look at the moment a rule fired")
    if running:
        ss = st.session_state
        mode = RunMode(ss.get("run_mode", "run"))
        if ss.get("lesson"):
            until = "the lesson happens"
        elif mode is RunMode.RUN:
            until = "a verdict it pauses at"
        else:
            until = "the crawl stops"
        st.caption(f"Running until {until}, or Pause.")
    elif session is not None and not live:
        st.caption("An imported session: read-only, nothing to step.")
