"""Sitemap XML → the URLs it lists, read with a parser that cannot be turned against us.

A sitemap (https://www.sitemaps.org/protocol.html) is a ``<urlset>`` of ``<url>`` entries,
each a ``<loc>`` and an optional ``<lastmod>`` (a W3C datetime), or a ``<sitemapindex>`` of
``<sitemap>`` entries whose ``<loc>`` names further sitemaps. Bytes come from anywhere, so
the parser is lxml's with every way out shut (docs/DESIGN.md §11.13):

- no DTD at all: a document holding ``<!DOCTYPE`` is refused before it is parsed (a sitemap
  never needs one; an entity-expansion "billion laughs" or an external entity needs one),
  and one whose DTD the byte check missed (another encoding) when its first element is
  read; ``resolve_entities=False``, ``load_dtd=False`` and ``no_network=True`` besides, and
  libxml2's own amplification limit behind them;
- ``huge_tree=False``: libxml2's limits on text node size and nesting depth stay on;
- the document is read as a stream (``iterparse``) and each entry is cleared once read, so
  what parsing holds is one entry, not a tree of 50,000 (the bytes themselves are bounded by
  the fetcher's cap before they get here). Only the four element names of the protocol make
  events; ``<loc>`` and ``<lastmod>`` are read with ``findtext``.

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
# The elements read, in any namespace (or none): lxml's "{*}" matches every namespace.
_TAGS = ("{*}urlset", "{*}sitemapindex", "{*}url", "{*}sitemap")
_DOCTYPE = b"<!DOCTYPE"
# <loc> and <lastmod> in the sitemaps.org namespace, Google's old one, or none
_NAMESPACES = ("", "{http://www.sitemaps.org/schemas/sitemap/0.9}",
               "{http://www.google.com/schemas/sitemap/0.9}",
               "{http://www.google.com/schemas/sitemap/0.84}")
_LOC = frozenset(f"{ns}loc" for ns in _NAMESPACES)
_LASTMOD = frozenset(f"{ns}lastmod" for ns in _NAMESPACES)
_NO_DTD = ("it declares a DTD (<!DOCTYPE>); a sitemap needs none, and entity expansion is "
           "how XML bombs work: refused unread")
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

    ``urlset``/``url`` … are matched in any namespace, ``loc`` and ``lastmod`` in the
    sitemaps.org one, Google's old ones or none, so a sitemap that forgot the namespace reads
    the same. Raises ``SitemapError`` for
    bytes that are not XML, hold a DTD, or whose root is neither ``urlset`` nor
    ``sitemapindex``.
    """
    if max_entries < 0:
        raise ValueError(f"max_entries must be >= 0, got {max_entries!r}")
    if _DOCTYPE in data:
        # only markup holds it literally (text would escape it): a DTD, refused unparsed
        raise SitemapError(_NO_DTD)
    events = etree.iterparse(
        io.BytesIO(data), events=("start", "end"), tag=_TAGS, resolve_entities=False,
        no_network=True, load_dtd=False, huge_tree=False, remove_comments=True,
        remove_pis=True,
    )
    kind: SitemapKind | None = None
    entries: list[SitemapEntry] = []
    listed = 0
    try:
        for event, element in events:
            if kind is None:
                kind = _root_kind(element.getroottree().getroot())
            if event != "end" or element.tag.endswith(("urlset", "sitemapindex")):
                continue
            entry = _entry(element)
            # what parsing holds stays one entry, whatever the file's length: the entry and
            # the (empty) ones before it go
            element.clear()
            while element.getprevious() is not None:
                del element.getparent()[0]
            if entry is None:
                continue
            listed += 1
            if len(entries) < max_entries:
                entries.append(entry)
        if kind is None:
            kind = _root_kind(events.root)
    except etree.XMLSyntaxError as exc:
        raise SitemapError(f"not well-formed XML ({exc})") from exc
    return ParsedSitemap(kind, tuple(entries), listed)


def _root_kind(root: etree._Element | None) -> SitemapKind:
    if root is None:
        raise SitemapError("an empty document")
    if root.getroottree().docinfo.internalDTD is not None:  # a DOCTYPE in another encoding
        raise SitemapError(_NO_DTD)
    name = _local(root)
    if name == SitemapKind.URLSET.value:
        return SitemapKind.URLSET
    if name == SitemapKind.INDEX.value:
        return SitemapKind.INDEX
    raise SitemapError(f"its root element is <{name}>, not <urlset> or <sitemapindex>")


def _entry(element: etree._Element) -> SitemapEntry | None:
    # a loop over the children: findtext("{*}loc") took 1.6× the whole parse's time
    loc, lastmod = "", ""
    for child in element:
        tag = child.tag
        if tag in _LOC:
            loc = (child.text or "").strip()
        elif tag in _LASTMOD:
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
