"""Page-building glue shared by every scenario: :class:`HostContext` turns (path, title, blocks,
crumbs) into a registered page of one host, and :func:`paras` turns a word bank into paragraph
blocks, the body text of most demo pages."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

from .html import Block, Chrome, Link, PageSpec, para
from .site import SiteBuilder
from .text import Prose, Topic, child_rng

__all__ = ["HostContext", "paras"]

PRINT_SUFFIX = "?print=1"


def paras(prose: Prose, topic: Topic, count: int, **slots: str) -> list[Block]:
    """``count`` paragraph blocks drawn from ``topic`` by :meth:`Prose.paragraphs` (no clause
    repeats until the bank is used up); ``slots`` fill the bank's named slots."""
    return [para(text) for text in prose.paragraphs(topic, count, **slots)]


@dataclass(slots=True)
class HostContext:
    """Page factory for one host: fills in chrome, language and the ``<title>`` suffix."""

    builder: SiteBuilder
    seed: int
    host: str
    lang: str
    chrome: Chrome

    def prose(self, label: str) -> Prose:
        """A prose generator of its own for one section (see :func:`child_rng`)."""
        return Prose(child_rng(self.seed, f"{self.builder.name}:{self.host}:{label}"))

    def link(self, text: str, target: str) -> Link:
        return Link(text, target, self.host)

    def add(
        self,
        path: str,
        title: str,
        blocks: Sequence[Block],
        *,
        crumbs: Sequence[Link] = (),
        aside: Sequence[Link] = (),
        aside_title: str = "Related pages",
        relevant: bool = False,
        printable: bool = False,
        alternates: Sequence[tuple[str, Link]] = (),
        description: str = "",
        breadcrumbs: bool = True,
        target: str | None = None,
        full_title: str | None = None,
        chrome: Chrome | None = None,
    ) -> None:
        """Register a page (``<title>`` is ``title | site name`` unless ``full_title``);
        ``printable`` also registers its ``?print=1`` copy, which serves
        the same main text with a canonical link back (the duplicate a crawler should drop)."""
        body = tuple(blocks)
        chrome = chrome or self.chrome
        if printable:
            body = (*body, para(Link("Print this page", path + PRINT_SUFFIX)))
        spec = PageSpec(
            host=self.host, path=path, lang=self.lang,
            title=full_title or f"{title} | {chrome.site_name}", h1=title, blocks=body,
            chrome=chrome, crumbs=tuple(crumbs), aside_title=aside_title, aside=tuple(aside),
            alternates=tuple(alternates), description=description, breadcrumbs=breadcrumbs,
        )
        self.builder.add_page(spec, target=target, relevant=relevant)
        if printable:
            # Same main content, no navigation; the canonical link names the original.
            copy = replace(spec, canonical=Link("", path), printable=True, aside=(),
                           alternates=())
            self.builder.add_page(copy, target=path + PRINT_SUFFIX)
