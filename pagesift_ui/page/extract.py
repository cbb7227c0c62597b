"""From HTML to a ``Page``: decoded text, the main content as Markdown, and every link.

Main content is the first ``<main>`` or ``[role=main]``, else the top-level ``<article>``
elements, else ``<body>`` without navigation, header, footer, aside and forms. Inside the
main content, nested ``<nav>``/``<aside>``/``<footer>``/forms and menus are still left out.
One iterative walk over the tree produces blocks, headings and links together, so deep or
malformed documents cannot exhaust the recursion limit. The tree is lxml's; bs4 reads only the
documents lxml gives no whole body, to the same ``Page`` (docs/DESIGN.md §2, issue 15).

Markdown blocks are trimmed and joined by exactly one blank line; the stop rules hash them,
so the same HTML must always give the same string.

A page is read up to ``MAX_LINKS_READ`` links, ``MAX_ELEMENTS_READ`` elements and
``MAX_TEXT_CHARS`` characters of text, more than any real page measured has (the 1,296 pages
of the Python and SQLite documentation the benchmarks crawl: at most 17,214 links, 48,862
elements, 0.94 M characters). Past any of them the rest is not read: its ``<a`` tags are
counted (``Page.links_not_read``) and ``Page.cut`` says where reading stopped.
Every later phase (relevance, the stop rules, the links) then costs what a big ordinary page
costs, not what the page's author chose: 150,000 links took a minute a step (issue 12).
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Protocol
from urllib.parse import urldefrag, urljoin, urlsplit

from bs4 import BeautifulSoup
from bs4.builder._lxml import LXMLTreeBuilder
from bs4.element import NavigableString, PageElement, Tag
from lxml import etree
from w3lib.url import safe_url_string

from pagesift_ui.page.charset import codec_for, decode_html

__all__ = [
    "MAX_ELEMENTS_READ",
    "MAX_LINKS_READ",
    "MAX_TEXT_CHARS",
    "Link",
    "Page",
    "decode_html",  # see charset.py
    "extract",
]

logger = logging.getLogger(__name__)

_SKIPPED = frozenset(
    "script style noscript template head title meta link base iframe object embed svg math "
    "canvas select textarea button input option datalist rt rp".split()
)
_BLOCKS = frozenset(
    "address article aside blockquote body caption center dd details dialog div dl dt "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li "
    "main menu nav ol p pre section summary table tbody tfoot thead tr ul".split()
)
_HEADINGS = {f"h{level}": "#" * level + " " for level in range(1, 7)}
_BOILERPLATE_TAGS = frozenset({"nav", "aside", "footer", "menu", "form"})
_BOILERPLATE_ROLES = frozenset({"navigation", "complementary", "contentinfo", "search", "menu"})
_BOILERPLATE_TOKENS = frozenset(
    "nav navbar navigation menu sidebar breadcrumb breadcrumbs site-header site-footer "
    "masthead skip-link cookie-banner".split()
)
_TAB_NEWLINE = str.maketrans("", "", "\t\n\r")
_BLANK_LINES = re.compile(r"\n[ \t]*(?:\n[ \t]*)+")
# The start of a tag as the HTML tokenizer sees one ("<" and a letter), group 1 set for an
# <a> (its name ends at whitespace, "/" or ">"). Counted in the raw markup, so "<a " in
# scripts and comments counts too: only a page with more than the caps of them is cut, and
# then a little earlier than it strictly had to be.
_TAG_START = re.compile(r"<(?:(a)[\s/>]|[a-z])", re.IGNORECASE)
_A_TAG = re.compile(r"<a[\s/>]", re.IGNORECASE)

#: Links of one page read at most; ``CrawlConfig.max_links_per_page`` (2,000 by default) then
#: picks the ones considered. Above the 17,214 of Python's genindex-all.html, the most found
#: on a real page here, so that no real page is cut.
MAX_LINKS_READ = 20_000
#: Elements of one page parsed at most: bs4 builds a tree at ~30 µs an element. Twice the
#: 48,862 of Python's contents.html, the most here.
MAX_ELEMENTS_READ = 100_000
#: Characters of text nodes read at most (all of them, navigation and whitespace included).
#: Half as much again as the 944,647 of SQLite's requirements.html, the most here.
MAX_TEXT_CHARS = 1_500_000


@dataclass(frozen=True, slots=True)
class Link:
    """One ``<a href>``: absolute http(s) URL without fragment, and where it sits.

    ``in_main`` is False for links in navigation, header, footer, aside or menus;
    ``nofollow`` is rel=nofollow or the page's meta robots nofollow.
    """

    url: str
    anchor: str
    in_main: bool
    nofollow: bool
    hreflang: str | None


@dataclass(frozen=True, slots=True)
class Page:
    """What a page says and where it points. ``headings`` are those of the main content."""

    url: str
    title: str
    lang: str
    headings: tuple[str, ...]
    markdown: str
    text: str
    word_count: int
    links: tuple[Link, ...]
    canonical: str | None
    noindex: bool
    nofollow: bool
    alternates: tuple[tuple[str, str], ...]
    # A page read whole has ``cut == ""``. Otherwise ``cut`` says where reading stopped, and
    # ``links_not_read`` counts the ``<a`` tags after that point (found, never parsed).
    cut: str = ""
    links_not_read: int = 0


def extract(
    html: bytes | str,
    url: str,
    encoding: str | None = None,
    *,
    max_links: int = MAX_LINKS_READ,
    max_elements: int = MAX_ELEMENTS_READ,
    max_text_chars: int = MAX_TEXT_CHARS,
) -> Page:
    """Parse ``html`` fetched from ``url``. Never raises on malformed HTML.

    ``encoding`` (a codec or charset label) decodes ``bytes``; without it the charset is
    sniffed as in ``decode_html``. It is ignored for ``str``. Reading stops before the
    ``max_links + 1``-th ``<a`` tag or the ``max_elements + 1``-th tag, or after
    ``max_text_chars`` characters of text (module docstring); each must be at least 1.
    """
    caps = {"max_links": max_links, "max_elements": max_elements,
            "max_text_chars": max_text_chars}
    if any(not isinstance(cap, int) or cap < 1 for cap in caps.values()):
        raise ValueError(f"the read caps must be integers >= 1, got {caps}")
    markup, cut, not_parsed = _cut(_as_text(html, encoding), max_links, max_elements)
    markup = _parseable(markup)
    document = _read_tree(markup) or _read_soup(markup)
    base = _resolve(url, document.base_href) if document.base_href is not None else None
    base = base or url
    robots = document.robots
    collector = _Collector(base, page_nofollow="nofollow" in robots, text_room=max_text_chars)
    not_walked = document.walk(collector)
    collector.flush(end=True)
    if not_walked >= 0:
        cut = f"after {max_text_chars:,} characters of text"
        not_parsed += not_walked
    text = "\n\n".join(collector.plain_blocks)
    canonical, alternates = _head_links(document.head_links, base)
    return Page(
        url=url,
        title=document.title,
        lang=document.lang,
        headings=tuple(collector.headings),
        markdown="\n\n".join(collector.markdown_blocks),
        text=text,
        word_count=len(text.split()),
        links=tuple(collector.links),
        canonical=canonical,
        noindex="noindex" in robots,
        nofollow="nofollow" in robots,
        alternates=alternates,
        cut=cut,
        links_not_read=not_parsed,
    )


def _cut(markup: str, max_links: int, max_elements: int) -> tuple[str, str, int]:
    """``markup`` up to just before its ``max_links + 1``-th ``<a`` tag or its
    ``max_elements + 1``-th tag (all of it when it has fewer), why it was cut ("" if not),
    and the ``<a`` tags from the cut on.

    A regular-expression scan: under 1 µs a tag, where bs4 spends ~30 µs building one. lxml
    closes the elements the cut leaves open, as in any truncated document.
    """
    links = 0
    for elements, tag in enumerate(_TAG_START.finditer(markup), start=1):
        if tag.group(1) is not None:
            links += 1
            if links > max_links:
                why = f"after {max_links:,} links"
                break
        if elements > max_elements:
            why = f"after {max_elements:,} elements"
            break
    else:
        return markup, "", 0
    at = tag.start()
    return markup[:at], why, sum(1 for _ in _A_TAG.finditer(markup, at))


class _QuietLXMLTreeBuilder(LXMLTreeBuilder):
    """bs4's lxml HTML builder, logging instead of warning when a page looks like XML."""

    @classmethod
    def _warn(cls, stacklevel: int = 5) -> None:
        logger.debug("document starts like XML; parsed as HTML")


