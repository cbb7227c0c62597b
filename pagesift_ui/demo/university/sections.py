"""University: study pages, the course catalogue, faculties, departments and staff profiles."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..kit.context import HostContext
from ..kit.html import Block, Heading, Link, Table, bullets, para
from ..kit.text import Prose, slugify
from .courses import Course, fee_text
from .data import FACULTIES, RESEARCH_FIELDS, ROLES
from .words import COURSE, PEOPLE, RESEARCH

__all__ = ["build_faculties"]

PEOPLE_PER_PAGE = 40
_MODULE_PATTERNS = (
    "Foundations of {s}", "Research Methods in {s}", "{s} in Practice", "Advanced {s}",
    "Professional Skills", "Dissertation", "Topics in {s}", "{s} and Society",
    "Quantitative Methods", "Independent Project",
)


@dataclass(frozen=True, slots=True)
class Person:
    name: str
    role: str
    department: str
    field: str

    @property
    def path(self) -> str:
        return f"/people/{slugify(self.name)}"


def _dept_path(faculty: str, dept: str) -> str:
    return f"/faculties/{slugify(faculty)}/{slugify(dept)}/"


def _study(www: HostContext, prose: Prose, courses: Sequence[Course]) -> None:
    www.add("/study/", "Study at Northgate", [
        para(prose.paragraph(COURSE, 3, subject="your subject")),
        bullets(Link("Courses A to Z", "/courses/"),
                Link("Undergraduate study", "/admissions/undergraduate/"),
                Link("Postgraduate study", "/admissions/postgraduate/"),
                Link("Faculties and departments", "/faculties/"),
                Link("Study abroad and exchanges", "/international/")),
    ])
    rows = tuple(
        (Link(c.name, c.path), "Postgraduate" if c.postgraduate else "Undergraduate", c.faculty)
        for c in sorted(courses, key=lambda c: c.name)
    )
    www.add("/courses/", "Courses A to Z", [
        para("Every undergraduate and postgraduate course we offer, from Accounting to Tourism."),
        Table("All courses", ("Course", "Level", "Faculty"), rows),
    ], crumbs=(Link("Study", "/study/"),))


def _course_page(www: HostContext, prose: Prose, course: Course) -> None:
    subject = course.subject
    years = 1 if course.postgraduate else 3
    patterns = prose.sample(_MODULE_PATTERNS, 3 * years)
    modules = tuple(
        (f"Year {i // 3 + 1}" if years > 1 else "Core", pattern.format(s=subject))
        for i, pattern in enumerate(patterns)
    )
    blocks: list[Block] = [
        para(prose.paragraph(COURSE, 3, subject=subject.lower())),
        Heading("What you will study"),
        Table("Modules", ("Stage", "Module"), modules),
        para(prose.paragraph(COURSE, 2, subject=subject.lower())),
        Heading("Entry requirements"),
        para("AAB-ABB at A level, or equivalent. See ",
             Link("entry requirements", "/admissions/entry-requirements"), "."),
        Heading("Fees"),
        para(f"Home: {fee_text(course.home_fee)} per year. "
             f"International: {fee_text(course.international_fee)} per year. ",
             Link("Fees and funding", "/admissions/fees/"), "."),
        para(Link("Apply now", "/admissions/how-to-apply"), " | ",
             Link(course.department, _dept_path(course.faculty, course.department))),
    ]
    www.add(course.path, course.name, blocks,
            crumbs=(Link("Study", "/study/"), Link("Courses A to Z", "/courses/")))


def _staff(prose: Prose) -> list[Person]:
    people: list[Person] = []
    taken: set[str] = set()
    for _, departments in FACULTIES:
        for dept, _subjects in departments:
            for _ in range(prose.rng.randint(5, 8)):
                name = prose.person()
                while slugify(name) in taken:
                    name = prose.person()
                taken.add(slugify(name))
                people.append(Person(name, prose.pick(ROLES), dept, prose.pick(RESEARCH_FIELDS)))
    return people


def _person_page(www: HostContext, prose: Prose, person: Person, faculty: str) -> None:
    slots = {"field": person.field, "name": person.name}
    email = f"{slugify(person.name).replace('-', '.')}@uni.localhost"
    pubs = tuple(
        (f"{prose.pick(('On', 'Rethinking', 'New evidence on', 'Towards'))} {person.field}: "
         f"{prose.pick(('a review', 'a case study', 'methods and results', 'lessons learned'))}"
         f" ({prose.rng.randint(2012, 2025)})",)
        for _ in range(prose.rng.randint(2, 5))
    )
    blocks: list[Block] = [
        para(f"{person.role}, {person.department}"),
        para(prose.paragraph(PEOPLE, 4, **slots)),
        Heading("Selected publications"),
        bullets(*pubs),
        Heading("Contact"),
        para(Link(email, f"mailto:{email}")),
    ]
    crumbs = (Link("People", "/people/"),
              Link(person.department, _dept_path(faculty, person.department)))
    www.add(person.path, person.name, blocks, crumbs=crumbs)


def _people_index(www: HostContext, people: Sequence[Person]) -> None:
    ordered = sorted(people, key=lambda p: (p.name.split()[-1], p.name))
    pages = [ordered[i:i + PEOPLE_PER_PAGE] for i in range(0, len(ordered), PEOPLE_PER_PAGE)]
    for number, chunk in enumerate(pages, start=1):
        rows = tuple((Link(p.name, p.path), p.role, p.department) for p in chunk)
        nav = [Link(str(n), "/people/" if n == 1 else f"/people/?page={n}")
               for n in range(1, len(pages) + 1) if n != number]
        target = "/people/" if number == 1 else f"/people/?page={number}"
        www.add("/people/", "People directory", [
            Table(f"Staff, page {number} of {len(pages)}", ("Name", "Role", "Department"), rows),
            para("Pages: ", *(part for link in nav for part in (link, " "))),
        ], target=target)


def _departments(www: HostContext, prose: Prose, courses: Sequence[Course],
                 people: Sequence[Person]) -> None:
    www.add("/faculties/", "Faculties and departments", [
        para("Our four faculties bring together departments with shared interests."),
        bullets(*(Link(f"Faculty of {faculty}", f"/faculties/{slugify(faculty)}/")
                  for faculty, _ in FACULTIES)),
    ])
    for faculty, departments in FACULTIES:
        fac_link = Link(f"Faculty of {faculty}", f"/faculties/{slugify(faculty)}/")
        www.add(fac_link.target, fac_link.text, [
            para(prose.paragraph(RESEARCH, 2, field=faculty.lower())),
            bullets(*(Link(dept, _dept_path(faculty, dept)) for dept, _ in departments)),
        ], crumbs=(Link("Faculties", "/faculties/"),))
        for dept, _subjects in departments:
            staff = [p for p in people if p.department == dept]
            taught = [c for c in courses if c.department == dept]
            www.add(_dept_path(faculty, dept), f"Department of {dept}", [
                para(prose.paragraph(RESEARCH, 3, field=dept.lower())),
                Heading("Courses"),
                bullets(*(Link(c.name, c.path) for c in taught)),
                Heading("Our people"),
                bullets(*(Link(p.name, p.path) for p in staff)),
            ], crumbs=(Link("Faculties", "/faculties/"), fac_link))
            for person in staff:
                _person_page(www, prose, person, faculty)


def build_faculties(www: HostContext, courses: Sequence[Course]) -> None:
    prose = www.prose("faculties")
    _study(www, prose, courses)
    for course in courses:
        _course_page(www, prose, course)
    people = _staff(prose)
    _departments(www, prose, courses, people)
    _people_index(www, people)
