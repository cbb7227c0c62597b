"""University: the Admissions section, where half of the answers about fees live.

Depths from the home page: /admissions/ is one click (main navigation), the fee pages two to
four. Every page here has a printer-friendly ``?print=1`` copy, as many university CMSs do.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..kit.context import HostContext, paras
from ..kit.html import Block, Heading, Link, Table, bullets, para
from ..kit.text import Prose
from .courses import HOME_FEE_UG, Course, fee_text
from .words import ADMISSIONS, FEES

__all__ = ["build_admissions", "paras"]

ADM = Link("Admissions", "/admissions/")
FEES_HUB = Link("Tuition fees", "/admissions/fees/")
FEES_INTL = Link("International tuition fees", "/admissions/fees/international")


def _hub(www: HostContext, prose: Prose) -> None:
    blocks: list[Block] = [
        para("Whether you are starting a degree, returning to study or joining us from overseas, "
             "this is where your application begins."),
        *paras(prose, ADMISSIONS, 1),
        bullets(
            Link("Undergraduate study", "/admissions/undergraduate/"),
            Link("Postgraduate study", "/admissions/postgraduate/"),
            Link("How to apply", "/admissions/how-to-apply"),
            Link("Entry requirements", "/admissions/entry-requirements"),
            Link("Fees and funding", "/admissions/fees/"),
            Link("Scholarships and bursaries", "/admissions/funding/"),
            Link("Open days and visits", "/admissions/open-days"),
            Link("Contact the admissions team", "/admissions/contact"),
        ),
        para("Applying from outside the UK? Our ", Link("international pages", "/international/"),
             " cover visas, English language and arrival."),
    ]
    www.add("/admissions/", "Admissions", blocks, printable=True)


def _general_pages(www: HostContext, prose: Prose) -> None:
    pages = (
        ("undergraduate/", "Undergraduate study", "Browse our ",
         Link("undergraduate courses", "/courses/")),
        ("postgraduate/", "Postgraduate study", "Browse our ",
         Link("postgraduate courses", "/courses/")),
        ("how-to-apply", "How to apply", "Check the entry requirements for your course ",
         Link("here", "/admissions/entry-requirements")),
        ("entry-requirements", "Entry requirements", "Find your course in our ",
         Link("Courses A to Z", "/courses/")),
        ("open-days", "Open days and visits", "Can't make an open day? ",
         Link("Book a campus tour", "/events/")),
        ("contact", "Contact the admissions team", "Email us at ",
         Link("admissions@uni.localhost", "mailto:admissions@uni.localhost")),
    )
    for slug, title, lead_in, extra in pages:
        blocks = [*paras(prose, ADMISSIONS, 3), para(lead_in, extra, ".")]
        www.add(f"/admissions/{slug}", title, blocks, crumbs=(ADM,), printable=True)


def _funding(www: HostContext, prose: Prose) -> None:
    crumbs = (ADM, Link("Scholarships and bursaries", "/admissions/funding/"))
    blocks: list[Block] = [
        para("Bursaries and loans help home students with the cost of study and living costs."),
        *paras(prose, ADMISSIONS, 1),
        bullets(Link("Northgate Bursary", "/admissions/funding/bursaries"),
                Link("Student loans", "/admissions/funding/student-loans")),
        para("International students can apply for ",
             Link("international scholarships", "/international/fees-and-funding/scholarships/"),
             "."),
    ]
    www.add("/admissions/funding/", "Scholarships and bursaries", blocks, crumbs=(ADM,),
            printable=True)
    for slug, title in (("bursaries", "Northgate Bursary"), ("student-loans", "Student loans")):
        lead = para(f"The {title.lower()} is open to home students who meet the criteria below.")
        www.add(f"/admissions/funding/{slug}", title, [lead, *paras(prose, ADMISSIONS, 2)],
                crumbs=crumbs, printable=True)


def _fees_hub(www: HostContext, prose: Prose) -> None:
    table = Table(
        "Annual tuition fees 2025/26",
        ("Student group", "Undergraduate", "Postgraduate taught"),
        (("Home students", fee_text(HOME_FEE_UG), "from £11,500"),
         ("International students", "from £21,500", "from £23,900")),
    )
    blocks: list[Block] = [
        para("Tuition fees depend on your course and on whether you are a home or an "
             "international student. Fees for international students are higher because "
             "they are not funded by the UK government."),
        table,
        Heading("Fees for international students"),
        para(prose.paragraph(FEES, 3), " ", Link("Read more", "/admissions/fees/international")),
        Heading("Fees for home students"),
        para("Home students pay the fee set by the government. ",
             Link("Home tuition fees", "/admissions/fees/home")),
        Heading("Fees for each programme"),
        para("See the ", Link("fees for every programme", "/admissions/fees/by-programme"),
             ", or find out ", Link("how we decide your fee status", "/admissions/fees/fee-status"),
             "."),
    ]
    www.add("/admissions/fees/", "Tuition fees", blocks, crumbs=(ADM,), printable=True,
            relevant=True, description="Tuition fees for home and international students.")


def _fee_rows(courses: Sequence[Course]) -> tuple[tuple[Link | str, ...], ...]:
    return tuple((Link(c.name, c.path), fee_text(c.international_fee)) for c in courses)


def _fees_international(www: HostContext, prose: Prose, courses: Sequence[Course]) -> None:
    crumbs = (ADM, FEES_HUB)
    blocks: list[Block] = [
        para("International students pay tuition fees that depend on the programme and on the "
             "level of study. The fees below are for international students starting in 2025."),
        *paras(prose, FEES, 2),
        bullets(Link("Undergraduate tuition fees for international students",
                     "/admissions/fees/undergraduate-international"),
                Link("Postgraduate tuition fees for international students",
                     "/admissions/fees/postgraduate-international")),
        para("You can also ", Link("pay in instalments", "/international/fees-and-funding/"
                                   "paying-your-fees"), " or apply for a ",
             Link("scholarship", "/international/fees-and-funding/scholarships/"), "."),
    ]
    www.add("/admissions/fees/international", "International tuition fees", blocks,
            crumbs=crumbs, printable=True, relevant=True)
    for level, postgraduate in (("undergraduate", False), ("postgraduate", True)):
        chosen = [c for c in courses if c.postgraduate == postgraduate]
        title = f"{level.capitalize()} tuition fees for international students"
        blocks = [
            para(f"Annual tuition fees for international students on {level} programmes "
                 "starting in September 2025."),
            Table(f"{level.capitalize()} tuition fees 2025/26, international students",
                  ("Programme", "International fee per year"), _fee_rows(chosen)),
            *paras(prose, FEES, 1),
        ]
        www.add(f"/admissions/fees/{level}-international", title, blocks,
                crumbs=(*crumbs, FEES_INTL), printable=True, relevant=True)


def _fees_other(www: HostContext, prose: Prose, courses: Sequence[Course]) -> None:
    crumbs = (ADM, FEES_HUB)
    rows = tuple((Link(c.name, c.path), fee_text(c.home_fee), fee_text(c.international_fee))
                 for c in courses)
    www.add("/admissions/fees/by-programme", "Tuition fees by programme", [
        para("Tuition fees for every programme, for home students and international students, "
             "per year of full-time study."),
        Table("Tuition fees by programme, 2025/26", ("Programme", "Home", "International"), rows),
    ], crumbs=crumbs, printable=True, relevant=True)
    www.add("/admissions/fees/fee-status", "Fee status: home or international", [
        para("Your fee status decides whether you pay home or international tuition fees. "
             "International students are assessed when they receive an offer."),
        *paras(prose, FEES, 2),
        para("Questions? ", Link("Contact the fees office", "/admissions/contact"), "."),
    ], crumbs=crumbs, printable=True, relevant=True)
    www.add("/admissions/fees/home", "Tuition fees for home students", [
        para(f"Home undergraduates pay {fee_text(HOME_FEE_UG)} a year, the maximum set by the "
             "government, and can take out a tuition fee loan."),
        *paras(prose, ADMISSIONS, 2),
    ], crumbs=crumbs, printable=True)


def build_admissions(www: HostContext, courses: Sequence[Course]) -> None:
    prose = www.prose("admissions")
    _hub(www, prose)
    _general_pages(www, prose)
    _funding(www, prose)
    _fees_hub(www, prose)
    _fees_international(www, prose, courses)
    _fees_other(www, prose, courses)
