"""The ``university`` scenario: Northgate University, a realistic university website.

The answers to "international students tuition fees" sit 2-4 clicks deep under /admissions/
and /international/, behind hub pages. Around them: hundreds of dated news stories that mention
students, a journals subdomain whose every issue page repeats the query words, an endless
events calendar, tracking and session parameters on links, printer-friendly copies, and the
ordinary bulk of departments, courses, staff profiles, research and jobs.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..kit.context import HostContext, paras
from ..kit.html import Block, Chrome, Heading, Link, bullets, para, social_links
from ..kit.site import DemoSite, SiteBuilder
from ..kit.text import child_rng
from .admissions import build_admissions
from .courses import Course, plan_courses
from .data import JOURNALS_HOST
from .events import build_events
from .international import build_international
from .journals import build_journals
from .news import Story, build_news
from .sections import build_faculties
from .services import build_services
from .words import ABOUT, LEGAL

__all__ = ["JOURNALS_HOST", "QUERY", "UNI_HOST", "build_university"]

UNI_HOST = "www.uni.localhost"
QUERY = "international students tuition fees"
DESCRIPTION = (
    "Northgate University: a university website of about 1,300 pages. The pages about tuition "
    "fees for international students (fee tables, scholarships, paying and refunds, the visa "
    "deposit) sit two to four clicks deep under Admissions and International, reached through "
    "hub pages. Expect the crawl to find all of them within about 45 pages and stop with "
    "coverage_reached after about 70: verdicts are forgiven while a queued link is as strong "
    "as the links that brought new evidence, and the one that stands comes once none is. The "
    "last one found is the visa page 'Financial requirements', whose link names no query word: "
    "it rises with its list, whose other entries proved relevant. "
    "Traps "
    "to watch: hundreds of dated news stories that mention students; a journals subdomain whose "
    "pages all repeat the query words but add nothing new (the crawl reads one or two, and "
    "their links lose to the fee pages'); an events calendar whose 'next month' link never "
    "ends; utm_ tracking and session ids on links; printer-friendly copies (?print=1: the "
    "crawl fetches two, learns that the parameter makes copies and fetches no more); and "
    "robots.txt blocking /search and /intranet/."
)


@dataclass(slots=True)
class Uni:
    """Everything the university's section generators share."""

    www: HostContext
    journals: HostContext
    courses: list[Course]
    stories: list[Story] = field(default_factory=list)


def _social(handle: str) -> tuple[Link, ...]:
    return social_links(handle, "Facebook", "X", "Instagram", "LinkedIn", "YouTube")


def _www_chrome() -> Chrome:
    nav = tuple(
        Link(text, target)
        for text, target in (
            ("Study", "/study/"), ("Admissions", "/admissions/"),
            ("International", "/international/"),
            ("Research", "/research/"), ("News", "/news/"), ("Events", "/events/"),
            ("Library", "/library/"), ("About", "/about/"),
        )
    )
    utility = (Link("Current students", "/campus/student-life/"), Link("Jobs", "/careers/"),
               Link("Staff intranet", "/intranet/"), Link("Search", "/search"))
    footer = (
        ("Study", (Link("Undergraduate", "/admissions/undergraduate/"),
                   Link("Postgraduate", "/admissions/postgraduate/"),
                   Link("Courses A to Z", "/courses/"),
                   Link("Open days", "/admissions/open-days"))),
        ("University", (Link("About us", "/about/"), Link("Leadership", "/about/leadership/"),
                        Link("Work for us", "/careers/"), Link("Contact us", "/contact"),
                        Link("Find us", "/campus/getting-here"))),
        ("Legal", (Link("Privacy notice", "/privacy"), Link("Cookies", "/cookies"),
                   Link("Accessibility statement", "/accessibility"),
                   Link("Terms of use", "/terms"),
                   Link("Freedom of information", "/foi"),
                   Link("Modern slavery statement", "/modern-slavery-statement"),
                   Link("Sitemap", "/sitemap"))),
        ("Follow us", _social("northgateuni")),
    )
    return Chrome(
        site_name="Northgate University",
        nav=nav,
        utility=utility,
        footer_columns=footer,
        footer_note=("Northgate University, University Road, Eastmere EM1 4NU. ",
                     "Registered charity number 1140012."),
        copyright="© 2025 Northgate University",
    )


