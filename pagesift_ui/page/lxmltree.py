"""The ordinary reader: an lxml tree built in C, walked child by child (docs/DESIGN.md §2).

bs4 builds the same tree from the same libxml2 parse event by event in Python (its lxml
builder), at ~30 µs an element; tests/test_extract_paths.py holds both readers to the same Page.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from functools import lru_cache
from types import ModuleType
from typing import Any

from lxml import etree

from pagesift_ui.page import collect
from pagesift_ui.page.collect import Collector
from pagesift_ui.page.document import Document
from pagesift_ui.page.markup import (
    BOILERPLATE_ROLES,
    BOILERPLATE_TAGS,
    BOILERPLATE_TOKENS,
    COLLECTED,
    PRESERVE_WHITESPACE,
    SKIPPED,
    is_main,
    is_robots,
    lang_of,
    normalise,
    robots_directives,
)

__all__ = ["COMPILED_WALK", "read_tree"]

logger = logging.getLogger(__name__)

#: The head's elements, wherever they are (as bs4's ``find``/``find_all`` did), found by
#: ``iter`` in C: one XPath union of them and the main candidates cost more than the parse
#: itself on the Python docs (each ``//x[@y]`` is a whole-document scan; issue 15).
_HEAD_PARTS = ("title", "base", "meta", "link", "body")
#: The candidates for the main content inside the body, in document order.
_MAIN_CANDIDATES = etree.XPath("descendant::main | descendant::article | descendant::*[@role]")
#: The role attributes inside the body, in document order (each one's ``getparent()`` is its
#: element): the candidates when the body has no ``<main>`` or ``<article>``. The union above
#: walks the body three times and merges; this is one walk, about half of its cost on the
#: Python docs (a quarter of a raw parse; issue 15).
_ROLES = etree.XPath("descendant::*/@role")
#: libxml2 builds a tree at most 256 elements deep (without XML_PARSE_HUGE) and silently stops
#: reading at the first element deeper: the last element it made is then that deep. bs4's
#: builder gets the parser's events, not its tree, and has no such limit, so a document whose
#: last element is this deep goes to bs4 (a little below 256 in case of an off-by-one).
_LXML_DEPTH_GUARD = 250
_ASCII_SPACES = "\x20\x0a\x09\x0c\x0d"


def _load_cwalk() -> ModuleType | None:
    """``_cwalk`` (the compiled walk and head search), or None when the install did not
    build it (no Cython or no C compiler: ``setup.py``), it was built against another lxml,
    or the collector it calls in C is not the compiled one.

    ``_cwalk`` calls the compiled collector's methods and reads its fields in C
    (``collect.pxd``): imported beside a collector that runs as Python, its check of the
    collector's type could pass on the size alone, so it is not imported at all then."""
    if not collect.is_compiled():
        logger.debug("the collector runs in Python: the compiled tree walk is not used")
        return None
    try:
        from pagesift_ui.page import _cwalk
    # ValueError: lxml's types (or the compiled collector's) changed size since the build;
    # AttributeError: its C API is not the one the module was built against; TypeError: the
    # collector it calls in C was not compiled. Either way the Python walk is as good.
    except (ImportError, ValueError, AttributeError, TypeError) as error:
        logger.debug("the compiled tree walk is not available (%s): walking in Python", error)
        return None
    return _cwalk


def _compiled_walk() -> Callable[[Any, set[Any] | None, Collector], int] | None:
    """The tree walk compiled (``_cwalk.walk_tree``), or None (``_load_cwalk``)."""
    module = _load_cwalk()
    if module is None:
        return None
    walk_tree = module.walk_tree

    def walk(body: Any, main_roots: set[Any] | None, collector: Collector) -> int:
        return int(walk_tree(body, main_roots, collector, _is_boilerplate_element))

    return walk


