"""The fallback reader: BeautifulSoup over the documents lxml gives no whole body (an empty
document, a frameset, a head only, nesting past libxml2's depth), to the same ``Document``
(docs/DESIGN.md §2)."""

from __future__ import annotations

import logging

from bs4 import BeautifulSoup
from bs4.builder._lxml import LXMLTreeBuilder
from bs4.element import NavigableString, PageElement, Tag

from pagesift_ui.page.collect import Collector
from pagesift_ui.page.document import Document
from pagesift_ui.page.markup import (
    SKIPPED,
    is_boilerplate,
    is_main,
    is_robots,
    lang_of,
    normalise,
    robots_directives,
)

__all__ = ["read_soup"]

logger = logging.getLogger(__name__)


class _QuietLXMLTreeBuilder(LXMLTreeBuilder):
    """bs4's lxml HTML builder, logging instead of warning when a page looks like XML."""

    @classmethod
    def _warn(cls, stacklevel: int = 5) -> None:
        logger.debug("document starts like XML; parsed as HTML")


def read_soup(markup: str) -> Document:
    soup = BeautifulSoup(markup, builder=_QuietLXMLTreeBuilder())
    base = soup.find("base", href=True)
    base_href = base.get("href") if isinstance(base, Tag) else None
    robots = [meta.get("content") for meta in soup.find_all("meta")
              if is_robots(meta.get("name"))]
    head_links = [(link.get("rel"), href, link.get("hreflang"))
                  for link in soup.find_all("link", href=True)
                  if isinstance(href := link.get("href"), str)]
    html = soup.find("html")
    root = soup.body if soup.body is not None else soup
    return Document(
        title=normalise(soup.title.get_text()) if soup.title is not None else "",
        lang=lang_of(html if isinstance(html, Tag) else None),
        base_href=base_href if isinstance(base_href, str) else None,
        robots=robots_directives(robots),
        head_links=tuple(head_links),
        walk=lambda collector: _walk_soup(root, _main_roots(root), collector),
    )


def _main_roots(root: Tag) -> frozenset[int] | None:
    """ids of the main-content elements, or None to fall back to the whole body."""
    articles: list[Tag] = []
    for tag in root.find_all(True):
        if is_main(tag.name, tag):
            return frozenset({id(tag)})
        if tag.name == "article" and tag.find_parent("article") is None:
            articles.append(tag)
    return frozenset(id(tag) for tag in articles) if articles else None


def _walk_soup(root: Tag, main_roots: frozenset[int] | None, collector: Collector) -> int:
    """Depth-first, in document order, with an explicit stack (no recursion limit).

    Stack items are ``(node, in_main_root, in_boilerplate, closing)``. Returns -1 when the
    whole tree was walked, else, once the collector's text room ran out, the ``<a>`` elements
    left unvisited; the elements already open are still closed, so their links and blocks end
    as in a document that stopped there.
    """
    whole_body = main_roots is None
    stack: list[tuple[PageElement, bool, bool, bool]] = [(root, whole_body, False, False)]
    not_walked = -1
    while stack:
        node, in_root, boiler, closing = stack.pop()
        if closing:
            if isinstance(node, Tag):
                collector.end(node.name, node, in_root and not boiler)
            continue
        if collector.full:
            not_walked = max(not_walked, 0) + _links_in(node)
            continue
        if type(node) is NavigableString:  # not comments, doctypes, CDATA, ruby text
            collector.text(str(node), in_root and not boiler)
            continue
        if not isinstance(node, Tag) or node.name in SKIPPED:
            continue
        is_root = main_roots is not None and id(node) in main_roots
        in_root = in_root or is_root
        boiler = False if is_root else boiler or is_boilerplate(node.name, node, whole_body)
        collector.start(node.name, node, in_root and not boiler)
        stack.append((node, in_root, boiler, True))
        stack.extend((child, in_root, boiler, False) for child in reversed(node.contents))
    return not_walked


def _links_in(node: PageElement) -> int:
    if not isinstance(node, Tag):
        return 0
    return int(node.name == "a") + len(node.find_all("a"))
