"""The one exception hierarchy of pagesift-ui.

::

    PagesiftError
    ├── ConfigError (also ValueError)      bad settings: a field, the bad value, what is allowed
    ├── BundleError (also ValueError)      a session bundle that cannot be read or trusted
    ├── WarcError (also ValueError)        a WARC file that cannot be read or trusted
    ├── SessionDone                        a step was asked of a crawl that has stopped
    ├── SessionBroken                      a sink failed or a step was interrupted half-way:
    │                                      the session takes no more steps (resume it)
    ├── StoreError                         the session store cannot do what was asked
    │   ├── SchemaTooNew                   the database was written by a newer pagesift-ui
    │   ├── SessionNotFound (also KeyError) no saved session has that id
    │   └── ReplayDiverged                 rebuilding a session did not give the recorded steps
    └── FetchError                         one URL could not be fetched; the crawl goes on
        ├── FetchTimeout                   connect or read timed out
        ├── ConnectFailed                  DNS failure, refused connection, TLS failure
        ├── HTTPStatusError                the server answered 4xx/5xx (``status``)
        ├── TooManyRedirects               more than the allowed redirects, or a redirect loop
        ├── BodyTooLarge                   the decoded body passed the size cap while streaming
        ├── UnsupportedContentType         not HTML/XHTML (``content_type``); recorded as skipped
        ├── BlockedByRobots                robots.txt disallows the URL for our user agent
        ├── BlockedByPolicy                the resolved address is private/link-local/not allowed
        ├── OutOfScope                     a redirect left the crawl's scope (``--scope``)
        ├── RenderFailed                   the headless browser crashed or broke off while
        │                                  rendering the page (``--render``); the next page
        │                                  starts a new browser
        └── NotRecorded                    replaying offline: the recording never fetched the URL

Every error carries a message a person understands, naming the URL and what to do about it.
A ``BundleError`` or ``WarcError`` names the bad part: a field path
(``steps[3].link.features[2].value: not a finite number``) or a record
(``x.warc.gz: record 7 (response at byte 5120): no WARC-Target-URI``).
"""

from __future__ import annotations

import time

__all__ = [
    "BlockedByPolicy",
    "BlockedByRobots",
    "BodyTooLarge",
    "BundleError",
    "ConfigError",
    "ConnectFailed",
    "FetchError",
    "FetchTimeout",
    "HTTPStatusError",
    "NotRecorded",
    "OutOfScope",
    "PagesiftError",
    "RenderFailed",
    "ReplayDiverged",
    "SchemaTooNew",
    "SessionBroken",
    "SessionDone",
    "SessionBusy",
    "SessionNotFound",
    "StoreError",
    "TooManyRedirects",
    "UnsupportedContentType",
    "WarcError",
    "SHOWN_CHARS",
    "fetch_error_class",
    "shown",
]

#: The most of a value a message echoes: a 100 KB query pasted by mistake is named by its
#: start, not repeated back in full.
SHOWN_CHARS = 60


class PagesiftError(Exception):
    """Base of every error raised on purpose by pagesift-ui."""


class ConfigError(PagesiftError, ValueError):
    """A setting is invalid. ``field`` names it so the UI can show the error next to it."""

    def __init__(self, field: str, message: str) -> None:
        super().__init__(f"{field}: {message}")
        self.field = field
        self.message = message


class BundleError(PagesiftError, ValueError):
    """A session bundle is malformed, of an unknown version, or inconsistent."""


class WarcError(PagesiftError, ValueError):
    """A WARC file is not one, is cut short, too large, or holds a malformed record."""


class SessionDone(PagesiftError):
    """A step was asked of a session that has stopped; its ``stop_reason`` says why."""


class SessionBroken(PagesiftError):
    """The session no longer matches what its sinks recorded, so it takes no more steps.

    Either a sink failed (``StoreError`` for a save: disk full, I/O error) or a step was
    interrupted half-way (Ctrl-C, a Streamlit rerun). Every step recorded before is intact;
    resuming the saved session rebuilds it exactly and goes on from there.
    """

    def __init__(self, why: str) -> None:
        super().__init__(
            f"the session cannot go on: {why}. Every step saved before is intact: resume the "
            "session to continue"
        )
        self.why = why


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


class SessionBusy(StoreError):
    """Another crawl of this session is running (in another process, or another session
    object): two crawls of one session would save the same step twice."""


class SessionNotFound(StoreError, KeyError):
    """No saved session has this id."""

    def __init__(self, session_id: str) -> None:
        super().__init__(
            f"no saved session has the id {shown(session_id)}; `pagesift-ui sessions` lists them"
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


class FetchError(PagesiftError):
    """One URL could not be fetched. ``kind`` is a short stable code for tables and CSV.

    ``politeness_note`` says which server-asked wait (``Crawl-delay``, ``Retry-After``) the
    fetcher cut to its cap during this fetch, "" when none; the fetcher sets it.
    """

    kind = "fetch_error"

    def __init__(self, url: str, message: str, *, at: float | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.message = message
        # when the failure happened (Unix time): a replay raises the error with the recorded
        # time, so its step record is the same to the last field
        self.at = time.time() if at is None else at
        self.politeness_note = ""


class FetchTimeout(FetchError):
    kind = "timeout"


class ConnectFailed(FetchError):
    kind = "connect_failed"


class HTTPStatusError(FetchError):
    kind = "http_status"

    def __init__(self, url: str, message: str, status: int, *, at: float | None = None) -> None:
        super().__init__(url, message, at=at)
        self.status = status


class TooManyRedirects(FetchError):
    kind = "too_many_redirects"


class BodyTooLarge(FetchError):
    kind = "body_too_large"


class UnsupportedContentType(FetchError):
    kind = "unsupported_type"

    def __init__(
        self, url: str, message: str, content_type: str, *, at: float | None = None
    ) -> None:
        super().__init__(url, message, at=at)
        self.content_type = content_type


class BlockedByRobots(FetchError):
    kind = "robots"


class BlockedByPolicy(FetchError):
    kind = "network_policy"


class OutOfScope(FetchError):
    """A redirect pointed outside the crawl's scope; it was not followed."""

    kind = "out_of_scope"


class RenderFailed(FetchError):
    """The browser rendering a fetched page crashed, or could not be started or driven."""

    kind = "render_failed"


class NotRecorded(FetchError):
    """A replay asked for a URL the recording never fetched; replays never go online."""

    kind = "not_recorded"


def fetch_error_class(name: str) -> type[FetchError] | None:
    """The ``FetchError`` class called ``name``, or None.

    Recordings keep a failed fetch's error by class name so that a replay raises the same
    error; looking the class up in the hierarchy means a new kind of fetch error replays
    without a table to keep in step.
    """
    pending: list[type[FetchError]] = [FetchError]
    while pending:
        cls = pending.pop()
        if cls.__name__ == name:
            return cls
        pending.extend(cls.__subclasses__())
    return None


def shown(value: object) -> str:
    """``value`` as an error message names it: its ``repr``, cut to ``SHOWN_CHARS``.

    >>> shown("fees"), len(shown("a " * 100)), shown("a " * 100)[-4:]
    ("'fees'", 60, ' a …')
    """
    text = repr(value)
    return text if len(text) <= SHOWN_CHARS else text[: SHOWN_CHARS - 1] + "…"