#: The compiled walk when it was built, else None. It gives the Collector the same events in
#: the same order as ``_walk_tree`` (tests/test_compiled_walk.py); the walk itself, the
#: Collector's calls aside, costs about a ninth of the Python walk's, and a step ~13% less:
#: the walk was the largest part of a step left in Python (docs/DECISIONS.md, "the step,
#: ninth pass"; issue 15). Tests set it to None to walk in Python.
COMPILED_WALK = _compiled_walk()


def _compiled_head() -> tuple[Callable[[Any], list[Any]], Callable[[Any], Any]] | None:
    """The compiled search of the head parts and of a main element by its role
    (``_cwalk.head_parts``, ``_cwalk.main_by_role``), or None (``_load_cwalk``)."""
    module = _load_cwalk()
    return None if module is None else (module.head_parts, module.main_by_role)


#: (head parts, main by role) compiled when they were built, else None: lxml's filtered
#: iterator and XPath (``read_tree`` 196 → 186 ms over 133 Python docs pages with them in C;
#: issue 15, docs/DECISIONS.md, "the step, fourteenth pass"). Tests set it to None to
#: search by lxml.
COMPILED_HEAD = _compiled_head()


def read_tree(markup: str | bytes) -> Document | None:
    """The document through lxml, or None when lxml gives no tree with a ``<body>``
    (an empty document, a frameset, a head only): bs4 reads those (``read_soup``).
    ``markup`` as bytes is valid UTF-8, read as lxml reads a str: as UTF-8."""
    parser = (etree.HTMLParser(recover=True) if isinstance(markup, str)
              else etree.HTMLParser(recover=True, encoding="UTF-8"))
    try:
        parser.feed(markup)
        root = parser.close()
    except (etree.ParserError, etree.XMLSyntaxError, UnicodeError, LookupError):
        return None
    if root is None or _last_depth(root) >= _LXML_DEPTH_GUARD:
        return None
    title: str | None = None
    base_href: str | None = None
    robots: list[object] = []
    head_links: list[tuple[object, str, object]] = []
    body = None
    main = None
    articles: list[Any] = []
    compiled = COMPILED_HEAD
    for element in compiled[0](root) if compiled else root.iter(*_HEAD_PARTS):
        name = element.tag
        if name == "title" and title is None:
            title = normalise("".join(element.itertext()))
        elif name == "base" and base_href is None:
            base_href = element.get("href")  # None for a <base> without one: the next counts
        elif name == "meta" and is_robots(element.get("name")):
            robots.append(element.get("content"))
        elif name == "link" and element.get("href") is not None:
            head_links.append((element.get("rel"), element.get("href"), element.get("hreflang")))
        elif name == "body" and body is None:
            body = element  # libxml2 makes one <body>: a misplaced second tag is dropped
    if body is None:
        return None
    if next(body.iter("main", "article"), None) is None:
        # (iter answers at once when the document never names either tag) no <main> and no
        # <article>: the candidates are the elements with a role, and ``is_main`` reads the
        # role alone; compiled, False leaves a role C cannot read plainly to the XPath
        main = compiled[1](body) if compiled else False
        if main is False:
            main = None
            for role in _ROLES(body):
                if role.strip().lower() == "main":
                    main = role.getparent()
                    break
    else:
        for element in _MAIN_CANDIDATES(body):
            name = element.tag
            if is_main(name, element):
                main = element
                break
            if name == "article" and next(element.iterancestors("article"), None) is None:
                articles.append(element)
    roots = [main] if main is not None else articles
    html = root if root.tag == "html" else next(root.iter("html"), None)
    return Document(
        title=title or "",
        lang=lang_of(html),
        base_href=base_href,
        robots=robots_directives(robots),
        head_links=tuple(head_links),
        walk=lambda collector: (COMPILED_WALK or _walk_tree)(
            body, set(roots) if roots else None, collector),
    )


def _last_depth(root: Any) -> int:
    """The depth of the last element in document order (``<html>`` is 1)."""
    depth, element = 1, root
    while True:
        for child in reversed(element):
            if isinstance(child.tag, str):  # not a comment
                break
        else:
            return depth
        depth, element = depth + 1, child


