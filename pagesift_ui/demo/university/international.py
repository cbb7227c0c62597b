"""University: the International section (fees and funding, visas, countries, arrival).

This legacy part of the CMS appends a session id (``?sid=`` plus 24 random letters and digits)
to its quick links, so a crawler that does not clean URLs sees a new address on every page.
"""

from __future__ import annotations

from ..kit.context import HostContext, paras
from ..kit.html import Block, Heading, Link, Table, bullets, para
from ..kit.text import Prose, slugify
from .data import COUNTRIES, JOURNALS_HOST
from .words import (
    ADMISSIONS,
    ARRIVAL,
    COUNTRY,
    FEES,
    LIVING_COSTS,
    PAYMENT,
    SCHOLARSHIPS,
    VISAS,
)

__all__ = ["build_international"]

_ALNUM = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
INTL = Link("International", "/international/")
FUNDING_PATH = "/international/fees-and-funding/"
FUNDING = Link("Fees and funding", FUNDING_PATH)
SCHOLARSHIPS_PATH = FUNDING_PATH + "scholarships/"
VISAS_LINK = Link("Visas and immigration", "/international/visas/")

_SCHOLARSHIPS = (
    ("global-excellence-scholarship", "Global Excellence Scholarship", "£5,000 a year"),
    ("vice-chancellors-international-scholarship",
     "Vice-Chancellor's International Scholarship", "50 per cent of tuition fees"),
    ("regional-scholarships", "Regional scholarships for international students", "£3,000"),
    ("alumni-tuition-fee-discount", "Alumni tuition fee discount", "20 per cent of tuition fees"),
)


def _quick_links(prose: Prose) -> list[Link]:
    def sid() -> str:
        return "".join(prose.pick(_ALNUM) for _ in range(24))

    return [
        Link("Apply now", f"/admissions/how-to-apply?sid={sid()}"),
        Link("Student visa", f"/international/visas/student-visa?sid={sid()}"),
        Link("Tuition fee deposit", f"{FUNDING_PATH}deposit?sid={sid()}"),
        Link("Contact the international office", f"/international/contact?sid={sid()}"),
    ]


def _add(www: HostContext, prose: Prose, path: str, title: str, blocks: list[Block],
         crumbs: tuple[Link, ...], relevant: bool = False) -> None:
    www.add(path, title, blocks, crumbs=crumbs, aside=_quick_links(prose),
            aside_title="Quick links", printable=True, relevant=relevant)


def _hub(www: HostContext, prose: Prose) -> None:
    blocks: list[Block] = [
        para("More than 5,000 international students from 140 countries study at Northgate. "
             "Here you will find everything you need before you arrive."),
        para("International students pay different tuition fees from home students. ",
             Link("See the international fees table", "/admissions/fees/international"), "."),
        bullets(FUNDING, VISAS_LINK,
                Link("Your country", "/international/countries/"),
                Link("English language requirements", "/international/english-language"),
                Link("Arriving in Eastmere", "/international/arrival/"),
                Link("Accommodation", "/campus/accommodation/"),
                Link("Meet us in your country", "/international/meet-us")),
    ]
    _add(www, prose, "/international/", "International students", blocks, ())


