"""Walk events to Markdown blocks, plain-text blocks, headings and links: the one
``Collector`` both tree walks feed, so the two parsers give the same ``Page``
(docs/DESIGN.md §2).

Where the install built it, this module runs compiled (``setup.py``; Cython's pure Python
mode, the C types of the two classes' fields in ``collect.pxd``): the same source, ~0.3 of a
raw parse less a page on the Python docs (issue 15). Keep it plain Python that Cython compiles
as it reads: no dataclasses for the two classes, whose fields the .pxd declares (a field added
here goes there too: the compiled class has no slot for an undeclared one, and the first
page read raises AttributeError; tests/test_compiled_walk.py holds the two lists equal).
"""

from __future__ import annotations

import importlib.util
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from types import FunctionType, ModuleType

from pagesift_ui.page.markup import BLOCKS, HEADINGS, Attrs, attr_list, normalise
from pagesift_ui.page.model import Link, new_link
from pagesift_ui.page.resolve import resolve

__all__ = ["Collector", "is_compiled", "python_source"]

_BLANK_LINES = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
# one Markdown link as _close_link writes it, and nothing else: a definition list's term
# that is an entry of a list of pages (docs/DESIGN.md §2)
_ONE_LINK = re.compile(r"\[(?:[^\]\\]|\\.)*\]\([^\s]*\)")
#: Between an entry and its definition written on the entry's line.
DEFINITION_SEPARATOR = " — "
#: The most spaces a list item is indented by: lists nested deeper are written at this
#: indent, still items of their list. CommonMark needs no more (33 levels of "- "), and a
#: page of 50,000 nested lists with a word in each would write gigabytes of spaces.
MAX_LIST_INDENT = 66


class _OpenLink:
    """An ``<a>`` being read: where it points and the text it has so far."""

    __slots__ = ("hreflang", "image_alts", "in_main", "node", "nofollow", "parts", "url")

    def __init__(self, node: Attrs, url: str, in_main: bool, nofollow: bool,
                 hreflang: str | None) -> None:
        # the <a> element, to close the right link, and whose title and aria-label give the
        # anchor of a link with no text of its own (read then: most links have text, and
        # each attribute read is a call into lxml; issue 15)
        self.node = node
        self.url = url
        self.in_main = in_main
        self.nofollow = nofollow
        self.hreflang = hreflang
        self.parts: list[str] = []
        self.image_alts: list[str] = []


