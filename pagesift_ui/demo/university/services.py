"""University: research, library, about, jobs, campus and alumni sections.

The library runs on a Java catalogue system that keeps the session in the path
(``;jsessionid=...``), a second kind of session id the crawler has to clean.
"""

from __future__ import annotations

from ..kit.context import HostContext, paras
from ..kit.html import Link, Table, bullets, para
from ..kit.text import Prose, slugify
from .data import RESEARCH_FIELDS
from .words import ABOUT, ACCOMMODATION, CAMPUS, CAREERS, LIBRARY, PEOPLE, RESEARCH

__all__ = ["build_services"]

VACANCIES_PER_PAGE = 15
_HEX = "0123456789ABCDEF"
_JOBS = (
    "Administrator", "Research Assistant", "Lecturer", "Technician", "Project Officer",
    "Student Adviser", "Library Assistant", "Finance Officer", "Web Developer", "Porter",
)
_TEAMS = (
    "School of Chemistry", "Student Services", "Library", "Finance", "Estates",
    "Computer Science", "Business School", "Admissions", "Research Office", "Medicine",
)


def _research(www: HostContext, prose: Prose, journals_host: str) -> None:
    research = Link("Research", "/research/")
    centres = [(field, f"/research/centres/{slugify(field)}") for field in RESEARCH_FIELDS[:14]]
    cases = [(f"{prose.pick(('Improving', 'Transforming', 'Protecting', 'Understanding'))} "
              f"{field}", f"/research/impact/{slugify(field)}-{i}")
             for i, field in enumerate(prose.sample(RESEARCH_FIELDS, 18), start=1)]
    www.add("/research/", "Research", [
        *paras(prose, RESEARCH, 2, field="many disciplines"),
        bullets(Link("Research centres", "/research/centres/"),
                Link("Research impact", "/research/impact/"),
                Link("University journals", "/research/journals"),
                Link("Doctoral college", "/research/doctoral-college")),
    ])
    # The journals moved to their own subdomain; the old address redirects there.
    www.builder.add_redirect(www.host, "/research/journals", Link("", "/", journals_host))
    www.add("/research/doctoral-college", "Doctoral college",
            paras(prose, RESEARCH, 3, field="doctoral research"), crumbs=(research,))
    for index_path, title, items in (("/research/centres/", "Research centres", centres),
                                     ("/research/impact/", "Research impact", cases)):
        www.add(index_path, title, [bullets(*(Link(t.capitalize(), p) for t, p in items))],
                crumbs=(research,))
        for text, path in items:
            www.add(path, text.capitalize(), paras(prose, RESEARCH, 3, field=text.lower()),
                    crumbs=(research, Link(title, index_path)))


def _jsession(prose: Prose) -> str:
    return ";jsessionid=" + "".join(prose.pick(_HEX) for _ in range(32))


def _library(www: HostContext, prose: Prose) -> None:
    pages = ("Opening hours", "Borrowing", "Study spaces", "Databases and e-journals",
             "Special collections", "Referencing help", "Printing and copying",
             "Inter-library loans", "Library catalogue", "Accessibility services")
    paths = {title: f"/library/{slugify(title)}" for title in pages}
    library = Link("Library", "/library/")

    def session_links() -> list[Link]:
        return [Link(title, paths[title] + _jsession(prose)) for title in pages]

    www.add("/library/", "Library", [*paras(prose, LIBRARY, 2), bullets(*session_links())])
    for title in pages:
        www.add(paths[title], title, paras(prose, LIBRARY, 3), crumbs=(library,),
                aside=session_links()[:5], aside_title="Library services")


def _about(www: HostContext, prose: Prose) -> None:
    about = Link("About", "/about/")
    pages = ("History", "Governance", "Strategy 2030", "Facts and figures", "Sustainability",
             "Rankings and awards", "Equality, diversity and inclusion")
    roles = ("Vice-Chancellor", "Deputy Vice-Chancellor", "Pro-Vice-Chancellor for Education",
             "Pro-Vice-Chancellor for Research", "Chief Operating Officer", "Registrar",
             "Chair of Council")
    leaders = list(zip(prose.people(len(roles)), roles, strict=True))
    www.add("/about/", "About Northgate", [
        *paras(prose, ABOUT, 2),
        bullets(Link("Leadership", "/about/leadership/"),
                *(Link(t, f"/about/{slugify(t)}") for t in pages)),
    ])
    for title in pages:
        www.add(f"/about/{slugify(title)}", title, paras(prose, ABOUT, 3), crumbs=(about,))
    www.add("/about/leadership/", "University leadership", [
        para("The university executive board leads the university day to day."),
        Table("Executive board", ("Name", "Role"),
              tuple((Link(name, f"/about/leadership/{slugify(name)}"), role)
                    for name, role in leaders)),
    ], crumbs=(about,))
    for name, role in leaders:
        www.add(f"/about/leadership/{slugify(name)}", name, [
            para(f"{name} is the {role} of Northgate University."),
            *paras(prose, PEOPLE, 1, name=name, field="higher education leadership"),
        ], crumbs=(about, Link("Leadership", "/about/leadership/")))


