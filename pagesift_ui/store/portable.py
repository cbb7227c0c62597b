"""A session bundle that carries its page-source answers: portable and replayable offline.

The optional ``responses`` key (``docs/SESSION_FORMAT.md``, "Recorded responses") holds
every answer the crawl received, in order, with bodies zlib-compressed and base64-encoded,
and where a ``step()`` found the queue empty. ``load_bundle`` ignores the key, so such a
bundle opens like any other; ``responses_from_bundle`` reads it defensively.

``load_portable`` is how a bundle from outside is opened (the CLI's ``replay``, the app's
upload): the file is size-capped, parsed once, checked in full (``store/validate.py``), and
its bodies are inflated under a total budget proportional to the file's size, so a small
file cannot take a lot of memory. Every failure is a ``BundleError`` naming the field.
"""

from __future__ import annotations

import base64
import binascii
import logging
import zlib
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagesift_ui.errors import BundleError, ConfigError
from pagesift_ui.net.sitemaps import SitemapHarvest
from pagesift_ui.session import CrawlConfig, Override
from pagesift_ui.session.bundle import (
    BUNDLE_FORMAT,
    BUNDLE_VERSION,
    MAX_BUNDLE_BYTES,
    load_bundle,
    session_bundle,
)
from pagesift_ui.session.view import SessionView
from pagesift_ui.store.recording import (
    Recorded,
    RecordedError,
    RecordedFetch,
    RecordedRobots,
    RecordedSitemaps,
    fetch_result,
)
from pagesift_ui.store.replay import SessionEvent, merge_events, queue_empty_marks
from pagesift_ui.store.schema import ZLIB_LEVEL
from pagesift_ui.store.validate import MARK, check_answer, check_bundle, loads

__all__ = [
    "INFLATE_FLOOR_BYTES",
    "INFLATE_RATIO",
    "MAX_CONTENT_BYTES",
    "MAX_FILE_BYTES",
    "RESPONSES_VERSION",
    "Portable",
    "bundle_with_responses",
    "content_budget",
    "events_from_bundle",
    "load_portable",
    "read_capped",
    "recorded_from_dict",
    "recorded_to_dict",
    "responses_from_bundle",
]

logger = logging.getLogger(__name__)

RESPONSES_VERSION = 1
#: No recorded body is larger than the largest ``max_body_bytes`` a config accepts.
MAX_BODY_BYTES = 1_000_000_000
#: Larger bundle files are refused before they are read: the bundle's own cap (the loader
#: took twice as much as the replay reader).
MAX_FILE_BYTES = MAX_BUNDLE_BYTES
#: All bodies of a bundle together inflate to at most this many times the file's size (a
#: crawl's bundle holds ~0.4×: its step records are most of it; a snapshot of plain HTML
#: pages ~4×), but never less than the floor nor more than ``MAX_CONTENT_BYTES``.
INFLATE_RATIO = 16
INFLATE_FLOOR_BYTES = 32 * 1024 * 1024
MAX_CONTENT_BYTES = 1024 * 1024 * 1024


@dataclass(frozen=True, slots=True)
class Portable:
    """An opened bundle: the read-only view and, if it carries them, its recorded answers
    (None when it was exported without) and events."""

    view: SessionView
    responses: tuple[Recorded, ...] | None
    events: tuple[SessionEvent, ...]


def content_budget(file_bytes: int) -> int:
    """How many bytes the bodies of a file of ``file_bytes`` may inflate to, all together."""
    return min(MAX_CONTENT_BYTES, max(INFLATE_FLOOR_BYTES, INFLATE_RATIO * file_bytes))


