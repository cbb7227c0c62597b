"""The session store: every crawl's config, steps, page-source answers and events in SQLite.

One file (``sessions.sqlite3`` under the user data directory, or ``PAGESIFT_DB``, or a path
given) holds any number of sessions. Writes are per step: a step's page-source answers, its
record and the session's status go in one transaction when the step completes, so a crash
(even ``kill -9``) loses at most the step in flight, and the file stays consistent.

Journal: WAL (https://sqlite.org/wal.html), so the app can read a session while the CLI
writes one, and a commit appends to one file instead of rewriting pages twice.
Durability: ``synchronous=FULL``: in WAL mode ``NORMAL`` already survives a process crash,
but a power cut or kernel panic may roll back every commit since the last checkpoint
(https://sqlite.org/pragma.html#pragma_synchronous) — many steps. ``FULL`` syncs the WAL at
each commit: one fsync per step, small beside a step's network time and politeness delay.
"""

from __future__ import annotations

import contextlib
import enum
import json
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import platformdirs

from pagesift_ui.errors import (
    ConfigError,
    SchemaTooNew,
    SessionBusy,
    SessionNotFound,
    StoreError,
)
from pagesift_ui.session import CrawlConfig, Override, StepRecord
from pagesift_ui.store.recording import Recorded
from pagesift_ui.store.replay import SessionEvent
from pagesift_ui.store.schema import (
    MIGRATIONS,
    RESPONSE_COLUMNS,
    SCHEMA,
    SCHEMA_VERSION,
    recorded_from_row,
    response_row,
)

__all__ = [
    "DB_ENV_VAR",
    "SCHEMA_VERSION",
    "SessionInfo",
    "SessionStatus",
    "SessionStore",
    "StoredSession",
    "default_db_path",
]

logger = logging.getLogger(__name__)

DB_ENV_VAR = "PAGESIFT_DB"
DB_FILE_NAME = "sessions.sqlite3"
#: How long a writer waits for another process's transaction before giving up.
BUSY_TIMEOUT_S = 10.0

_INFO_COLUMNS = "id, created_at, updated_at, query, seed, title, steps, status, stop_reason"


class SessionStatus(enum.StrEnum):
    """Where a saved session stands."""

    OPEN = "open"  # it can take more steps (also a crawl whose process was killed)
    DONE = "done"  # it stopped; ``stop_reason`` says why
    # a value this version does not know (a newer writer's, or a damaged row): listed as
    # such rather than failing the whole list; never written
    UNKNOWN = "unknown"

    @classmethod
    def read(cls, value: object) -> SessionStatus:
        """The status a row holds; ``UNKNOWN`` for anything but a known one."""
        known = {status.value: status for status in cls if status is not cls.UNKNOWN}
        return known.get(value, cls.UNKNOWN) if isinstance(value, str) else cls.UNKNOWN


@dataclass(frozen=True, slots=True)
class SessionInfo:
    """One row of the sessions list. Times are Unix seconds."""

    session_id: str
    created_at: float
    updated_at: float
    query: str
    seed: str
    title: str
    steps: int
    status: SessionStatus
    stop_reason: str | None


@dataclass(frozen=True, slots=True)
class StoredSession:
    """Everything saved of one session: enough to rebuild it exactly."""

    info: SessionInfo
    config: CrawlConfig
    steps: tuple[StepRecord, ...]
    events: tuple[SessionEvent, ...]
    responses: tuple[Recorded, ...]


def default_db_path() -> Path:
    """``$PAGESIFT_DB`` if set, else ``sessions.sqlite3`` in the user data directory."""
    configured = os.environ.get(DB_ENV_VAR, "").strip()
    if configured:
        return Path(configured).expanduser()
    return Path(platformdirs.user_data_dir("pagesift-ui", appauthor=False)) / DB_FILE_NAME


