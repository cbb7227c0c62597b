"""The ``allotments`` scenario: Elm Road Allotments, a society's website of eight pages.

Five pages answer the query, "allotment plot rent", and each brings new text; only two pages
say nothing about it (contact, privacy), fewer than the three stale pages in a row that
``coverage_reached`` waits for once the query is covered. No stop rule can fire: the crawl
reads every page and ends with ``exhausted`` when no link is left. On the way: a PDF link it
leaves out, a printer-friendly copy it recognises as a duplicate, a broken link, and a members'
area that robots.txt keeps it out of.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..kit.context import HostContext
from ..kit.html import Block, Chrome, Heading, Link, Table, bullets, para
from ..kit.site import DemoResponse, DemoSite, SiteBuilder

__all__ = ["LESSON", "QUERY", "SOCIETY_HOST", "WATCH", "build_allotments"]

SOCIETY_HOST = "www.allotments.localhost"
QUERY = "allotment plot rent"
DESCRIPTION = (
    "Elm Road Allotments: an allotment society's website of eight pages. Five of them answer "
    "the query (rents, the waiting list, water, rules, sheds); the others are the home, "
    "contact and privacy pages. The crawl reads every page it can reach, leaves out a PDF, "
    "recognises a printer-friendly copy, meets a broken link and stays out of the members' "
    "area robots.txt disallows; no stop rule fires, and it ends with exhausted."
)
#: The stop reason this scenario teaches, and what to look at while it runs.
LESSON = "exhausted"
WATCH = (
    "Watch the queue length and the Stale tile. Coverage reaches 100% within a few pages, but "
    "coverage_reached also waits for three pages that count toward Stale with none that sets "
    "it back between them, and this site has too few such pages: Stale never reaches 3. The "
    "queue shrinks to nothing and "
    "the crawl ends with exhausted: no link is left to fetch. The PDF link is never taken (a "
    "binary file), the printer-friendly copy is a step but not a page (a duplicate), and the "
    "broken link is a step that failed (404)."
)
# (path, anchor, title, paragraphs): the pages that answer the query.
_ANSWERS: tuple[tuple[str, str, str, tuple[str, ...]], ...] = (
    ("/plots-and-rent", "Plot sizes and rent", "Plots and rent", (
        "A full allotment plot is ten rods, about 250 square metres; a half plot is five rods.",
        "The rent for a full plot is 60 pounds a year and 32 pounds for a half plot, due on "
        "the first of October.",
        "New plot holders pay 10 pounds for a gate key, returned when they give up the plot.",
        "Plot holders over 65 and students pay half the rent.",
    )),
    ("/waiting-list", "The waiting list for a plot", "Waiting list for a plot", (
        "There are {waiting} names on the waiting list for an allotment; most people wait "
        "about a year.",
        "When a plot falls vacant it is offered to the next name on the list, who has two "
        "weeks to accept and pay the first year's rent.",
        "You can ask for a half plot, which usually comes up sooner.",
    )),
    ("/water", "Water on every allotment", "Water for plot holders", (
        "Every allotment plot is within 50 metres of a water trough.",
        "The water charge of 8 pounds is added to the plot rent each October.",
        "Taps are turned off from November to March to stop the pipes freezing.",
    )),
    ("/rules", "Rules for plot holders", "Rules for plot holders", (
        "At least three quarters of every allotment plot must be cultivated.",
        "Rent not paid by the end of October means the plot goes to the waiting list.",
        "Bonfires are allowed on a plot only before 10 in the morning.",
    )),
    ("/sheds", "Sheds on your plot", "Sheds on a plot", (
        "A shed on an allotment plot may be at most 2 metres by 1.5 metres.",
        "Greenhouses need the committee's permission; there is no extra rent for them.",
        "Sheds are the plot holder's own property and must be kept in good repair.",
    )),
)
_OTHERS = (
    ("/contact", "Contact", "Write to the secretary at 3 Elm Road."),
    ("/privacy", "Privacy", "We keep members' names and addresses for six years."),
)
# A minimal valid PDF of one empty page: the tenancy agreement.
_PDF_PATH = "/files/tenancy-agreement.pdf"
_PDF = (b"%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n"
        b"2 0 obj<</Type/Pages/Kids[3 0 R]/Count 1>>endobj\n"
        b"3 0 obj<</Type/Page/Parent 2 0 R/MediaBox[0 0 595 842]>>endobj\n"
        b"trailer<</Root 1 0 R>>\n%%EOF\n")


def _chrome() -> Chrome:
    nav = (Link("Rules", "/rules"), Link("Members' area", "/members/"))
    footer = (("The society", (Link("Contact", "/contact"), Link("Privacy", "/privacy"))),)
    return Chrome("Elm Road Allotments", nav, (), footer,
                  ("Elm Road Allotment Society, Elm Road.",), "© 2025 Elm Road Allotment Society")


def _pdf(path: str, _params: Mapping[str, str]) -> DemoResponse | None:
    return DemoResponse(200, "application/pdf", _PDF) if path == _PDF_PATH else None


def build_allotments(seed: int) -> DemoSite:
    builder = SiteBuilder(name="allotments", query=QUERY, description=DESCRIPTION,
                          seed_host=SOCIETY_HOST, kept_params=("print",), lesson=LESSON,
                          watch=WATCH)
    builder.register_host(SOCIETY_HOST, _chrome(), "en", ("/members/",))
    society = HostContext(builder, seed, SOCIETY_HOST, "en", _chrome())
    waiting = str(society.prose("society").rng.randint(25, 60))  # the seed's one say
    for path, _, title, texts in _ANSWERS:
        blocks: list[Block] = [para(text.format(waiting=waiting)) for text in texts]
        if path == "/plots-and-rent":
            blocks.append(Table("Rents for the coming year", ("Plot", "Rent a year"), (
                ("Full plot (10 rods)", "60 pounds"), ("Half plot (5 rods)", "32 pounds"))))
            blocks.append(para(Link("Tenancy agreement (PDF)", _PDF_PATH)))
        if path == "/rules":
            blocks.append(para("The rules were last revised in 2019 (",
                               Link("see the 2019 newsletter", "/newsletter-2019"), ")."))
        society.add(path, title, blocks, relevant=True, printable=path == "/rules")
    for path, title, text in _OTHERS:
        society.add(path, title, [para(text)])
    society.add("/", "Elm Road Allotments", [
        para("Elm Road Allotment Society has 80 allotment plots on the edge of town."),
        Heading("Renting a plot"),
        bullets(*(Link(anchor, path) for path, anchor, _, _ in _ANSWERS)),
    ], breadcrumbs=False, full_title="Elm Road Allotments")
    builder.add_dynamic(SOCIETY_HOST, "/files/", _pdf)
    return builder.build()