def _as_text(html: bytes | str, encoding: str | None) -> str:
    if isinstance(html, str):
        return html
    codec = codec_for(encoding)
    return html.decode(codec, "replace") if codec else decode_html(html, None)[1]


def _parseable(markup: str) -> str:
    """The markup both parsers are given."""
    # lxml rejects NUL characters; the HTML tokenizer replaces them with U+FFFD anyway.
    markup = markup.replace("\x00", "\ufffd").lstrip("\ufeff")
    # bs4 warns before parsing when a document starts with "<?xml" (XHTML does) or when
    # a short string has no "<" ("looks like a filename"); neither is a problem here.
    if markup.startswith("<?xml"):
        return " " + markup
    if "<" not in markup:
        return markup + "\n"
    return markup


def _normalise(text: str) -> str:
    return " ".join(text.split())


def _resolve(base: str, href: str) -> str | None:
    """Absolute http(s) URL without fragment, or None for anything else."""
    # WHATWG URL §4.4: leading/trailing spaces and tabs/newlines anywhere are dropped.
    href = href.strip().translate(_TAB_NEWLINE)
    # The answer does not depend on what the fragment says, only on whether there is one
    # (urldefrag rebuilds a URL that had one): "x.html#a" and "x.html#b" share an entry.
    path, hash_sign, fragment = href.partition("#")
    if hash_sign:
        href = f"{path}#{'f' if fragment else ''}"
    return _resolve_href(base, href)