def _careers(www: HostContext, prose: Prose) -> None:
    jobs = [(f"{prose.pick(_JOBS)}, {prose.pick(_TEAMS)}", f"NU{2500 + i:05d}")
            for i in range(45)]
    careers = Link("Jobs", "/careers/")
    www.add("/careers/", "Work for us", [
        *paras(prose, CAREERS, 2),
        para(Link("Current vacancies", "/careers/vacancies/"))])
    pages = [jobs[i:i + VACANCIES_PER_PAGE] for i in range(0, len(jobs), VACANCIES_PER_PAGE)]
    for number, chunk in enumerate(pages, start=1):
        rows = tuple((Link(title, f"/careers/vacancies/{ref.lower()}-{slugify(title)}"), ref)
                     for title, ref in chunk)
        more = [para(Link("Next page", f"/careers/vacancies/?page={number + 1}"))] \
            if number < len(pages) else []
        target = "/careers/vacancies/" + (f"?page={number}" if number > 1 else "")
        www.add("/careers/vacancies/", "Current vacancies",
                [Table("Vacancies", ("Job", "Reference"), rows), *more],
                crumbs=(careers,), target=target)
    for title, ref in jobs:
        www.add(f"/careers/vacancies/{ref.lower()}-{slugify(title)}", title, [
            para(f"Reference {ref}. Salary £{prose.rng.randint(24, 58)},000 to "
                 f"£{prose.rng.randint(59, 70)},000 a year."),
            *paras(prose, CAREERS, 3),
        ], crumbs=(careers, Link("Vacancies", "/careers/vacancies/")))


def _campus(www: HostContext, prose: Prose) -> None:
    campus = Link("Campus", "/campus/")
    groups = (
        ("accommodation/", "Accommodation", ACCOMMODATION,
         ("Halls of residence", "Rent and contracts", "Private housing", "Family accommodation",
          "Applying for a room")),
        ("student-life/", "Student life", CAMPUS,
         ("Clubs and societies", "Students' union", "Wellbeing", "Volunteering",
          "Faith and belief")),
        ("sport/", "Sport", CAMPUS, ("Sports centre", "Sports scholarships", "Teams and clubs")),
    )
    www.add("/campus/", "Campus and facilities", [
        *paras(prose, CAMPUS, 2),
        bullets(*(Link(title, f"/campus/{slug}") for slug, title, _, _ in groups),
                Link("Getting here", "/campus/getting-here"))])
    www.add("/campus/getting-here", "Getting here", paras(prose, CAMPUS, 3), crumbs=(campus,))
    for slug, title, topic, children in groups:
        hub = Link(title, f"/campus/{slug}")
        links = [Link(child, f"/campus/{slug}{slugify(child)}") for child in children]
        www.add(hub.target, title, [*paras(prose, topic, 2), bullets(*links)], crumbs=(campus,))
        for link in links:
            www.add(link.target, link.text, paras(prose, topic, 3), crumbs=(campus, hub))
    alumni = ("Alumni benefits", "Give to Northgate", "Alumni events", "Update your details")
    www.add("/alumni/", "Alumni", [*paras(prose, ABOUT, 1),
                                   bullets(*(Link(t, f"/alumni/{slugify(t)}") for t in alumni))])
    for title in alumni:
        www.add(f"/alumni/{slugify(title)}", title, paras(prose, ABOUT, 2),
                crumbs=(Link("Alumni", "/alumni/"),))


def build_services(www: HostContext, journals_host: str) -> None:
    prose = www.prose("services")
    _research(www, prose, journals_host)
    _library(www, prose)
    _about(www, prose)
    _careers(www, prose)
    _campus(www, prose)
