"""Site snapshots: a site recorded once, then crawled offline any number of times.

A snapshot is any recording of page-source answers (docs/DESIGN.md §13): a WARC file (ours,
from ``pagesift-ui snapshot`` or ``crawl --warc``, or any other tool's), a session bundle that
carries its ``responses`` (``crawl --out``), or a session in the session store. A crawl
against a snapshot is a replay: a ``ReplaySource`` answers every fetch from the recording,
never from the network; a page the snapshot does not hold is an ``error`` step of kind
``not_recorded`` ("not in snapshot"), and the crawl goes on.

A snapshot travels as its **payload**: the file's bytes (a store session: its config and
answers as bundle-style JSON), with a SHA-256 ``digest`` that names it in a cell's identity.
The sweep sends the payload to the workers with the tasks, so a worker needs the package and
nothing else: no shared filesystem, no copy of the store.
"""

from __future__ import annotations

import hashlib
import json
import logging
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pagesift_ui.errors import BundleError, ConfigError
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.config import Strategy
from pagesift_ui.session.crawl import default_source
from pagesift_ui.session.views import start_failure
from pagesift_ui.store import Recorded, RecordingSink, SessionStore, default_db_path
from pagesift_ui.store.portable import (
    RESPONSES_VERSION,
    content_budget,
    recorded_to_dict,
    responses_from_bundle,
)
from pagesift_ui.warc import read_warc, write_warc

__all__ = [
    "SNAPSHOT_QUERY",
    "LoadedSnapshot",
    "SnapshotPayload",
    "is_snapshot_config",
    "load_payload",
    "read_payload",
    "record_snapshot",
    "snapshot_config",
]

logger = logging.getLogger(__name__)

#: The query of a snapshot crawl: breadth-first ignores it, but a config needs one.
SNAPSHOT_QUERY = "site snapshot"
#: Snapshots a worker keeps parsed (each parse of a 500-page WARC takes about a second).
_CACHE_SIZE = 4


@dataclass(frozen=True, slots=True)
class SnapshotPayload:
    """A snapshot as it is shipped: ``kind`` ``"warc"`` or ``"bundle"``, its bytes, and
    their SHA-256 (hex)."""

    kind: str
    data: bytes
    digest: str

    @classmethod
    def of(cls, kind: str, data: bytes) -> SnapshotPayload:
        if kind not in ("warc", "bundle"):
            raise ValueError(f"a snapshot is a 'warc' or a 'bundle', not {kind!r}")
        return cls(kind, data, hashlib.sha256(data).hexdigest())


@dataclass(frozen=True, slots=True)
class LoadedSnapshot:
    """A parsed snapshot: the recorded config (None for a foreign WARC) and the answers."""

    config: CrawlConfig | None
    responses: tuple[Recorded, ...]

    @property
    def seed_url(self) -> str | None:
        return self.config.seed_url if self.config is not None else None


def read_payload(path: Path | None = None, *, session_id: str | None = None,
                 db: Path | None = None) -> SnapshotPayload:
    """The payload of a WARC or bundle file at ``path``, or of saved session ``session_id``
    in the store ``db`` (default: the user's). Raises ``ConfigError`` if it cannot be read."""
    if session_id is not None:
        return _store_payload(session_id, db)
    if path is None:
        raise ConfigError("snapshot", "give a snapshot file or a saved session id")
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise ConfigError("snapshot", f"cannot read {path}: {exc.strerror}") from exc
    is_warc = data[:2] == b"\x1f\x8b" or data[:5] == b"WARC/"
    return SnapshotPayload.of("warc" if is_warc else "bundle", data)


def _store_payload(session_id: str, db: Path | None) -> SnapshotPayload:
    path = db if db is not None else default_db_path()
    if not path.exists():
        # opening a store makes its file: a typo in a spec's db left an empty store behind
        # and said "no saved session has the id …" (found by using the CLI)
        raise ConfigError("snapshot", f"there is no session store at {path}")
    with SessionStore(db) as store:
        saved = store.load(session_id)
    document = {
        "config": saved.config.to_dict(),
        "responses": {"version": RESPONSES_VERSION, "queue_empty": [],
                      "items": [recorded_to_dict(answer) for answer in saved.responses]},
    }
    text = json.dumps(document, sort_keys=True, ensure_ascii=False, allow_nan=False)
    return SnapshotPayload.of("bundle", text.encode("utf-8"))


