"""Links read by meaning in a crawl (docs/DESIGN.md §8.2), on a small generated site served in
memory: of a table of contents whose entries share no word with the query, the entry that
names the query's subject in other words is taken first; at weight 0 the entries are taken
as the words alone rank them, and the step record says what meaning added."""

from __future__ import annotations

import pytest

from pagesift_ui.cli.commands import build_parser
from pagesift_ui.cli.options import config_from_args
from pagesift_ui.frontier.meaning import LINK_TEXT_QUANTILE
from pagesift_ui.session import CrawlConfig, CrawlSession
from tests.session.test_ranking import crawl, fetched, page

QUERY = "the C client library: opening a session, sending statements, reading results"
FILLER = ("This page lists the licences of the project, the printing conventions of the "
          "manual and the history of its releases, with the names of the authors.")
SEED_TOC = [("Legal Notice", "/legal.html"), ("Bibliography", "/biblio.html"),
            ("Release Notes", "/release.html"), ("Acknowledgments", "/thanks.html"),
            ("Installation from Source Code", "/install.html"),
            ("Database Connection Control Functions", "/connect.html")]
PAGES = {
    "/": page("Handbook", ["Welcome to the handbook of the project."], [SEED_TOC]),
    **{href: page(text, [FILLER, text]) for text, href in SEED_TOC},
}


def test_the_entry_that_names_the_subject_in_other_words_is_taken_first() -> None:
    records = crawl(PAGES, QUERY, limit=3, meaning_weight=0.0)
    assert fetched(records)[1] == "/connect.html"
    link = records[1].link
    assert link is not None and link["blind"]  # no word of the query in it
    terms = {f["name"]: f for f in link["features"]}
    assert 0.0 < terms["meaning"]["value"] <= 0.25
    assert terms["meaning"]["contribution"] == terms["meaning"]["value"]


def test_at_weight_zero_the_entries_wait_in_the_order_the_words_give_them() -> None:
    records = crawl(PAGES, QUERY, limit=7, meaning_weight=0.0, link_meaning_weight=0.0)
    # every entry is blind and they tie: in the seed's order ("Legal Notice" is furniture)
    order = fetched(records)
    others = ("/biblio.html", "/release.html", "/thanks.html", "/install.html")
    assert order.index("/connect.html") > max(order.index(href) for href in others)
    assert all("meaning" not in {f["name"] for f in r.link["features"]}
               for r in records[1:] if r.link is not None)


def test_the_weight_is_a_checked_setting_and_old_recordings_replay_without_it() -> None:
    config = CrawlConfig(seed_url="http://x.example/", query=QUERY)
    assert 0.0 < config.link_meaning_weight <= 1.0
    with pytest.raises(ValueError, match="link_meaning_weight"):
        CrawlConfig(seed_url="http://x.example/", query=QUERY, link_meaning_weight=1.5)
    recorded = {k: v for k, v in config.to_dict().items() if k != "link_meaning_weight"}
    assert CrawlConfig.from_recorded(recorded).link_meaning_weight == 0.0


def test_the_quantile_is_a_checked_setting_the_cli_sets_and_old_recordings_read_as_median(
) -> None:
    config = CrawlConfig(seed_url="http://x.example/", query=QUERY)
    assert config.link_meaning_quantile == LINK_TEXT_QUANTILE == 0.75
    for bad in (-0.1, 1.01, "high"):
        with pytest.raises(ValueError, match="link_meaning_quantile"):
            CrawlConfig.from_mapping({"seed_url": "http://x.example/", "query": QUERY,
                                      "link_meaning_quantile": bad})
    recorded = {k: v for k, v in config.to_dict().items() if k != "link_meaning_quantile"}
    assert CrawlConfig.from_recorded(recorded).link_meaning_quantile == 0.5
    assert CrawlConfig.from_recorded({**recorded, "link_meaning_quantile": 0.75}) == config
    args = build_parser().parse_args(["crawl", "http://x.example/", "--query", QUERY,
                                      "--link-meaning-quantile", "0.5"])
    assert config_from_args(args).link_meaning_quantile == 0.5


def test_the_crawl_reads_links_against_its_configured_quantile() -> None:
    config = CrawlConfig(seed_url="http://x.example/", query=QUERY, link_meaning_quantile=0.6)
    with CrawlSession(config) as session:
        link_meaning = session.state.focus.link_meaning
        assert link_meaning is not None and link_meaning.quantile == 0.6
