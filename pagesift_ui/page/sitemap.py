"""Sitemap XML → the URLs it lists, read with a parser that cannot be turned against us.

A sitemap (https://www.sitemaps.org/protocol.html) is a ``<urlset>`` of ``<url>`` entries,
each a ``<loc>`` and an optional ``<lastmod>`` (a W3C datetime), or a ``<sitemapindex>`` of
``<sitemap>`` entries whose ``<loc>`` names further sitemaps. Bytes come from anywhere, so
the parser is lxml's with every way out shut (docs/DESIGN.md §11.13):

- no DTD at all: a document with a ``<!DOCTYPE`` is refused when its root opens, before
  anything of its body is read (a sitemap never needs one; an entity-expansion "billion
  laughs" or an external entity needs one); ``resolve_entities=False``, ``load_dtd=False``
  and ``no_network=True`` besides, and libxml2's own amplification limit behind them;
- ``huge_tree=False``: libxml2's limits on text node size and nesting depth stay on;
- the document is read as a stream (``iterparse``) and each entry is cleared once read, so
  what parsing holds is one entry, not a tree of 50,000 (the bytes themselves are bounded by
  the fetcher's cap before they get here).

Pure: bytes in, a ``ParsedSitemap`` out (or ``SitemapError``); no I/O.
"""

from __future__ import annotations

import enum
import io
import re
from dataclasses import dataclass

from lxml import etree

__all__ = [
    "ParsedSitemap",
    "SitemapEntry",
    "SitemapError",
    "SitemapKind",
    "parse_sitemap",
]

# sitemaps.org: "W3C Datetime" (https://www.w3.org/TR/NOTE-datetime): YYYY, YYYY-MM,
# YYYY-MM-DD, then optionally a time and a zone. Anything else is not kept.
_W3C_DATETIME = re.compile(
    r"\d{4}(-\d{2}(-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2}))?)?)?"
)
# A lastmod longer than this is no W3C datetime ("2024-01-02T03:04:05.123456+01:00" is 32).
_MAX_LASTMOD = 40


class SitemapError(ValueError):
    """Bytes that are not a sitemap this parser reads; the message says why, for a person."""


class SitemapKind(enum.StrEnum):
    """What a sitemap document lists."""

    URLSET = "urlset"  # pages
    INDEX = "sitemapindex"  # further sitemaps


@dataclass(frozen=True, slots=True)
class SitemapEntry:
    """One ``<loc>``, as written (stripped), and its ``<lastmod>`` ("" when none or not a
    W3C datetime)."""

    url: str
    lastmod: str = ""


@dataclass(frozen=True, slots=True)
class ParsedSitemap:
    """The entries of one document: the first ``max_entries`` in document order, and
    ``listed``, how many ``<loc>`` entries it holds in all (``listed - len(entries)`` were
    cut)."""

    kind: SitemapKind
    entries: tuple[SitemapEntry, ...]
    listed: int

    @property
    def cut(self) -> int:
        return self.listed - len(self.entries)


def parse_sitemap(data: bytes, max_entries: int) -> ParsedSitemap:
    """The entries of a sitemap or sitemap index (XML, already un-gzipped).

    Element names are matched by local name, so a sitemap that forgot the sitemaps.org
    namespace (or uses the old Google one) reads the same. Raises ``SitemapError`` for
    bytes that are not XML, hold a DTD, or whose root is neither ``urlset`` nor
    ``sitemapindex``.
    """
    if max_entries < 0:
        raise ValueError(f"max_entries must be >= 0, got {max_entries!r}")
    events = etree.iterparse(
        io.BytesIO(data), events=("start", "end"), resolve_entities=False, no_network=True,
        load_dtd=False, huge_tree=False, remove_comments=True, remove_pis=True,
    )
    kind: SitemapKind | None = None
    entries: list[SitemapEntry] = []
    listed = 0
    try:
        for event, element in events:
            if kind is None:
                kind = _root_kind(element)
                continue
            if event != "end":
                continue
            name = _local(element)
            if name not in ("url", "sitemap"):
                continue
            entry = _entry(element)
            element.clear()  # what parsing holds stays one entry, whatever the file's length
            if entry is None:
                continue
            listed += 1
            if len(entries) < max_entries:
                entries.append(entry)
    except etree.XMLSyntaxError as exc:
        raise SitemapError(f"not well-formed XML ({exc})") from exc
    if kind is None:
        raise SitemapError("an empty document")
    return ParsedSitemap(kind, tuple(entries), listed)


def _root_kind(root: etree._Element) -> SitemapKind:
    if root.getroottree().docinfo.internalDTD is not None:
        raise SitemapError("it declares a DTD (<!DOCTYPE>); a sitemap needs none, and "
                           "entity expansion is how XML bombs work: refused unread")
    name = _local(root)
    if name == SitemapKind.URLSET.value:
        return SitemapKind.URLSET
    if name == SitemapKind.INDEX.value:
        return SitemapKind.INDEX
    raise SitemapError(f"its root element is <{name}>, not <urlset> or <sitemapindex>")


def _entry(element: etree._Element) -> SitemapEntry | None:
    loc, lastmod = "", ""
    for child in element:
        name = _local(child)
        if name == "loc":
            loc = (child.text or "").strip()
        elif name == "lastmod":
            lastmod = (child.text or "").strip()
    if not loc:
        return None
    if len(lastmod) > _MAX_LASTMOD or not _W3C_DATETIME.fullmatch(lastmod):
        lastmod = ""
    return SitemapEntry(loc, lastmod)


def _local(element: etree._Element) -> str:
    tag = element.tag
    if not isinstance(tag, str):  # a comment or processing instruction
        return ""
    return tag.rsplit("}", 1)[-1]
