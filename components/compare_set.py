"""The sessions the Compare page compares, and where they come from.

An entry is a frozen value: a read-only session, its name, where it came from and its recall
after each step (None where no truth is known). The open session is added as a snapshot of
its steps so far, so every entry stays what it was when it was added while the explorer goes
on stepping. No Streamlit here: callbacks pass ``st.session_state`` in.
"""

from __future__ import annotations

import enum
import hashlib
import logging
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from components.state import StateKey, ensure_defaults
from pagesift_ui.errors import BundleError
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session import (
    Override,
    OverrideKind,
    ReadableSession,
    StepRecord,
    VerdictFate,
)
from pagesift_ui.session.bundle import bundle_json, load_bundle, session_bundle
from pagesift_ui.session.view import SessionView
from pagesift_ui.store import SessionStore, StoredSession
from pagesift_ui.store.portable import load_portable
from pagesift_ui.sweep.results import SweepResults, cell_session, session_curve

__all__ = [
    "COMPARE_DEFAULTS",
    "Compared",
    "Origin",
    "TruthOf",
    "add_compared",
    "bundle_entry",
    "cell_entry",
    "cell_label",
    "init_compare_state",
    "open_entry",
    "remember_folder",
    "remove_compared",
    "saved_entry",
    "saved_view",
]

logger = logging.getLogger(__name__)

#: The truth URLs of a session's site from its seed URL and query (None: not known).
TruthOf = Callable[[str, str], Sequence[str] | None]

#: Session-state keys of the Compare page and the sweep view (beside ``STATE_DEFAULTS``).
COMPARE_DEFAULTS: dict[str, Any] = {
    "compare": (),  # tuple[Compared, ...]: the sessions being compared, in the order added
    "compare_error": None,  # the last failed Add's message
    # the uploads already read (file ids): the uploader hands back every file still in it
    # at each change, so a removed bundle came back and old errors repeated with each upload
    "compare_uploads_read": frozenset(),
    "sweep_folders": (),  # results folders opened in this app session, newest first
    "goto": None,  # a page to switch to at the next run (Page.value), set by a callback
}


class Origin(enum.StrEnum):
    """Where a compared session came from."""

    OPEN = "open session"
    SAVED = "saved"
    BUNDLE = "bundle"
    CELL = "sweep cell"


@dataclass(frozen=True, slots=True)
class Compared:
    """One session on the Compare page. ``key`` identifies its source (adding the same one
    twice replaces it); ``recall[i]`` is the recall after step i + 1, or None throughout
    (``recall is None``) where the truth is unknown."""

    key: str
    name: str
    origin: Origin
    session: ReadableSession
    recall: tuple[float | None, ...] | None = None

    @property
    def steps(self) -> Sequence[StepRecord]:
        return self.session.steps


#: The choices on the Compare, Sweeps and Link model pages that outlive a visit to another
#: page (the sweep view's filters too: ``sweep_filter_<setting>``).
KEPT_CHOICES = ("compare_x", "compare_feature", "sweep_folder", "sweep_known", "sweep_metric",
                "sweep_x", "sweep_y", "sweep_aggregate", "sweep_pick", "sweep_cell",
                "quality_pick", "quality_window")


def init_compare_state(ss: MutableMapping[StateKey, Any]) -> None:
    """Defaults, and the pages' choices kept: Streamlit forgets a widget's value in a run
    that does not draw it (another page), unless it is set again as plain state."""
    ensure_defaults(ss, COMPARE_DEFAULTS)
    for key in [*KEPT_CHOICES, *(k for k in ss if str(k).startswith("sweep_filter_"))]:
        if key in ss:
            ss[key] = ss[key]


def add_compared(ss: MutableMapping[StateKey, Any], entry: Compared) -> None:
    """Add ``entry`` at the end (in place of an entry of the same source); a name already
    taken by another source gets a number."""
    kept = [e for e in ss.get("compare", ()) if e.key != entry.key]
    taken = {e.name for e in kept}
    name, n = entry.name, 2
    while name in taken:
        name, n = f"{entry.name} ({n})", n + 1
    if name != entry.name:
        entry = Compared(entry.key, name, entry.origin, entry.session, entry.recall)
    ss["compare"] = (*kept, entry)


def remove_compared(ss: MutableMapping[StateKey, Any], names: Sequence[str]) -> None:
    ss["compare"] = tuple(e for e in ss.get("compare", ()) if e.name not in set(names))


