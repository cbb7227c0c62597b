"""Errors of the session store and of replays (all ``PagesiftError``s).

::

    PagesiftError
    └── StoreError                     the session store cannot do what was asked
        ├── SchemaTooNew               the database was written by a newer pagesift-ui
        ├── SessionNotFound            no saved session has that id (also KeyError)
        └── ReplayDiverged             rebuilding a session did not give the recorded steps
"""

from __future__ import annotations

from pagesift_ui.errors import PagesiftError

__all__ = ["ReplayDiverged", "SchemaTooNew", "SessionNotFound", "StoreError"]


class StoreError(PagesiftError):
    """The session store cannot do what was asked (a broken or foreign database file)."""


class SchemaTooNew(StoreError):
    """The database's schema version is newer than this pagesift-ui understands."""

    def __init__(self, path: str, found: int, supported: int) -> None:
        super().__init__(
            f"{path} holds sessions in schema version {found}, written by a newer pagesift-ui; "
            f"this one reads up to version {supported}. Upgrade pagesift-ui, or choose another "
            "database with --db or PAGESIFT_DB."
        )
        self.found = found
        self.supported = supported


class SessionNotFound(StoreError, KeyError):
    """No saved session has this id."""

    def __init__(self, session_id: str) -> None:
        super().__init__(
            f"no saved session has the id {session_id!r}; `pagesift-ui sessions` lists them"
        )
        self.session_id = session_id

    def __str__(self) -> str:  # KeyError would repr() the message
        return str(self.args[0])


class ReplayDiverged(StoreError):
    """Re-running the recorded steps gave a different step than the one recorded.

    ``step`` is the first step that differs and ``field`` the first field that does. It means
    the crawl code changed since the recording (or the recording is incomplete).
    """

    def __init__(self, step: int, field: str, recorded: object, rebuilt: object) -> None:
        super().__init__(
            f"step {step} replays differently: {field} was {recorded!r} when recorded and is "
            f"{rebuilt!r} now. This pagesift-ui crawls differently from the one that recorded "
            "the session, so it cannot continue it; `pagesift-ui replay` shows how it crawls "
            "the recorded pages instead"
        )
        self.step = step
        self.field = field
