"""Step records and the other values a session hands to the UI, CLI and exports.

Everything here is a frozen value with ``to_dict()`` giving plain JSON types; the nested
explanation mappings are plain dicts treated as read-only.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import MISSING, dataclass, fields
from typing import Any

from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session.config import MAX_LIMIT

__all__ = [
    "FrontierRow",
    "Override",
    "OverrideKind",
    "PageRow",
    "PartStats",
    "StepOutcome",
    "StepRecord",
    "SubtreeState",
    "Verdict",
    "VerdictFate",
    "WilsonRow",
]


class StepOutcome(enum.StrEnum):
    """What happened to the URL a step took."""

    FETCHED = "fetched"  # an HTML page went through the core
    DUPLICATE = "duplicate"  # same text as a page fetched before; not counted against the limit
    ERROR = "error"  # the fetch failed (timeout, 404, robots, policy ...); the crawl goes on
    SKIPPED = "skipped"  # fetched but not HTML (its type is in ``content_type``)


class VerdictFate(enum.StrEnum):
    """What became of a stop verdict at the step it fired."""

    NONE = ""  # no verdict at this step
    STOPPED = "stopped"  # the crawl stopped here
    AUTO_FORGIVEN = "auto_forgiven"  # a high-scoring link with clues was still queued (§11.10)
    NO_STOP = "no_stop"  # recorded, and the crawl went on (stop_on_verdict=False)
    # the crawl stopped here and the user continued anyway; only in ``verdicts`` (a step
    # record is frozen before the user can act, so it keeps STOPPED)
    USER_FORGIVEN = "user_forgiven"


#: How ``Verdict.text`` words each fate in a session summary (``docs/SESSION_FORMAT.md``).
_FATE_TEXT = {
    VerdictFate.STOPPED: "stopped",
    VerdictFate.AUTO_FORGIVEN: "forgiven: {why}",
    VerdictFate.NO_STOP: "recorded (no-stop)",
    VerdictFate.USER_FORGIVEN: "forgiven by the user",
}


@dataclass(frozen=True, slots=True)
class Verdict:
    """A stop verdict that fired at ``step``, and what became of it.

    ``why`` is the pending-lead check's answer at that step, with its numbers
    (``frontier/leads.py``): the reason to go on for ``AUTO_FORGIVEN``, why no queued link
    counted as a lead otherwise (empty in sessions recorded before it was kept).
    """

    step: int
    reason: StopReason
    fate: VerdictFate
    why: str = ""

    @property
    def text(self) -> str:
        """The fate in words, as a summary's ``verdicts`` rows carry it."""
        return _FATE_TEXT.get(self.fate, self.fate.value).format(why=self.why)

    def to_list(self) -> list[Any]:
        """``[step, reason, text]``: one row of a summary's ``verdicts``."""
        return [self.step, self.reason.value, self.text]


class SubtreeState(enum.StrEnum):
    """What the harvest statistics (or the user) say of a subtree or cluster."""

    DRY = "dry"  # its interval lies entirely below the rest's: its links are not fetched
    PROVEN = "proven"  # its interval lies entirely above the rest's
    OPEN = "open"  # neither (yet)


class OverrideKind(enum.StrEnum):
    """A user's override of a crawl decision."""

    FORGIVE = "forgive"  # continue past a stop verdict
    STOP = "stop"  # stop now (``cancelled``)
    RELABEL = "relabel"  # a fetched page is relevant (value True) or not (False); None: unlabel
    FORCE_DRY = "force_dry"  # treat a subtree as dry: its queued links are not fetched
    KEEP_OPEN = "keep_open"  # never treat a subtree as dry
    CLEAR_SUBTREE = "clear_subtree"  # back to the statistics' verdict for a subtree
    PIN = "pin"  # fetch this queued link next
    DROP = "drop"  # remove this queued link
    RAISE_LIMIT = "raise_limit"  # the page budget becomes ``target`` pages (a whole number)


