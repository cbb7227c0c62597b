"""The sweep spec (TOML): snapshots × queries × settings, read into cells.

```toml
[sweep]
window = 50                         # prequential moving window (optional)

[[snapshots]]
name = "university"
path = "university.warc.gz"         # a WARC or a bundle with responses, relative to this file
# session = "3f2a…"                 # or a saved session of the store (db = "…" optional)
# seed = "http://…/"                # start URL; default: the snapshot's recorded one

[[queries]]
text = "admission requirements"     # may be left out when the truth file has '# query:'
truth = "university.truth"          # optional: the relevant URLs (pagesift_ui/bench/truth.py)
snapshots = ["university"]          # optional: only on these snapshots (default: all)

[settings]                          # for every cell: CrawlConfig settings by their flat names
limit = 80
stop_on_verdict = false

[grid]                              # their cartesian product, one list per setting
strategy = ["focused", "thompson"]
delta = [0.05, 0.1]
```

``[[grid]]`` tables instead of one ``[grid]`` give the union of their products (a greedy cell
once, thompson with three seeds: ``strategy = ["focused"]``, then ``strategy = ["thompson"]``
with ``sampling_seed = [0, 1, 2]``).

Settings are named as in ``SETTINGS`` (``limit``, ``patience``, ``min_gain``, ``delta``,
``dispersion_cap``, ``strategy``, ``sampling_seed``, …) plus ``prior_weights``; the string
``"none"`` stands for an optional setting's None (TOML has no null). The start URL and the
query come from the snapshots and queries, never from the settings. Every cell's config is
built and validated when the spec is read, so a typo fails before anything runs.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import tomllib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pagesift_ui.bench.truth import Truth, url_keys
from pagesift_ui.errors import ConfigError, PagesiftError, shown
from pagesift_ui.frontier.prequential import WINDOW
from pagesift_ui.session import CrawlConfig
from pagesift_ui.session.config import OFFLINE_NO_OPS, SETTINGS, settings_mapping
from pagesift_ui.store.recording import RecordedFetch
from pagesift_ui.sweep.snapshot import SnapshotPayload, load_payload, read_payload

__all__ = ["CELL_FORMAT", "MAX_CELLS", "Cell", "SnapshotSpec", "SweepSpec", "load_spec",
           "parse_spec"]

#: Part of every cell's identity: bump it when a cell's results would come out differently
#: for the same inputs (a new metric, another definition), so a re-run recomputes them.
CELL_FORMAT = 2  # 2: pages_to_* count the budget's pages, not steps
#: Settings a cell takes from its snapshot and query, not from ``[settings]`` or ``[grid]``.
_FROM_AXES = ("seed_url", "query")
_OPTIONAL = {s.name for s in SETTINGS if s.optional}
#: The names a spec's [settings] and [grid] take: the flat ``SETTINGS`` names and the prior.
_SETTING_NAMES = frozenset(s.name for s in SETTINGS) | {"prior_weights"}
#: The most cells one spec may make: each is a crawl (a hundred thousand of 200 pages is
#: weeks on a laptop), and a grid of many long axes multiplies out before anything runs.
MAX_CELLS = 100_000


@dataclass(frozen=True, slots=True)
class SnapshotSpec:
    """One snapshot of the spec: its name, where it came from, its payload."""

    name: str
    source: str  # the file's absolute path or "session:ID", for people
    seed_url: str
    payload: SnapshotPayload
    #: the store of a "session:ID" source, absolute (None: the default store); with the
    #: source, where the snapshot is read again to replay a cell (``results.cell_snapshot``)
    db: str | None = None


@dataclass(frozen=True, slots=True)
class Cell:
    """One crawl of the sweep: a config on a snapshot, maybe with a truth.

    ``swept`` holds the grid values of this cell (by setting name); ``truth`` the relevant
    URLs' keys (``bench.truth.url_key``), None when unknown. ``cell_id`` is a hash of every
    input that decides the crawl and its metrics.
    """

    snapshot: str
    snapshot_digest: str
    query_name: str
    config: CrawlConfig
    swept: Mapping[str, Any]
    truth: frozenset[str] | None
    window: int
    cell_id: str = field(default="", compare=False)

    def identity(self) -> str:
        inputs = {
            "format": CELL_FORMAT,
            "config": self.config.to_dict(),
            "snapshot": self.snapshot_digest,
            "truth": sorted(self.truth) if self.truth is not None else None,
            "window": self.window,
        }
        text = json.dumps(inputs, sort_keys=True, ensure_ascii=False, allow_nan=False)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]

    @property
    def label(self) -> str:
        """The swept values in words: ``strategy=thompson delta=0.1``."""
        return " ".join(f"{name}={_word(value)}" for name, value in self.swept.items())


@dataclass(frozen=True, slots=True)
class SweepSpec:
    """A parsed spec: its snapshots and its cells in order (snapshot, query, grid point)."""

    path: Path | None
    snapshots: tuple[SnapshotSpec, ...]
    cells: tuple[Cell, ...]
    window: int
    #: what the user should know before the cells run (a truth none of whose pages a
    #: snapshot holds); the command line prints them
    notes: tuple[str, ...] = ()

    def payload(self, digest: str) -> SnapshotPayload:
        for snapshot in self.snapshots:
            if snapshot.payload.digest == digest:
                return snapshot.payload
        raise KeyError(digest)


def load_spec(path: Path) -> SweepSpec:
    """Read the spec file at ``path``; relative paths in it are relative to its folder."""
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as exc:
        raise ConfigError("spec", f"cannot read {path}: {exc.strerror}") from exc
    except UnicodeDecodeError as exc:
        # a snapshot given in the spec's place said "internal error (UnicodeDecodeError …)"
        raise ConfigError("spec", f"{path} is not a text file (a sweep spec is TOML; a WARC "
                          "or bundle goes in it under [[snapshots]] path = …)") from exc
    return parse_spec(text, base=path.parent, path=path)


def parse_spec(text: str, base: Path, path: Path | None = None) -> SweepSpec:
    """Parse spec ``text``; raises ``ConfigError`` naming the part that is wrong."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError("spec", f"not valid TOML: {exc}") from exc
    unknown = sorted(set(raw) - {"sweep", "snapshots", "queries", "settings", "grid"})
    if unknown:
        raise ConfigError("spec", f"unknown section [{unknown[0]}]; the sections are [sweep], "
                          "[[snapshots]], [[queries]], [settings] and [grid]")
    window = _table(raw, "sweep").get("window", WINDOW)
    if isinstance(window, bool) or not isinstance(window, int) or window < 1:
        raise ConfigError("sweep.window", f"must be a whole number >= 1, got {shown(window)}")
    snapshots = tuple(
        _snapshot(i, entry, base) for i, entry in enumerate(_tables(raw, "snapshots"))
    )
    names = [s.name for s in snapshots]
    if len(set(names)) != len(names):
        raise ConfigError("snapshots", f"snapshot names must differ, got {names}")
    queries = [_query(i, entry, base, names) for i, entry in enumerate(_tables(raw, "queries"))]
    settings = _settings("settings", _table(raw, "settings"))
    raw_grids = raw.get("grid", {})
    tables = raw_grids if isinstance(raw_grids, list) else [_table(raw, "grid")]
    grids = [_grid(table) for table in tables]
    # counted before the product is built: ten axes of ten values would be 10¹⁰ points
    runs = sum(len([q for q in queries if s.name in q.snapshots]) for s in snapshots)
    count = runs * sum(math.prod(len(values) for values in grid.values()) for grid in grids)
    if count > MAX_CELLS:
        raise ConfigError("grid", f"makes {count:,} cells (snapshots × queries × grid points); "
                          f"a sweep runs at most {MAX_CELLS:,}: split it into several specs")
    points = [point for grid in grids for point in _points(grid)]
    notes: list[str] = []
    cells = tuple(_cells(snapshots, queries, settings, points, window, notes))
    if not cells:
        raise ConfigError("queries", "no cell to run: every query is limited to other snapshots")
    return SweepSpec(path, snapshots, cells, window, tuple(notes))


