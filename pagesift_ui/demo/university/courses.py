"""University: the course catalogue plan (names, levels, fees), shared by several sections."""

from __future__ import annotations

import random
from dataclasses import dataclass

from ..kit.text import slugify
from .data import FACULTIES

__all__ = ["Course", "fee_text", "plan_courses"]

HOME_FEE_UG = 9_535
# International fee bands by faculty: laboratory and clinical teaching costs more.
_INTL_BAND = {
    "Arts and Humanities": 21_500,
    "Social Sciences": 22_400,
    "Science and Engineering": 26_900,
    "Health and Medicine": 29_800,
}
_UG_AWARD = {
    "Arts and Humanities": "BA",
    "Social Sciences": "BA",
    "Science and Engineering": "BSc",
    "Health and Medicine": "BSc",
}
_PG_AWARD = {
    "Arts and Humanities": "MA",
    "Social Sciences": "MSc",
    "Science and Engineering": "MSc",
    "Health and Medicine": "MSc",
}


@dataclass(frozen=True, slots=True)
class Course:
    subject: str
    award: str
    faculty: str
    department: str
    postgraduate: bool
    home_fee: int
    international_fee: int

    @property
    def name(self) -> str:
        return f"{self.subject} {self.award}"

    @property
    def path(self) -> str:
        return f"/courses/{slugify(self.name)}"


def fee_text(amount: int) -> str:
    return f"£{amount:,}"


def _course(rng: random.Random, faculty: str, dept: str, subject: str, pg: bool) -> Course:
    band = _INTL_BAND[faculty] + 100 * rng.randint(-8, 8)
    if subject == "Medicine":
        band = 46_500
    if pg:
        return Course(subject, _PG_AWARD[faculty], faculty, dept, True,
                      11_500 + 250 * rng.randint(0, 8), band + 2_400)
    award = "MBChB" if subject == "Medicine" else "LLB" if subject == "Law" else _UG_AWARD[faculty]
    return Course(subject, award, faculty, dept, False, HOME_FEE_UG, band)


def plan_courses(rng: random.Random) -> list[Course]:
    """One undergraduate course per subject, and a taught master's for about half of them."""
    courses: list[Course] = []
    for faculty, departments in FACULTIES:
        for dept, subjects in departments:
            for subject in subjects:
                courses.append(_course(rng, faculty, dept, subject, pg=False))
                if rng.random() < 0.5:
                    courses.append(_course(rng, faculty, dept, subject, pg=True))
    return courses
