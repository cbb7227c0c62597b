"""A session bundle that carries its page-source answers: portable and replayable offline.

The optional ``responses`` key (``docs/SESSION_FORMAT.md``, "Recorded responses") holds
every answer the crawl received, in order, with bodies zlib-compressed and base64-encoded,
and where a ``step()`` found the queue empty. ``load_bundle`` ignores the key, so such a
bundle opens like any other; ``responses_from_bundle`` reads it defensively.
"""

from __future__ import annotations

import base64
import binascii
import zlib
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from pagesift_ui.errors import BundleError
from pagesift_ui.session.bundle import session_bundle
from pagesift_ui.store.recording import (
    Recorded,
    RecordedError,
    RecordedFetch,
    RecordedRobots,
    fetch_result,
)
from pagesift_ui.store.replay import SessionEvent, merge_events, queue_empty_marks
from pagesift_ui.store.schema import ZLIB_LEVEL

__all__ = [
    "RESPONSES_VERSION",
    "bundle_with_responses",
    "events_from_bundle",
    "recorded_from_dict",
    "recorded_to_dict",
    "responses_from_bundle",
]

RESPONSES_VERSION = 1
#: No recorded body is larger than the largest ``max_body_bytes`` a config accepts.
MAX_BODY_BYTES = 1_000_000_000


def bundle_with_responses(
    session: Any, responses: Iterable[Recorded], events: Sequence[SessionEvent] = ()
) -> dict[str, Any]:
    """``session_bundle(session)`` plus its recorded answers under ``responses``.

    ``session`` is a ``CrawlSession`` or ``SessionView``; ``events`` are its saved events
    (only the empty-queue marks are taken from them: the overrides are the bundle's own).
    """
    bundle = session_bundle(session)
    bundle["responses"] = {
        "version": RESPONSES_VERSION,
        "items": [recorded_to_dict(answer) for answer in responses],
        "queue_empty": [
            {"after_step": step, "overrides_before": before}
            for step, before in queue_empty_marks(events)
        ],
    }
    return bundle


def recorded_to_dict(answer: Recorded) -> dict[str, Any]:
    """One answer as plain JSON values (the body as base64 of its zlib compression)."""
    if isinstance(answer, RecordedRobots):
        return {"kind": "robots", "url": answer.url, "allowed": answer.allowed}
    if answer.error is not None:
        return {"kind": "fetch", "url": answer.url, "error": answer.error.to_dict()}
    result = answer.result
    assert result is not None  # RecordedFetch holds exactly one of result and error
    body = base64.b64encode(zlib.compress(result.body, ZLIB_LEVEL)).decode("ascii")
    return {
        "kind": "fetch",
        "url": answer.url,
        "result": {
            "final_url": result.final_url,
            "status": result.status,
            "content_type": result.content_type,
            "encoding": result.encoding,
            "body": body,
            "redirects": list(result.redirects),
            "elapsed_s": result.elapsed_s,
            "fetched_at": result.fetched_at,
            "headers": [list(pair) for pair in result.headers],
        },
    }


def recorded_from_dict(
    data: Mapping[str, Any], *, max_body_bytes: int = MAX_BODY_BYTES
) -> Recorded:
    """The inverse of ``recorded_to_dict``; raises KeyError/TypeError/ValueError if bad.

    A body that inflates past ``max_body_bytes`` is refused (a zlib bomb in a hostile file).
    """
    kind, url = data["kind"], _typed(data, "url", str)
    if kind == "robots":
        return RecordedRobots(url, _typed(data, "allowed", bool))
    if kind != "fetch":
        raise ValueError(f"kind must be 'fetch' or 'robots', got {kind!r}")
    if "error" in data:
        return RecordedFetch(url, error=RecordedError.from_dict(_typed(data, "error", dict)))
    raw = _typed(data, "result", dict)
    body = _inflate(url, _typed(raw, "body", str), max_body_bytes)
    headers = [(str(name), str(value)) for name, value in _typed(raw, "headers", list)]
    result = fetch_result(
        url=url,
        final_url=_typed(raw, "final_url", str),
        status=_typed(raw, "status", int),
        content_type=_typed(raw, "content_type", str),
        encoding=_typed(raw, "encoding", str),
        body=body,
        redirects=[str(hop) for hop in _typed(raw, "redirects", list)],
        elapsed_s=float(_typed(raw, "elapsed_s", (int, float))),
        fetched_at=float(_typed(raw, "fetched_at", (int, float))),
        headers=headers,
    )
    return RecordedFetch(url, result=result)


