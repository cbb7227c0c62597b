"""The store's SQL schema, and recorded answers as rows of ``responses`` (bodies zlib'd).

Schema changes bump ``SCHEMA_VERSION`` (kept in ``PRAGMA user_version``) and add a migration
(``MIGRATIONS``); a file with a newer version is refused rather than misread.

Version 2 (sitemap seeding, docs/DESIGN.md §11.13) lets ``responses.kind`` be ``sitemaps``: the
row of a sitemap harvest, its JSON zlib'd in ``body``.
"""

from __future__ import annotations

import json
import zlib
from collections.abc import Sequence
from typing import Any

from pagesift_ui.net.sitemaps import SitemapHarvest
from pagesift_ui.store.recording import (
    Recorded,
    RecordedError,
    RecordedFetch,
    RecordedRobots,
    RecordedSitemaps,
    fetch_result,
)

__all__ = [
    "MIGRATIONS",
    "RESPONSE_COLUMNS",
    "SCHEMA",
    "SCHEMA_VERSION",
    "ZLIB_LEVEL",
    "recorded_from_row",
    "response_row",
]

SCHEMA_VERSION = 2

#: One table per concern; every row of a session goes with it (ON DELETE CASCADE).
SCHEMA = (
    """CREATE TABLE sessions (
        id TEXT PRIMARY KEY,
        created_at REAL NOT NULL,
        updated_at REAL NOT NULL,
        config TEXT NOT NULL,
        status TEXT NOT NULL,
        stop_reason TEXT,
        title TEXT NOT NULL DEFAULT '',
        query TEXT NOT NULL,
        seed TEXT NOT NULL,
        steps INTEGER NOT NULL DEFAULT 0
    )""",
    """CREATE TABLE steps (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        step INTEGER NOT NULL,
        record TEXT NOT NULL,
        PRIMARY KEY (session_id, step)
    )""",
    """CREATE TABLE responses (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        step INTEGER NOT NULL,
        kind TEXT NOT NULL CHECK (kind IN ('fetch', 'robots', 'sitemaps')),
        url TEXT NOT NULL,
        allowed INTEGER,
        final_url TEXT,
        status INTEGER,
        content_type TEXT,
        encoding TEXT,
        body BLOB,
        redirects TEXT,
        elapsed_s REAL,
        fetched_at REAL,
        headers TEXT,
        error TEXT,
        PRIMARY KEY (session_id, seq)
    )""",
    """CREATE TABLE overrides (
        session_id TEXT NOT NULL REFERENCES sessions(id) ON DELETE CASCADE,
        seq INTEGER NOT NULL,
        after_step INTEGER NOT NULL,
        override TEXT,
        PRIMARY KEY (session_id, seq)
    )""",
)
_RESPONSES_TABLE = next(table for table in SCHEMA if "CREATE TABLE responses" in table)
#: By the version a store has, the statements that bring it to the next one. 1 → 2: SQLite
#: cannot change a CHECK constraint in place, so ``responses`` is rebuilt the documented way
#: (https://sqlite.org/lang_altertable.html#otheralter: create, copy, drop, rename); nothing
#: references it, so foreign keys need not be switched off.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    1: (
        _RESPONSES_TABLE.replace("CREATE TABLE responses", "CREATE TABLE responses_v2", 1),
        "INSERT INTO responses_v2 SELECT * FROM responses",
        "DROP TABLE responses",
        "ALTER TABLE responses_v2 RENAME TO responses",
    ),
}
#: zlib level for stored bodies: on the university demo, 9 saves under 0.1% more than 6.
ZLIB_LEVEL = 6
RESPONSE_COLUMNS = (
    "session_id", "seq", "step",
    "kind", "url", "allowed", "final_url", "status", "content_type", "encoding", "body",
    "redirects", "elapsed_s", "fetched_at", "headers", "error",
)


def response_row(session_id: str, seq: int, step: int, answer: Recorded) -> tuple[Any, ...]:
    """The row for one answer, in ``RESPONSE_COLUMNS`` order."""
    if isinstance(answer, RecordedSitemaps):
        harvest = json.dumps(answer.harvest.to_dict(), ensure_ascii=False).encode("utf-8")
        return (session_id, seq, step, "sitemaps", "", *(None,) * 5,
                zlib.compress(harvest, ZLIB_LEVEL), *(None,) * 5)
    if isinstance(answer, RecordedRobots):
        failure = (None if answer.error is None
                   else json.dumps(answer.error.to_dict(), ensure_ascii=False))
        return (session_id, seq, step, "robots", answer.url, int(answer.allowed),
                *(None,) * 9, failure)
    if answer.error is not None:
        return (session_id, seq, step, "fetch", answer.url, *(None,) * 10,
                json.dumps(answer.error.to_dict(), ensure_ascii=False))
    result = answer.result
    assert result is not None  # RecordedFetch holds exactly one of result and error
    return (
        session_id, seq, step, "fetch", answer.url, None, result.final_url, result.status,
        result.content_type, result.encoding, zlib.compress(result.body, ZLIB_LEVEL),
        json.dumps(list(result.redirects), ensure_ascii=False), result.elapsed_s,
        result.fetched_at, json.dumps([list(h) for h in result.headers], ensure_ascii=False),
        None,
    )


def recorded_from_row(row: Sequence[Any]) -> Recorded:
    """The answer of a row read as ``RESPONSE_COLUMNS[3:]`` (kind … error).

    Raises ValueError/KeyError/TypeError for a damaged row (zlib.error is a ValueError here).
    """
    (kind, url, allowed, final_url, status, content_type, encoding, body, redirects,
     elapsed_s, fetched_at, headers, error) = row
    if kind == "robots":
        failure = None if error is None else RecordedError.from_dict(json.loads(error))
        return RecordedRobots(url, bool(allowed), failure)
    if kind == "sitemaps":
        try:
            data = json.loads(zlib.decompress(body).decode("utf-8"))
        except zlib.error as exc:
            raise ValueError(f"the stored sitemap harvest is damaged: {exc}") from exc
        return RecordedSitemaps(SitemapHarvest.from_dict(data))
    if error is not None:
        return RecordedFetch(url, error=RecordedError.from_dict(json.loads(error)))
    try:
        raw = zlib.decompress(body)
    except zlib.error as exc:
        raise ValueError(f"the stored body of {url} is damaged: {exc}") from exc
    result = fetch_result(
        url=url, final_url=final_url, status=status, content_type=content_type,
        encoding=encoding, body=raw, redirects=json.loads(redirects), elapsed_s=elapsed_s,
        fetched_at=fetched_at, headers=[(str(n), str(v)) for n, v in json.loads(headers)],
    )
    return RecordedFetch(url, result=result)
