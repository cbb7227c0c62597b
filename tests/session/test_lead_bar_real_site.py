"""The pending-lead bar on a real documentation site (docs/DESIGN.md §11.10): once a verdict
has fired, only a link that found a relevant page lowers the bar. Crawled from the Python
3.11 docs Debian installs, served on 127.0.0.1 (skipped when they are not installed)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from pagesift_ui.bench import Truth
from pagesift_ui.bench.truth import url_keys
from pagesift_ui.frontier.adaptive import AdaptiveOptions, StopReason
from pagesift_ui.net.fetcher import Fetcher
from pagesift_ui.net.serve import StaticServer
from pagesift_ui.session import CrawlConfig, CrawlSession, VerdictFate
from pagesift_ui.session.whatif import what_if
from tests.bench.docsite_truth import PLACEHOLDER, PYDOCS

pytestmark = PYDOCS.needs_docs


@pytest.fixture(scope="module")
def served() -> Iterator[tuple[str, Truth]]:
    truth = Truth.load(PYDOCS.truth_dir / "numeric.truth")
    with StaticServer(PYDOCS.docs) as server:
        base = server.base_url() + "/"
        yield base, Truth(truth.query, truth.seed.replace(PLACEHOLDER, base),
                          tuple(url.replace(PLACEHOLDER, base) for url in truth.urls))


def _crawl(served: tuple[str, Truth], **settings: Any) -> CrawlSession:
    # The bar is pinned down on the crawl it was built for, relevance by the query's words
    # alone. With meaning fused in (docs/DESIGN.md §7a) this query's crawl runs to its budget:
    # the library's links score higher, the dispersion rule pops them while a root page
    # (glossary.html) heads the queue above the bar, and the verdicts are forgiven on its
    # account (docs/DECISIONS.md "Adopted: page relevance fused with meaning"). Links read by
    # meaning (§8.2) change which links it takes, so they are off too.
    _, truth = served
    config = CrawlConfig.from_mapping({"seed_url": truth.seed, "query": truth.query,
                                       "delay_s": 0.0, "meaning_weight": 0.0,
                                       "link_meaning_weight": 0.0, **settings})
    with CrawlSession(config, Fetcher(config.fetch_policy())) as session:
        session.run()
    return session


def test_a_finished_crawl_stands_when_its_tail_finds_only_barely_on_topic_pages(
    served: tuple[str, Truth],
) -> None:
    # before, each forgiven step fetched the head, its page was on topic (0.05–0.15: most
    # pydocs pages touch any query) and its link lowered the bar to the next head: the crawl
    # ran to its 200-page budget with all 8 answers found by page 15
    _, truth = served
    session = _crawl(served, limit=200)
    assert session.stop_reason is StopReason.COVERAGE_REACHED
    assert session.stop_step is not None and session.stop_step < 60
    found = set().union(*(url_keys((r.url, r.final_url)) for r in session.steps))
    assert truth.keys <= found
    forgiven = [v for v in session.verdicts if v.fate is VerdictFate.AUTO_FORGIVEN]
    assert forgiven, "the first verdict comes while the chapter's entries are still queued"
    stood = session.steps[session.stop_step - 1]
    assert stood.lead_pending is False and stood.lead_head is not None
    # a covered query's verdict is judged against the links that found new evidence
    # (frontier/leads.py, docs/DESIGN.md §11.10)
    assert stood.lead_why.startswith("the query is covered; the next 5 links to fetch score")
    assert "the lowest score of the" in stood.lead_why
    assert "links that led to pages with new evidence" in stood.lead_why


def test_what_if_another_patience_gives_the_verdicts_a_crawl_with_it_gives(
    served: tuple[str, Truth],
) -> None:
    # a patience of 4 fires the first verdict sooner than 5 does, so fewer on-topic links have
    # joined the bar by then and links to relevant pages only lower it afterwards: the replay
    # must rebuild the bar, not read the recorded answers. The verdicts of patience 4 come at
    # other steps than the recorded ones, and some stand and some are forgiven, so both fates
    # are checked against the crawl with patience 4
    recorded = _crawl(served, limit=80, stop_on_verdict=False)
    other = _crawl(served, limit=80, stop_on_verdict=False, adaptive={"patience": 4})
    assert [r.url for r in other.steps] == [r.url for r in recorded.steps]
    replayed = what_if(recorded, AdaptiveOptions(patience=4))
    assert [(v.step, v.reason, v.stood) for v in replayed.verdicts] == [
        (v.step, v.reason, v.fate is not VerdictFate.AUTO_FORGIVEN) for v in other.verdicts]
    assert {v.stood for v in replayed.verdicts} == {True, False}
    assert {v.step for v in replayed.verdicts} != {v.step for v in recorded.verdicts}
