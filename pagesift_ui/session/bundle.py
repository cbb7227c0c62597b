"""The versioned JSON session bundle and the pages CSV (format: ``docs/SESSION_FORMAT.md``).

Import is defensive: a bundle is data from anywhere. It is parsed with ``json`` only (nothing
in it is ever executed or unpickled), capped in size, and every part is type-checked before a
``SessionView`` is built; anything wrong raises ``BundleError`` saying what and where.
"""

from __future__ import annotations

import csv
import io
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import fields
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pagesift_ui import __version__
from pagesift_ui.errors import BundleError, ConfigError
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.protocol import ReadableSession
from pagesift_ui.session.record import FrontierRow, Override, PageRow, PartStats, StepRecord
from pagesift_ui.session.view import SessionView

__all__ = [
    "BUNDLE_FORMAT",
    "BUNDLE_VERSION",
    "MAX_BUNDLE_BYTES",
    "bundle_chunks",
    "bundle_json",
    "load_bundle",
    "pages_csv",
    "session_bundle",
]

BUNDLE_FORMAT = "pagesift-session"
BUNDLE_VERSION = 1
#: Larger files are refused before parsing (a 2,000-step session is about 20 MB): a bundle
#: with its responses too (``store/portable.py``), one cap for every way a bundle is read
#: (docs/FAULTS.md).
MAX_BUNDLE_BYTES = 256 * 1024 * 1024
#: Rows of the final frontier kept in a bundle.
FRONTIER_ROWS = 50


def session_bundle(session: ReadableSession) -> dict[str, Any]:
    """The bundle of a live session or an imported view (which re-exports what it read)."""
    if isinstance(session, SessionView):
        meta = session.meta
        final = session.final
    else:
        meta = {"tool": f"pagesift-ui {__version__}", "created_at": _now()}
        summary = session.summary()
        final = {
            "stop_reason": summary["stop_reason"],
            "first_verdict": summary["first_verdict"],
            "stop_step": summary["stop_step"],
            "summary": summary,
            "frontier": [row.to_dict() for row in session.frontier(FRONTIER_ROWS)],
        }
    return {
        "format": BUNDLE_FORMAT,
        "version": BUNDLE_VERSION,
        **meta,
        "config": session.config.to_dict(),
        # the first stop verdict (also with --no-stop) and where it fired; ``end_reason`` is
        # why the crawl actually ended
        "stop_reason": final.get("first_verdict") or final.get("stop_reason"),
        "stop_step": final.get("stop_step"),
        "end_reason": final.get("stop_reason"),
        "steps": [record.to_dict() for record in session.steps],
        "overrides": [event.to_dict() for event in session.overrides],
        "labels": dict(sorted(session.labels.items())),
        "final": final,
    }


def bundle_json(bundle: Mapping[str, Any]) -> str:
    """Canonical text of a bundle: export → import → export gives the same bytes."""
    return "".join(bundle_chunks(bundle))


def bundle_chunks(bundle: Mapping[str, Any]) -> Iterator[str]:
    """``bundle_json``'s text in pieces, for a file written as they come: the whole text
    and its encoded copy were two more copies of a bundle in memory (a 76 MB bundle of 20
    pages of 4.8 MB took 508 MB to write; docs/FAULTS.md)."""
    encoder = json.JSONEncoder(ensure_ascii=False, sort_keys=True, indent=1, allow_nan=False)
    return encoder.iterencode(bundle)


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def load_bundle(source: str | bytes | Path) -> SessionView:
    """Read a bundle from JSON text, bytes, or a file path; raise ``BundleError`` if bad."""
    data = _read(source)
    if not isinstance(data, dict):
        raise BundleError("a session bundle is a JSON object; this file holds something else")
    if data.get("format") != BUNDLE_FORMAT:
        raise BundleError(f"not a pagesift session bundle (format {data.get('format')!r})")
    if data.get("version") != BUNDLE_VERSION:
        raise BundleError(
            f"bundle version {data.get('version')!r} is not supported; this pagesift-ui reads "
            f"version {BUNDLE_VERSION}"
        )
    try:
        config = CrawlConfig.from_recorded(_mapping(data, "config"))
    except ConfigError as exc:
        raise BundleError(f"the bundle's config is invalid: {exc}") from exc
    steps = [_step(i, raw) for i, raw in enumerate(_list(data, "steps"))]
    overrides = [_override(i, raw) for i, raw in enumerate(_list(data, "overrides"))]
    labels = _mapping(data, "labels")
    if not all(isinstance(k, str) and isinstance(v, bool) for k, v in labels.items()):
        raise BundleError("labels must map page URLs to true/false")
    final = _mapping(data, "final")
    _check_final(final, len(steps))
    meta = {"tool": str(data.get("tool", "")), "created_at": str(data.get("created_at", ""))}
    return SessionView(config, steps, overrides, labels, final, meta)