class SessionStore:
    """The saved sessions in one SQLite file (``path``: None means ``default_db_path()``).

    Safe to share between threads (one connection behind a lock) and between processes
    (SQLite's locking; WAL lets readers go on while one process writes). Raises
    ``SchemaTooNew`` for a file from a newer pagesift-ui and ``StoreError`` for a file that
    is not a session store.
    """

    def __init__(
        self, path: str | os.PathLike[str] | None = None, *, clock: Callable[[], float] = time.time
    ) -> None:
        self.path = Path(path) if path is not None else default_db_path()
        self._clock = clock
        self._lock = threading.RLock()
        self._db = _connect(self.path)
        try:
            self._init_schema()
        except BaseException:
            self._db.close()
            raise

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def __enter__(self) -> SessionStore:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- sessions ------------------------------------------------------------------------

    def create(self, config: CrawlConfig, *, title: str = "") -> str:
        """Save a new, empty session for ``config``; returns its id (8 hex digits)."""
        now = self._clock()
        row = (json.dumps(config.to_dict(), sort_keys=True), SessionStatus.OPEN.value, title,
               config.query, config.seed_url, now, now)
        with self._transaction() as db:
            while True:
                session_id = secrets.token_hex(4)
                try:
                    db.execute(
                        "INSERT INTO sessions (id, config, status, title, query, seed, "
                        "created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (session_id, *row),
                    )
                except sqlite3.IntegrityError:
                    continue  # 1 in 4 billion: draw another id
                return session_id

    def list_sessions(self) -> list[SessionInfo]:
        """Every saved session, the most recently updated first."""
        with self._lock:
            rows = self._db.execute(
                f"SELECT {_INFO_COLUMNS} FROM sessions ORDER BY updated_at DESC, id"
            ).fetchall()
        return [_info(row) for row in rows]

    def info(self, session_id: str) -> SessionInfo:
        with self._lock:
            row = self._db.execute(
                f"SELECT {_INFO_COLUMNS} FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()
        if row is None:
            raise SessionNotFound(session_id)
        return _info(row)

    def delete(self, session_id: str) -> None:
        """Delete a session with its steps, answers and events."""
        with self._transaction() as db:
            if db.execute("DELETE FROM sessions WHERE id = ?", (session_id,)).rowcount == 0:
                raise SessionNotFound(session_id)

    def load(self, session_id: str) -> StoredSession:
        """Everything saved of a session, in order. Raises ``SessionNotFound``."""
        with self._transaction(write=False) as db:  # one snapshot while others write
            info = self.info(session_id)
            raw_config = db.execute(
                "SELECT config FROM sessions WHERE id = ?", (session_id,)
            ).fetchone()[0]
            steps = db.execute(
                "SELECT record FROM steps WHERE session_id = ? ORDER BY step", (session_id,)
            ).fetchall()
            events = db.execute(
                "SELECT after_step, override FROM overrides WHERE session_id = ? ORDER BY seq",
                (session_id,),
            ).fetchall()
            responses = _response_rows(db, session_id)
        try:
            return StoredSession(
                info=info,
                config=CrawlConfig.from_recorded(json.loads(raw_config)),
                steps=tuple(StepRecord.from_dict(json.loads(row[0])) for row in steps),
                events=tuple(_event(after, raw) for after, raw in events),
                responses=tuple(recorded_from_row(row) for row in responses),
            )
        except (ConfigError, KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"session {session_id} in {self.path} is damaged: {exc}") from exc

    def responses(self, session_id: str) -> tuple[Recorded, ...]:
        """A session's saved page-source answers, in order, and nothing else of it (an
        export needs them; its steps are in memory). Raises ``SessionNotFound``."""
        with self._transaction(write=False) as db:
            self.info(session_id)
            rows = _response_rows(db, session_id)
        try:
            return tuple(recorded_from_row(row) for row in rows)
        except (KeyError, TypeError, ValueError) as exc:
            raise StoreError(f"session {session_id} in {self.path} is damaged: {exc}") from exc

    # -- writing a session's progress ----------------------------------------------------

    def save(
        self,
        session_id: str,
        *,
        status: SessionStatus,
        stop_reason: str | None,
        events: Sequence[SessionEvent] = (),
        record: StepRecord | None = None,
        responses: Sequence[Recorded] = (),
    ) -> None:
        """In one transaction: new ``events``, then one step's ``responses`` and ``record``,
        and the session's status. Either all of it is stored or none of it."""
        if responses and record is None:
            raise ValueError("page-source answers are saved with the step that received them")
        step = record.step if record is not None else None
        with self._transaction() as db:
            # a step the store holds already is not updated (``_refused``): the check rides
            # on the update every save makes, no query of its own
            changed = db.execute(
                "UPDATE sessions SET updated_at = ?, status = ?, stop_reason = ?, "
                "steps = COALESCE(?, steps) "
                "WHERE id = ? AND (? IS NULL OR COALESCE(steps, 0) < ?)",
                (self._clock(), status.value, stop_reason, step, session_id, step, step),
            ).rowcount
            if changed == 0:
                raise _refused(db, session_id, step)
            _insert_events(db, session_id, events)
            if record is not None:
                _insert_step(db, session_id, record, responses)

    # -- plumbing ------------------------------------------------------------------------

    @contextlib.contextmanager
    def _transaction(self, *, write: bool = True) -> Iterator[sqlite3.Connection]:
        """``BEGIN`` … ``COMMIT``, or ``ROLLBACK`` on any exception.

        A writer begins IMMEDIATE: it takes the write lock up front, so it waits for another
        writer (up to ``BUSY_TIMEOUT_S``) instead of failing half-way with SQLITE_BUSY.
        """
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE" if write else "BEGIN")
            except sqlite3.Error as exc:
                raise StoreError(f"{self.path} cannot be written: {exc}") from exc
            try:
                yield self._db
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                self._rollback()
                raise StoreError(f"{self.path}: {exc}") from exc
            except BaseException:
                self._rollback()
                raise

    def _rollback(self) -> None:
        if self._db.in_transaction:
            self._db.execute("ROLLBACK")

    def _init_schema(self) -> None:
        with self._transaction() as db:
            version = db.execute("PRAGMA user_version").fetchone()[0]
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(str(self.path), version, SCHEMA_VERSION)
            if version == SCHEMA_VERSION:
                return
            if version in MIGRATIONS:
                self._migrate(db, version)
                return
            if db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]:
                raise StoreError(
                    f"{self.path} is an SQLite database but not a pagesift-ui session store; "
                    "choose another file with --db or PAGESIFT_DB"
                )
            for statement in SCHEMA:
                db.execute(statement)
            db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
            logger.info("created the session store %s", self.path)


    def _migrate(self, db: sqlite3.Connection, version: int) -> None:
        """Bring a store of an older ``version`` to ``SCHEMA_VERSION``, one version at a
        time, in the caller's transaction (a failure leaves the file as it was)."""
        for old in range(version, SCHEMA_VERSION):
            for statement in MIGRATIONS[old]:
                db.execute(statement)
            logger.info("migrated the session store %s from version %d to %d", self.path,
                        old, old + 1)
        db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")


