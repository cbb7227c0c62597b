"""Steering the crawl: the verdict banner (continue anyway / accept) and the override controls.

Every override goes through a ``CrawlSession`` method in an ``on_click`` callback; the engine
records it as an ``Override`` event, which the charts and the decision log then show, and a
saved session's store sink writes it to the store at once (``override_current``).
A ``ValueError`` from the engine (nothing to forgive, link no longer queued, ...) is shown
as a message, never raised into the page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping, Sequence

import streamlit as st

from components.decision_log import explain_verdict, md_escape
from components.labels import SUBTREE_STATES
from components.persist import override_current
from components.state import AnySession, add_flash, is_live
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import (
    FORGIVABLE,
    CrawlSession,
    FrontierRow,
    PageRow,
    PartStats,
    StepOutcome,
)
from pagesift_ui.session.config import MAX_LIMIT
from pagesift_ui.session.views import page_budget, start_failure

__all__ = [
    "FORGIVABLE",
    "first_verdict_text",
    "render_first_verdict",
    "render_label_overrides",
    "render_queue_overrides",
    "render_subtree_overrides",
    "render_verdict_banner",
]

logger = logging.getLogger(__name__)


def _apply(action: Callable[[CrawlSession], object], done: str) -> None:
    """Run one override on the live session; show what it did or why it could not."""
    ss = st.session_state
    session: AnySession | None = ss.get("session")
    if not is_live(session):
        add_flash(ss, "warning", "An imported session is read-only.")
        return
    try:
        override_current(ss, action)  # saved at once, not only with the next step
    except ValueError as exc:
        add_flash(ss, "error", str(exc))
        return
    ss["fig_memo"] = None
    add_flash(ss, "success", done)


def on_forgive() -> None:
    _apply(lambda s: s.forgive(note="continue anyway"),
           "Continuing past the verdict: press Step or Run.")


def on_accept() -> None:
    ss = st.session_state
    session: AnySession | None = ss.get("session")
    if session is not None and session.steps:
        ss["accepted_step"] = session.steps[-1].step


def on_raise_limit() -> None:
    limit = st.session_state.get("raise_limit_to")
    if not isinstance(limit, int):
        add_flash(st.session_state, "error", "Give the new page budget as a whole number.")
        return
    _apply(lambda s: s.raise_limit(limit),
           f"The page budget is now {limit} pages: press Step or Run to go on.")


def on_stop() -> None:
    _apply(lambda s: s.stop(), "Stopped (cancelled). Continue anyway is not offered for this.")


def render_verdict_banner(session: AnySession) -> None:
    """When the crawl has stopped: which rule fired and why, with the two choices. A crawl
    that fetched nothing says why first (the first step's error), not only "exhausted"."""
    render_first_verdict(session)
    if not session.done or session.stop_reason is None or not session.steps:
        return
    last = session.steps[-1]
    text = md_escape(explain_verdict(session.stop_reason.value, last, session.config))
    failure = start_failure(session.steps, session.stop_reason)
    if failure is not None:
        st.error(f"**The crawl could not start.** {md_escape(failure)}. Change the target "
                 f"and press Start again. (Stopped after step {last.step}: {text}.)")
        return
    ss = st.session_state
    if not is_live(session) or ss.get("accepted_step") == last.step:
        st.info(f"Stopped after step {last.step}. {text}.")
        return
    if session.stop_reason is StopReason.LIMIT_REACHED:
        _render_raise_limit(session, last.step, text)
        return
    if session.stop_reason not in FORGIVABLE:
        st.info(f"Stopped after step {last.step}. {text}.")
        return
    st.warning(f"**Stop verdict after step {last.step}.** {text}.")
    left, right, _ = st.columns([1, 1, 3])
    left.button("Continue anyway", key="forgive", on_click=on_forgive,
                help="forgive the verdict: reset the counter and keep crawling")
    right.button("Accept", key="accept", on_click=on_accept, help="keep the stop")


def _render_raise_limit(session: AnySession, step: int, text: str) -> None:
    """A crawl its budget ended may go on with a bigger one: a researcher whose question
    was not answered within the budget had to start again (``CrawlSession.raise_limit``)."""
    budget = page_budget(session)
    st.info(f"Stopped after step {step}. {text}. Raise the budget to go on from here: "
            "the pages read so far stay as they are.")
    if budget >= MAX_LIMIT:
        return
    left, right, _ = st.columns([1, 1, 2])
    # no min or max on the widget: a number typed outside them was shown but not taken,
    # and the button raised the budget to the default without a word (found by using the
    # app); the engine refuses it and says the range
    left.number_input("New page budget", value=min(2 * budget, MAX_LIMIT), step=50,
                      key="raise_limit_to",
                      help=f"pages the crawl may fetch in all, the ones fetched included: "
                           f"{budget + 1} to {MAX_LIMIT:,}")
    right.button("Raise the budget", key="raise_limit", on_click=on_raise_limit,
                 help="go on past the budget's end; a replay raises it at the same step")


def first_verdict_text(session: AnySession) -> str | None:
    """The first verdict that stood, when the crawl went on past it (Stop on verdict off,
    or Continue anyway) — None while it is the verdict the crawl stopped at, or none fired."""
    first, at = session.first_verdict, session.stop_step
    if first is None or at is None or (session.done and session.stop_reason is first
                                       and session.steps and session.steps[-1].step == at):
        return None
    record = next((r for r in session.steps if r.step == at), None)
    if record is None:
        return None
    why = explain_verdict(first.value, record, session.config)
    went_on = ("Stop on verdict is off" if not session.config.stop_on_verdict
               else "it was continued")
    return (f"First verdict that stood: step {at}, {why}. The crawl went on because "
            f"{went_on}.")


def render_first_verdict(session: AnySession) -> None:
    text = first_verdict_text(session)
    if text:
        st.info(md_escape(text))


def _options(rows: Sequence[FrontierRow]) -> dict[str, str]:
    return {row.key: f"#{row.rank} {row.score:.2f} · {row.url}" for row in rows}


def render_queue_overrides(session: AnySession, rows: Sequence[FrontierRow]) -> None:
    """Pin a queued link to the front, or drop it."""
    if not is_live(session) or not rows:
        return
    labels = _options(rows)
    st.selectbox("Queued link", list(labels), key="queue_pick",
                 format_func=lambda key: labels.get(key, key))
    left, right, _ = st.columns([1, 1, 3])
    left.button("Pin (fetch next)", key="pin", on_click=_on_pick,
                args=("queue_pick", _QUEUE_ACTIONS, "pin"))
    right.button("Drop", key="drop", on_click=_on_pick,
                 args=("queue_pick", _QUEUE_ACTIONS, "drop"))


#: What a button under a select box does to the picked value, and the message after ({} is
#: the value).
_PickAction = tuple[Callable[[CrawlSession, str], object], str]
# The queue buttons, on the picked link's key.
_QUEUE_ACTIONS: dict[str, _PickAction] = {
    "pin": (CrawlSession.pin, "Pinned {}: pinned links are fetched first, in the order "
                              "they were pinned (the log says how many are before it)."),
    "drop": (CrawlSession.drop, "Dropped {} from the queue."),
}
# The subtree buttons, on the picked subtree.
_SUBTREE_ACTIONS: dict[str, _PickAction] = {
    "force_dry": (CrawlSession.force_dry, "{} is forced dry: its links are set aside until "
                                          "you keep it open or clear it."),
    "keep_open": (CrawlSession.keep_open, "{} is kept open."),
    "clear": (CrawlSession.clear_subtree, "The statistics decide {} again."),
}


def _on_pick(pick_key: str, actions: Mapping[str, _PickAction], kind: str) -> None:
    """A button under a select box: apply its action to what the box ``pick_key`` holds."""
    picked = st.session_state.get(pick_key)
    if not picked:
        return
    action, done = actions[kind]
    _apply(lambda s: action(s, picked), done.format(picked))


def render_subtree_overrides(
    session: AnySession, rows: Sequence[PartStats], queued: Sequence[FrontierRow] = ()
) -> None:
    """Force a subtree dry, keep it open, or give it back to the statistics. The choice holds
    every subtree seen so far and those of the queued links shown in the frontier."""
    if not is_live(session) or not (rows or queued):
        return
    states = {row.part: f"{row.part} ({SUBTREE_STATES[row.state].words}"
                        f"{', forced' if row.forced else ''})"
              for row in rows}
    for row in queued:
        states.setdefault(row.subtree, f"{row.subtree} (not fetched yet)")
    names = list(states)
    st.selectbox("Subtree", names, key="subtree_pick", format_func=lambda p: states.get(p, p))
    cols = st.columns([1, 1, 1, 2])
    cols[0].button("Force dry", key="force_dry", on_click=_on_pick,
                   args=("subtree_pick", _SUBTREE_ACTIONS, "force_dry"))
    cols[1].button("Keep open", key="keep_open", on_click=_on_pick,
                   args=("subtree_pick", _SUBTREE_ACTIONS, "keep_open"))
    cols[2].button("Clear", key="clear_subtree", on_click=_on_pick,
                   args=("subtree_pick", _SUBTREE_ACTIONS, "clear"))


def render_label_overrides(session: AnySession, rows: Sequence[PageRow]) -> None:
    """Relabel a fetched page as relevant or irrelevant; the newest page comes first."""
    pages = [row for row in reversed(rows) if row.outcome == StepOutcome.FETCHED.value]
    if not is_live(session) or not pages:
        return
    labels = {row.url: f"step {row.step} · {row.url}" for row in pages}
    st.selectbox("Fetched page", list(labels), key="relabel_pick",
                 format_func=lambda url: labels.get(url, url))
    cols = st.columns([1, 1, 1, 2])
    cols[0].button("Mark relevant", key="label_relevant", on_click=_on_label, args=(True,))
    cols[1].button("Mark irrelevant", key="label_irrelevant", on_click=_on_label,
                   args=(False,))
    picked = st.session_state.get("relabel_pick")
    cols[2].button("Remove label", key="label_remove", on_click=_on_label, args=(None,),
                   disabled=picked not in session.labels,
                   help="back to the crawler's own verdict: every statistic as before")
    st.caption("A label replaces the crawler's verdict on the page in every statistic that "
               "used it (link model, evidence and coverage, counters, harvests, and the "
               "queue: the links read on the page and the other entries of its lists move "
               "with it); the same label twice is one label. The decision log says what "
               "changed.")


def _on_label(relevant: bool | None) -> None:
    url = st.session_state.get("relabel_pick")
    if not url:
        return
    word = ("no longer labelled" if relevant is None
            else "labelled relevant" if relevant else "labelled irrelevant")
    _apply(lambda s: s.relabel(url, relevant), f"{url} is {word}.")
