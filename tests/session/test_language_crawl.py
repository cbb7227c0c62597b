"""The multilingual demo answers a German query as well as an English one (docs/DESIGN.md §1.1).

Both crawls run with the default settings to their own stop, on the in-memory demo site. The
German query's answer key is the German twins of the English answers (the scenario's table of
equivalent pages): /wohnen/ and its six pages, /international/austausch/ and its housing page.
"""

from __future__ import annotations

import functools
from urllib.parse import urlsplit

from pagesift_ui.demo import build_site
from pagesift_ui.demo.kit.site import DemoSite
from pagesift_ui.demo.multilingual import GERMAN_QUERY, QUERY
from pagesift_ui.frontier.language import Language
from pagesift_ui.session import CrawlConfig, CrawlSession, StepOutcome
from pagesift_ui.session.rules import observed, replay_rules
from tests.fakes import demo_seed, demo_source


@functools.cache
def _site() -> DemoSite:
    return build_site("multilingual", 0)


@functools.cache
def _crawl(query: str) -> CrawlSession:
    site = _site()
    config = CrawlConfig.from_mapping({"seed_url": demo_seed(site), "query": query,
                                       "delay_s": 0.0})
    with CrawlSession(config, demo_source(site)) as session:
        session.run()
    return session


def _found(session: CrawlSession, truth: frozenset[tuple[str, str]]) -> set[tuple[str, str]]:
    fetched = set()
    for record in session.steps:
        if record.outcome is StepOutcome.FETCHED:
            parts = urlsplit(record.final_url)
            fetched.add((parts.hostname or "", parts.path))
    return fetched & truth


def test_the_scenario_has_a_german_query_with_the_german_twins_as_its_answers() -> None:
    site = _site()
    (german,) = site.more_queries
    assert german.text == GERMAN_QUERY and german.language == "de"
    paths = {path for _, path in german.relevant}
    assert len(paths) == len(site.relevant) == 9
    assert all(path.startswith(("/wohnen/", "/international/austausch/")) for path in paths)


def test_a_german_query_finds_the_german_answers_as_the_english_query_finds_its_own() -> None:
    site = _site()
    german, english = _crawl(GERMAN_QUERY), _crawl(QUERY)
    assert german.config.query_language is Language.GERMAN
    assert german.steps[0].terms == ("wohnen", "austauschstudierende")  # "für" is a stop word
    assert english.config.query_language is Language.ENGLISH
    truth_de = site.more_queries[0].relevant
    found_de, found_en = _found(german, truth_de), _found(english, site.relevant)
    # measured: 9 of 9 for each (the German query stops after 24 steps, the English after 17)
    assert len(found_de) / len(truth_de) >= len(found_en) / len(site.relevant)
    assert found_de == truth_de and found_en == site.relevant
    assert german.steps[-1].stopped and english.steps[-1].stopped


def test_a_german_query_reads_german_pages_in_german_and_never_opens_the_english_portal() -> None:
    german = _crawl(GERMAN_QUERY)
    assert not german.state.focus.english_query
    wohnen = next(r for r in german.steps if urlsplit(r.final_url).path == "/wohnen/")
    assert wohnen.lang == "de" and (wohnen.relevance or 0.0) >= 0.3
    assert not any(urlsplit(r.final_url).path.startswith("/en/") for r in german.steps)


def test_replaying_the_stop_rules_finds_each_pages_language_again() -> None:
    german = _crawl(GERMAN_QUERY)
    replayed = replay_rules(german.config, german.steps, (), {})
    assert [replayed.fresh[r.step] for r in german.steps if observed(r)] == [
        r.fresh for r in german.steps if observed(r)
    ]
    assert replayed.adaptive.evidence == german.state.adaptive.evidence