#: Entries of each resolution cache. A site's pages repeat their navigation: of the 164,265
#: ``<a href>`` of the Python docs, 23,092 are distinct (page, href) pairs once fragments
#: are set aside and 4,719 distinct URLs, while urljoin + urlsplit + safe_url_string cost
#: ~25 µs a link (issue 15). Bounded: a 100k-link crawl holds at most this many of each.
RESOLVE_CACHE_SIZE = 65_536


@lru_cache(maxsize=RESOLVE_CACHE_SIZE)
def _resolve_href(base: str, href: str) -> str | None:
    try:
        absolute = urldefrag(urljoin(base, href)).url
    except ValueError:
        return None
    return _http_url(absolute)


@lru_cache(maxsize=RESOLVE_CACHE_SIZE)
def _http_url(absolute: str) -> str | None:
    try:
        parts = urlsplit(absolute)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            return None
        return str(safe_url_string(absolute))
    except ValueError:
        return None


# ----------------------------------------------------------------------------- documents


class _Attrs(Protocol):
    """What the walk reads of an element: a bs4 ``Tag`` or an lxml element."""

    def get(self, key: str, /) -> Any: ...


@dataclass(frozen=True, slots=True)
class _Document:
    """What either parser found outside the walk, and the walk over its body.

    ``head_links`` are the ``<link href>`` elements in document order, as (rel, href,
    hreflang); ``walk`` feeds the collector and returns what ``_walk_soup`` returns.
    """

    title: str
    lang: str
    base_href: str | None
    robots: frozenset[str]
    head_links: tuple[tuple[object, str, object], ...]
    walk: Callable[[_Collector], int]


def _robots(contents: Iterable[object]) -> frozenset[str]:
    directives: set[str] = set()
    for content in contents:
        if isinstance(content, str):
            directives.update(content.lower().replace(",", " ").split())
    if "none" in directives:  # "none" means noindex, nofollow
        directives.update({"noindex", "nofollow"})
    return frozenset(directives)


def _is_robots(name: object) -> bool:
    return isinstance(name, str) and name.strip().lower() == "robots"


def _head_links(
    links: Iterable[tuple[object, str, object]], base: str
) -> tuple[str | None, tuple[tuple[str, str], ...]]:
    canonical: str | None = None
    alternates: list[tuple[str, str]] = []
    for rel_value, href, hreflang in links:
        rel = {value.lower() for value in _attr_list(rel_value)}
        url = _resolve(base, href)
        if url is None:
            continue
        if "canonical" in rel and canonical is None:
            canonical = url
        if "alternate" in rel and isinstance(hreflang, str) and hreflang.strip():
            alternates.append((hreflang.strip().lower(), url))
    return canonical, tuple(alternates)


def _lang_of(html: _Attrs | None) -> str:
    if html is None:
        return ""
    lang = html.get("lang") or html.get("xml:lang")
    return lang.strip().lower() if isinstance(lang, str) else ""


def _attr_list(value: object) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def _is_main(name: str, element: _Attrs) -> bool:
    role = element.get("role")
    return name == "main" or (isinstance(role, str) and role.strip().lower() == "main")


