"""Each scenario shows what it promises: answers where they should be, and every trap present."""

from __future__ import annotations

import re

import pytest

from pagesift_ui.demo import SCENARIOS

from . import body_text, click_depths, links, main_text, query_stems, site_of, stems

UNI, JOURNALS = "www.uni.localhost", "journals.uni.localhost"


#: Query terms an answer may lack: the bakery's lesson is a term its site names only once.
RARE_TERMS = {"bakery": {"hydrat"}}


@pytest.mark.parametrize("name", SCENARIOS)
def test_relevant_pages_exist_and_contain_every_query_term(name: str) -> None:
    site = site_of(name)
    terms = [t for t in query_stems(site.query) if t not in RARE_TERMS.get(name, set())]
    for host, path in site.relevant:
        response = site.respond(host, path)
        assert response.status == 200, path
        page = response.body.decode()
        assert set(terms) <= stems(main_text(page)), path
        title = page[page.index("<title>"):page.index("</title>")]
        assert stems(title) & set(terms), path


@pytest.mark.parametrize("name", SCENARIOS)
def test_every_static_page_and_every_answer_is_reachable_from_the_seed(name: str) -> None:
    site = site_of(name)
    depths = click_depths(site)
    assert site.relevant <= depths.keys()
    assert set(site.iter_pages()) <= depths.keys()


@pytest.mark.parametrize(("name", "low", "high"), [
    ("university", 10, 25), ("helpdesk", 6, 12), ("needle", 0, 0), ("multilingual", 5, 15),
    ("bakery", 7, 7), ("fieldguide", 48, 48), ("allotments", 5, 5)])
def test_answer_key_sizes(name: str, low: int, high: int) -> None:
    assert low <= len(site_of(name).relevant) <= high


def test_university_answers_are_two_to_four_clicks_deep() -> None:
    site = site_of("university")
    depths = click_depths(site)
    answer_depths = {depths[key] for key in site.relevant}
    assert min(answer_depths) == 2 and max(answer_depths) == 4
    assert all(path.startswith(("/admissions/", "/international/")) for _, path in site.relevant)


def test_university_news_cluster_is_large_dated_and_not_about_fees() -> None:
    site = site_of("university")
    stories = [t for h, t in site.iter_pages() if re.fullmatch(r"/news/20\d\d/\d\d/[a-z0-9-]+", t)]
    assert len(stories) >= 300
    assert {t[6:10] for t in stories} == {str(y) for y in range(2019, 2026)}
    mentions = [stems(main_text(body_text(site, UNI, t))) for t in stories]
    assert sum("student" in words for words in mentions) > len(stories) / 2
    assert any("internat" in words for words in mentions)
    assert not any("tuition" in words for words in mentions)


def test_every_journals_page_hits_a_query_word_and_issues_share_boilerplate() -> None:
    site = site_of("university")
    terms = set(query_stems(site.query))
    pages = [t for h, t in site.iter_pages() if h == JOURNALS]
    assert len(pages) >= 200
    for target in pages:
        assert stems(main_text(body_text(site, JOURNALS, target))) & terms, target
    issues = [t for t in pages if "/issue-" in t]
    scope = {re.search(r"<p>The .*? publishes peer-reviewed .*?</p>",
                       body_text(site, JOURNALS, t)).group(0).split(" publishes")[1]
             for t in issues}
    assert len(issues) >= 200 and len(scope) == 1


def _next_month(page: str) -> str:
    hrefs = re.findall(r'<a href="([^"]*)">[^<]*\u203a</a>', page)
    assert len(hrefs) == 1
    return hrefs[0].replace("&amp;", "&")


def test_events_calendar_is_endless() -> None:
    site = site_of("university")
    target, year, month = "/events/calendar?month=2025-11", 2025, 11
    for _ in range(100):
        response = site.respond(UNI, target)
        assert response.status == 200, target
        year, month = (year + 1, 1) if month == 12 else (year, month + 1)
        target = _next_month(response.body.decode())
        assert target == f"/events/calendar?month={year}-{month:02d}"
    assert site.respond(UNI, "/events/calendar?month=2031-13").status == 404
    assert ("www.uni.localhost", "/events/") in set(site.iter_pages())


def test_tracking_parameters_session_ids_and_print_copies_are_linked() -> None:
    site = site_of("university")
    targets = [t for page in ("/", "/news/", "/international/", "/library/")
               for _, t in links(site, UNI, page)]
    assert any("utm_source=" in t and "utm_campaign=" in t for t in targets)
    assert any(re.search(r";jsessionid=[0-9A-F]{32}", t) for t in targets)
    assert any(re.search(r"[?&]sid=[A-Za-z0-9]{24}(&|$)", t) for t in targets)
    for host, path in site.relevant:
        copy = site.respond(host, path + "?print=1")
        original = site.respond(host, path)
        assert copy.status == 200
        assert main_text(copy.body.decode()) == main_text(original.body.decode())
        assert f'<link rel="canonical" href="{path}">' in copy.body.decode()


def test_helpdesk_footer_repeats_the_query_on_every_page() -> None:
    site = site_of("helpdesk")
    terms = set(query_stems(site.query))
    for host, target in site.iter_pages():
        page = body_text(site, host, target)
        footer = page[page.index("<footer>"):page.index("</footer>")]
        assert terms <= stems(footer), target
    products = [t for h, t in site.iter_pages() if t.startswith("/p/")]
    assert len(products) >= 300
    assert all(h == "help.shop.localhost" for h, _ in site.relevant)


def test_needle_site_never_mentions_the_query() -> None:
    site = site_of("needle")
    terms = set(query_stems(site.query))
    assert site.relevant == frozenset()
    for host, target in site.iter_pages():
        assert not stems(body_text(site, host, target)) & terms, target
        assert not any(term in target.lower() for term in terms), target


def test_multilingual_home_is_german_with_an_english_portal() -> None:
    site = site_of("multilingual")
    home = body_text(site, site.seed_host, "/")
    assert '<html lang="de">' in home
    header = home[home.index("<header>"):home.index("</header>")]
    assert '<a href="/en/">English</a>' in header
    assert 'hreflang="en" href="/en/"' in home
    assert all(path.startswith("/en/") for _, path in site.relevant)
    assert site.respond(site.seed_host, "/de/").status == 301


def test_multilingual_other_languages_do_not_match_the_english_query() -> None:
    site = site_of("multilingual")
    terms = set(query_stems(site.query))
    german = [t for h, t in site.iter_pages() if not t.startswith("/en/")]
    assert len(german) >= 200
    for target in german:
        page = body_text(site, site.seed_host, target)
        assert '<html lang="de">' in page or '<html lang="fr">' in page
        assert not stems(main_text(page)) & terms, target
    twin = body_text(site, site.seed_host, "/wohnen/wohnheime")
    assert 'hreflang="en" href="/en/housing/halls-of-residence"' in twin