def remember_folder(ss: MutableMapping[StateKey, Any], folder: Path) -> None:
    """Put ``folder`` first among the results folders the sweep view offers."""
    text = str(folder)
    ss["sweep_folders"] = (text, *(f for f in ss.get("sweep_folders", ()) if f != text))


def _recall(steps: Sequence[StepRecord], truth: Sequence[str] | None
            ) -> tuple[float | None, ...] | None:
    if not truth:
        return None
    return tuple(point.recall for point in session_curve(steps, truth))


def _snapshot(session: ReadableSession) -> SessionView:
    """A frozen copy of any session, through its bundle (what an export would hold)."""
    return load_bundle(bundle_json(session_bundle(session)))


def open_entry(session: ReadableSession, serial: int, truth: Sequence[str] | None
               ) -> Compared:
    """The explorer's open session as it is now (a snapshot)."""
    steps = len(session.steps)
    return Compared(f"open:{serial}:{steps}", f"open session at step {steps}", Origin.OPEN,
                    _snapshot(session), _recall(session.steps, truth))


def _first_stood(
    steps: Sequence[StepRecord], overrides: Sequence[Override] = ()
) -> StepRecord | None:
    """The first verdict that stood: as ``CrawlSession`` sets ``stop_step`` (any verdict
    the crawler did not forgive itself, a budget or queue end included, but not a budget's
    end the user raised the budget past: ``raise_limit`` clears it, as it is no verdict; a
    saved session raised 15 → 30 read "stop step 15" in Compare, found by using the app)."""
    raised_at = {o.step for o in overrides if o.kind is OverrideKind.RAISE_LIMIT}
    return next((r for r in steps if r.verdict is not None
                 and r.verdict_fate is not VerdictFate.AUTO_FORGIVEN
                 and not (r.verdict is StopReason.LIMIT_REACHED and r.step in raised_at)),
                None)


def saved_view(saved: StoredSession) -> SessionView:
    """A saved session read-only, from its saved records alone (no rebuild, so no replay
    that could diverge): the stop facts are read off the records as the crawl set them."""
    steps = list(saved.steps)
    overrides = [e.override for e in saved.events if e.override is not None]
    stood = _first_stood(steps, overrides)
    final = {
        "stop_reason": saved.info.stop_reason or None,
        "first_verdict": stood.verdict.value if stood is not None and stood.verdict else None,
        "stop_step": stood.step if stood is not None else None,
    }
    return SessionView(saved.config, steps, overrides, {}, final, {"origin": "store"})


def saved_entry(store: SessionStore, session_id: str, truth_of: TruthOf) -> Compared:
    """A session of the store; raises ``StoreError`` (``SessionNotFound``)."""
    view = saved_view(store.load(session_id))
    return Compared(f"saved:{store.path}:{session_id}", f"saved {session_id}", Origin.SAVED,
                    view, _recall(view.steps, truth_of(view.config.seed_url, view.config.query)))


def bundle_entry(file_name: str, data: bytes, truth_of: TruthOf) -> Compared:
    """An uploaded bundle, checked in full with bounded memory (``load_portable``); raises
    ``BundleError`` naming the bad field."""
    view = load_portable(data).view
    digest = hashlib.sha256(data).hexdigest()[:16]
    return Compared(f"bundle:{file_name}:{digest}", file_name, Origin.BUNDLE, view,
                    _recall(view.steps, truth_of(view.config.seed_url, view.config.query)))


def cell_label(row: dict[str, Any], swept: Sequence[str]) -> str:
    """A sweep cell named by its swept settings: ``query=truth · strategy=thompson``."""
    parts = [f"{name}={row[name]}" for name in swept if name in row]
    return " · ".join(parts) or str(row.get("label") or row["cell_id"])


def cell_entry(results: SweepResults, cell_id: str, swept: Sequence[str]) -> Compared:
    """A sweep cell's session, with the recall the sweep measured against its truth;
    raises ``BundleError`` (a failed cell has no session) or ``KeyError``."""
    row = results.row_of(cell_id)
    view = cell_session(results.folder, cell_id)
    recall = results.recall_of(cell_id)
    if recall is not None and len(recall) != len(view.steps):
        raise BundleError(f"cell {cell_id}: {len(recall)} recall rows for "
                          f"{len(view.steps)} steps in {results.folder}")
    name = f"{cell_label(row, swept)} [{cell_id[:8]}]"
    return Compared(f"cell:{results.folder}:{cell_id}", name, Origin.CELL, view, recall)

