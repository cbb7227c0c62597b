"""University: the events section and its endless calendar.

``/events/calendar?month=YYYY-MM`` is generated on request for any month of years 1-9999, with a
few events each and links to the previous and next month: a crawler trap with no bottom, as on
real sites whose calendar widget never runs out of months. Months are not counted as pages.
"""

from __future__ import annotations

import calendar
import re
from collections.abc import Mapping

from ..kit.context import HostContext, paras
from ..kit.html import Block, Heading, Link, PageSpec, bullets, para, render_page
from ..kit.site import HTML_TYPE, DemoResponse, DynamicHandler
from ..kit.text import Prose, child_rng, slugify
from .data import RESEARCH_FIELDS
from .words import EVENTS

__all__ = ["CALENDAR_PATH", "CURRENT_MONTH", "build_events", "month_target"]

CALENDAR_PATH = "/events/calendar"
CURRENT_MONTH = (2025, 11)
_MONTH = re.compile(r"^(?P<year>\d{4})-(?P<month>0[1-9]|1[0-2])$")
_EVENT_KINDS = (
    "Public lecture: {field}", "Inaugural lecture: {field}", "Seminar: new work on {field}",
    "Open day", "Careers fair", "Concert: Northgate Symphony Orchestra", "Film night",
    "Book launch", "Family science day", "Alumni reunion", "Exhibition opening",
    "Postgraduate open evening", "Charity quiz night", "Choir rehearsal open to all",
)
_VENUES = ("Great Hall", "Arts Centre", "Library Lecture Theatre", "Students' Union",
           "Science Park, Room 2.14", "Online")
EVENTS_LINK = Link("Events", "/events/")


def month_target(year: int, month: int) -> str:
    return f"{CALENDAR_PATH}?month={year:04d}-{month:02d}"


def _shift(year: int, month: int, step: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + step
    return index // 12, index % 12 + 1


def _event_title(prose: Prose) -> str:
    return prose.pick(_EVENT_KINDS).format(field=prose.pick(RESEARCH_FIELDS))


def _month_blocks(prose: Prose, year: int, month: int) -> list[Block]:
    name = f"{calendar.month_name[month]} {year}"
    days = sorted(prose.rng.sample(range(1, 29), prose.rng.randint(2, 5)))
    items = tuple(
        (f"{day} {calendar.month_name[month]}, {prose.rng.randint(10, 19)}:00, "
         f"{prose.pick(_VENUES)}: ", f"{_event_title(prose)}. ", prose.sentence(EVENTS))
        for day in days
    )
    blocks: list[Block] = [para(f"What is on at Northgate in {name}."), Heading(name),
                           bullets(*items)]
    links: list[Link] = []
    if (year, month) > (1, 1):
        prev = _shift(year, month, -1)
        links.append(Link(f"\u2039 {calendar.month_name[prev[1]]} {prev[0]}", month_target(*prev)))
    if (year, month) < (9999, 12):
        nxt = _shift(year, month, 1)
        links.append(Link(f"{calendar.month_name[nxt[1]]} {nxt[0]} \u203a", month_target(*nxt)))
    links.append(Link("This month", month_target(*CURRENT_MONTH)))
    blocks.append(para(*(part for link in links for part in (link, " "))))
    return blocks


def _calendar_handler(www: HostContext) -> DynamicHandler:
    def handle(path: str, params: Mapping[str, str]) -> DemoResponse | None:
        if path != CALENDAR_PATH:
            return None
        match = _MONTH.match(params.get("month", "{:04d}-{:02d}".format(*CURRENT_MONTH)))
        if match is None or match.group("year") == "0000":
            return None
        year, month = int(match.group("year")), int(match.group("month"))
        prose = Prose(child_rng(www.seed, f"calendar:{year:04d}-{month:02d}"))
        title = f"Events calendar: {calendar.month_name[month]} {year}"
        spec = PageSpec(host=www.host, path=path, lang=www.lang,
                        title=f"{title} | {www.chrome.site_name}", h1=title,
                        blocks=tuple(_month_blocks(prose, year, month)), chrome=www.chrome,
                        crumbs=(EVENTS_LINK,))
        return DemoResponse(200, HTML_TYPE, render_page(spec).encode())

    return handle


def build_events(www: HostContext) -> None:
    prose = www.prose("events")
    featured = [_event_title(prose) for _ in range(8)]
    links = [Link(title, f"/events/{slugify(title)}-{i}") for i, title in enumerate(featured, 1)]
    www.add("/events/", "Events", [
        para("Lectures, concerts, exhibitions and open days, most of them free and open to all."),
        Heading("Featured events"),
        bullets(*links),
        para(Link("Browse the calendar", month_target(*CURRENT_MONTH))),
    ])
    for link in links:
        www.add(link.target, link.text, paras(prose, EVENTS, 2),
                crumbs=(EVENTS_LINK,))
    www.builder.add_dynamic(www.host, CALENDAR_PATH, _calendar_handler(www))
