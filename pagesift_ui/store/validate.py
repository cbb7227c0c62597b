"""Reading untrusted JSON (bundles, WARC metadata) and checking every part of it.

A bundle is data from anywhere: before anything is built from it, every field the app, the
CLI or a replay reads is checked here — its type, that a number is finite and in range, that
text and lists are not absurdly long, and every nested part (``relevance_detail.units``,
``link.features``, ``evidence``, ``final.summary``, the overrides and their ``changes``, the
config). A failure is a ``BundleError`` (or the error class the caller names, e.g.
``WarcError``) whose message starts with the path of the bad part, e.g.
``steps[3].link.features[2].value: not a finite number``.

Numbers are read by hooks of the JSON parser, so that an integer of 5,000 digits (which
Python's int-string limit would turn into a ``ValueError``) or ``1e400`` (``inf``) becomes a
marker the checks report with its path instead of an exception from inside ``json``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from typing import Any

from pagesift_ui.errors import BundleError, PagesiftError, shown
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.frontier.linkrules import LIST_TITLE_BYTES
from pagesift_ui.frontier.links import SCORE_TERM_NAMES, LinkVia
from pagesift_ui.frontier.model import FEATURE_NAMES
from pagesift_ui.net.rendered import MAX_LISTED_REFUSALS, RenderEnd
from pagesift_ui.net.sitemaps import MAX_FILE_NOTES, SitemapFound, SitemapOutcome
from pagesift_ui.session.record import (
    OverrideKind,
    StepOutcome,
    SubtreeState,
    VerdictFate,
    raised_budget,
)

__all__ = [
    "ERROR",
    "HARVEST",
    "LONG_TEXT",
    "MARK",
    "MAX_INT",
    "SHORT_TEXT",
    "Check",
    "boolean",
    "check_answer",
    "check_bundle",
    "check_override",
    "check_plain",
    "choice",
    "integer",
    "items",
    "loads",
    "mapping",
    "nullable",
    "number",
    "pair",
    "record",
    "text",
]

#: The largest integer a bundle may hold (JSON's safe-integer range).
MAX_INT = 2**53
#: Digits beyond which an integer is not even converted (far above ``MAX_INT``'s 16).
_MAX_DIGITS = 40
#: Text fields: URLs, titles, notes, messages, reasons.
SHORT_TEXT = 65_536
#: Page Markdown and base64 bodies (the file's size cap bounds them as well).
LONG_TEXT = 256 * 1024 * 1024
#: Lists of one record (links examples, units, terms); the steps list has its own.
MAX_ITEMS = 100_000
MAX_STEPS = 10_000_000
#: Nesting of free-form JSON (an override's ``changes``, keys this version does not know).
MAX_DEPTH = 32

ErrorClass = type[PagesiftError]
Check = Callable[[Any, str, ErrorClass], None]


class _BadNumber:
    """A number the parser read but that no check accepts (too many digits, not finite)."""

    __slots__ = ("why",)

    def __init__(self, why: str) -> None:
        self.why = why


def _parse_int(text: str) -> int | _BadNumber:
    if len(text.lstrip("-")) > _MAX_DIGITS:
        return _BadNumber(f"an integer of {len(text.lstrip('-')):,} digits is out of range")
    return int(text)


def _parse_float(text: str) -> float | _BadNumber:
    value = float(text)
    return value if math.isfinite(value) else _BadNumber("not a finite number")


def _reject_constant(name: str) -> _BadNumber:
    return _BadNumber(f"{name} is not a finite number (and not valid JSON)")


def loads(data: bytes | str, error: ErrorClass = BundleError, what: str = "the file") -> Any:
    """Parse JSON whose numbers are checked later (see the module docstring)."""
    try:
        return json.loads(data, parse_int=_parse_int, parse_float=_parse_float,
                          parse_constant=_reject_constant)
    except UnicodeDecodeError as exc:
        raise error(f"{what} is not UTF-8 text: {exc}") from exc
    except json.JSONDecodeError as exc:
        raise error(f"{what} is not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise error(f"{what} nests JSON too deeply") from exc


# -- the checks --------------------------------------------------------------------------
#
# A check is ``check(value, path, error)``: it returns when ``value`` is good and raises
# ``error(f"{path}: what is wrong")`` otherwise.


def _fail(error: ErrorClass, path: str, why: str) -> None:
    # the top level has no path: name the whole ("the bundle lacks the field 'steps'")
    raise error(f"{path}: {why}" if path else f"the bundle {why}")


def _shown(value: Any) -> str:
    return "a bad number" if isinstance(value, _BadNumber) else shown(value)


def integer(low: int = 0, high: int = MAX_INT) -> Check:
    def check(value: Any, path: str, error: ErrorClass) -> None:
        if isinstance(value, _BadNumber):
            _fail(error, path, value.why)
        if isinstance(value, bool) or not isinstance(value, int):
            _fail(error, path, f"must be an integer, got {_shown(value)}")
        if not low <= value <= high:
            _fail(error, path, f"{value} is out of range [{low}, {high}]")
    return check


def number(low: float = -1e300, high: float = 1e300) -> Check:
    def check(value: Any, path: str, error: ErrorClass) -> None:
        if isinstance(value, _BadNumber):
            _fail(error, path, value.why)
        if isinstance(value, bool) or not isinstance(value, int | float):
            _fail(error, path, f"must be a number, got {_shown(value)}")
        if not low <= value <= high:
            _fail(error, path, f"{value} is out of range [{low:g}, {high:g}]")
    return check


def text(limit: int = SHORT_TEXT) -> Check:
    def check(value: Any, path: str, error: ErrorClass) -> None:
        if not isinstance(value, str):
            _fail(error, path, f"must be text, got {_shown(value)}")
        if len(value) > limit:
            _fail(error, path, f"text of {len(value):,} characters is longer than {limit:,}")
    return check


def boolean(value: Any, path: str, error: ErrorClass) -> None:
    if not isinstance(value, bool):
        _fail(error, path, f"must be true or false, got {_shown(value)}")


def choice(*allowed: str | None) -> Check:
    def check(value: Any, path: str, error: ErrorClass) -> None:
        if value not in allowed or isinstance(value, bool):
            names = ", ".join("null" if a is None else repr(a) for a in allowed)
            _fail(error, path, f"{_shown(value)} is not one of {names}")
    return check


def nullable(inner: Check) -> Check:
    def check(value: Any, path: str, error: ErrorClass) -> None:
        if value is not None:
            inner(value, path, error)
    return check


def items(inner: Check, limit: int = MAX_ITEMS, size: int | None = None) -> Check:
    def check(value: Any, path: str, error: ErrorClass) -> None:
        if not isinstance(value, list):
            _fail(error, path, f"must be a list, got {_shown(value)}")
        if len(value) > limit:
            _fail(error, path, f"a list of {len(value):,} items is longer than {limit:,}")
        if size is not None and len(value) != size:
            _fail(error, path, f"must hold {size} items, not {len(value)}")
        for index, item in enumerate(value):
            inner(item, f"{path}[{index}]", error)
    return check


def pair(first: Check, second: Check) -> Check:
    def check(value: Any, path: str, error: ErrorClass) -> None:
        items(_anything, size=2)(value, path, error)
        first(value[0], f"{path}[0]", error)
        second(value[1], f"{path}[1]", error)
    return check


def mapping(values: Check, keys: Check | None = None, limit: int = MAX_ITEMS) -> Check:
    key_check = keys or text()

    def check(value: Any, path: str, error: ErrorClass) -> None:
        if not isinstance(value, dict):
            _fail(error, path, f"must be a JSON object, got {_shown(value)}")
        if len(value) > limit:
            _fail(error, path, f"an object of {len(value):,} keys is larger than {limit:,}")
        for key, item in value.items():
            key_check(key, f"{path} key {_shown(key)}", error)
            values(item, _key_path(path, key), error)
    return check


def record(required: Mapping[str, Check], optional: Mapping[str, Check] | None = None,
           *, extra: bool = True) -> Check:
    """An object with these fields; unknown ones are allowed (a newer writer's) when
    ``extra``, and checked as plain JSON."""
    maybe = optional or {}

    def check(value: Any, path: str, error: ErrorClass) -> None:
        if not isinstance(value, dict):
            _fail(error, path, f"must be a JSON object, got {_shown(value)}")
        for name, inner in required.items():
            if name not in value:
                _fail(error, path, f"lacks the field '{name}'")
            inner(value[name], _join(path, name), error)
        for name, item in value.items():
            if name in required:
                continue
            where = _join(path, str(name))
            if name in maybe:
                maybe[name](item, where, error)
            elif not extra:
                _fail(error, path, f"has an unknown field {_shown(name)}")
            else:
                text()(name, f"{path} key", error)
                check_plain(item, where, error)
    return check


def _join(path: str, name: str) -> str:
    return f"{path}.{name}" if path else name


def _key_path(path: str, key: Any) -> str:
    """``path.key`` for a name, ``path['key']`` for anything else (a URL, a phrase)."""
    if isinstance(key, str) and key.isidentifier():
        return _join(path, key)
    return f"{path}[{_shown(key)}]"


def _anything(value: Any, path: str, error: ErrorClass) -> None:
    check_plain(value, path, error)


def check_plain(value: Any, path: str, error: ErrorClass = BundleError, depth: int = 0) -> None:
    """Free-form JSON: any shape, but bounded depth and sizes, numbers finite."""
    if depth > MAX_DEPTH:
        _fail(error, path, f"nests deeper than {MAX_DEPTH} levels")
    if isinstance(value, _BadNumber):
        _fail(error, path, value.why)
    if isinstance(value, str):
        text(LONG_TEXT)(value, path, error)
    elif isinstance(value, list):
        for index, item in enumerate(value):
            check_plain(item, f"{path}[{index}]", error, depth + 1)
    elif isinstance(value, dict):
        for key, item in value.items():
            check_plain(item, _key_path(path, key), error, depth + 1)


# -- the bundle's parts --------------------------------------------------------------------

_COUNT = integer()
_STEP_NO = integer(1)
_SHARE = number(0.0, 1.0)
_FINITE = number()
_TIME = number(0.0, 1e13)
_URL = text()
_REASON = choice(*(r.value for r in StopReason))
_STATE = choice(*(s.value for s in SubtreeState))
_FEATURE_VALUES = items(_FINITE, size=len(FEATURE_NAMES))

_FEATURE = record({"name": choice(*SCORE_TERM_NAMES), "value": _FINITE, "weight": _FINITE,
                   "contribution": _FINITE})
_SHAPE_STEP = record({"rule": text(), "factor": _FINITE, "score": _FINITE})
#: A link's score explanation (``LinkExplanation.to_dict``).
LINK = record({"features": items(_FEATURE, limit=64), "raw": _FINITE,
               "steps": items(_SHAPE_STEP, limit=64), "score": _FINITE, "blind": boolean},
              {"via": choice(*(v.value for v in LinkVia)), "lastmod": text(64),
               "cited": boolean, "named_list": text(LIST_TITLE_BYTES)})
_UNIT = record({"unit": text(), "about": boolean, "head": boolean, "tf": _COUNT,
                "evidence": _FINITE, "weight": _FINITE})
#: A page's relevance explanation (``RelevanceExplanation.to_dict``).
RELEVANCE = record({"units": items(_UNIT, limit=10_000), "relevance": _SHARE,
                    "avg_len": number(0.0), "pages": _COUNT})
PART = record({"part": text(), "pages": _COUNT, "hits": _COUNT, "low": _SHARE, "high": _SHARE,
               "rest_low": _SHARE, "rest_high": _SHARE, "state": _STATE},
              {"forced": choice("", *(s.value for s in SubtreeState))}, extra=False)
_EXAMPLE = pair(_URL, text())
#: One sitemap file's note (``SitemapFile.to_dict``).
_SITEMAP_FILE = record({
    "url": _URL, "found": choice(*(f.value for f in SitemapFound)),
    "outcome": choice(*(o.value for o in SitemapOutcome)), "kind": text(64),
    "listed": _COUNT, "taken": _COUNT, "other_host": _COUNT, "detail": text(),
})
_TALLY = {"queued": _COUNT, "requeued": _COUNT, "evicted": items(_URL), "evicted_count": _COUNT,
          "rejected": items(_EXAMPLE), "rejected_count": _COUNT, "skipped": items(_EXAMPLE),
          "skipped_by_reason": mapping(_COUNT)}
#: The sitemap seeding's account (``session/seeding.py``), at the step that seeded.
SITEMAP_LINKS = record(
    {"found": _COUNT, "files": items(_SITEMAP_FILE, limit=MAX_FILE_NOTES)},
    {**_TALLY, "cut": _COUNT, "not_read": _COUNT, "already_fetched": _COUNT},
)
LINKS = record(
    {"found": _COUNT},
    {**_TALLY, "not_considered": _COUNT, "page_cut": text(), "sitemap": SITEMAP_LINKS},
)

#: Every field of a step record (``StepRecord``), by name.
STEP_FIELDS: dict[str, Check] = {
    "step": _STEP_NO, "url": _URL, "final_url": _URL,
    "outcome": choice(*(o.value for o in StepOutcome)),
    "status": nullable(integer(0, 999)), "error": nullable(text()),
    "error_kind": nullable(text(256)), "content_type": text(1024), "depth": _COUNT,
    "title": text(), "lang": text(256), "score": _FINITE, "link": nullable(LINK),
    "blind": boolean, "subtree": text(), "cluster": text(), "relevance": nullable(_SHARE),
    "relevance_detail": nullable(RELEVANCE), "fresh": boolean,
    "evidence_added": items(_COUNT, limit=1_000), "evidence": items(_COUNT, limit=1_000),
    "evidence_blocks": items(_COUNT), "coverage": _SHARE, "covered": boolean,
    "sources": _COUNT, "stale": _COUNT, "cold": _COUNT, "verdict": nullable(_REASON),
    "verdict_fate": choice(*(f.value for f in VerdictFate)), "verdict_stale": _COUNT,
    "verdict_cold": _COUNT, "forgiven": boolean, "forgiven_why": text(), "stopped": boolean,
    "terms": items(text(), limit=1_000), "term_weights": items(_FINITE, limit=1_000),
    "link_weights": _FEATURE_VALUES, "posterior_mean": _FEATURE_VALUES,
    "standard_error": _FEATURE_VALUES, "prior": _FEATURE_VALUES, "model_changed": boolean,
    "rescored": boolean, "subtree_stats": nullable(PART), "cluster_stats": nullable(PART),
    "queue_length": _COUNT, "pages_scheduled": _COUNT, "pages_fetched": _COUNT,
    "relevant_pages": _COUNT, "links": LINKS, "dropped_dry": items(_URL),
    "duplicate_of": _URL, "markdown": text(LONG_TEXT), "elapsed_ms": number(0.0),
    "fetched_at": _TIME,
}
#: Step fields added after version 1 was first written: a bundle may lack them.
STEP_OPTIONAL: dict[str, Check] = {
    "predicted": nullable(_SHARE), "prior_predicted": nullable(_SHARE),
    "lead_pending": nullable(boolean), "politeness_note": text(), "lead_why": text(),
    "lead_head": nullable(number(0.0)),
    "render": nullable(record({
        "end": choice(*(e.value for e in RenderEnd)), "served": _COUNT, "refused": _COUNT,
        "refusals": items(pair(_URL, text(256)), limit=MAX_LISTED_REFUSALS),
        "elapsed_s": number(0.0),
    })),
}
_STEP = record(STEP_FIELDS, STEP_OPTIONAL)

_LABEL_STATE = record({}, {
    "link_weights": _FEATURE_VALUES, "coverage": _SHARE, "covered": boolean,
    "evidence": items(_COUNT, limit=1_000), "stale": _COUNT, "cold": _COUNT,
    "subtree_state": _STATE, "subtree_pages": _COUNT, "subtree_hits": _COUNT,
    "fresh": boolean, "relevant_pages": _COUNT, "queue_head": text(),
    "queue_head_score": nullable(_FINITE),
})
_CHANGES = record({}, {
    "label": nullable(boolean), "crawler_relevant": boolean, "relevance": _SHARE,
    "learned": boolean, "rescored": boolean, "credits_moved": boolean,
    "shares_moved": boolean, "families_moved": boolean, "parents_moved": _COUNT, "subtree": text(),
    "before": _LABEL_STATE, "after": _LABEL_STATE,
})
_OVERRIDE_FIELDS = record(
    {"step": _COUNT, "kind": choice(*(k.value for k in OverrideKind))},
    {"target": text(), "value": nullable(boolean), "note": text(),
     "changes": nullable(_CHANGES)},
)


def _override(value: Any, path: str, error: ErrorClass) -> None:
    """An override's fields, and a raised budget's target a page count: "abc" opened and
    the log read "you raised the page budget to abc pages" (found by using the app)."""
    _OVERRIDE_FIELDS(value, path, error)
    if value["kind"] == OverrideKind.RAISE_LIMIT.value:
        try:
            raised_budget(value.get("target", ""))
        except ValueError as exc:
            _fail(error, _join(path, "target"), str(exc))

_VERDICT_ROW = items(_anything, size=3)
_SUMMARY = record({}, {
    "steps": _COUNT, "pages_fetched": _COUNT, "pages_scheduled": _COUNT,
    "relevant_pages": _COUNT, "harvest_rate": _SHARE, "fresh_rate": _SHARE, "coverage": _SHARE,
    "covered": boolean, "stale": _COUNT, "cold": _COUNT,
    "evidence": mapping(_COUNT, limit=1_000), "queue_length": _COUNT, "queue_in_dry": _COUNT,
    "stop_reason": nullable(_REASON), "first_verdict": nullable(_REASON),
    "stop_step": nullable(_COUNT), "verdicts": items(_VERDICT_ROW), "done": boolean,
})
_FRONTIER_ROW = record({
    "rank": _COUNT, "key": _URL, "url": _URL, "score": _FINITE, "depth": _COUNT,
    "cluster": text(), "subtree": text(), "blind": boolean, "furniture": boolean,
    "pinned": boolean, "demoted": boolean, "anchor": text(), "explanation": nullable(LINK),
}, extra=False)
_FINAL = record(
    {"summary": _SUMMARY, "frontier": items(_FRONTIER_ROW, limit=10_000)},
    {"stop_reason": nullable(_REASON), "first_verdict": nullable(_REASON),
     "stop_step": nullable(_COUNT)},
)

ERROR = record({"class": text(256), "kind": text(256), "message": text()},
                {"status": nullable(integer(0, 999)), "content_type": nullable(text(1024)),
                 "at": nullable(_TIME)})
_RESULT = record({
    "final_url": _URL, "status": integer(0, 999), "content_type": text(1024),
    "encoding": text(64), "body": text(LONG_TEXT), "redirects": items(_URL, limit=100),
    "elapsed_s": number(0.0), "fetched_at": _TIME, "headers": items(pair(text(), text())),
})
#: One recorded answer (``docs/SESSION_FORMAT.md``, "Recorded responses").
ANSWER_ROBOTS = record({"kind": choice("robots"), "url": _URL, "allowed": boolean},
                       {"error": ERROR})
ANSWER_ERROR = record({"kind": choice("fetch"), "url": _URL, "error": ERROR})
ANSWER_PAGE = record({"kind": choice("fetch"), "url": _URL, "result": _RESULT})
#: A sitemap harvest (``SitemapHarvest.to_dict``): at most ``MAX_FILE_NOTES`` files.
HARVEST = record({
    "entries": items(pair(_URL, text(64))), "files": items(_SITEMAP_FILE, limit=MAX_FILE_NOTES),
    "cut": _COUNT, "not_read": _COUNT,
})
ANSWER_SITEMAPS = record({"kind": choice("sitemaps"), "url": _URL, "harvest": HARVEST})
MARK = record({"after_step": _COUNT, "overrides_before": _COUNT})


def check_answer(value: Any, path: str, error: ErrorClass = BundleError) -> None:
    """One item of ``responses.items``: a robots answer, a sitemap harvest, a failed fetch
    or a page."""
    record({"kind": choice("fetch", "robots", "sitemaps")})(value, path, error)
    if value["kind"] == "robots":
        ANSWER_ROBOTS(value, path, error)
    elif value["kind"] == "sitemaps":
        ANSWER_SITEMAPS(value, path, error)
    elif "error" in value:
        ANSWER_ERROR(value, path, error)
    else:
        ANSWER_PAGE(value, path, error)


_RESPONSES = record({"version": integer(), "items": items(check_answer, limit=MAX_STEPS)},
                    {"queue_empty": items(MARK, limit=MAX_STEPS)})


def check_override(value: Any, path: str, error: ErrorClass = BundleError) -> None:
    _override(value, path, error)


def check_bundle(data: Any) -> None:
    """Every part of a parsed bundle, except the config (``CrawlConfig`` checks it).

    Raises ``BundleError`` naming the first bad part's path.
    """
    if not isinstance(data, dict):
        raise BundleError("a session bundle is a JSON object; this file holds something else")
    top = record(
        {"config": mapping(_anything, limit=1_000),
         "steps": items(_STEP, limit=MAX_STEPS),
         "overrides": items(_override, limit=MAX_STEPS),
         "labels": mapping(boolean),
         "final": _FINAL},
        {"tool": text(), "created_at": text(), "stop_reason": nullable(_REASON),
         "stop_step": nullable(_COUNT), "end_reason": nullable(_REASON),
         "format": text(), "version": _anything, "responses": _RESPONSES},
    )
    top(data, "", BundleError)
    for index, step in enumerate(data["steps"]):
        _check_step_shape(step, f"steps[{index}]", index)


def _check_step_shape(step: dict[str, Any], path: str, index: int) -> None:
    """What the checks of single fields cannot see: the step number, per-term lists."""
    if step["step"] != index + 1:
        raise BundleError(f"{path}.step: {step['step']} where {index + 1} was expected")
    terms = len(step["terms"])
    for name in ("evidence", "evidence_added", "term_weights"):
        if len(step[name]) != terms:
            raise BundleError(f"{path}.{name}: {len(step[name])} values for {terms} terms")
