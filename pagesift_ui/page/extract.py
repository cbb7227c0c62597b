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

import re

from pagesift_ui.page.charset import codec_for, decode_html, is_utf8
from pagesift_ui.page.collect import Collector
from pagesift_ui.page.document import head_links
from pagesift_ui.page.lxmltree import read_tree
from pagesift_ui.page.model import Link, Page
from pagesift_ui.page.resolve import resolve
from pagesift_ui.page.soup import read_soup

__all__ = [
    "MAX_ELEMENTS_READ",
    "MAX_LINKS_READ",
    "MAX_TEXT_CHARS",
    "MAX_TITLE_CHARS",
    "Link",
    "Page",
    "decode_html",  # see charset.py
    "extract",
]

# The start of a tag as the HTML tokenizer sees one ("<" and a letter), group 1 set for an
# <a> (its name ends at whitespace, "/" or ">"). Counted in the raw markup, so "<a " in
# scripts and comments counts too: only a page with more than the caps of them is cut, and
# then a little earlier than it strictly had to be.
_TAG_START = re.compile(r"<(?:(a)[\s/>]|[a-z])", re.IGNORECASE)
_A_TAG = re.compile(r"<a[\s/>]", re.IGNORECASE)
# U+FFFD and U+FEFF in UTF-8: what ``_parseable`` puts for a NUL and strips from the start
_REPLACEMENT = "\ufffd".encode()
_BOM = "\ufeff".encode()

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
#: Characters of the ``<title>`` kept: it is outside the text cap, and every step record, table
#: and decision-log line carries it (a 3.5 MB title was kept whole). The longest on the eight
#: dev sites is 118.
MAX_TITLE_CHARS = 1_000


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
    whole = _whole_utf8(html, encoding, min(max_links, max_elements))
    if whole is not None:
        # valid UTF-8 under both caps: lxml reads the bytes as it reads their text (a str
        # it encodes to UTF-8 for libxml2), so the page is not decoded and encoded back
        # (issue 15: ~3% of extraction on the Python docs; equal pages on all 7,256 of
        # the eight dev sites)
        cut, not_parsed = "", 0
        document = read_tree(_parseable_bytes(whole)) or read_soup(
            _parseable(whole.decode("utf-8")))
    else:
        markup, cut, not_parsed = _cut(_as_text(html, encoding), max_links, max_elements)
        markup = _parseable(markup)
        document = read_tree(markup) or read_soup(markup)
    base = resolve(url, document.base_href) if document.base_href is not None else None
    base = base or url
    robots = document.robots
    collector = Collector(base, page_nofollow="nofollow" in robots, text_room=max_text_chars)
    not_walked = document.walk(collector)
    collector.flush(end=True)
    if not_walked >= 0:
        cut = f"after {max_text_chars:,} characters of text"
        not_parsed += not_walked
    text = "\n\n".join(collector.plain_blocks)
    canonical, alternates = head_links(document.head_links, base)
    return Page(
        url=url,
        title=document.title[:MAX_TITLE_CHARS],
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
    # one scan in C first: most pages are under both caps, and then the markup is whole
    # (the loop below, a Python step a tag, was a fortieth of a step on the Python docs)
    # every tag start is a "<": a page with no more "<" than both caps is whole without the
    # scan (str.count is a third of the findall's cost; issue 15)
    starts = markup.count("<")
    if starts <= min(max_elements, max_links):
        return markup, "", 0
    # within the element cap by that count, a page is whole when its <a> tags are within
    # the link cap: counted by _A_TAG, which the scan's pattern agrees with at every "<"
    # (neither's match takes a "<" past its first character), at 2.4× the speed of the
    # scan's findall on the Python docs' nine pages with more "<" than the link cap (19.3
    # -> 8.1 ms; ~1% of a step there; issue 15); over it, it is cut, and the scan finds where
    if starts <= max_elements:
        if len(_A_TAG.findall(markup)) <= max_links:
            return markup, "", 0
    else:
        tags = _TAG_START.findall(markup)  # per tag, "a" or "" (group 1)
        if len(tags) <= max_elements and len(tags) - tags.count("") <= max_links:
            return markup, "", 0
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


def _as_text(html: bytes | str, encoding: str | None) -> str:
    if isinstance(html, str):
        return html
    codec = codec_for(encoding)
    return html.decode(codec, "replace") if codec else decode_html(html, None)[1]


def _whole_utf8(html: bytes | str, encoding: str | None, fewest: int) -> bytes | None:
    """``html`` when it is bytes declared UTF-8 that are valid UTF-8 with no more "<" than
    ``fewest`` (then ``_cut`` keeps it whole); else None, and the page is decoded."""
    if (isinstance(html, str) or html.count(b"<") > fewest
            or codec_for(encoding) != "utf-8" or not is_utf8(html)):
        return None
    return html


def _parseable_bytes(markup: bytes) -> bytes:
    """``_parseable`` of the text of ``markup`` (valid UTF-8), as UTF-8."""
    markup = markup.replace(b"\x00", _REPLACEMENT)
    while markup.startswith(_BOM):
        markup = markup[len(_BOM):]
    if markup.startswith(b"<?xml"):
        return b" " + markup
    if b"<" not in markup:
        return markup + b"\n"
    return markup


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
