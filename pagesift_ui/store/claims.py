"""One crawl at a time per saved session: a claim on the session, held while it crawls.

Two crawls of one session (``crawl --resume ID`` while the crawl that saves ``ID`` still
runs, in another terminal or in the app) would both save step N + 1: the second failed on
SQLite's "UNIQUE constraint failed" after it had fetched a page (found by using the CLI).
A claim is an exclusive ``flock`` on a small file beside the store, one per session
(``<store>.claims/<id>``): the kernel releases it when the holder closes it or its process
ends, however it ends (``kill -9`` included), so a claim never outlives its crawl and needs
no clean-up. Where ``fcntl`` is missing (Windows) nothing is claimed, and the store's own
check of the step number (``SessionStore.save``) still refuses the second crawl's first
step.
"""

from __future__ import annotations

import enum
import logging
import os
import weakref
from pathlib import Path

from pagesift_ui.errors import SessionBusy, StoreError

try:
    import fcntl
except ImportError:  # pragma: no cover - not on the platforms CI runs
    fcntl = None  # type: ignore[assignment]

__all__ = ["Claim", "ClaimMode", "claim_path"]

logger = logging.getLogger(__name__)


class ClaimMode(enum.Enum):
    """What a saved session opened for crawling does about its claim."""

    #: hold it while the crawl can go on (a command-line crawl: one process, one crawl)
    HOLD = "hold"
    #: refuse to open while another holds it, hold nothing (the app: a browser tab left
    #: open keeps its session object alive, and a second tab may resume the session; two
    #: tabs that both step meet the store's step check instead)
    CHECK = "check"
    #: neither (an export reads the session, it does not crawl it)
    NONE = "none"


def claim_path(store_path: Path, session_id: str) -> Path:
    """The file whose lock is the claim on ``session_id`` of the store at ``store_path``."""
    return store_path.with_name(store_path.name + ".claims") / session_id


class Claim:
    """The claim on one session of one store, taken by ``take`` and given up by ``release``
    (or when the holder is garbage-collected). Taking it again while held does nothing."""

    __slots__ = ("__weakref__", "_fd", "_finalizer", "path", "session_id")

    def __init__(self, store_path: Path, session_id: str) -> None:
        self.path = claim_path(store_path, session_id)
        self.session_id = session_id
        self._fd: int | None = None
        self._finalizer: weakref.finalize[[int], None] | None = None

    def take(self) -> None:
        """Claim the session; raises ``SessionBusy`` while another holder has it."""
        if self._fd is not None or fcntl is None:
            return
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
        except OSError as exc:
            raise StoreError(f"cannot claim session {self.session_id} ({self.path}): "
                             f"{exc.strerror or exc}") from exc
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(fd)
            raise SessionBusy(
                f"session {self.session_id} is being crawled by another process or window "
                "right now; let that crawl finish (or stop it), then resume it here"
            ) from None
        except OSError as exc:  # a file system without locks: the step check still holds
            os.close(fd)
            logger.warning("cannot lock %s (%s): session %s is not claimed", self.path, exc,
                           self.session_id)
            return
        self._fd = fd
        self._finalizer = weakref.finalize(self, os.close, fd)  # type: ignore[arg-type]

    def check(self) -> None:
        """Raise ``SessionBusy`` if another holder has the claim; hold nothing."""
        if self._fd is None:
            self.take()
            self.release()

    def release(self) -> None:
        """Give the claim up (closing the file releases the lock); nothing if not held."""
        if self._finalizer is not None:
            self._finalizer()
        self._fd = self._finalizer = None