def responses_from_bundle(bundle: Mapping[str, Any]) -> list[Recorded]:
    """The recorded answers of a parsed bundle (a dict from ``json.loads``), in order.

    Raises ``BundleError`` when the bundle has no ``responses`` or they are malformed.
    """
    section = _section(bundle)
    limit = _body_limit(bundle)
    items = section.get("items")
    if not isinstance(items, list):
        raise BundleError("'responses.items' must be a JSON list")
    answers = []
    for index, item in enumerate(items):
        if not isinstance(item, dict):
            raise BundleError(f"responses.items[{index}] must be a JSON object")
        try:
            answers.append(recorded_from_dict(item, max_body_bytes=limit))
        except KeyError as exc:
            raise BundleError(f"responses.items[{index}] lacks the field {exc}") from exc
        except (TypeError, ValueError) as exc:
            raise BundleError(f"responses.items[{index}] is malformed: {exc}") from exc
    return answers


def events_from_bundle(bundle: Mapping[str, Any], overrides: Sequence[Any]) -> list[SessionEvent]:
    """The session's events: the bundle's ``overrides`` (parsed, as given) with the
    empty-queue marks of ``responses`` put back among them."""
    marks = []
    for index, mark in enumerate(_section(bundle).get("queue_empty", [])):
        try:
            marks.append((_typed(mark, "after_step", int), _typed(mark, "overrides_before", int)))
        except (KeyError, TypeError) as exc:
            raise BundleError(f"responses.queue_empty[{index}] is malformed: {exc}") from exc
    return merge_events(overrides, marks)


def _inflate(url: str, text: str, limit: int) -> bytes:
    try:
        inflater = zlib.decompressobj()
        body = inflater.decompress(base64.b64decode(text, validate=True), limit + 1)
    except (binascii.Error, zlib.error) as exc:
        raise ValueError(f"the body of {url} is not base64 of zlib data: {exc}") from exc
    if len(body) > limit:
        raise ValueError(f"the body of {url} is larger than the {limit:,}-byte limit")
    if not inflater.eof:
        raise ValueError(f"the body of {url} is cut short")
    return body


def _body_limit(bundle: Mapping[str, Any]) -> int:
    """The recording's ``max_body_bytes``: no recorded body can be larger."""
    config = bundle.get("config")
    limit = config.get("max_body_bytes") if isinstance(config, dict) else None
    if isinstance(limit, int) and not isinstance(limit, bool) and 0 < limit <= MAX_BODY_BYTES:
        return limit
    return MAX_BODY_BYTES


def _section(bundle: Mapping[str, Any]) -> Mapping[str, Any]:
    section = bundle.get("responses")
    if section is None:
        raise BundleError(
            "this bundle has no recorded responses (it was exported without them), so it "
            "cannot be replayed; export it again from pagesift-ui with responses"
        )
    if not isinstance(section, dict):
        raise BundleError("'responses' must be a JSON object")
    if section.get("version") != RESPONSES_VERSION:
        raise BundleError(
            f"responses version {section.get('version')!r} is not supported; this "
            f"pagesift-ui reads version {RESPONSES_VERSION}"
        )
    return section


def _typed(data: Mapping[str, Any], key: str, types: type | tuple[type, ...]) -> Any:
    value = data[key]
    wanted = types if isinstance(types, tuple) else (types,)
    if (isinstance(value, bool) and bool not in wanted) or not isinstance(value, wanted):
        raise TypeError(f"'{key}' has the wrong type: {value!r}")
    return value
