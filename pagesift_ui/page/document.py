"""What either parser found outside the walk, and the walk over its body (docs/DESIGN.md
§2)."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from pagesift_ui.page.collect import Collector
from pagesift_ui.page.markup import attr_list
from pagesift_ui.page.resolve import resolve

__all__ = ["Document", "head_links"]


@dataclass(frozen=True, slots=True)
class Document:
    """What either parser found outside the walk, and the walk over its body.

    ``head_links`` are the ``<link href>`` elements in document order, as (rel, href,
    hreflang); ``walk`` feeds the collector and returns -1 when it walked the whole
    body, else the ``<a>`` elements it left unvisited once the collector's text room ran out.
    """

    title: str
    lang: str
    base_href: str | None
    robots: frozenset[str]
    head_links: tuple[tuple[object, str, object], ...]
    walk: Callable[[Collector], int]


def head_links(
    links: Iterable[tuple[object, str, object]], base: str
) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    canonical: str | None = None
    alternates: list[tuple[str, str]] = []
    for rel_value, href, hreflang in links:
        rel = {value.lower() for value in attr_list(rel_value)}
        url = resolve(base, href)
        if url is None:
            continue
        if "canonical" in rel and canonical is None:
            canonical = url
        if "alternate" in rel and isinstance(hreflang, str) and hreflang.strip():
            alternates.append((hreflang.strip().lower(), url))
    return canonical, tuple(alternates)