@dataclass(frozen=True, slots=True)
class _Query:
    name: str
    text: str
    truth: Truth | None
    snapshots: tuple[str, ...]


def _snapshot(index: int, entry: Mapping[str, Any], base: Path) -> SnapshotSpec:
    where = f"snapshots[{index}]"
    _known(where, entry, {"name", "path", "session", "db", "seed"})
    if ("path" in entry) == ("session" in entry):
        raise ConfigError(where, "give exactly one of path (a WARC or bundle file) and session")
    if "session" in entry:
        db = Path(base, _text(where, entry, "db")) if "db" in entry else None
        session_id = _text(where, entry, "session")
        payload, source = read_payload(session_id=session_id, db=db), f"session:{session_id}"
    else:
        # absolute: the manifest names it for a replay from another folder (a relative path
        # in a spec run from its own folder could not be read from the app's; found by
        # using the app)
        file = Path(base, _text(where, entry, "path")).absolute()
        payload, source, db = read_payload(file), str(file), None
    name = _text(where, entry, "name") if "name" in entry else Path(source).name
    try:
        loaded = load_payload(payload)
    except PagesiftError as exc:
        # "the snapshot is neither a WARC file nor JSON" said neither which entry nor file
        raise ConfigError(where, f"{source}: {exc}") from exc
    seed = _text(where, entry, "seed") if "seed" in entry else loaded.seed_url
    if not seed:
        raise ConfigError(where, f"{source} records no start URL (a WARC from another tool): "
                          "give seed = \"http://…\"")
    return SnapshotSpec(name, source, seed, payload,
                        str(db.absolute()) if db is not None else None)