def _funding(www: HostContext, prose: Prose) -> None:
    blocks: list[Block] = [
        para("Studying abroad is a big investment. This section explains tuition fees for "
             "international students, the scholarships that reduce them, and how to pay."),
        *paras(prose, FEES, 1),
        Heading("Tuition fees"),
        para("Fees depend on your programme: ",
             Link("tuition fees for international students", FUNDING_PATH + "tuition-fees"), "."),
        Heading("Scholarships"),
        para(prose.paragraph(SCHOLARSHIPS, 2), " ", Link("Find out more", SCHOLARSHIPS_PATH)),
        Heading("Paying your fees"),
        bullets(Link("Ways to pay", FUNDING_PATH + "paying-your-fees"),
                Link("Tuition fee deposit", FUNDING_PATH + "deposit"),
                Link("Refunds", FUNDING_PATH + "refunds"),
                Link("Sponsored students", FUNDING_PATH + "sponsored-students")),
        Heading("Living costs"),
        para("Plan your budget with our guide to ", Link("the cost of living", FUNDING_PATH +
                                                         "living-costs"), "."),
        # University sites advertise their press next to the topic it studies; for the crawler
        # this is the entrance to the journals trap (issue tables of contents full of the
        # query words that add nothing an applicant needs).
        Heading("Research on student finance"),
        para("Our researchers study how tuition fees shape international students' choices. "
             "Read the ", Link("International Journal of Student Finance", "/ijsf/",
                               JOURNALS_HOST),
             " and the ", Link("Journal of International Higher Education", "/jihe/",
                                JOURNALS_HOST), ", published by Northgate University Press."),
    ]
    _add(www, prose, FUNDING_PATH, "Fees and funding for international students", blocks,
         (INTL,), relevant=True)
    # The old fees page moved to Admissions; old links still arrive here.
    www.builder.add_redirect(www.host, FUNDING_PATH + "tuition-fees",
                             Link("", "/admissions/fees/international"))


def _scholarships(www: HostContext, prose: Prose) -> None:
    crumbs = (INTL, FUNDING)
    rows = tuple((Link(title, SCHOLARSHIPS_PATH + slug), value) for slug, title, value in
                 _SCHOLARSHIPS)
    _add(www, prose, SCHOLARSHIPS_PATH, "Scholarships for international students", [
        para("We offer scholarships to international students who pay tuition fees at the "
             "international rate. Each award is a discount on your tuition fees."),
        Table("Scholarships for international students, 2025 entry", ("Scholarship", "Value"),
              rows),
        *paras(prose, SCHOLARSHIPS, 1),
    ], crumbs, relevant=True)
    for slug, name, value in _SCHOLARSHIPS:
        title = name if "nternational" in name or "tuition" in name else \
            f"{name} for international students"
        blocks: list[Block] = [
            para(f"The {name} is worth {value} for international students who pay tuition "
                 "fees at the international rate."),
            *paras(prose, SCHOLARSHIPS, 2),
            Heading("How to apply"),
            para(prose.paragraph(SCHOLARSHIPS, 2)),
        ]
        _add(www, prose, SCHOLARSHIPS_PATH + slug, title, blocks,
             (*crumbs, Link("Scholarships", SCHOLARSHIPS_PATH)), relevant=True)


def _paying(www: HostContext, prose: Prose) -> None:
    crumbs = (INTL, FUNDING)
    pages = (
        ("paying-your-fees", "Paying your tuition fees",
         "International students can pay tuition fees online, by bank transfer or through a "
         "sponsor. You can also pay in instalments.", Link("instalments", FUNDING_PATH +
                                                           "instalments")),
        ("deposit", "Tuition fee deposit",
         "International students pay a tuition fee deposit of £4,000 before we issue the CAS "
         "you need for your visa. The deposit counts towards your tuition fees.",
         Link("Confirmation of Acceptance for Studies", "/international/visas/cas")),
        ("refunds", "Tuition fee refunds for international students",
         "If you withdraw, or your visa is refused, we refund tuition fees and deposits paid by "
         "international students according to the rules below.",
         Link("Tuition fee deposit", FUNDING_PATH + "deposit")),
        ("sponsored-students", "Sponsored international students",
         "If a government or employer pays your tuition fees, we invoice your sponsor "
         "directly. International students need a sponsor letter before enrolment.",
         Link("Ways to pay", FUNDING_PATH + "paying-your-fees")),
    )
    for slug, title, lead, more in pages:
        blocks: list[Block] = [para(lead), *paras(prose, PAYMENT, 2),
                               para("See also: ", more, ".")]
        _add(www, prose, FUNDING_PATH + slug, title, blocks, crumbs, relevant=True)
    plan = Table("Instalment plan for international students",
                 ("Instalment", "Share of tuition fees", "Due"),
                 (("First", "50%", "At enrolment"), ("Second", "25%", "15 January"),
                  ("Third", "25%", "15 April")))
    _add(www, prose, FUNDING_PATH + "instalments", "Paying tuition fees in instalments",
         [para("International students who are paying their own tuition fees can spread the "
               "cost over three instalments."), plan, *paras(prose, PAYMENT, 1)],
         (*crumbs, Link("Paying your tuition fees", FUNDING_PATH + "paying-your-fees")),
         relevant=True)
    _add(www, prose, FUNDING_PATH + "living-costs", "Cost of living in Eastmere",
         [para("Budget for rent, food and travel on top of your course costs."),
          *paras(prose, LIVING_COSTS, 3)], crumbs)


