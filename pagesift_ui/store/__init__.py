"""Sessions that last: the SQLite session store, recording and replaying page sources.

``start_session`` / ``resume`` give a ``CrawlSession`` saved step by step by its
``StoreSink``; ``RecordingSink`` keeps the same in memory (both take each step's answers
from a ``StepAnswers``). ``RecordingSource`` / ``ReplaySource`` record a page source's
answers and play them back offline; ``pagesift_ui.store.portable`` puts the answers into a
session bundle.
"""

from __future__ import annotations

from pagesift_ui.errors import (
    ReplayDiverged,
    SchemaTooNew,
    SessionBusy,
    SessionNotFound,
    StoreError,
)
from pagesift_ui.store.claims import ClaimMode
from pagesift_ui.store.db import (
    DB_ENV_VAR,
    SCHEMA_VERSION,
    SessionInfo,
    SessionStatus,
    SessionStore,
    StoredSession,
    default_db_path,
)
from pagesift_ui.store.persistent import rebuild, resume, start_session
from pagesift_ui.store.recording import (
    Recorded,
    RecordedError,
    RecordedFetch,
    RecordedRobots,
    RecordedSitemaps,
    RecordingSource,
    ReplaySource,
)
from pagesift_ui.store.replay import SessionEvent, drive
from pagesift_ui.store.sinks import RecordingSink, StepAnswers, StoreSink

__all__ = [
    "ClaimMode",
    "DB_ENV_VAR",
    "Recorded",
    "RecordedError",
    "RecordedFetch",
    "RecordedRobots",
    "RecordedSitemaps",
    "RecordingSink",
    "RecordingSource",
    "ReplayDiverged",
    "ReplaySource",
    "SCHEMA_VERSION",
    "SchemaTooNew",
    "SessionBusy",
    "SessionEvent",
    "SessionInfo",
    "SessionNotFound",
    "SessionStatus",
    "SessionStore",
    "StepAnswers",
    "StoreError",
    "StoreSink",
    "StoredSession",
    "default_db_path",
    "drive",
    "rebuild",
    "resume",
    "start_session",
]