def _query(index: int, entry: Mapping[str, Any], base: Path, names: Sequence[str]) -> _Query:
    where = f"queries[{index}]"
    _known(where, entry, {"name", "text", "truth", "snapshots"})
    truth = Truth.load(Path(base, _text(where, entry, "truth"))) if "truth" in entry else None
    text = _text(where, entry, "text") if "text" in entry else (truth.query if truth else "")
    if not text:
        raise ConfigError(where, "give the query's text (or a truth file with '# query:')")
    only = entry.get("snapshots", list(names))
    if not isinstance(only, list) or not all(isinstance(n, str) for n in only):
        raise ConfigError(f"{where}.snapshots",
                          f"must be a list of snapshot names, got {shown(only)}")
    missing = [n for n in only if n not in names]
    if missing:
        raise ConfigError(f"{where}.snapshots", f"no snapshot named {shown(missing[0])}; the "
                          f"snapshots are {list(names)}")
    name = _text(where, entry, "name") if "name" in entry else text
    return _Query(name, text, truth, tuple(only))


def _settings(where: str, table: Mapping[str, Any]) -> dict[str, Any]:
    for name in _FROM_AXES:
        if name in table:
            raise ConfigError(f"{where}.{name}", "comes from the snapshots and queries")
    unknown = sorted(set(table) - _SETTING_NAMES)
    if unknown:
        # named here, by the spec's own flat names: the config's own error listed its fields
        # ("adaptive", "query", "seed_url") and not patience, min_gain, … which are accepted
        raise ConfigError(f"{where}.{unknown[0]}", f"unknown setting; the settings are "
                          f"{sorted(_SETTING_NAMES)}")
    return {name: _value(name, value) for name, value in table.items()}


def _grid(table: object) -> dict[str, list[Any]]:
    if not isinstance(table, dict):
        raise ConfigError("grid", f"[grid] and each [[grid]] must be a table, got {shown(table)}")
    grid: dict[str, list[Any]] = {}
    for name, values in _settings("grid", {k: v for k, v in table.items()}).items():
        if name in OFFLINE_NO_OPS:
            # render × delay_s gave 4 cells of one crawl under 4 labels (found by using the
            # CLI): a cell replays its snapshot's recorded answers whatever these say
            raise ConfigError(f"grid.{name}", "changes nothing offline: the cells replay the "
                              "snapshot's recorded answers, so its cells would be one crawl "
                              "under several labels; leave it out of the grid")
        if not isinstance(values, list) or not values:
            raise ConfigError(f"grid.{name}",
                              f"must be a non-empty list of values, got {shown(values)}")
        grid[name] = [_value(name, v) for v in values]
    return grid


