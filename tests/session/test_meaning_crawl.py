"""Relevance by meaning in a crawl (docs/DESIGN.md §7a), on a small generated site served in
memory: a chapter about the query's subject in other words proves relevant, so its blind
entries come before the seed's other blind entries; at weight 0 it does not, and the crawl
is the lexical one. The step record says what meaning added."""

from __future__ import annotations

import pytest

from pagesift_ui.session import CrawlConfig
from tests.session.test_ranking import crawl, fetched, page

QUERY = "who may connect and how they prove who they are"
SECURITY = ("Each client must log in with a password or a certificate before it is let in. "
            "Accounts, passwords, login attempts and certificates are checked on every "
            "login; access is granted per account.")
FILLER = ("This page lists the licences of the project, the printing conventions of the "
          "manual and the history of its releases, with the names of the authors.")
SEED_TOC = [("Legal Notice", "/legal.html"), ("Colophon", "/colophon.html"),
            ("Security", "/security/index.html"), ("History", "/history.html"),
            ("Printing", "/printing.html"), ("Credits", "/credits.html")]
CHAPTER = [("Password files", "/security/passwd.html"),
           ("Certificates", "/security/certs.html")]
PAGES = {
    "/": page("Handbook", ["Welcome to the handbook of the project."], [SEED_TOC]),
    "/security/index.html": page("Security", [SECURITY, SECURITY], [CHAPTER]),
    **{href: page(text, [SECURITY, text]) for text, href in CHAPTER},
    **{href: page(text, [FILLER, text]) for text, href in SEED_TOC
       if href != "/security/index.html"},
}


# Page relevance by meaning alone: links read by meaning (§8.2, tests/session/
# test_link_meaning_crawl.py) would take the "Security" entry first by its anchor.
LINKS_BY_WORDS = 0.0


def test_a_chapter_about_the_subject_in_other_words_is_read_before_the_rest() -> None:
    records = crawl(PAGES, QUERY, limit=9, link_meaning_weight=LINKS_BY_WORDS)
    order = fetched(records)
    security = order.index("/security/index.html")
    chapter_at = sorted(order.index(href) for _, href in CHAPTER)
    rest_after = [order.index(href) for _, href in SEED_TOC[3:]]
    assert chapter_at == [security + 1, security + 2]
    assert min(rest_after) > max(chapter_at)
    record = records[security]
    meaning = record.relevance_detail["meaning"]
    assert meaning["lexical"] == 0.0  # not one query word on the page
    assert record.relevance == pytest.approx(meaning["lift"]) and record.relevance > 0.05
    assert meaning["cosine"] > meaning["median"]


def test_at_weight_zero_the_crawl_reads_words_alone() -> None:
    records = crawl(PAGES, QUERY, limit=9, meaning_weight=0.0,
                    link_meaning_weight=LINKS_BY_WORDS)
    order = fetched(records)
    # the chapter proved nothing, so its entries wait behind the seed's other blind entries
    chapter_at = [order.index(href) for _, href in CHAPTER]
    assert min(chapter_at) > max(order.index("/printing.html"), order.index("/credits.html"))
    assert all(r.relevance == 0.0 for r in records)
    assert all("meaning" not in r.relevance_detail for r in records)


def test_the_weight_is_a_checked_setting_and_old_recordings_replay_without_it() -> None:
    config = CrawlConfig(seed_url="http://x.example/", query=QUERY)
    assert config.meaning_weight == 0.25
    with pytest.raises(ValueError, match="meaning_weight"):
        CrawlConfig(seed_url="http://x.example/", query=QUERY, meaning_weight=1.5)
    recorded = {k: v for k, v in config.to_dict().items() if k != "meaning_weight"}
    assert CrawlConfig.from_recorded(recorded).meaning_weight == 0.0