def read_capped(path: Path, limit: int = MAX_FILE_BYTES, what: str = "bundle") -> bytes:
    """The bytes of ``path``; ``BundleError`` for a missing file, a folder, an unreadable
    or a too large one (checked before reading)."""
    try:
        if path.is_dir():
            raise BundleError(f"{path} is a folder, not a {what} file")
        size = path.stat().st_size
        if size > limit:
            raise BundleError(f"{path} is {size:,} bytes; a {what} may be at most {limit:,}")
        with path.open("rb") as stream:
            data = stream.read(limit + 1)
    except FileNotFoundError:
        raise BundleError(f"{path}: no such file") from None
    except OSError as exc:
        raise BundleError(f"{path} cannot be read: {exc.strerror or exc}") from exc
    if len(data) > limit:  # it grew since stat()
        raise BundleError(f"{path} is larger than {limit:,} bytes")
    return data


def load_portable(source: bytes | str | Path) -> Portable:
    """Open a bundle from outside: its view, and its recorded answers if it has them.

    ``source`` is the file's path or its contents. Raises ``BundleError`` whose message
    names the bad field (``steps[3].link.features[2].value: not a finite number``).
    """
    data = read_capped(source) if isinstance(source, Path) else source
    if len(data) > MAX_FILE_BYTES:
        raise BundleError(f"the bundle is {len(data):,} bytes; at most {MAX_FILE_BYTES:,}")
    parsed = loads(data)
    _check_head(parsed)
    check_bundle(parsed)
    config = _config(parsed["config"])
    responses: tuple[Recorded, ...] | None = None
    events: tuple[SessionEvent, ...] = ()
    if parsed.get("responses") is not None:
        overrides = [Override.from_dict(raw) for raw in parsed["overrides"]]
        budget = content_budget(len(data))
        responses = tuple(responses_from_bundle(parsed, max_total_bytes=budget,
                                                max_body_bytes=config.max_body_bytes))
        events = tuple(events_from_bundle(parsed, overrides))
    del parsed  # the view is built from the checked text: one parse tree at a time
    return Portable(load_bundle(data), responses, events)


def _check_head(parsed: Any) -> None:
    if not isinstance(parsed, dict):
        raise BundleError("a session bundle is a JSON object; this file holds something else")
    if parsed.get("format") != BUNDLE_FORMAT:
        shown = parsed.get("format")
        raise BundleError(f"format: not a pagesift session bundle (format {shown!r:.60})")
    if parsed.get("version") != BUNDLE_VERSION or isinstance(parsed.get("version"), bool):
        raise BundleError(f"version: bundle version {parsed.get('version')!r:.40} is not "
                          f"supported; this pagesift-ui reads version {BUNDLE_VERSION}")


def _config(raw: Mapping[str, Any]) -> CrawlConfig:
    try:
        return CrawlConfig.from_recorded(raw)
    except ConfigError as exc:
        raise BundleError(f"config.{exc.field}: {exc.message}") from exc
    except (TypeError, ValueError, OverflowError) as exc:
        raise BundleError(f"config: {exc}") from exc


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
    if isinstance(answer, RecordedSitemaps):
        return {"kind": "sitemaps", "url": "", "harvest": answer.harvest.to_dict()}
    if isinstance(answer, RecordedRobots):
        robots = {"kind": "robots", "url": answer.url, "allowed": answer.allowed}
        return robots if answer.error is None else {**robots, "error": answer.error.to_dict()}
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
    """The inverse of ``recorded_to_dict``; raises ``BundleError`` naming the bad field.

    A body that inflates past ``max_body_bytes`` is refused (a zlib bomb in a hostile file).
    """
    check_answer(data, "answer")
    url = data["url"]
    if data["kind"] == "robots":
        error = data.get("error")
        try:
            failure = None if error is None else RecordedError.from_dict(error)
        except (KeyError, TypeError, ValueError) as exc:
            raise BundleError(f"a robots answer's error is malformed ({exc})") from exc
        return RecordedRobots(url, data["allowed"], failure)
    if data["kind"] == "sitemaps":
        try:
            return RecordedSitemaps(SitemapHarvest.from_dict(data["harvest"]))
        except (KeyError, TypeError, ValueError) as exc:  # check_answer saw the shape
            raise BundleError(f"answer.harvest: {exc}") from exc
    if "error" in data:
        return RecordedFetch(url, error=RecordedError.from_dict(data["error"]))
    raw = data["result"]
    body = _inflate(url, raw["body"], max_body_bytes)
    try:
        result = fetch_result(
            url=url,
            final_url=raw["final_url"],
            status=raw["status"],
            content_type=raw["content_type"],
            encoding=raw["encoding"],
            body=body,
            redirects=raw["redirects"],
            elapsed_s=float(raw["elapsed_s"]),
            fetched_at=float(raw["fetched_at"]),
            headers=[(name, value) for name, value in raw["headers"]],
        )
    except ValueError as exc:  # an encoding Python does not know
        raise BundleError(f"answer.result.encoding: {exc}") from exc
    return RecordedFetch(url, result=result)