def _value(name: str, value: Any) -> Any:
    if name in _OPTIONAL and value == "none":
        return None
    return value


def _points(grid: Mapping[str, list[Any]]) -> list[dict[str, Any]]:
    """The grid's cartesian product, the first setting varying slowest."""
    return [dict(zip(grid, values, strict=True)) for values in itertools.product(*grid.values())]


def _cells(
    snapshots: Sequence[SnapshotSpec],
    queries: Sequence[_Query],
    settings: Mapping[str, Any],
    points: Sequence[Mapping[str, Any]],
    window: int,
    notes: list[str],
) -> list[Cell]:
    """The cells in order; what the user should know of them goes into ``notes``."""
    cells: dict[str, Cell] = {}
    for snapshot in snapshots:
        recorded: set[str] | None = None  # read once a snapshot, for its first truth
        for query in (q for q in queries if snapshot.name in q.snapshots):
            truth = query.truth.rebased(snapshot.seed_url).keys if query.truth else None
            if truth and recorded is None:
                recorded = _recorded_keys(snapshot)
            if truth and not truth & (recorded or set()):
                # a truth file moves onto any snapshot's host: on another site's snapshot
                # its cells read recall 0, "ok", without a word (found by using the CLI)
                notes.append(
                    f"query {query.name!r}: none of the {len(truth)} pages of its truth is "
                    f"in snapshot {snapshot.name!r}, so its recall there is 0 by "
                    "construction: if the truth is another site's, name the snapshots the "
                    "query belongs to (snapshots = [...]); if the snapshot is too small to "
                    "hold them, record a bigger one")
            for point in points:
                values = {**settings, **point, "seed_url": snapshot.seed_url,
                          "query": query.text}
                try:
                    config = CrawlConfig.from_mapping(settings_mapping(values))
                except ConfigError as exc:
                    # named "limit:" for a grid's or the settings' value alike; the spec's
                    # own mistakes read "grid.strategy:" (found by using the CLI)
                    part = "grid" if exc.field in point else "settings"
                    raise ConfigError(f"{part}.{exc.field}", exc.message) from exc
                cell = _with_id(Cell(snapshot.name, snapshot.payload.digest, query.name,
                                     config, dict(point), truth, window))
                # a union: overlapping [[grid]] tables, a repeated value or query make the
                # same cell twice, whose rows were counted twice in every mean over cells
                cells.setdefault(cell.cell_id, cell)
    return list(cells.values())


def _recorded_keys(snapshot: SnapshotSpec) -> set[str]:
    """The page keys the snapshot recorded a fetch of (requested and final URLs)."""
    urls: list[str] = []
    for answer in load_payload(snapshot.payload).responses:
        if isinstance(answer, RecordedFetch):
            urls.append(answer.url)
            if answer.result is not None:
                urls.append(answer.result.final_url)
    return url_keys(urls)


def _with_id(cell: Cell) -> Cell:
    return Cell(cell.snapshot, cell.snapshot_digest, cell.query_name, cell.config, cell.swept,
                cell.truth, cell.window, cell.identity())


def _table(raw: Mapping[str, Any], key: str) -> dict[str, Any]:
    value = raw.get(key, {})
    if not isinstance(value, dict):
        raise ConfigError(key, f"[{key}] must be a table")
    return value


def _tables(raw: Mapping[str, Any], key: str) -> list[dict[str, Any]]:
    value = raw.get(key)
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        raise ConfigError(key, f"give at least one [[{key}]] table")
    return value


def _known(where: str, entry: Mapping[str, Any], known: set[str]) -> None:
    unknown = sorted(set(entry) - known)
    if unknown:
        raise ConfigError(f"{where}.{unknown[0]}", f"unknown key; the keys are {sorted(known)}")


def _text(where: str, entry: Mapping[str, Any], key: str) -> str:
    value = entry[key]
    if not isinstance(value, str) or not value.strip():
        raise ConfigError(f"{where}.{key}", f"must be text, got {shown(value)}")
    return value


def _word(value: Any) -> str:
    if isinstance(value, list | tuple):
        return ",".join(_word(v) for v in value)
    return "none" if value is None else str(value)