def raised_budget(target: str) -> int:
    """The page budget a ``raise_limit`` override's ``target`` names; raises ValueError when
    it names no page count from 1 to ``MAX_LIMIT`` ("abc" opened from a bundle, and the log
    read "you raised the page budget to abc pages": found by using the app)."""
    if not (target.isascii() and target.isdigit() and len(target) <= len(str(MAX_LIMIT))
            and 1 <= int(target) <= MAX_LIMIT):
        raise ValueError(f"a raised page budget is a whole number of pages from 1 to "
                         f"{MAX_LIMIT:,}, got {target!r}")
    return int(target)


@dataclass(frozen=True, slots=True)
class Override:
    """One override event: ``step`` is the number of steps completed when it happened."""

    step: int
    kind: OverrideKind
    target: str = ""
    value: bool | None = None
    note: str = ""
    #: What the override changed, as plain JSON values (a relabel: ``before``/``after`` of
    #: the link weights, coverage, the page's subtree ...; see ``CrawlSession.relabel``);
    #: None for kinds that keep no such account, and in overrides recorded before.
    changes: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "step": self.step,
            "kind": self.kind.value,
            "target": self.target,
            "value": self.value,
            "note": self.note,
        }
        if self.changes is not None:
            out["changes"] = self.changes
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Override:
        changes = data.get("changes")
        if changes is not None and not isinstance(changes, Mapping):
            raise TypeError(f"an override's changes must be an object, got {changes!r}")
        if data["kind"] == OverrideKind.RAISE_LIMIT.value:
            raised_budget(str(data.get("target", "")))  # raises ValueError if no page count
        return cls(
            step=int(data["step"]),
            kind=OverrideKind(data["kind"]),
            target=str(data.get("target", "")),
            value=data.get("value"),
            note=str(data.get("note", "")),
            changes=dict(changes) if changes is not None else None,
        )


@dataclass(frozen=True, slots=True)
class PartStats:
    """Harvest of one subtree or cluster: counts, Wilson intervals, and its state."""

    part: str
    pages: int
    hits: int
    low: float
    high: float
    rest_low: float
    rest_high: float
    state: SubtreeState
    forced: SubtreeState | None = None  # DRY or OPEN when the user overrode the statistics

    def to_dict(self) -> dict[str, Any]:
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["state"] = self.state.value
        out["forced"] = self.forced.value if self.forced is not None else ""
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PartStats:
        """Rebuild from ``to_dict()``; raises KeyError/TypeError/ValueError on bad data."""
        values = dict(data)
        values["state"] = SubtreeState(values["state"])
        forced = values.get("forced", "")
        values["forced"] = SubtreeState(forced) if forced else None
        return cls(**values)


#: A Wilson-table row is a PartStats.
WilsonRow = PartStats