def _visas(www: HostContext, prose: Prose) -> None:
    pages = (
        ("student-visa", "Student visa"), ("cas", "Confirmation of Acceptance for Studies (CAS)"),
        ("working-during-your-studies", "Working during your studies"),
        ("immigration-health-surcharge", "Immigration health surcharge"),
        ("bringing-your-family", "Bringing your family"),
    )
    links = [Link(title, f"/international/visas/{slug}") for slug, title in pages]
    finance = Link("Financial requirements", "/international/visas/financial-requirements")
    _add(www, prose, "/international/visas/", "Visas and immigration",
         [*paras(prose, VISAS, 1), bullets(*links, finance)], (INTL,))
    for slug, title in pages:
        _add(www, prose, f"/international/visas/{slug}", title, paras(prose, VISAS, 3),
             (INTL, VISAS_LINK))
    _add(www, prose, finance.target, "Visa financial requirements: tuition fees and living costs", [
        para("To get a Student visa, international students must show that they can pay their "
             "tuition fees for the first year and their living costs."),
        *paras(prose, VISAS, 2),
        para("If you have paid a ", Link("tuition fee deposit", FUNDING_PATH + "deposit"),
             ", it is shown on your CAS and reduces the money you need to show."),
    ], (INTL, VISAS_LINK), relevant=True)


def _countries(www: HostContext, prose: Prose) -> None:
    index = Link("Your country", "/international/countries/")
    links = [Link(country, f"/international/countries/{slugify(country)}") for country in
             COUNTRIES]
    _add(www, prose, index.target, "Information for your country", [
        para("Choose your country for entry requirements, events and local contacts."),
        bullets(*links)], (INTL,))
    for link in links:
        blocks: list[Block] = [
            *paras(prose, COUNTRY, 2, country=link.text),
            Heading("Fees and scholarships"),
            para("For tuition fees, ", Link("see the international fees table",
                                            "/admissions/fees/international"), "."),
        ]
        _add(www, prose, link.target, f"Students from {link.text}", blocks, (INTL, index))


def _other(www: HostContext, prose: Prose) -> None:
    pages = (
        ("english-language", "English language requirements", ()),
        ("meet-us", "Meet us in your country", ()),
        ("contact", "Contact the international office", ()),
        ("arrival/", "Arriving in Eastmere", ("airport-pickup", "orientation-week")),
    )
    for slug, title, children in pages:
        child_links = [Link(child.replace("-", " ").capitalize(), f"/international/{slug}{child}")
                       for child in children]
        topic = ARRIVAL if children else ADMISSIONS
        blocks: list[Block] = paras(prose, topic, 2)
        if child_links:
            blocks.append(bullets(*child_links))
        _add(www, prose, f"/international/{slug}", title, blocks, (INTL,))
        for link in child_links:
            _add(www, prose, link.target, link.text, paras(prose, ARRIVAL, 3),
                 (INTL, Link(title, f"/international/{slug}")))


def build_international(www: HostContext) -> None:
    prose = www.prose("international")
    _hub(www, prose)
    _funding(www, prose)
    _scholarships(www, prose)
    _paying(www, prose)
    _visas(www, prose)
    _countries(www, prose)
    _other(www, prose)
