"""The ``multilingual`` scenario: Hochschule Talheim, a German university of applied sciences.

The seed page is German (``<html lang="de">``); the English answers about housing for exchange
students sit behind the "English" link of the header, under /en/. German equivalents exist for
every answer, and a small French portal (/fr/) adds a third language. Pages carry hreflang
alternates, and /de/ redirects to the German home, as on many real sites.
"""

from __future__ import annotations

from ..kit.context import HostContext, paras
from ..kit.html import Heading, Link, bullets, para
from ..kit.site import DemoSite, SiteBuilder
from ..kit.text import Prose, slugify
from .german import build_german
from .hochschule import HOST, Hochschule, de_chrome, en_chrome, fr_chrome, programme_paths, twins
from .words import (
    ABOUT_EN,
    EXCHANGE_EN,
    FR_GENERAL,
    HOUSING_EN,
    NEWS_EN,
    PROGRAMMES,
    RESEARCH_EN,
    STUDY_EN,
    THEMES_EN,
)

__all__ = ["GERMAN_QUERY", "HOST", "QUERY", "build_multilingual"]

QUERY = "housing for exchange students"
#: The same question in German (docs/DESIGN.md §1.1): its answers are the German twins of the
#: English answers (the equivalents table of ``hochschule``), /wohnen/ and its pages and the
#: exchange students' pages under /international/austausch/.
GERMAN_QUERY = "Wohnen für Austauschstudierende"
DESCRIPTION = (
    "Hochschule Talheim: a German university website of about 330 pages whose home page is in "
    "German. The English pages about housing for exchange students sit behind the 'English' "
    "link in the header (/en/); their German twins (/wohnen/, /international/austausch/) do "
    "not match an English query, and a small French portal (/fr/) is a second wrong language. "
    "Expect the crawl to take the language portal early, find the English housing pages and "
    "stop with coverage_reached. Also shows hreflang alternates, a /de/ redirect "
    "and robots.txt blocking /suche and /intern/. The German query 'Wohnen für "
    "Austauschstudierende' is read in German and finds the German twins instead."
)
HOUSING = Link("Housing", "/en/housing/")
EXCHANGE = Link("Exchange students", "/en/international/exchange-students/")
_HOUSING_PAGES = (
    ("halls-of-residence", "Halls of residence: student housing",
     "Our six halls of residence offer furnished rooms, and exchange students are given "
     "priority for housing in all of them."),
    ("rent-and-deposit", "Rent and deposit for student housing",
     "Rent for student housing is paid monthly; exchange students pay a deposit of two "
     "months' rent before they move in."),
    ("apply-for-a-room", "Apply for student housing",
     "Exchange students apply for housing online as soon as they have their letter of "
     "acceptance."),
    ("private-housing", "Private housing",
     "If you prefer private housing, exchange students can use our housing board to find "
     "rooms in shared flats."),
    ("faq", "Housing FAQ",
     "Answers to the questions exchange students ask most often about housing in Talheim."),
    ("short-stays", "Short stays: guest housing for exchange students",
     "Guest rooms give exchange students short-term housing before their tenancy starts."),
)


def _housing(site: Hochschule, prose: Prose) -> None:
    site.add("en", HOUSING.target, "Housing for students", [
        para("Looking for somewhere to live? Here is everything about student housing in "
             "Talheim, with extra help for exchange students."),
        *paras(prose, HOUSING_EN, 1),
        bullets(*(Link(title, f"/en/housing/{slug}") for slug, title, _ in _HOUSING_PAGES))],
        crumbs=(Link("International", "/en/international/"),), relevant=True)
    for slug, title, lead in _HOUSING_PAGES:
        site.add("en", f"/en/housing/{slug}", title, [para(lead), *paras(prose, HOUSING_EN, 2)],
                 crumbs=(HOUSING,), relevant=True)


def _international(site: Hochschule, prose: Prose) -> None:
    intl = Link("International", "/en/international/")
    site.add("en", intl.target, "International", [
        para("Talheim welcomes guests from more than 60 countries every year."),
        bullets(EXCHANGE, Link("Degree programmes in English", "/en/study/programmes/"),
                HOUSING, Link("Partner universities", "/en/international/partner-universities"))])
    site.add("en", EXCHANGE.target, "Exchange students", [
        para("Welcome, exchange students! This page covers applying, courses, arrival and "
             "housing for your semester in Talheim."),
        *paras(prose, EXCHANGE_EN, 1),
        Heading("Housing"),
        para("Exchange students can rent a room in our halls. ",
             Link("Read more about housing for exchange students",
                  "/en/international/exchange-students/housing"), "."),
        bullets(Link("Arrival", "/en/international/exchange-students/arrival"),
                Link("Courses in English", "/en/international/exchange-students/courses"))],
        crumbs=(intl,), relevant=True)
    site.add("en", "/en/international/exchange-students/housing",
             "Housing for exchange students", [
                 para("Housing for exchange students is arranged by the International Office: "
                      "tell us your dates and we reserve a furnished room for you."),
                 *paras(prose, HOUSING_EN, 2),
                 para("See also: ", Link("all housing options", HOUSING.target), ".")],
             crumbs=(intl, EXCHANGE), relevant=True)
    for slug, title in (("arrival", "Arrival"), ("courses", "Courses in English")):
        site.add("en", f"/en/international/exchange-students/{slug}", title,
                 paras(prose, EXCHANGE_EN, 2), crumbs=(intl, EXCHANGE))
    site.add("en", "/en/international/partner-universities", "Partner universities",
             paras(prose, ABOUT_EN, 2), crumbs=(intl,))


