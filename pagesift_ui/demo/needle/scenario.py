"""The ``needle`` scenario: Millbrook Borough Council, a municipal site with nothing on the query.

The default query, "quantum chromodynamics lattice", occurs on no page, in no anchor and in
no URL: the answer key is empty. A crawl should notice that nothing relevant turns up and
stop with ``no_relevant_pages`` instead of walking the whole site.
"""

from __future__ import annotations

import calendar
import datetime

from ..kit.context import HostContext, paras
from ..kit.html import Chrome, Heading, Link, Table, bullets, para, social_links
from ..kit.site import DemoSite, SiteBuilder
from ..kit.text import Prose, slugify, title_case
from .words import (
    BUSINESS_KINDS,
    BUSINESS_NAMES,
    COUNCIL,
    PARK_NAMES,
    PLANNING_WORKS,
    SERVICES,
    STREETS,
    TOWN_NEWS,
    WARDS,
)

__all__ = ["LESSON", "QUERY", "TOWN_HOST", "WATCH", "build_needle"]

TOWN_HOST = "www.millbrook.localhost"
QUERY = "quantum chromodynamics lattice"
DESCRIPTION = (
    "Millbrook Borough Council: a municipal website of about 500 pages (bins, council tax, "
    "planning applications, parks, councillors, meeting minutes, a business directory, news). "
    "The default query has no answer anywhere on the site: the answer key is empty. Expect the "
    "crawl to find nothing relevant and stop early with no_relevant_pages, rather than "
    "exhausting the site or its page budget."
)
#: The stop reason this scenario teaches, and what to look at while it runs.
LESSON = "no_relevant_pages"
WATCH = (
    "Watch the Cold tile. Nothing on the site mentions the query, and every link the crawl can "
    "take is clue-less: no query word in its anchor, its URL or the line around it. Each such "
    "page that turns out irrelevant adds 1 to Cold; at 10 (2 x patience) the crawl gives up "
    "with no_relevant_pages, after a dozen of the site's 500 pages instead of all of them."
)
PER_PAGE = 25
# Service hubs that also lead to a larger register kept outside the hub's own pages.
_REGISTERS = {
    "Planning": Link("Search planning applications", "/planning/applications/"),
    "Business": Link("Local business directory", "/business/directory/"),
}
_COMMITTEES = ("Full Council", "Planning Committee", "Cabinet", "Licensing Committee",
               "Overview and Scrutiny Committee", "Audit Committee")


def _chrome() -> Chrome:
    nav = (Link("Bins and recycling", "/bins-and-recycling/"), Link("Council Tax", "/council-tax/"),
           Link("Planning", "/planning/"), Link("Parking", "/parking/"),
           Link("Housing", "/housing/"), Link("All services", "/services/"),
           Link("Your council", "/council/"), Link("News", "/news/"))
    utility = (Link("My account", "/my-account/"), Link("Search", "/search"),
               Link("Contact us", "/contact"))
    footer = (
        ("About this site", (Link("Privacy", "/privacy"), Link("Cookies", "/cookies"),
                             Link("Accessibility statement", "/accessibility"),
                             Link("Contact us", "/contact"))),
        ("Follow us", social_links("millbrookcouncil", "Facebook", "X", "Nextdoor")),
    )
    return Chrome("Millbrook Borough Council", nav, utility, footer,
                  ("Millbrook Borough Council, Town Hall, Market Place, Millbrook MB1 1AA.",),
                  "© 2025 Millbrook Borough Council")