def _connect(path: Path) -> sqlite3.Connection:
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        db = sqlite3.connect(
            path, timeout=BUSY_TIMEOUT_S, isolation_level=None, check_same_thread=False
        )
    except (OSError, sqlite3.Error) as exc:
        raise StoreError(f"cannot open the session store {path}: {exc}") from exc
    try:
        mode = db.execute("PRAGMA journal_mode = WAL").fetchone()[0]
        db.execute("PRAGMA synchronous = FULL")
        db.execute("PRAGMA foreign_keys = ON")
    except sqlite3.DatabaseError as exc:
        db.close()
        raise StoreError(f"{path} is not a pagesift-ui session store ({exc})") from exc
    if mode != "wal":
        logger.warning("%s: SQLite refused WAL mode (journal %s); saving still works", path, mode)
    return db


def _response_rows(db: sqlite3.Connection, session_id: str) -> list[Any]:
    return db.execute(
        f"SELECT {', '.join(RESPONSE_COLUMNS[3:])} FROM responses "
        "WHERE session_id = ? ORDER BY seq",
        (session_id,),
    ).fetchall()


def _insert_events(
    db: sqlite3.Connection, session_id: str, events: Sequence[SessionEvent]
) -> None:
    seq = _next_seq(db, "overrides", session_id)
    db.executemany(
        "INSERT INTO overrides (session_id, seq, after_step, override) VALUES (?, ?, ?, ?)",
        [(session_id, seq + i, e.after_step, _override_json(e.override))
         for i, e in enumerate(events)],
    )


def _refused(db: sqlite3.Connection, session_id: str, step: int | None) -> StoreError:
    """Why a save updated no session: there is none with that id, or it holds ``step``
    already. Another crawl of the session saved it meanwhile (claims.py keeps two crawls
    apart where files can be locked; this is the check everywhere: it was SQLite's "UNIQUE
    constraint failed"), or this one offered a step twice."""
    row = db.execute("SELECT steps FROM sessions WHERE id = ?", (session_id,)).fetchone()
    if row is None or step is None:
        return SessionNotFound(session_id)
    return SessionBusy(
        f"session {session_id}: step {step} was saved already (the store holds {row[0]} "
        "steps): another crawl of this session saved it meanwhile, or this one offered a "
        "step twice; nothing more of this crawl is saved, and the saved steps stay as "
        "they are"
    )


def _insert_step(
    db: sqlite3.Connection, session_id: str, record: StepRecord, responses: Sequence[Recorded]
) -> None:
    """The step's answers first, then its record (a failure in between keeps neither)."""
    seq = _next_seq(db, "responses", session_id)
    db.executemany(
        f"INSERT INTO responses ({', '.join(RESPONSE_COLUMNS)}) "
        f"VALUES ({', '.join('?' * len(RESPONSE_COLUMNS))})",
        [response_row(session_id, seq + i, record.step, answer)
         for i, answer in enumerate(responses)],
    )
    db.execute(
        "INSERT INTO steps (session_id, step, record) VALUES (?, ?, ?)",
        (session_id, record.step, _record_json(record)),
    )


def _next_seq(db: sqlite3.Connection, table: str, session_id: str) -> int:
    row = db.execute(
        f"SELECT COALESCE(MAX(seq), 0) + 1 FROM {table} WHERE session_id = ?", (session_id,)
    ).fetchone()
    return int(row[0])


def _info(row: Sequence[Any]) -> SessionInfo:
    session_id, created, updated, query, seed, title, steps, status, stop_reason = row
    return SessionInfo(
        session_id=session_id, created_at=created, updated_at=updated, query=query, seed=seed,
        title=title, steps=steps, status=SessionStatus.read(status), stop_reason=stop_reason,
    )


def _record_json(record: StepRecord) -> str:
    return json.dumps(record.to_dict(), ensure_ascii=False, allow_nan=False)


def _override_json(override: Override | None) -> str | None:
    return None if override is None else json.dumps(override.to_dict(), ensure_ascii=False)


def _event(after_step: int, raw: str | None) -> SessionEvent:
    override = None if raw is None else Override.from_dict(json.loads(raw))
    return SessionEvent(after_step, override)