def _journals_chrome() -> Chrome:
    nav = (Link("All journals", "/"), Link("For authors", "/authors"),
           Link("Open access", "/open-access"), Link("Search", "/search"),
           Link("Northgate University", "/", UNI_HOST))
    footer = (
        ("Journals", (Link("About the press", "/about"), Link("Contact the editors", "/contact"))),
        ("Legal", (Link("Privacy notice", "/privacy", UNI_HOST),
                   Link("Accessibility statement", "/accessibility", UNI_HOST))),
        ("Follow us", _social("northgatepress")),
    )
    return Chrome(site_name="Northgate University Journals", nav=nav, footer_columns=footer,
                  copyright="© 2025 Northgate University Press")


def _home(uni: Uni) -> None:
    www = uni.www
    prose = www.prose("home")
    stories = uni.stories[-6:][::-1]
    blocks: list[Block] = [
        para(prose.paragraph(ABOUT, 2)),
        para(Link("Book your place at an open day",
                  "/admissions/open-days?utm_source=homepage&utm_medium=banner"
                  "&utm_campaign=opendays2025")),
        Heading("Study with us"),
        bullets(Link("Undergraduate courses", "/admissions/undergraduate/"),
                Link("Postgraduate courses", "/admissions/postgraduate/"),
                Link("How to apply", "/admissions/how-to-apply"),
                Link("Study at Northgate from overseas", "/international/")),
        Heading("Latest news"),
        bullets(*(Link(story.title, story.path) for story in stories)),
        para(Link("More news", "/news/")),
        Heading("Upcoming events"),
        para("Lectures, concerts, open days and exhibitions. ", Link("See all events", "/events/")),
        Heading("Research with impact"),
        para(prose.paragraph(ABOUT, 2), " ", Link("Read more", "/research/")),
    ]
    www.add("/", "Northgate University", blocks, breadcrumbs=False,
            full_title="Northgate University: study, research and news in Eastmere",
            description="Northgate University in Eastmere: study, research and news.")


def _legal(uni: Uni) -> None:
    www = uni.www
    prose = www.prose("legal")
    pages = (
        ("/privacy", "Privacy notice"), ("/cookies", "Cookies"),
        ("/accessibility", "Accessibility statement"), ("/terms", "Terms of use"),
        ("/foi", "Freedom of information"),
        ("/modern-slavery-statement", "Modern slavery statement"), ("/contact", "Contact us"),
    )
    for path, title in pages:
        blocks = paras(prose, LEGAL, 3)
        if path == "/contact":
            blocks.append(bullets(
                Link("admissions@uni.localhost", "mailto:admissions@uni.localhost"),
                Link("+44 1632 960000", "tel:+441632960000")))
        www.add(path, title, blocks)
    sections = (
        ("Study", "/study/"), ("Courses A to Z", "/courses/"), ("Admissions", "/admissions/"),
        ("International", "/international/"), ("Research", "/research/"), ("News", "/news/"),
        ("Events", "/events/"), ("Library", "/library/"), ("About", "/about/"),
        ("Campus", "/campus/"), ("Jobs", "/careers/"), ("Alumni", "/alumni/"),
        ("Faculties", "/faculties/"), ("People", "/people/"),
    )
    www.add("/sitemap", "Sitemap", [bullets(*(Link(t, p) for t, p in sections))])


def build_university(seed: int) -> DemoSite:
    builder = SiteBuilder(name="university", query=QUERY, description=DESCRIPTION,
                          seed_host=UNI_HOST, kept_params=("page", "print", "month"))
    builder.register_host(UNI_HOST, _www_chrome(), "en", ("/search", "/intranet/", "/admin/"))
    builder.register_host(JOURNALS_HOST, _journals_chrome(), "en", ("/search", "/admin/"))
    uni = Uni(
        www=HostContext(builder, seed, UNI_HOST, "en", _www_chrome()),
        journals=HostContext(builder, seed, JOURNALS_HOST, "en", _journals_chrome()),
        courses=plan_courses(child_rng(seed, "university:courses")),
    )
    uni.stories = build_news(uni.www)
    build_admissions(uni.www, uni.courses)
    build_international(uni.www)
    build_faculties(uni.www, uni.courses)
    build_services(uni.www, JOURNALS_HOST)
    build_journals(uni.journals, UNI_HOST)
    build_events(uni.www)
    _legal(uni)
    _home(uni)
    return builder.build()