def _is_boilerplate(name: str, element: _Attrs, whole_body: bool) -> bool:
    if name in _BOILERPLATE_TAGS or (whole_body and name == "header"):
        return True
    if element.get("hidden") is not None or element.get("aria-hidden") == "true":
        return True
    role = element.get("role")
    if isinstance(role, str):
        role = role.strip().lower()
        if role in _BOILERPLATE_ROLES or (whole_body and role == "banner"):
            return True
    classes = element.get("class")
    element_id = element.get("id")
    if not classes and not element_id:
        return False
    tokens = {token.lower() for token in _attr_list(classes)}
    if isinstance(element_id, str):
        tokens.add(element_id.lower())
    return not tokens.isdisjoint(_BOILERPLATE_TOKENS)


# -------------------------------------------------------------- lxml: the ordinary path
# docs/DESIGN.md §2: an lxml tree built in C, walked by ``etree.iterwalk``. bs4 builds the
# same tree from the same libxml2 parse event by event in Python (its lxml builder), at
# ~30 µs an element; tests/test_extract_paths.py holds both to the same Page.

#: What the one XPath pass finds: the head's elements wherever they are (as bs4's
#: ``find``/``find_all`` did) and the candidates for the main content inside the body.
_ONE_PASS = etree.XPath(
    "//title | //base[@href] | //meta | //link[@href] | //body | "
    "//body//main | //body//article | //body//*[@role]"
)
#: libxml2 builds a tree at most 256 elements deep (without XML_PARSE_HUGE) and silently stops
#: reading at the first element deeper: the last element it made is then that deep. bs4's
#: builder gets the parser's events, not its tree, and has no such limit, so a document whose
#: last element is this deep goes to bs4 (a little below 256 in case of an off-by-one).
_LXML_DEPTH_GUARD = 250
_ASCII_SPACES = "\x20\x0a\x09\x0c\x0d"
_PRESERVE_WHITESPACE = frozenset({"pre", "textarea"})
#: The elements ``_Collector.start``/``end`` act on; for any other (span, code, em, …: most
#: of a documentation page) both do nothing, so the tree walk does not call them.
_COLLECTED = _BLOCKS | {"a", "img", "br", "td", "th", "pre"}