class Collector:
    """Turns walk events into Markdown blocks, plain-text blocks, headings and links.

    Compiled where the install built it (``collect.pxd`` declares its fields' C types), a
    plain Python class otherwise, the same code either way (docs/DESIGN.md §2).
    """

    __slots__ = ("_definition", "_heading", "_lists", "_markdown", "_markdown_shows",
                 "_one_link_term", "_open_links", "_plain", "_pre_depth", "_prefix", "_term",
                 "base", "full", "headings", "links", "markdown_blocks", "page_nofollow",
                 "plain_blocks", "text_room")

    def __init__(self, base: str, page_nofollow: bool, text_room: int) -> None:
        self.base = base
        self.page_nofollow = page_nofollow
        self.text_room = text_room  # characters of text still to take
        self.full = False  # a text did not fit in text_room
        self.markdown_blocks: list[str] = []
        self.plain_blocks: list[str] = []
        self.headings: list[str] = []
        self.links: list[Link] = []
        self._markdown: list[str] = []
        # ``"".join(_markdown).strip() != ""``, kept as pieces come: joining at every table
        # cell made a long row quadratic
        self._markdown_shows = False
        self._plain: list[str] = []
        self._prefix = ""
        self._pre_depth = 0
        self._heading: list[str] | None = None
        self._open_links: list[_OpenLink] = []
        # the open lists, innermost last: [ordinal so far (-1 for <ul>), width of the marker
        # of its current item, its items' indent]; an item is indented by its outer lists'
        # markers, as CommonMark nests lists, so the Markdown keeps the nesting
        # (siblings.list_blocks_titled reads it). Only the innermost list's marker changes,
        # so a list's indent, summed once when it opens, stays right (summed at every item
        # it cost a page of 50,000 nested lists 19 s)
        self._lists: list[list[int]] = []
        # a <dt> is being read: written as a list item when it is one link and nothing else
        self._term = False
        # the index of the last block if it is a term that is one link, else -1
        self._one_link_term = -1
        # a <dd> right after a one-link term is read: its first paragraph goes on the term's line
        self._definition = False

    def text(self, value: str, content: bool) -> None:
        if len(value) > self.text_room:
            value = value[: self.text_room]
            self.full = True
        self.text_room -= len(value)
        for link in self._open_links:
            link.parts.append(value)
        if content and self._heading is not None:
            self._heading.append(value)
        if content and not self._open_links:
            self._markdown.append(value)
            self._markdown_shows = self._markdown_shows or not _blank(value)
            self._plain.append(value)

    def start(self, name: str, element: Attrs, content: bool) -> None:
        if name == "a":
            self._open_link(element, content)
        elif name == "img" and self._open_links:
            alt = element.get("alt")
            if isinstance(alt, str):
                self._open_links[-1].image_alts.append(alt)
        elif name == "br":
            self.text("\n" if self._pre_depth else " ", content)
        elif name in ("td", "th") and content and self._markdown_shows:
            self._markdown.append(" | ")
            self._plain.append(" | ")
        elif name in BLOCKS and not self._pre_depth:
            self.flush(end=False)
            self._start_block(name, content)
        elif name == "pre":
            self._pre_depth += 1

    def end(self, name: str, element: object, content: bool) -> None:
        if name == "a" and self._open_links and self._open_links[-1].node is element:
            self._close_link(content)
        elif name == "pre":
            self._pre_depth -= 1
            if not self._pre_depth:
                self._flush_preformatted()
        elif name in BLOCKS and not self._pre_depth:
            if name in HEADINGS and self._heading is not None:
                heading = normalise("".join(self._heading))
                if heading:
                    self.headings.append(heading)
                self._heading = None
            if name in ("ol", "ul", "dl") and self._lists:
                self._lists.pop()
            self.flush(end=True)
            if name in ("dd", "dl"):
                self._definition = False

    def flush(self, end: bool) -> None:
        """Emit the pending block; an empty one keeps its prefix unless the element ended."""
        # (_plain only ever grows with _markdown: nothing pending, nothing to emit)
        markdown = normalise("".join(self._markdown)) if self._markdown else ""
        if markdown and self._term:
            self._term = False
            if self._lists:
                self._lists[-1][1] = 0  # no item (yet) for a nested list to hang from
                if not self._prefix and _ONE_LINK.fullmatch(markdown):
                    # a term that is one link may be an entry of a list of pages: its
                    # definition tells (``_entry``)
                    self._one_link_term = len(self.markdown_blocks)
        elif markdown and self._definition:
            self._definition = False
            if not self._prefix and self._lists:
                self._entry(markdown, normalise("".join(self._plain)))
                markdown = ""
        if markdown:
            self.markdown_blocks.append(self._prefix + markdown)
            self.plain_blocks.append(normalise("".join(self._plain)))
        if markdown or end:
            self._prefix = ""
        self._markdown.clear()
        self._markdown_shows = False
        self._plain.clear()

    def _start_block(self, name: str, content: bool) -> None:
        if name in ("ol", "ul", "dl"):
            outer = self._lists[-1] if self._lists else None
            indent = 0 if outer is None else min(outer[2] + outer[1], MAX_LIST_INDENT)
            self._lists.append([0 if name == "ol" else -1, 0, indent])
        elif name == "dt":
            self._term = True
        elif name == "dd":
            self._term = False
            self._definition = self._one_link_term == len(self.markdown_blocks) - 1 >= 0
        elif name in HEADINGS:
            self._prefix = HEADINGS[name]
            self._heading = [] if content else None
        elif name == "li":
            if not self._lists:
                self._prefix = "- "  # an item outside any list
                return
            innermost = self._lists[-1]
            if innermost[0] >= 0:
                innermost[0] += 1
                marker = f"{innermost[0]}. "
            else:
                marker = "- "
            innermost[1] = len(marker)
            self._prefix = " " * innermost[2] + marker
        elif name == "pre":
            self._pre_depth += 1

    def _entry(self, definition: str, plain: str) -> None:
        """The last block, a term that is one link, is followed by its definition, a
        paragraph: the pair is an entry of a list of pages, each with a line that says what
        it is (git(1)'s command lists, Sphinx's "See also", the Apache manual's programs).
        The term becomes a list item and its definition joins its line, where it is the
        entry's context (linkrules.link_contexts reads a link's line). A term with no
        definition, or one that holds more blocks first (a DocBook table of contents: a
        ``<dd>`` that is a nested ``<dl>``), stays a paragraph (docs/DESIGN.md §2)."""
        self._lists[-1][1] = 2
        indent = " " * self._lists[-1][2]
        self.markdown_blocks[-1] = f"{indent}- {self.markdown_blocks[-1]}"
        self.markdown_blocks[-1] += DEFINITION_SEPARATOR + definition
        self.plain_blocks[-1] += DEFINITION_SEPARATOR + plain

    def _flush_preformatted(self) -> None:
        raw = "".join(self._markdown)
        plain = "".join(self._plain)
        self._markdown.clear()
        self._markdown_shows = False
        self._plain.clear()
        # Blank lines inside code would read as block separators, so fold them.
        code = _BLANK_LINES.sub("\n", raw).strip("\n").rstrip()
        if code.strip():
            self.markdown_blocks.append(f"```\n{code}\n```")
            self.plain_blocks.append(normalise(plain))
        self._prefix = ""

    def _open_link(self, tag: Attrs, content: bool) -> None:
        href = tag.get("href")
        # a fragment-only href is never a link: not resolved (a third of the <a> of a docs
        # page are headings' "#" anchors, each a miss of resolve's page cache; issue 15).
        # Such an <a>'s start and end change nothing here, so the compiled walk does not
        # give them at all (_cwalk._may_link): keep both no-ops
        # (tests/test_compiled_walk.py)
        if not isinstance(href, str) or href.strip().startswith("#"):
            return
        url = resolve(self.base, href)
        if url is None:
            return
        rel = tag.get("rel")  # most links have none: no list and no set to make
        hreflang = tag.get("hreflang")
        self._open_links.append(
            _OpenLink(
                tag,
                url,
                content,
                self.page_nofollow or (
                    rel is not None and "nofollow" in {value.lower() for value in attr_list(rel)}),
                hreflang.strip().lower() if isinstance(hreflang, str) else None,
            )
        )

    def _close_link(self, content: bool) -> None:
        link = self._open_links.pop()
        raw = "".join(link.parts)
        anchor = (normalise(raw) or _first_text(link.image_alts)
                  or _first_text(value for value in (link.node.get("title"),
                                                     link.node.get("aria-label"))
                                 if isinstance(value, str)))
        self.links.append(new_link(link.url, anchor, link.in_main, link.nofollow, link.hreflang))
        if content and anchor and not self._open_links:
            label = anchor.replace("[", r"\[").replace("]", r"\]")
            # Keep the word boundary that spaces inside the <a> made ("<a>out </a>next").
            before = " " if raw[:1].isspace() else ""
            after = " " if raw[-1:].isspace() else ""
            markdown = f"{before}[{label}]({_markdown_destination(link.url)}){after}"
            self._markdown.append(markdown)
            self._markdown_shows = True  # "[label](url)": never blank
            self._plain.append(f"{before}{anchor}{after}")