@dataclass(frozen=True, slots=True)
class StepRecord:
    """Everything the UI shows about one step; see ``docs/SESSION_FORMAT.md``."""

    step: int
    url: str
    final_url: str
    outcome: StepOutcome
    status: int | None
    error: str | None
    error_kind: str | None
    content_type: str
    depth: int
    title: str
    lang: str
    score: float
    link: dict[str, Any] | None  # the score's explanation when the link was popped (seed: None)
    blind: bool
    subtree: str
    cluster: str
    relevance: float | None
    relevance_detail: dict[str, Any] | None
    fresh: bool
    evidence_added: tuple[int, ...]
    evidence: tuple[int, ...]
    evidence_blocks: tuple[int, ...]
    coverage: float
    covered: bool
    sources: int
    stale: int
    cold: int
    verdict: StopReason | None  # the stop reason that fired at this step, if any
    verdict_fate: VerdictFate
    verdict_stale: int  # the counters when the verdict fired (before any forgiveness)
    verdict_cold: int
    forgiven: bool
    forgiven_why: str
    stopped: bool  # the crawl stopped at this step
    terms: tuple[str, ...]
    term_weights: tuple[float, ...]
    link_weights: tuple[float, ...]
    posterior_mean: tuple[float, ...]
    standard_error: tuple[float, ...]
    prior: tuple[float, ...]
    model_changed: bool
    rescored: bool
    subtree_stats: PartStats | None
    cluster_stats: PartStats | None
    queue_length: int
    pages_scheduled: int
    pages_fetched: int
    relevant_pages: int
    links: dict[str, Any]
    dropped_dry: tuple[str, ...]
    duplicate_of: str
    markdown: str
    elapsed_ms: float
    fetched_at: float
    # Fields added after version 1 was first written have defaults: older bundles and stores
    # load without them. The link model's prequential predictions (P(relevant) of the link
    # before it learned this page's label; the prior-only model's): None when nothing was
    # learned (the seed, failed fetches, duplicates).
    predicted: float | None = None
    prior_predicted: float | None = None
    # §11.10's pending lead when the stop rules were asked (True: a verdict here would be
    # forgiven automatically); None for a step that observed no page, and in records made
    # before it was kept, which also counted link destinations as evidence (session/rules.py)
    lead_pending: bool | None = None
    # §11.10's answer in words, with its numbers (frontier/leads.py): why a verdict at this
    # step would be forgiven or would stand; "" in records made before it was kept
    lead_why: str = ""
    # the score §11.10 judged (the mean of the next five links outside dry subtrees; in
    # records made before 2026-12-07 the best queued link's alone); None when
    # none was queued, for a step that observed no page, and in records made before it was
    # kept. What-if replays judge it against their own bar (session/whatif.py)
    lead_head: float | None = None
    # a Crawl-delay or Retry-After the fetcher cut to its cap ("" when none); a replay,
    # which waits for nothing, leaves it empty
    politeness_note: str = ""
    # what rendering the page in headless Chromium did (net/rendered.py RenderReport.to_dict:
    # end, served, refused, the first refusals, elapsed_s); None when it was not rendered,
    # and then left out of to_dict(), so a crawl without render writes what it wrote before
    render: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for f in fields(self):
            value = getattr(self, f.name)
            if f.name == "render" and value is None:
                continue
            if isinstance(value, PartStats):
                value = value.to_dict()
            elif isinstance(value, tuple):
                value = list(value)
            elif isinstance(value, enum.Enum):
                value = value.value
            out[f.name] = value
        return out

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> StepRecord:
        """Rebuild from ``to_dict()`` output; raises KeyError/TypeError/ValueError on bad data."""
        kwargs: dict[str, Any] = {}
        for f in fields(cls):
            if f.name not in data and f.default is not MISSING:
                continue  # a field newer than the record: its default
            value = data[f.name]
            if f.name in ("subtree_stats", "cluster_stats") and isinstance(value, Mapping):
                value = PartStats.from_dict(value)
            elif f.name == "outcome":
                value = StepOutcome(value)
            elif f.name == "verdict" and value is not None:
                value = StopReason(value)
            elif f.name == "verdict_fate":
                value = VerdictFate(value)
            elif isinstance(value, list):
                value = tuple(value)
            kwargs[f.name] = value
        return cls(**kwargs)


@dataclass(frozen=True, slots=True)
class PageRow:
    """One fetched page for the pages table and CSV."""

    step: int
    url: str
    title: str
    outcome: StepOutcome
    status: int | None
    relevance: float | None
    relevant: bool
    user_label: bool | None
    fresh: bool
    evidence_added: int
    subtree: str
    depth: int
    score: float
    blind: bool
    verdict: StopReason | None

    def to_dict(self) -> dict[str, Any]:
        """Plain values for a table or the CSV (no verdict: an empty string)."""
        out = {f.name: getattr(self, f.name) for f in fields(self)}
        out["outcome"] = str(self.outcome)
        out["verdict"] = str(self.verdict) if self.verdict is not None else ""
        return out


@dataclass(frozen=True, slots=True)
class FrontierRow:
    """One queued link with why it ranks where it does."""

    rank: int
    key: str
    url: str
    score: float
    depth: int
    cluster: str
    subtree: str
    blind: bool
    furniture: bool
    pinned: bool
    demoted: bool
    anchor: str
    explanation: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {f.name: getattr(self, f.name) for f in fields(self)}
