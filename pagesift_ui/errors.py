"""The one exception hierarchy of pagesift-ui.

::

    PagesiftError
    ├── ConfigError (also ValueError)      bad settings: a field, the bad value, what is allowed
    ├── BundleError (also ValueError)      a session bundle that cannot be read or trusted
    └── FetchError                         one URL could not be fetched; the crawl goes on
        ├── FetchTimeout                   connect or read timed out
        ├── ConnectFailed                  DNS failure, refused connection, TLS failure
        ├── HTTPStatusError                the server answered 4xx/5xx (``status``)
        ├── TooManyRedirects               more than the allowed redirects, or a redirect loop
        ├── BodyTooLarge                   the decoded body passed the size cap while streaming
        ├── UnsupportedContentType         not HTML/XHTML (``content_type``); recorded as skipped
        ├── BlockedByRobots                robots.txt disallows the URL for our user agent
        ├── BlockedByPolicy                the resolved address is private/link-local/not allowed
        └── NotRecorded                    replaying offline: the recording never fetched the URL

Every error carries a message a person understands, naming the URL and what to do about it.
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
    "PagesiftError",
    "TooManyRedirects",
    "UnsupportedContentType",
]


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


class FetchError(PagesiftError):
    """One URL could not be fetched. ``kind`` is a short stable code for tables and CSV."""

    kind = "fetch_error"

    def __init__(self, url: str, message: str, *, at: float | None = None) -> None:
        super().__init__(message)
        self.url = url
        self.message = message
        # when the failure happened (Unix time): a replay raises the error with the recorded
        # time, so its step record is the same to the last field
        self.at = time.time() if at is None else at


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


class NotRecorded(FetchError):
    """A replay asked for a URL the recording never fetched; replays never go online."""

    kind = "not_recorded"
