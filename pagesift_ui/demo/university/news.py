"""University: the news cluster, hundreds of dated stories under /news/YYYY/MM/slug.

Stories talk about students all the time and about international students now and then, but
never about fees: a large, plausible distraction that a focused crawler should learn to skip.
"""

from __future__ import annotations

import calendar
from collections.abc import Sequence
from dataclasses import dataclass

from ..kit.context import HostContext
from ..kit.html import Block, Heading, Link, bullets, para
from ..kit.text import Prose, slugify
from .data import FACULTIES, HEADLINE_OBJECTS, HEADLINE_SUBJECTS, HEADLINE_VERBS, NEWS_TAGS
from .words import NEWS

__all__ = ["Story", "build_news"]

FIRST_YEAR, LAST_YEAR, LAST_MONTH = 2019, 2025, 11
NEWS_LINK = Link("News", "/news/")
_DEPARTMENTS = tuple(f"Department of {dept}" for _, depts in FACULTIES for dept, _ in depts)


@dataclass(frozen=True, slots=True)
class Story:
    title: str
    year: int
    month: int
    day: int
    slug: str
    tags: tuple[str, ...]

    @property
    def path(self) -> str:
        return f"/news/{self.year}/{self.month:02d}/{self.slug}"

    @property
    def date(self) -> str:
        return f"{self.day} {calendar.month_name[self.month]} {self.year}"


def _plan(prose: Prose) -> list[Story]:
    stories: list[Story] = []
    for year in range(FIRST_YEAR, LAST_YEAR + 1):
        for month in range(1, 13 if year < LAST_YEAR else LAST_MONTH + 1):
            days = sorted(prose.rng.sample(range(1, 29), prose.rng.randint(3, 7)))
            slugs: set[str] = set()
            for day in days:
                title = (f"{prose.pick(HEADLINE_SUBJECTS)} {prose.pick(HEADLINE_VERBS)} "
                         f"{prose.pick(HEADLINE_OBJECTS)}")
                slug = slugify(title)
                if slug in slugs:
                    slug = f"{slug}-{day}"
                slugs.add(slug)
                tags = tuple(prose.sample(NEWS_TAGS, prose.rng.randint(1, 3)))
                if title.startswith("International") and "international" not in tags:
                    tags = ("international", *tags)
                stories.append(Story(title, year, month, day, slug, tags))
    return stories


def _story(www: HostContext, prose: Prose, story: Story, related: Sequence[Story]) -> None:
    dept = prose.pick(_DEPARTMENTS)
    lead = f"{story.title}, the university announced on {story.date}."
    quote = (f"\u201cWe are proud of what our students have achieved,\u201d said "
             f"{prose.person()}, head of the {dept.removeprefix('Department of ')} department.")
    campaign = f"news{story.year}"
    blocks: list[Block] = [
        para(story.date),
        *(para(f"{lead} {text}" if i == 0 else text) for i, text in
          enumerate(prose.paragraphs(NEWS, prose.rng.randint(2, 4), dept=dept))),
        para(quote),
        para("Tags: ", *(part for tag in story.tags
                         for part in (Link(tag, f"/news/tag/{tag}/"), " "))),
        Heading("Related stories"),
        bullets(*(Link(other.title, f"{other.path}?utm_source=news&utm_medium=related"
                                    f"&utm_campaign={campaign}") for other in related)),
    ]
    crumbs = (NEWS_LINK, Link(str(story.year), f"/news/{story.year}/"),
              Link(calendar.month_name[story.month], f"/news/{story.year}/{story.month:02d}/"))
    www.add(story.path, story.title, blocks, crumbs=crumbs, description=lead)


def _archives(www: HostContext, stories: Sequence[Story]) -> None:
    by_month: dict[tuple[int, int], list[Story]] = {}
    for story in stories:
        by_month.setdefault((story.year, story.month), []).append(story)
    for year in range(FIRST_YEAR, LAST_YEAR + 1):
        months = [(m, by_month[(y, m)]) for (y, m) in by_month if y == year]
        www.add(f"/news/{year}/", f"News from {year}", [
            bullets(*(Link(f"{calendar.month_name[m]} {year} ({len(items)} stories)",
                           f"/news/{year}/{m:02d}/") for m, items in months)),
        ], crumbs=(NEWS_LINK,))
        for month, items in months:
            www.add(f"/news/{year}/{month:02d}/", f"News: {calendar.month_name[month]} {year}", [
                bullets(*((Link(s.title, s.path), f" ({s.date})") for s in items)),
            ], crumbs=(NEWS_LINK, Link(str(year), f"/news/{year}/")))
    for tag in NEWS_TAGS:
        tagged = [s for s in stories if tag in s.tags][-20:][::-1]
        www.add(f"/news/tag/{tag}/", f"News tagged \u2018{tag}\u2019",
                [bullets(*(Link(s.title, s.path) for s in tagged))], crumbs=(NEWS_LINK,))


def _news_home(www: HostContext, stories: Sequence[Story]) -> None:
    latest = stories[-12:][::-1]
    www.add("/news/", "News", [
        para("Stories from across Northgate University: research, students, community and more."),
        bullets(*((Link(s.title, s.path), f" ({s.date})") for s in latest)),
        Heading("From our newsletter"),
        bullets(*(Link(s.title, f"{s.path}?utm_source=newsletter&utm_medium=email"
                                f"&utm_campaign=monthly-{s.year}-{s.month:02d}")
                  for s in stories[-24:-18])),
        Heading("Archive"),
        bullets(*(Link(str(year), f"/news/{year}/") for year in range(LAST_YEAR, FIRST_YEAR - 1,
                                                                      -1))),
        Heading("Topics"),
        bullets(*(Link(tag.capitalize(), f"/news/tag/{tag}/") for tag in NEWS_TAGS)),
    ])


def build_news(www: HostContext) -> list[Story]:
    """Generate the news cluster and return its stories, oldest first."""
    prose = www.prose("news")
    stories = _plan(prose)
    for index, story in enumerate(stories):
        neighbours = [stories[j] for j in (index - 2, index - 1, index + 1)
                      if 0 <= j < len(stories)]
        _story(www, prose, story, neighbours)
    _archives(www, stories)
    _news_home(www, stories)
    return stories