_cache: OrderedDict[str, LoadedSnapshot] = OrderedDict()
_cache_lock = threading.Lock()


def load_payload(payload: SnapshotPayload) -> LoadedSnapshot:
    """Parse a payload (cached per process by digest). Raises ``BundleError`` if unusable."""
    with _cache_lock:
        cached = _cache.get(payload.digest)
        if cached is not None:
            _cache.move_to_end(payload.digest)
            return cached
    loaded = _parse(payload)
    with _cache_lock:
        _cache[payload.digest] = loaded
        while len(_cache) > _CACHE_SIZE:
            _cache.popitem(last=False)
    return loaded


def _parse(payload: SnapshotPayload) -> LoadedSnapshot:
    if payload.kind == "warc":
        # warcio reads files; the payload came over the wire, so it goes through a temp file
        with tempfile.TemporaryDirectory(prefix="pagesift-snapshot-") as folder:
            path = Path(folder) / "snapshot.warc.gz"
            path.write_bytes(payload.data)
            recording = read_warc(path)
        return LoadedSnapshot(recording.config, recording.responses)
    try:
        document = json.loads(payload.data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise BundleError(f"the snapshot is neither a WARC file nor JSON: {exc}") from exc
    if not isinstance(document, dict) or "responses" not in document:
        raise BundleError("the snapshot bundle has no recorded responses (write it with "
                          "`crawl --out`, or use a WARC file)")
    config = _bundle_config(document.get("config"))
    # all bodies together inflate to at most a small multiple of the file, as for any bundle
    # from outside (issue 12: a bundle bomb peaks below 300 MB)
    budget = content_budget(len(payload.data))
    return LoadedSnapshot(config, tuple(responses_from_bundle(document, max_total_bytes=budget)))


def _bundle_config(raw: Any) -> CrawlConfig | None:
    if not isinstance(raw, dict):
        return None
    try:
        return CrawlConfig.from_recorded(raw)
    except ConfigError as exc:
        raise BundleError(f"the snapshot's config is invalid: {exc}") from exc


def snapshot_config(values: dict[str, Any]) -> CrawlConfig:
    """The config of a snapshot crawl: breadth-first to the limit, polite by default.

    ``values`` are ``CrawlConfig.from_mapping`` input (``seed_url``, ``limit``, ``delay_s``,
    …); the strategy is breadth-first and every stop verdict is recorded but not obeyed, so
    the snapshot holds the site up to the limit, not up to a query's stop. The query is
    ``SNAPSHOT_QUERY`` unless given (it changes nothing breadth-first).
    """
    fixed = {"strategy": Strategy.BFS, "stop_on_verdict": False}
    return CrawlConfig.from_mapping({"query": SNAPSHOT_QUERY, **values, **fixed})


def is_snapshot_config(config: CrawlConfig) -> bool:
    """``config`` is a snapshot crawl's (``snapshot_config`` with no query of its own): it
    says how the site was recorded, not how to crawl it."""
    return (config.strategy is Strategy.BFS and not config.stop_on_verdict
            and config.query == SNAPSHOT_QUERY)


def record_snapshot(
    config: CrawlConfig,
    out: Path,
    *,
    on_step: Callable[[StepRecord], None] | None = None,
    stop: Callable[[], bool] = lambda: False,
) -> CrawlSession:
    """Crawl live with ``config`` (``snapshot_config``) and write every answer to the WARC
    file ``out``. ``on_step`` sees each record (a progress bar). Returns the closed session.
    Nothing is written when the start URL itself failed (``start_failure`` of its steps):
    a WARC of one failed fetch is no snapshot. ``stop`` is asked after each step: True ends
    the crawl there (the user's stop), and the WARC holds what was read (a Ctrl-C lost every
    page of a polite snapshot, kept in memory until the end).

    The fetcher honours robots.txt and the per-host delay as configured; the answers, robots
    answers included, are what a later replay gets back.
    """
    memory = RecordingSink()
    session = CrawlSession(config, memory.record(default_source(config)), sinks=[memory])
    try:
        for record in session.iter_steps():
            if on_step is not None:
                on_step(record)
            if stop():
                session.stop(note="the user stopped the snapshot")
                break
    finally:
        session.close()
    if start_failure(session.steps, session.stop_reason) is not None:
        return session
    write_warc(out, config, memory.answers, events=memory.events)
    logger.info("snapshot of %s: %d steps to %s", config.seed_url, len(session.steps), out)
    return session
