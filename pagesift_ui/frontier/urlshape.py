"""Shapes of URL path segments shared by the subtree rule (docs/DESIGN.md §5) and link scoring
(§8)."""

from __future__ import annotations

import re

__all__ = ["LANGUAGE_CODES", "LANGUAGE_NAMES", "is_language_code", "is_language_name"]

# ISO 639-1 codes that sites put in front of their paths. "it" is left out on purpose:
# /it/ is far more often the IT-services section than Italian (Italian sites use /it-it/ or
# /ita/ often enough that the region form below still catches them).
LANGUAGE_CODES = frozenset(
    """
    af am ar az be bg bn bs ca cs cy da de el en eo es et eu fa fi fr ga gl gu he hi hr hu hy
    id is ja ka kk km kn ko ku ky lo lt lv mk ml mn mr ms mt my nb ne nl nn no pa pl ps pt ro
    ru si sk sl sq sr sv sw ta te th tl tr uk ur uz vi zh zu
    """.split()
)

LANGUAGE_NAMES = frozenset(
    """
    english deutsch german francais french espanol spanish italiano italian portugues
    portuguese nederlands dutch svenska swedish dansk danish norsk norwegian suomi finnish
    polski polish cesky czech magyar hungarian russian ukrainian chinese zhongwen japanese
    nihongo korean hangul arabic turkish turkce greek hebrew hindi
    """.split()
)

# "en-us", "pt_br", "zh-hans", "zh-hant-tw"
_REGIONAL = re.compile(r"^([a-z]{2})[-_]([a-z]{2}|[a-z]{4})([-_][a-z]{2})?$")


def is_language_code(segment: str) -> bool:
    """A path segment that names a language: ``en``, ``de``, ``en-gb``, ``zh_hans``."""
    seg = segment.lower()
    if seg in LANGUAGE_CODES:
        return True
    match = _REGIONAL.match(seg)
    return match is not None and (match.group(1) in LANGUAGE_CODES or match.group(1) == "it")


def is_language_name(segment: str) -> bool:
    """A path segment that spells a language out: ``english``, ``deutsch``."""
    return segment.lower() in LANGUAGE_NAMES