def _services(town: HostContext, prose: Prose) -> None:
    hubs = []
    for name, topic, pages in SERVICES:
        hub = Link(name, f"/{slugify(name)}/")
        hubs.append(hub)
        children = [Link(title, f"{hub.target}{slugify(title)}") for title in pages]
        registers = [_REGISTERS[name]] if name in _REGISTERS else []
        town.add(hub.target, name, [*paras(prose, topic, 1), bullets(*children, *registers)],
                 crumbs=(Link("Services", "/services/"),))
        for link in children:
            town.add(link.target, link.text, paras(prose, topic, 3),
                     crumbs=(Link("Services", "/services/"), hub))
    parks = [Link(park, f"/parks/{slugify(park)}") for park in PARK_NAMES]
    hubs.append(Link("Parks and open spaces", "/parks/"))
    town.add("/parks/", "Parks and open spaces", [
        para("The borough has more than forty parks, play areas and nature reserves."),
        bullets(*parks)], crumbs=(Link("Services", "/services/"),))
    for link in parks:
        street = prose.pick(STREETS)
        town.add(link.target, link.text, [
            para(f"{link.text} is off {street} and is open from dawn until dusk."),
            bullets("Play area", "Public toilets", prose.pick(("Cafe", "Bowling green",
                                                                "Tennis courts", "Skate park"))),
        ], crumbs=(Link("Parks", "/parks/"),))
    town.add("/services/", "All services", [bullets(*hubs)])


def _planning_applications(town: HostContext, prose: Prose) -> None:
    apps = []
    for number in range(150):
        ref = f"MB/{2023 + number // 75}/{(number * 7) % 900 + 100:04d}"
        address = f"{prose.rng.randint(1, 120)} {prose.pick(STREETS)}"
        apps.append((ref, address, prose.pick(PLANNING_WORKS),
                     prose.pick(("Pending", "Approved", "Approved with conditions", "Refused"))))
    base = "/planning/applications/"
    chunks = [apps[i:i + PER_PAGE] for i in range(0, len(apps), PER_PAGE)]
    for page, chunk in enumerate(chunks, start=1):
        rows = tuple((Link(ref, base + slugify(ref)), address, status)
                     for ref, address, _, status in chunk)
        nav = [Link(str(n), base if n == 1 else f"{base}?page={n}") for n in
               range(1, len(chunks) + 1) if n != page]
        town.add(base, "Planning applications", [
            Table("Applications", ("Reference", "Address", "Status"), rows),
            para("Page: ", *(part for link in nav for part in (link, " ")))],
            target=base if page == 1 else f"{base}?page={page}",
            crumbs=(Link("Planning", "/planning/"),))
    for ref, address, works, status in apps:
        town.add(base + slugify(ref), f"Planning application {ref}", [
            Table("Application details", ("", ""), (("Reference", ref), ("Address", address),
                                                    ("Proposal", works), ("Status", status))),
            para("You can comment on this application until the consultation closes."),
        ], crumbs=(Link("Planning", "/planning/"), Link("Applications", base)))


def _council(town: HostContext, prose: Prose) -> None:
    council = Link("Your council", "/council/")
    members = [(name, prose.pick(WARDS)) for name in prose.people(30)]
    town.add("/council/", "Your council", [
        para("The council has 30 councillors elected for four-year terms."),
        bullets(Link("Councillors", "/council/councillors/"),
                Link("Meetings and minutes", "/council/meetings/"))])
    town.add("/council/councillors/", "Councillors", [Table("Councillors", ("Name", "Ward"), tuple(
        (Link(name, f"/council/councillors/{slugify(name)}"), ward) for name, ward in members))],
        crumbs=(council,))
    for name, ward in members:
        town.add(f"/council/councillors/{slugify(name)}", f"Councillor {name}", [
            para(f"Councillor {name} represents {ward} ward."),
            para(Link("Email this councillor", f"mailto:{slugify(name)}@millbrook.localhost"))],
            crumbs=(council, Link("Councillors", "/council/councillors/")))
    first = datetime.date(2023, 1, 9)
    meetings = [((first + datetime.timedelta(days=12 * index)).isoformat(),
                 _COMMITTEES[index % len(_COMMITTEES)]) for index in range(60)]
    town.add("/council/meetings/", "Meetings and minutes", [bullets(*(
        Link(f"{committee}, {date}", f"/council/meetings/{date}-{slugify(committee)}")
        for date, committee in reversed(meetings)))], crumbs=(council,))
    for date, committee in meetings:
        town.add(f"/council/meetings/{date}-{slugify(committee)}", f"{committee}: minutes",
                 [para(f"Minutes of the meeting held on {date} at the Town Hall."),
                  bullets(*(title_case(item) + "." for item in
                            [*prose.sample(COUNCIL.clauses[:-1], 5), COUNCIL.clauses[-1]]),
                          ordered=True)],
                 crumbs=(council, Link("Meetings", "/council/meetings/")))