def _english_rest(site: Hochschule, prose: Prose) -> None:
    study = Link("Study", "/en/study/")
    taught = [(german, english) for german, english in PROGRAMMES if english]
    links = [Link(f"{english} (Bachelor)", programme_paths(g, english)[1] or "") for g, english
             in taught]
    site.add("en", study.target, "Study", [*paras(prose, STUDY_EN, 2),
                                           bullets(Link("Programmes", "/en/study/programmes/"))])
    site.add("en", "/en/study/programmes/", "Programmes taught in English", [bullets(*links)],
             crumbs=(study,))
    for link in links:
        site.add("en", link.target, link.text, paras(prose, STUDY_EN, 3),
                 crumbs=(study, Link("Programmes", "/en/study/programmes/")))
    site.add("en", "/en/research/", "Research", [*paras(prose, RESEARCH_EN, 3,
                                                         field=prose.pick(THEMES_EN))])
    site.add("en", "/en/about/", "About us", paras(prose, ABOUT_EN, 3))
    site.add("en", "/en/contact", "Contact", [para("International Office, Building C, Room 0.12."),
                                             *paras(prose, ABOUT_EN, 1)])
    stories = [Link(f"{prose.pick(('New lab', 'Award', 'Project', 'Conference'))}: "
                    f"{theme}", f"/en/news/{slugify(theme)}-{i}")
               for i, theme in enumerate(THEMES_EN * 2, start=1)]
    for link in stories:
        site.add("en", link.target, link.text, paras(prose, NEWS_EN, 2),
                 crumbs=(Link("News", "/en/news/"),))
    site.add("en", "/en/news/", "News", [bullets(*stories)])
    site.add("en", "/en/", "Talheim University of Applied Sciences", [
        para("Practical, international, personal: study and research in the heart of Talheim."),
        Heading("Quick links"),
        bullets(EXCHANGE, Link("Degree programmes in English", "/en/study/programmes/"), HOUSING,
                Link("Contact the International Office", "/en/contact"))],
        breadcrumbs=False, full_title="Talheim University of Applied Sciences")


def _french(site: Hochschule, prose: Prose) -> None:
    for path, title in (("/fr/etudes", "Études"), ("/fr/international", "International"),
                        ("/fr/logement", "Logement"), ("/fr/a-propos", "À propos"),
                        ("/fr/contact", "Contact"), ("/fr/candidature", "Candidature")):
        site.add("fr", path, title, paras(prose, FR_GENERAL, 2))
    site.add("fr", "/fr/", "Bienvenue à la Hochschule Talheim", [
        *paras(prose, FR_GENERAL, 1),
        bullets(Link("Études", "/fr/etudes"), Link("Logement", "/fr/logement"),
                Link("Candidature", "/fr/candidature"))],
        breadcrumbs=False, full_title="Hochschule Talheim")


def build_multilingual(seed: int) -> DemoSite:
    builder = SiteBuilder(name="multilingual", query=QUERY, description=DESCRIPTION,
                          seed_host=HOST)
    builder.register_host(HOST, de_chrome(), "de", ("/suche", "/en/search", "/intern/", "/typo3/"))
    site = Hochschule({lang: HostContext(builder, seed, HOST, lang, chrome)
                       for lang, chrome in (("de", de_chrome()), ("en", en_chrome()),
                                            ("fr", fr_chrome()))})
    build_german(site)
    prose = site.contexts["en"].prose("en")
    _housing(site, prose)
    _international(site, prose)
    _english_rest(site, prose)
    _french(site, site.contexts["fr"].prose("fr"))
    builder.add_redirect(HOST, "/de/", Link("", "/"))
    english = [path for host, path in builder.relevant_keys() if host == HOST]
    builder.add_query(GERMAN_QUERY, "de", [(HOST, path) for path in twins(english, "de")])
    return builder.build()