def _read_tree(markup: str) -> _Document | None:
    """The document through lxml, or None when lxml gives no tree with a ``<body>``
    (an empty document, a frameset, a head only): bs4 reads those (``_read_soup``)."""
    parser = etree.HTMLParser(recover=True)
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
    for element in _ONE_PASS(root):
        name = element.tag
        if name == "title" and title is None:
            title = _normalise("".join(element.itertext()))
        elif name == "base" and base_href is None:
            base_href = element.get("href")
        elif name == "meta" and _is_robots(element.get("name")):
            robots.append(element.get("content"))
        elif name == "link" and element.get("href") is not None:
            head_links.append((element.get("rel"), element.get("href"), element.get("hreflang")))
        elif name == "body" and body is None:
            body = element
        if body is not None and main is None and element is not body:
            if _is_main(name, element):
                main = element
            elif name == "article" and next(element.iterancestors("article"), None) is None:
                articles.append(element)
    if body is None:
        return None
    roots = [main] if main is not None else articles
    html = root if root.tag == "html" else next(root.iter("html"), None)
    return _Document(
        title=title or "",
        lang=_lang_of(html),
        base_href=base_href,
        robots=_robots(robots),
        head_links=tuple(head_links),
        walk=lambda collector: _walk_tree(body, set(roots) if roots else None, collector),
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


def _walk_tree(body: Any, main_roots: set[Any] | None, collector: _Collector) -> int:
    """``_walk_soup`` over an lxml tree: the same events in the same order.

    bs4's tree turns a string of ASCII whitespace outside ``<pre>``/``<textarea>`` into one
    newline or space; the same is done here, so text, caps and anchors agree.
    """
    whole_body = main_roots is None
    in_root, boiler = whole_body, False
    # per element started: the (in_root, boiler) to go back to, or None if not opened
    saved: list[tuple[bool, bool] | None] = []
    preserve = 0
    not_walked = -1
    start, end, text = collector.start, collector.end, collector.text
    walker = etree.iterwalk(body, events=("start", "end", "comment", "pi"))
    skip_subtree = walker.skip_subtree
    for event, element in walker:
        if event == "start":
            name = element.tag
            if collector.full:
                not_walked = max(not_walked, 0) + sum(1 for _ in element.iter("a"))
                skip_subtree()
                saved.append(None)
                continue
            if name in _SKIPPED:
                skip_subtree()
                saved.append(None)
                continue
            saved.append((in_root, boiler))
            if main_roots is not None and element in main_roots:
                in_root, boiler = True, False
            elif not boiler:
                boiler = _is_boilerplate_element(name, element, whole_body)
            if name in _COLLECTED:
                start(name, element, in_root and not boiler)
            if name in _PRESERVE_WHITESPACE:
                preserve += 1
            value = element.text
        elif event == "end":
            state = saved.pop()
            if state is not None:
                name = element.tag
                if name in _COLLECTED:
                    end(name, element, in_root and not boiler)
                in_root, boiler = state
                if name in _PRESERVE_WHITESPACE:
                    preserve -= 1
            if element is body:
                break
            value = element.tail
        else:  # a comment or processing instruction: skipped, the text after it is not
            if collector.full:
                not_walked = max(not_walked, 0)
            value = element.tail
        if not value:
            continue
        if collector.full:
            not_walked = max(not_walked, 0)
            continue
        if not preserve and not value.strip(_ASCII_SPACES):
            value = "\n" if "\n" in value else " "
        text(value, in_root and not boiler)
    return not_walked


def _is_boilerplate_element(name: str, element: Any, whole_body: bool) -> bool:
    """``_is_boilerplate`` for an lxml element, reading its attributes once."""
    if name in _BOILERPLATE_TAGS or (whole_body and name == "header"):
        return True
    for key, value in element.items():
        if key == "class":
            if _boilerplate_classes(value):
                return True
        elif key == "id":
            if value.lower() in _BOILERPLATE_TOKENS:
                return True
        elif key == "hidden" or (key == "aria-hidden" and value == "true"):
            return True
        elif key == "role":
            role = value.strip().lower()
            if role in _BOILERPLATE_ROLES or (whole_body and role == "banner"):
                return True
    return False


@lru_cache(maxsize=4096)
def _boilerplate_classes(classes: str) -> bool:
    # a site's pages use a few hundred class attributes, over and over
    return not _BOILERPLATE_TOKENS.isdisjoint(token.lower() for token in classes.split())


# ----------------------------------------------------- bs4: documents lxml gives no body


def _read_soup(markup: str) -> _Document:
    soup = BeautifulSoup(markup, builder=_QuietLXMLTreeBuilder())
    base = soup.find("base", href=True)
    base_href = base.get("href") if isinstance(base, Tag) else None
    robots = [meta.get("content") for meta in soup.find_all("meta")
              if _is_robots(meta.get("name"))]
    head_links = [(link.get("rel"), href, link.get("hreflang"))
                  for link in soup.find_all("link", href=True)
                  if isinstance(href := link.get("href"), str)]
    html = soup.find("html")
    root = soup.body if soup.body is not None else soup
    return _Document(
        title=_normalise(soup.title.get_text()) if soup.title is not None else "",
        lang=_lang_of(html if isinstance(html, Tag) else None),
        base_href=base_href if isinstance(base_href, str) else None,
        robots=_robots(robots),
        head_links=tuple(head_links),
        walk=lambda collector: _walk_soup(root, _main_roots(root), collector),
    )


def _main_roots(root: Tag) -> frozenset[int] | None:
    """ids of the main-content elements, or None to fall back to the whole body."""
    articles: list[Tag] = []
    for tag in root.find_all(True):
        if _is_main(tag.name, tag):
            return frozenset({id(tag)})
        if tag.name == "article" and tag.find_parent("article") is None:
            articles.append(tag)
    return frozenset(id(tag) for tag in articles) if articles else None


def _walk_soup(root: Tag, main_roots: frozenset[int] | None, collector: _Collector) -> int:
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
        if not isinstance(node, Tag) or node.name in _SKIPPED:
            continue
        is_root = main_roots is not None and id(node) in main_roots
        in_root = in_root or is_root
        boiler = False if is_root else boiler or _is_boilerplate(node.name, node, whole_body)
        collector.start(node.name, node, in_root and not boiler)
        stack.append((node, in_root, boiler, True))
        stack.extend((child, in_root, boiler, False) for child in reversed(node.contents))
    return not_walked


def _links_in(node: PageElement) -> int:
    if not isinstance(node, Tag):
        return 0
    return int(node.name == "a") + len(node.find_all("a"))


@dataclass(slots=True)
class _OpenLink:
    node: object  # the <a> element, to close the right link
    url: str
    in_main: bool
    nofollow: bool
    hreflang: str | None
    fallback: str
    parts: list[str] = field(default_factory=list)
    image_alts: list[str] = field(default_factory=list)


@dataclass(slots=True)
class _Collector:
    """Turns walk events into Markdown blocks, plain-text blocks, headings and links."""

    base: str
    page_nofollow: bool
    text_room: int  # characters of text still to take; ``full`` once a text did not fit
    full: bool = False
    markdown_blocks: list[str] = field(default_factory=list)
    plain_blocks: list[str] = field(default_factory=list)
    headings: list[str] = field(default_factory=list)
    links: list[Link] = field(default_factory=list)
    _markdown: list[str] = field(default_factory=list)
    # ``"".join(_markdown).strip() != ""``, kept as pieces come: joining at every table cell
    # made a long row quadratic
    _markdown_shows: bool = False
    _plain: list[str] = field(default_factory=list)
    _prefix: str = ""
    _pre_depth: int = 0
    _heading: list[str] | None = None
    _open_links: list[_OpenLink] = field(default_factory=list)
    _ordinals: list[int] = field(default_factory=list)

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

    def start(self, name: str, element: _Attrs, content: bool) -> None:
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
        elif name in _BLOCKS and not self._pre_depth:
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
        elif name in _BLOCKS and not self._pre_depth:
            if name in _HEADINGS and self._heading is not None:
                heading = _normalise("".join(self._heading))
                if heading:
                    self.headings.append(heading)
                self._heading = None
            if name == "ol" and self._ordinals:
                self._ordinals.pop()
            self.flush(end=True)

    def flush(self, *, end: bool) -> None:
        """Emit the pending block; an empty one keeps its prefix unless the element ended."""
        # (_plain only ever grows with _markdown: nothing pending, nothing to emit)
        markdown = _normalise("".join(self._markdown)) if self._markdown else ""
        if markdown:
            self.markdown_blocks.append(self._prefix + markdown)
            self.plain_blocks.append(_normalise("".join(self._plain)))
        if markdown or end:
            self._prefix = ""
        self._markdown.clear()
        self._markdown_shows = False
        self._plain.clear()

    def _start_block(self, name: str, content: bool) -> None:
        if name == "ol":
            self._ordinals.append(0)
        elif name in _HEADINGS:
            self._prefix = _HEADINGS[name]
            self._heading = [] if content else None
        elif name == "li":
            if self._ordinals:
                self._ordinals[-1] += 1
                self._prefix = f"{self._ordinals[-1]}. "
            else:
                self._prefix = "- "
        elif name == "pre":
            self._pre_depth += 1

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
            self.plain_blocks.append(_normalise(plain))
        self._prefix = ""

    def _open_link(self, tag: _Attrs, content: bool) -> None:
        href = tag.get("href")
        url = _resolve(self.base, href) if isinstance(href, str) else None
        if url is None or (isinstance(href, str) and href.strip().startswith("#")):
            return
        rel = {value.lower() for value in _attr_list(tag.get("rel"))}
        hreflang = tag.get("hreflang")
        fallback = [tag.get("title"), tag.get("aria-label")]
        self._open_links.append(
            _OpenLink(
                node=tag,
                url=url,
                in_main=content,
                nofollow=self.page_nofollow or "nofollow" in rel,
                hreflang=hreflang.strip().lower() if isinstance(hreflang, str) else None,
                fallback=_first_text(value for value in fallback if isinstance(value, str)),
            )
        )

    def _close_link(self, content: bool) -> None:
        link = self._open_links.pop()
        raw = "".join(link.parts)
        anchor = _normalise(raw) or _first_text(link.image_alts) or link.fallback
        self.links.append(Link(link.url, anchor, link.in_main, link.nofollow, link.hreflang))
        if content and anchor and not self._open_links:
            label = anchor.replace("[", r"\[").replace("]", r"\]")
            # Keep the word boundary that spaces inside the <a> made ("<a>out </a>next").
            before = " " if raw[:1].isspace() else ""
            after = " " if raw[-1:].isspace() else ""
            markdown = f"{before}[{label}]({_markdown_destination(link.url)}){after}"
            self._markdown.append(markdown)
            self._markdown_shows = True  # "[label](url)": never blank
            self._plain.append(f"{before}{anchor}{after}")


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
    return next((text for value in values if (text := _normalise(value))), "")
