"""The speed work of issue 15 changes no decision: whole crawls of fixed demo sites give the
very step records they gave before it (``elapsed_ms`` and ``fetched_at`` aside, which are
clocks).

The golden files were written by the commit before the queue's speed work, with
``PAGESIFT_WRITE_GOLDEN=1 python -m pytest tests/session/test_records_unchanged.py``; a change
that is meant to change the records rewrites them the same way, in a commit that says why.
"""

from __future__ import annotations

import gzip
import json
import os
from pathlib import Path
from typing import Any

import pytest

from pagesift_ui.demo import build_site
from pagesift_ui.session import CrawlConfig, CrawlSession
from tests.fakes import demo_seed, demo_source

GOLDEN = Path(__file__).parent / "golden"
CLOCKS = frozenset({"elapsed_ms", "fetched_at"})

# (name, scenario, settings): the focused crawl the issue names, a small queue so that
# evictions and rejections take part, and the thompson strategy (a rescore before every pop);
# and the first with blocks that are only links counted as evidence, the seed's reading
# (off by default since docs/DECISIONS.md, issue 11: "a block that is only links")
CRAWLS: tuple[tuple[str, str, dict[str, Any]], ...] = (
    ("university", "university", {"limit": 150, "stop_on_verdict": False}),
    ("university_link_blocks", "university",
     {"limit": 150, "stop_on_verdict": False, "link_blocks_as_evidence": True}),
    ("university_small_queue", "university",
     {"limit": 120, "stop_on_verdict": False, "max_queued_links": 40}),
    ("helpdesk_thompson", "helpdesk",
     {"limit": 80, "stop_on_verdict": False, "strategy": "thompson"}),
)


def _without_clocks(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_clocks(v) for k, v in value.items() if k not in CLOCKS}
    if isinstance(value, list):
        return [_without_clocks(v) for v in value]
    return value


def _records(scenario: str, settings: dict[str, Any]) -> list[Any]:
    site = build_site(scenario, 0)
    config = CrawlConfig.from_mapping(
        {"seed_url": demo_seed(site), "query": site.query, "delay_s": 0.0, **settings}
    )
    with CrawlSession(config, demo_source(site)) as session:
        session.run()
    # through JSON, as a saved session holds them: tuples and lists compare alike
    steps = json.loads(json.dumps([record.to_dict() for record in session.steps]))
    return list(_without_clocks(steps))


@pytest.mark.parametrize(("name", "scenario", "settings"), CRAWLS, ids=[c[0] for c in CRAWLS])
def test_step_records_are_the_golden_ones(
    name: str, scenario: str, settings: dict[str, Any]
) -> None:
    records = _records(scenario, settings)
    path = GOLDEN / f"{name}.json.gz"
    if os.environ.get("PAGESIFT_WRITE_GOLDEN") == "1":
        text = json.dumps(records, indent=1, sort_keys=True) + "\n"
        # mtime 0: the same records give the same bytes, so a rewrite shows no diff
        path.write_bytes(gzip.compress(text.encode("utf-8"), mtime=0))
    golden = json.loads(gzip.decompress(path.read_bytes()).decode("utf-8"))
    assert len(records) == len(golden)
    for step, (got, want) in enumerate(zip(records, golden, strict=True), start=1):
        assert got == want, f"step {step} differs"