def python_source() -> ModuleType:
    """This module read from its source as Python, under a name of its own, even where the
    install compiled it (an extension module wins over the source on import): the reference
    the compiled collector is held to (tests/test_compiled_walk.py), and what
    ``bench_step.py --python-collector`` measures."""
    name = "pagesift_ui.page._collect_source"
    loaded = sys.modules.get(name)
    if loaded is not None:
        return loaded
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("collect.py"))
    if spec is None or spec.loader is None:
        raise ImportError(f"cannot read {__name__}'s source next to {__file__}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # before it runs, as an import does
    spec.loader.exec_module(module)
    return module


def is_compiled() -> bool:
    """True when this module runs compiled (``setup.py``, ``collect.pxd``): its functions
    are then not Python functions. The CLI's ``--version`` says so."""
    return not isinstance(is_compiled, FunctionType)


def _blank(text: str) -> bool:
    return not text or text.isspace()


def _markdown_destination(url: str) -> str:
    """``url`` as a CommonMark link destination: kept as is (so it equals ``Link.url``)
    unless its parentheses are unbalanced, which would end the link early."""
    if "(" not in url and ")" not in url:
        return url
    depth = 0
    for char in url:
        depth += {"(": 1, ")": -1}.get(char, 0)
        if depth < 0:
            break
    if depth == 0:
        return url
    return url.replace("(", "%28").replace(")", "%29")


def _first_text(values: Iterable[str]) -> str:
    return next((text for value in values if (text := normalise(value))), "")
