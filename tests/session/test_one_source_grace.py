"""One source is not yet a find (frontier/leads.py, docs/DESIGN.md §11.10): the first
``saturated`` verdict while a single page has given evidence is forgiven once, so it stands
after 2 × patience pages with nothing new instead of patience. On a small generated site,
then on SQLite's documentation (skipped when ``sqlite3-doc`` is not installed)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pagesift_ui.bench import Truth
from pagesift_ui.bench.truth import url_keys
from pagesift_ui.frontier.adaptive import StopReason
from pagesift_ui.net.fetcher import Fetcher
from pagesift_ui.net.serve import StaticServer
from pagesift_ui.session import CrawlSession, StepRecord, VerdictFate
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.whatif import what_if
from tests.bench.docsite_truth import PLACEHOLDER, SQLITEDOCS
from tests.fakes import DictSource, policy_for
from tests.session.test_ranking import ORIGIN, QUERY, TOPIC, page

# fourteen pages with no query word, each its own words (so none is a near-duplicate)
WORDS = ("harbour", "violin", "granite", "tulip", "lantern", "meadow", "copper", "falcon",
         "pepper", "marble", "orchid", "walnut", "saddle", "ember")
OTHERS = [(f"Notes {n}", f"/x{n}.html") for n in range(len(WORDS))]
PAGES = {
    # the seed lists one page on the topic first (its one source), then the others
    "/": page("Handbook", ["Welcome."], [[("Event loop scheduling", "/topic.html"), *OTHERS]]),
    "/topic.html": page("Event loop scheduling", [TOPIC, TOPIC]),
    **{href: page(text, [f"{word} " * 12 + "colophon"])
       for (text, href), word in zip(OTHERS, WORDS, strict=True)},
}


def _session(query: str = QUERY, **settings: Any) -> CrawlSession:
    config = CrawlConfig.from_mapping({"seed_url": ORIGIN + "/", "query": query, "limit": 20,
                                       "delay_s": 0.0, **settings})
    session = CrawlSession(config, DictSource(
        {ORIGIN + path: html for path, html in PAGES.items()}, policy=policy_for(config)))
    session.run()
    return session


def _verdicts(records: Sequence[StepRecord]) -> list[tuple[int, str, VerdictFate]]:
    return [(r.step, str(r.verdict), r.verdict_fate) for r in records if r.verdict]


def test_the_first_saturated_verdict_on_one_source_is_forgiven_and_the_next_stands() -> None:
    session = _session()
    try:
        assert [r.sources for r in session.steps[1:]] == [1] * (len(session.steps) - 1)
        # five pages with nothing new after the one source: forgiven once; five more: stands
        assert _verdicts(session.steps) == [(7, "saturated", VerdictFate.AUTO_FORGIVEN),
                                            (12, "saturated", VerdictFate.STOPPED)]
        graced = session.steps[6]
        assert graced.lead_pending is False  # no queued link was a lead
        assert graced.forgiven_why.endswith(
            "; but only 1 page has given evidence so far, too little to call the relevant "
            "part read: with one source the crawl waits 2 × patience pages with nothing "
            "new, as it waits for a first find, so this verdict is forgiven once")
        assert session.stop_reason is StopReason.SATURATED and session.stop_step == 12
        # the what-if replay with the crawl's own options gives the same fates
        replayed = what_if(session)
        assert [(v.step, v.stood) for v in replayed.verdicts] == [(7, False), (12, True)]
    finally:
        session.close()


def test_with_lead_forgiveness_off_the_seeds_rules_stand_alone() -> None:
    session = _session(forgive_leads=False)
    try:
        assert _verdicts(session.steps) == [(7, "saturated", VerdictFate.STOPPED)]
        assert [(v.step, v.stood) for v in what_if(session).verdicts] == [(7, True)]
    finally:
        session.close()


@SQLITEDOCS.needs_docs
def test_sqlite_features_reads_its_section_before_it_stops() -> None:
    # the first verdict came at page 11 with one source (features.html) and 0% of the
    # section's 17 answers; forgiven once, the crawl reads docs.html and the section
    truth = Truth.load(SQLITEDOCS.truth_dir / "features.truth")
    with StaticServer(SQLITEDOCS.docs) as server:
        base = server.base_url() + "/"
        # the crawl the grace was written for: links by their words (with links read by
        # meaning, docs/DESIGN.md §8.2, the first verdict comes at step 25, with 6 sources
        # and 59% of the answers found: the grace is not needed there)
        config = CrawlConfig.from_mapping({
            "seed_url": truth.seed.replace(PLACEHOLDER, base), "query": truth.query,
            "delay_s": 0.0, "link_meaning_weight": 0.0})
        with CrawlSession(config, Fetcher(config.fetch_policy())) as session:
            session.run()
            keys = Truth(truth.query, truth.seed, tuple(
                url.replace(PLACEHOLDER, base) for url in truth.urls)).keys
            found = set().union(*(url_keys((r.url, r.final_url)) for r in session.steps))
            first = next(r for r in session.steps if r.verdict)
            assert (first.verdict, first.sources, first.verdict_fate) == (
                StopReason.SATURATED, 1, VerdictFate.AUTO_FORGIVEN)
            assert session.stop_step is not None and session.stop_step > first.step
            assert len(found & keys) / len(keys) >= 0.9