def _read(source: str | bytes | Path) -> Any:
    if isinstance(source, Path):
        if source.stat().st_size > MAX_BUNDLE_BYTES:
            raise BundleError(f"{source} is larger than {MAX_BUNDLE_BYTES} bytes")
        source = source.read_bytes()
    if len(source) > MAX_BUNDLE_BYTES:
        raise BundleError(f"the bundle is larger than {MAX_BUNDLE_BYTES} bytes")
    try:
        return json.loads(source, parse_constant=_reject_constant)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BundleError(f"the file is not valid JSON: {exc}") from exc
    except RecursionError as exc:
        raise BundleError("the file nests JSON too deeply to be a session bundle") from exc


def _reject_constant(name: str) -> float:
    raise BundleError(f"the bundle contains {name}, which is not valid JSON")


def _mapping(data: Mapping[str, Any], key: str) -> dict[str, Any]:
    if key not in data:
        raise BundleError(f"the bundle lacks the field '{key}'")
    value = data[key]
    if not isinstance(value, dict):
        raise BundleError(f"'{key}' must be a JSON object")
    return value


def _list(data: Mapping[str, Any], key: str) -> list[Any]:
    if key not in data:
        raise BundleError(f"the bundle lacks the field '{key}'")
    value = data[key]
    if not isinstance(value, list):
        raise BundleError(f"'{key}' must be a JSON list")
    return value


_STEP_TYPES: dict[str, tuple[type, ...]] = {
    "int": (int,),
    "float": (int, float),
    "str": (str,),
    "bool": (bool,),
}


def _check_types(record: StepRecord, where: str) -> None:
    for f in fields(StepRecord):
        value = getattr(record, f.name)
        kind = str(f.type)
        if value is None and "None" in kind:
            continue
        for name, types in _STEP_TYPES.items():
            if kind.startswith(name) and not _is(value, types):
                raise BundleError(f"{where}: '{f.name}' must be {name}, got {value!r}")
        if kind.startswith("tuple") and not isinstance(value, tuple):
            raise BundleError(f"{where}: '{f.name}' must be a list")
        if kind.startswith(("dict", "PartStats")) and not isinstance(value, dict | PartStats):
            raise BundleError(f"{where}: '{f.name}' must be a JSON object")


def _is(value: object, types: tuple[type, ...]) -> bool:
    if bool not in types and isinstance(value, bool):
        return False
    if isinstance(value, float) and not math.isfinite(value):
        return False
    return isinstance(value, types)


def _step(index: int, raw: Any) -> StepRecord:
    where = f"steps[{index}]"
    if not isinstance(raw, dict):
        raise BundleError(f"{where} must be a JSON object")
    try:
        record = StepRecord.from_dict(raw)
    except KeyError as exc:
        raise BundleError(f"{where} lacks the field {exc}") from exc
    except (TypeError, ValueError) as exc:
        raise BundleError(f"{where} is malformed: {exc}") from exc
    _check_types(record, where)
    if record.step != index + 1:
        raise BundleError(f"{where} has step number {record.step}; expected {index + 1}")
    return record


def _override(index: int, raw: Any) -> Override:
    if not isinstance(raw, dict):
        raise BundleError(f"overrides[{index}] must be a JSON object")
    try:
        return Override.from_dict(raw)
    except (KeyError, TypeError, ValueError) as exc:
        raise BundleError(f"overrides[{index}] is malformed: {exc}") from exc


def _check_final(final: Mapping[str, Any], steps: int) -> None:
    for key in ("stop_reason", "first_verdict"):
        value = final.get(key)
        if value is not None and value not in {r.value for r in StopReason}:
            raise BundleError(f"final.{key} {value!r} is not a stop reason")
    step = final.get("stop_step")
    if step is not None and (isinstance(step, bool) or not isinstance(step, int)):
        raise BundleError("final.stop_step must be a step number or null")
    if step is not None and not 1 <= step <= steps:
        # a bundle whose steps were cut read "0 steps · stop step 10" in the comparison
        raise BundleError(f"final.stop_step {step} is not one of the bundle's {steps} steps")
    if not isinstance(final.get("summary"), dict):
        raise BundleError("final.summary must be a JSON object")
    rows = final.get("frontier")
    if not isinstance(rows, list):
        raise BundleError("final.frontier must be a list")
    for i, row in enumerate(rows):
        try:
            FrontierRow(**row)
        except TypeError as exc:
            raise BundleError(f"final.frontier[{i}] is malformed: {exc}") from exc


def pages_csv(session: ReadableSession) -> str:
    """The pages table as CSV text (one row per step, errors and duplicates included)."""
    rows = session.pages()
    out = io.StringIO()
    names = [f.name for f in fields(PageRow)]
    writer = csv.DictWriter(out, fieldnames=names, lineterminator="\n")
    writer.writeheader()
    for row in rows:
        writer.writerow(row.to_dict())
    return out.getvalue()