def _walk_tree(body: Any, main_roots: set[Any] | None, collector: Collector) -> int:
    """``soup._walk_soup`` over an lxml tree: the same events in the same order.

    bs4's tree turns a string of ASCII whitespace outside ``<pre>``/``<textarea>`` into one
    newline or space; the same is done here, so text, caps and anchors agree.

    A recursion over each element's children rather than ``etree.iterwalk``: an element's
    state (inside the main content, inside boilerplate, inside ``<pre>``) is the call's
    arguments, so nothing is pushed or popped per element and no event tuple is built;
    the walk was two thirds of extraction on the Python docs (issue 15).
    """
    whole_body = main_roots is None
    roots: set[Any] | frozenset[Any] = main_roots or frozenset()
    start, end, text = collector.start, collector.end, collector.text
    not_walked = -1

    def emit(value: str, content: bool, preserve: bool) -> None:
        nonlocal not_walked
        if collector.full:
            not_walked = max(not_walked, 0)
            return
        if not preserve and not value.strip(_ASCII_SPACES):
            value = "\n" if "\n" in value else " "
        text(value, content)

    def walk(element: Any, name: str, in_root: bool, boiler: bool, preserve: bool) -> None:
        nonlocal not_walked
        if element in roots:
            in_root, boiler = True, False
        elif not boiler:
            boiler = _is_boilerplate_element(name, element, whole_body)
        content = in_root and not boiler
        collected = name in COLLECTED
        if collected:
            start(name, element, content)
        preserve = preserve or name in PRESERVE_WHITESPACE
        value = element.text
        if value:
            emit(value, content, preserve)
        for child in element:
            tag = child.tag
            if collector.full:
                # the text cap is reached: count what is not read (its links), read nothing
                not_walked = max(not_walked, 0)
                if isinstance(tag, str):
                    not_walked += sum(1 for _ in child.iter("a"))
            elif isinstance(tag, str) and tag not in SKIPPED:  # an element, not a comment or PI
                if len(child) or tag in COLLECTED or child in roots:
                    walk(child, tag, in_root, boiler, preserve)
                else:
                    # a leaf the collector does not act on (a <span>, <code> or <em>: 44% of
                    # the Python docs' elements): ``walk`` would only emit its text, so emit
                    # it here without the call (issue 15); its boilerplate check decides
                    # nothing when it has no text
                    value = child.text
                    if value:
                        leaf_boiler = boiler or _is_boilerplate_element(tag, child, whole_body)
                        emit(value, in_root and not leaf_boiler,
                             preserve or tag in PRESERVE_WHITESPACE)
            value = child.tail
            if value:
                emit(value, content, preserve)
        if collected:
            end(name, element, content)

    try:
        walk(body, body.tag, whole_body, False, False)
    finally:
        # ``walk`` calls itself through its closure cell, a reference cycle that would keep
        # the main roots, and through them the whole libxml2 tree, alive until the cyclic
        # garbage collector runs, later in the step (issue 15: ~0.6-1.0 lxml parses a step)
        walk = None  # type: ignore[assignment]  # noqa: F841
    return not_walked


def _is_boilerplate_element(name: str, element: Any, whole_body: bool) -> bool:
    """``is_boilerplate`` for an lxml element, reading its attributes once."""
    if name in BOILERPLATE_TAGS or (whole_body and name == "header"):
        return True
    for key, value in element.items():
        if key == "class":
            if _boilerplate_classes(value):
                return True
        elif key == "id":
            if value.lower() in BOILERPLATE_TOKENS:
                return True
        elif key == "hidden" or (key == "aria-hidden" and value == "true"):
            return True
        elif key == "role":
            role = value.strip().lower()
            if role in BOILERPLATE_ROLES or (whole_body and role == "banner"):
                return True
    return False


@lru_cache(maxsize=4096)
def _boilerplate_classes(classes: str) -> bool:
    # a site's pages use a few hundred class attributes, over and over
    return not BOILERPLATE_TOKENS.isdisjoint(token.lower() for token in classes.split())