def _directory(town: HostContext, prose: Prose) -> None:
    entries = []
    for index in range(120):
        kind, what = BUSINESS_KINDS[index % len(BUSINESS_KINDS)]
        name = f"{prose.pick(BUSINESS_NAMES)} {kind}"
        entries.append((name, f"/business/directory/{slugify(name)}-{index + 1}", what))
    town.add("/business/directory/", "Local business directory", [
        para("Local businesses listed free of charge by the council."),
        bullets(*(Link(name, path) for name, path, _ in entries))],
        crumbs=(Link("Business", "/business/"),))
    for name, path, what in entries:
        town.add(path, name, [
            para(f"{name} {what}."),
            para(f"Address: {prose.rng.randint(1, 99)} {prose.pick(STREETS)}, Millbrook."),
            para(f"Telephone: 01632 {prose.rng.randint(100000, 999999)}")],
            crumbs=(Link("Business", "/business/"), Link("Directory", "/business/directory/")))


def _news(town: HostContext, prose: Prose) -> list[Link]:
    items = []
    for index in range(40):
        year, month = 2024 + index // 24, index % 12 + 1
        title = prose.pick(("New play area opens at", "Tree planting day at",
                            "Improvements planned for", "Have your say on the future of",
                            "Summer events return to")) + " " + prose.pick(PARK_NAMES)
        items.append((Link(title, f"/news/{year}/{month:02d}/{slugify(title)}-{index}"),
                      f"{calendar.month_name[month]} {year}"))
    for link, date in items:
        town.add(link.target, link.text, [para(date), *paras(prose, TOWN_NEWS, 2)],
                 crumbs=(Link("News", "/news/"),))
    town.add("/news/", "News", [bullets(*((link, f" ({date})") for link, date in
                                          reversed(items)))])
    return [link for link, _ in items[-3:]]


def build_needle(seed: int) -> DemoSite:
    builder = SiteBuilder(name="needle", query=QUERY, description=DESCRIPTION,
                          seed_host=TOWN_HOST, kept_params=("page",), lesson=LESSON,
                          watch=WATCH)
    builder.register_host(TOWN_HOST, _chrome(), "en", ("/search", "/my-account/", "/admin/"))
    town = HostContext(builder, seed, TOWN_HOST, "en", _chrome())
    prose = town.prose("town")
    _services(town, prose)
    _planning_applications(town, prose)
    _council(town, prose)
    _directory(town, prose)
    latest = _news(town, prose)
    for path, title in (("/privacy", "Privacy"), ("/cookies", "Cookies"),
                        ("/accessibility", "Accessibility statement"), ("/contact", "Contact us")):
        town.add(path, title, [para("Millbrook Borough Council, Town Hall, Market Place.")])
    town.add("/", "Welcome to Millbrook Borough Council", [
        Heading("Popular tasks"),
        bullets(Link("Check your bin day", "/bins-and-recycling/collection-days"),
                Link("Pay your council tax", "/council-tax/pay-your-council-tax"),
                Link("Report a pothole", "/roads-and-transport/report-a-pothole"),
                Link("Apply for a parking permit", "/parking/parking-permits")),
        Heading("Latest news"), bullets(*latest),
    ], breadcrumbs=False, full_title="Millbrook Borough Council")
    return builder.build()
