"""Sessions that last: the SQLite session store, recording and replaying page sources.

``start_session`` / ``resume`` give a ``PersistentSession`` saved step by step;
``RecordingSource`` / ``ReplaySource`` record a page source's answers and play them back
offline; ``pagesift_ui.store.portable`` puts the answers into a session bundle.
"""

from __future__ import annotations

from pagesift_ui.store.db import (
    DB_ENV_VAR,
    SCHEMA_VERSION,
    SessionInfo,
    SessionStatus,
    SessionStore,
    StoredSession,
    default_db_path,
)
from pagesift_ui.store.errors import ReplayDiverged, SchemaTooNew, SessionNotFound, StoreError
from pagesift_ui.store.persistent import PersistentSession, rebuild, resume, start_session
from pagesift_ui.store.recording import (
    Recorded,
    RecordedError,
    RecordedFetch,
    RecordedRobots,
    RecordingSource,
    ReplaySource,
)
from pagesift_ui.store.replay import SessionEvent, drive

__all__ = [
    "DB_ENV_VAR",
    "PersistentSession",
    "Recorded",
    "RecordedError",
    "RecordedFetch",
    "RecordedRobots",
    "RecordingSource",
    "ReplayDiverged",
    "ReplaySource",
    "SCHEMA_VERSION",
    "SchemaTooNew",
    "SessionEvent",
    "SessionInfo",
    "SessionNotFound",
    "SessionStatus",
    "SessionStore",
    "StoreError",
    "StoredSession",
    "default_db_path",
    "drive",
    "rebuild",
    "resume",
    "start_session",
]
