"""University: journals.uni.localhost, the university press's journal platform.

Every issue's table of contents repeats the journal's title and its aims-and-scope boilerplate
(student finance, tuition fees, international students), so each page hits the query words
while adding nothing a reader of the fee pages would need. A subtree that should prove dry.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..kit.context import HostContext
from ..kit.html import Block, Heading, Link, Table, bullets, para
from ..kit.site import DemoResponse, DynamicHandler
from ..kit.text import Prose, Topic
from .data import JOURNAL_GROUPS, JOURNAL_OUTCOMES, JOURNAL_REGIONS, JOURNAL_THEMES, JOURNALS

__all__ = ["build_journals"]

FIRST_VOLUME_YEAR, VOLUMES, ISSUES_PER_VOLUME = 2014, 12, 4
_SEASONS = ("Spring", "Summer", "Autumn", "Winter")
_PATTERNS = (
    "{theme} and {outcome}: evidence from {region}",
    "{theme} for {group} in {region}",
    "The effect of {theme_l} on {outcome} among {group}",
    "How {group} respond to {theme_l}",
    "Tuition fees and the {outcome} of {group}: a comparative study",
    "{theme} after reform: lessons from {region}",
)
_AUTHOR_TOPIC = Topic((
    "manuscripts are submitted through the online submission system",
    "articles should be between 6,000 and 9,000 words including references",
    "every article is reviewed by at least two independent referees",
    "authors may deposit the accepted manuscript in an institutional repository",
    "the press charges no fees for submission or publication",
    "decisions are usually made within ten weeks of submission",
))
# A minimal valid PDF: one empty page. Served for the article links.
_PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
        b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n")


_PRESS = ("Northgate University Press publishes five peer-reviewed journals on higher "
          "education, student finance and international students.")


def _scope(title: str) -> str:
    return (f"The {title} publishes peer-reviewed research on tuition fees, student finance "
            "and the experience of international students in higher education. It is "
            "published four times a year by Northgate University Press.")


def _article(prose: Prose) -> str:
    theme = prose.pick(JOURNAL_THEMES)
    return prose.pick(_PATTERNS).format(
        theme=theme, theme_l=theme[0].lower() + theme[1:], outcome=prose.pick(JOURNAL_OUTCOMES),
        group=prose.pick(JOURNAL_GROUPS), region=prose.pick(JOURNAL_REGIONS))


def _issue_path(slug: str, volume: int, issue: int) -> str:
    return f"/{slug}/vol-{volume}/issue-{issue}/"


def _issue_page(site: HostContext, prose: Prose, journal: tuple[str, str, str],
                volume: int, issue: int, pdfs: set[str]) -> None:
    slug, title, _short = journal
    year = FIRST_VOLUME_YEAR + volume - 1
    rows: list[tuple[Link | str, ...]] = []
    page = 1
    for number in range(1, prose.rng.randint(5, 8) + 1):
        pages = prose.rng.randint(14, 30)
        pdf = f"/files/{slug}/{volume}-{issue}-{number}.pdf"
        pdfs.add(pdf)
        authors = ", ".join(prose.person() for _ in range(prose.rng.randint(1, 3)))
        rows.append((Link(_article(prose), pdf), authors, f"{page}\u2013{page + pages - 1}"))
        page += pages
    neighbours = []
    if (volume, issue) != (1, 1):
        prev = (volume, issue - 1) if issue > 1 else (volume - 1, ISSUES_PER_VOLUME)
        neighbours.append(Link("Previous issue", _issue_path(slug, *prev)))
    if (volume, issue) != (VOLUMES, ISSUES_PER_VOLUME):
        nxt = (volume, issue + 1) if issue < ISSUES_PER_VOLUME else (volume + 1, 1)
        neighbours.append(Link("Next issue", _issue_path(slug, *nxt)))
    blocks: list[Block] = [
        para(f"Volume {volume}, Issue {issue}, {_SEASONS[issue - 1]} {year}"),
        para(_scope(title)),
        Table("Contents", ("Article", "Authors", "Pages"), tuple(rows)),
        para(*(part for link in neighbours for part in (link, " ")),
             Link("All issues", f"/{slug}/issues")),
    ]
    site.add(_issue_path(slug, volume, issue),
             f"{title}: Volume {volume}, Issue {issue} ({year})", blocks,
             crumbs=(Link(title, f"/{slug}/"), Link("All issues", f"/{slug}/issues")),
             aside=[Link("Submit an article", "/authors"), Link("Open access", "/open-access")],
             aside_title="For authors")


def _journal(site: HostContext, prose: Prose, journal: tuple[str, str, str],
             pdfs: set[str]) -> None:
    slug, title, short = journal
    home = Link(title, f"/{slug}/")
    board = [(prose.person(), role) for role in ("Editor-in-chief", "Associate editor",
                                                  "Associate editor", "Reviews editor")]
    site.add(home.target, title, [
        Heading("Aims and scope"),
        para(_scope(title)),
        Heading("Editorial board"),
        Table("Editorial board", ("Name", "Role"), tuple(board)),
        para(Link("Current issue", _issue_path(slug, VOLUMES, ISSUES_PER_VOLUME)), " ",
             Link("All issues", f"/{slug}/issues")),
    ])
    issue_links = [
        Link(f"Volume {v}, Issue {i} ({FIRST_VOLUME_YEAR + v - 1})", _issue_path(slug, v, i))
        for v in range(VOLUMES, 0, -1) for i in range(ISSUES_PER_VOLUME, 0, -1)
    ]
    site.add(f"/{slug}/issues", f"{short}: all issues", [para(_scope(title)),
                                                          bullets(*issue_links)],
             crumbs=(home,))
    for volume in range(1, VOLUMES + 1):
        for issue in range(1, ISSUES_PER_VOLUME + 1):
            _issue_page(site, prose, journal, volume, issue, pdfs)


def _pdf_handler(pdfs: frozenset[str]) -> DynamicHandler:
    def handle(path: str, params: Mapping[str, str]) -> DemoResponse | None:
        if path not in pdfs:
            return None
        return DemoResponse(200, "application/pdf", _PDF)

    return handle


def build_journals(site: HostContext, main_host: str) -> None:
    prose = site.prose("journals")
    pdfs: set[str] = set()
    site.add("/", "Northgate University Journals", [
        para(_PRESS),
        bullets(*(Link(title, f"/{slug}/") for slug, title, _ in JOURNALS)),
        para("Published by ", Link("Northgate University", "/", main_host), "."),
    ], breadcrumbs=False, full_title="Northgate University Journals")
    for path, title in (("/authors", "Information for authors"), ("/open-access", "Open access"),
                        ("/about", "About Northgate University Press"),
                        ("/contact", "Contact the editors")):
        site.add(path, title, [para(_PRESS), para(prose.paragraph(_AUTHOR_TOPIC, 3))])
    for journal in JOURNALS:
        _journal(site, prose, journal, pdfs)
    handler = _pdf_handler(frozenset(pdfs))
    site.builder.add_dynamic(site.host, "/files", handler)
