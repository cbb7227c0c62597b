"""Seeded prose from word banks.

A sentence is an opener, a topic clause and a closer (``"In most cases, " + "the finance
office sends an invoice" + " before the start of term."``). Clauses may name slots
(``{name}``, ``{n}``, ``{year}`` and any slot the caller passes). Every choice comes from the
``random.Random`` given to :class:`Prose`; nothing reads global state, so a seed fixes the text.
"""

from __future__ import annotations

import random
import re
import unicodedata
import zlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TypeVar

__all__ = ["NO_OPENERS", "Prose", "Topic", "child_rng", "slugify", "title_case"]

T = TypeVar("T")

FIRST_NAMES = (
    "Amira", "Ben", "Chloe", "Daniel", "Elena", "Farid", "Grace", "Hannah", "Ibrahim", "Jonas",
    "Kavya", "Liam", "Maya", "Noah", "Olga", "Priya", "Quentin", "Rosa", "Samuel", "Tomasz",
    "Uma", "Victor", "Wen", "Yusuf", "Zoe", "Aisha", "Callum", "Devi", "Erin", "Kofi",
)
LAST_NAMES = (
    "Adeyemi", "Bauer", "Chen", "Doyle", "Evans", "Fischer", "Garcia", "Hughes", "Iqbal",
    "Jensen", "Kowalski", "Lindqvist", "Morgan", "Nakamura", "Okafor", "Patel", "Quinn", "Rossi",
    "Singh", "Thompson", "Usman", "Varga", "Walsh", "Xu", "Young", "Zielinski", "Murphy",
    "Osei", "Brennan", "Haddad",
)
# Openers that fit advice and procedure ("In most cases, you pay ..."); reports and
# descriptions use NO_OPENERS instead.
EN_OPENERS = ("",) * 14 + (
    "In most cases, ", "As a rule, ", "In practice, ", "Please note that ", "Remember that ",
)
NO_OPENERS = ("",)
EN_CLOSERS = (".",)


@dataclass(frozen=True, slots=True)
class Topic:
    """A word bank: clauses about one subject, with the openers and closers of its language."""

    clauses: tuple[str, ...]
    openers: tuple[str, ...] = EN_OPENERS
    closers: tuple[str, ...] = EN_CLOSERS

    def __post_init__(self) -> None:
        if len(self.clauses) < 4:
            raise ValueError(f"a topic needs at least 4 clauses, got {len(self.clauses)}")


def child_rng(seed: int, label: str) -> random.Random:
    """An independent generator per site section, so adding pages to one section leaves the
    others' text unchanged. crc32, unlike hash(), is the same in every process."""
    return random.Random(seed * 4_294_967_296 + zlib.crc32(label.encode()))


def slugify(text: str) -> str:
    """``"Fees & funding (2025)"`` -> ``"fees-funding-2025"``; accents folded to ASCII."""
    text = text.replace("ß", "ss")
    folded = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", folded.lower()).strip("-")


def title_case(text: str) -> str:
    """Capitalise the first character only, as UK house styles do for headings."""
    return text[:1].upper() + text[1:]


class _Slots(dict[str, str]):
    """Format mapping that invents a value for the generic slots on first use."""

    def __init__(self, prose: Prose, given: dict[str, str]) -> None:
        super().__init__(given)
        self._prose = prose

    def __missing__(self, key: str) -> str:
        rng = self._prose.rng
        if key == "name":
            value = self._prose.person()
        elif key == "n":
            value = str(rng.randint(3, 40))
        elif key == "year":
            value = str(rng.randint(2019, 2025))
        else:
            raise KeyError(f"word bank slot {{{key}}} has no value; pass {key}=... to Prose")
        self[key] = value
        return value


class Prose:
    """Sentences and paragraphs drawn from topics with one seeded ``random.Random``."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: Sequence[T]) -> T:
        return options[self.rng.randrange(len(options))]

    def sample(self, options: Sequence[T], count: int) -> list[T]:
        return self.rng.sample(list(options), min(count, len(options)))

    def person(self) -> str:
        return f"{self.pick(FIRST_NAMES)} {self.pick(LAST_NAMES)}"

    def people(self, count: int) -> list[str]:
        """``count`` different full names (at most len(FIRST_NAMES) * len(LAST_NAMES))."""
        names: dict[str, None] = {}
        while len(names) < count:
            names[self.person()] = None
        return list(names)

    def sentence(self, topic: Topic, clause: str | None = None, **slots: str) -> str:
        opener = self.pick(topic.openers)
        text = (clause if clause is not None else self.pick(topic.clauses)).format_map(
            _Slots(self, dict(slots))
        )
        if opener == "" or opener.endswith(": "):
            text = title_case(text)
        if text.endswith((".", "?", "!", ".\u201d", '."')):
            return opener + text
        return opener + text + self.pick(topic.closers)

    def paragraph(self, topic: Topic, sentences: int | None = None, **slots: str) -> str:
        """3-5 sentences (or ``sentences``) without repeating a clause within the paragraph."""
        count = sentences if sentences is not None else self.rng.randint(3, 5)
        clauses = self.sample(topic.clauses, count)
        return " ".join(self.sentence(topic, clause, **slots) for clause in clauses)

    def paragraphs(self, topic: Topic, count: int, **slots: str) -> list[str]:
        """``count`` paragraphs that repeat no clause until the bank is used up."""
        sizes = [self.rng.randint(3, 5) for _ in range(count)]
        clauses: list[str] = []
        while len(clauses) < sum(sizes):
            clauses.extend(self.sample(topic.clauses, len(topic.clauses)))
        result: list[str] = []
        for size in sizes:
            chunk, clauses = clauses[:size], clauses[size:]
            # A chunk can straddle two passes over the bank; never repeat within a paragraph.
            unique = dict.fromkeys(chunk)
            result.append(" ".join(self.sentence(topic, clause, **slots) for clause in unique))
        return result