def responses_from_bundle(
    bundle: Mapping[str, Any], *, max_total_bytes: int = MAX_CONTENT_BYTES,
    max_body_bytes: int | None = None,
) -> list[Recorded]:
    """The recorded answers of a parsed bundle (a dict from ``json.loads``), in order.

    Every body is inflated under the bundle's ``max_body_bytes`` and all of them together
    under ``max_total_bytes`` (a bundle of many bodies each under the first limit is a bomb
    too). Raises ``BundleError`` naming the bad item when the bundle has no ``responses`` or
    they are malformed.
    """
    section = _section(bundle)
    limit = max_body_bytes if max_body_bytes is not None else _body_limit(bundle)
    items = section.get("items")
    if not isinstance(items, list):
        raise BundleError("responses.items: must be a list")
    answers: list[Recorded] = []
    left = max_total_bytes
    for index, item in enumerate(items):
        where = f"responses.items[{index}]"
        try:
            answer = recorded_from_dict(item, max_body_bytes=min(limit, left))
        except _TooLarge as exc:
            total = "" if exc.limit == limit else (
                f"; all bodies together may take at most {max_total_bytes:,} bytes")
            raise BundleError(f"{where}.result.body: {exc}{total}") from None
        except BundleError as exc:
            raise BundleError(f"{where}{_after_answer(str(exc))}") from exc
        if isinstance(answer, RecordedFetch) and answer.result is not None:
            left -= len(answer.result.body)
        answers.append(answer)
    return answers


def _after_answer(message: str) -> str:
    """A ``recorded_from_dict`` message's path relative to its item (``answer.url: …`` →
    ``.url: …``)."""
    if message.startswith("answer"):
        return message[len("answer"):]
    return f": {message}"


def events_from_bundle(bundle: Mapping[str, Any], overrides: Sequence[Any]) -> list[SessionEvent]:
    """The session's events: the bundle's ``overrides`` (parsed, as given) with the
    empty-queue marks of ``responses`` put back among them."""
    marks = []
    for index, mark in enumerate(_section(bundle).get("queue_empty", [])):
        where = f"responses.queue_empty[{index}]"
        MARK(mark, where, BundleError)
        marks.append((mark["after_step"], mark["overrides_before"]))
    return merge_events(overrides, marks)


class _TooLarge(ValueError):
    def __init__(self, message: str, limit: int) -> None:
        super().__init__(message)
        self.limit = limit


def _inflate(url: str, text: str, limit: int) -> bytes:
    try:
        inflater = zlib.decompressobj()
        # at most limit + 1 bytes come out, however much the data would inflate to
        body = inflater.decompress(base64.b64decode(text, validate=True), limit + 1)
    except (binascii.Error, zlib.error) as exc:
        raise BundleError(f"answer.result.body: not base64 of zlib data ({exc})") from exc
    if len(body) > limit:
        raise _TooLarge(f"the body of {url} inflates past {limit:,} bytes", limit)
    if not inflater.eof:
        raise BundleError(f"answer.result.body: the body of {url} is cut short")
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
        raise BundleError("responses: must be a JSON object")
    if section.get("version") != RESPONSES_VERSION:
        raise BundleError(
            f"responses version {section.get('version')!r} is not supported; this "
            f"pagesift-ui reads version {RESPONSES_VERSION}"
        )
    return section


