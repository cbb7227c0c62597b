"""Resolving a page's hrefs to absolute http(s) URLs, with bounded caches (issue 15).

A site's pages repeat their navigation, so the same (page, href) pairs and URLs come back
page after page; ``extract`` and the ``Document`` readers share these (docs/DESIGN.md §2).
"""

from __future__ import annotations

import re
from functools import lru_cache
from urllib.parse import urldefrag, urljoin, urlsplit

from w3lib.url import safe_url_string

__all__ = [
    "PAGE_HREF_CACHE_SIZE",
    "RESOLVE_CACHE_SIZE",
    "TAB_NEWLINE",
    "http_url",
    "resolve",
    "resolve_href",
]

TAB_NEWLINE = str.maketrans("", "", "\t\n\r")

#: Entries of each resolution cache. A site's pages repeat their navigation: of the 164,265
#: ``<a href>`` of the Python docs, 23,092 are distinct (page, href) pairs once fragments
#: are set aside and 4,719 distinct URLs, while urljoin + urlsplit + safe_url_string cost
#: ~25 µs a link (issue 15). Bounded: a 100k-link crawl holds at most this many of each.
RESOLVE_CACHE_SIZE = 65_536


#: Entries of the outer cache, raw (page, href) pairs. A page is read once in a crawl, so its
#: pairs repeat only on that page (an href listed twice): in a 500-page crawl of the Python
#: docs 4,096 entries caught 60,843 of the 62,835 hits 65,536 did, and 65,536 held ~20 MB of
#: href strings (bench_memory.py's peak 216 → 239 MB).
PAGE_HREF_CACHE_SIZE = 4_096


@lru_cache(maxsize=PAGE_HREF_CACHE_SIZE)
def resolve(base: str, href: str) -> str | None:
    """Absolute http(s) URL without fragment, or None for anything else."""
    # cached as a whole too: the cleaning below was a third of the cost of a resolution that
    # the inner cache answers (issue 15)
    # WHATWG URL §4.4: leading/trailing spaces and tabs/newlines anywhere are dropped.
    href = href.strip().translate(TAB_NEWLINE)
    # The answer does not depend on what the fragment says, only on whether there is one
    # (urldefrag rebuilds a URL that had one): "x.html#a" and "x.html#b" share an entry.
    path, hash_sign, fragment = href.partition("#")
    if hash_sign:
        href = f"{path}#{'f' if fragment else ''}"
    # urljoin reads no more of the base than its directory for a relative path (RFC 3986
    # §5.2.2-5.2.3: the base's query, parameters and last segment are dropped): keyed by the
    # directory, "../c-api/intro.html" and "x.html#f" are joined once for every page of a
    # directory, not once a page, as a first crawl has them (issue 15)
    directory = _base_directory(base) if _RELATIVE_PATH.match(href) else None
    if directory is None:
        return resolve_href(base, href)
    if not hash_sign and _PLAIN_RELATIVE.fullmatch(href) and _DOT_SEGMENT.search(href) is None:
        return http_url(directory + href)  # a plain path: the join is the concatenation
    return resolve_href(directory, href)


#: An href that is a relative path of plain segments: no scheme, query, fragment, ";"
#: parameters or empty segment. Every link of a page is new to ``resolve_href``'s cache
#: (it is keyed by the page), and most of a documentation page's are such paths
#: ("zlib.html", "../c-api/intro.html" is not); for them ``urljoin`` is the base's directory
#: followed by the href (RFC 3986 §5.2.2-5.2.3 with nothing to remove), ``_base_directory``
#: says when. tests/test_url_caches.py holds the two to the same URL (issue 15).
_PLAIN_RELATIVE = re.compile(r"[A-Za-z0-9_.~%+-]+(?:/[A-Za-z0-9_.~%+-]+)*")
#: A relative-path reference (RFC 3986 §4.2): a first segment that is not empty and has no
#: ":" (which would make it a scheme), whatever follows.
_RELATIVE_PATH = re.compile(r"[^/?#:][^/?#:]*(?:[/?#]|$)")
#: A "." or ".." segment, which ``urljoin`` would resolve.
_DOT_SEGMENT = re.compile(r"(?:^|/)\.\.?(?:/|$)")


@lru_cache(maxsize=PAGE_HREF_CACHE_SIZE)
def _base_directory(base: str) -> str | None:
    """``base`` up to the last "/" of its path, as ``urljoin`` joins a plain relative path
    to it, or None when ``urljoin`` would do more: a base with no path, with an empty or a
    dot segment (which it would drop or resolve), or not http(s)."""
    try:
        parts = urlsplit(base)
    except ValueError:
        return None
    path = parts.path
    if (parts.scheme not in ("http", "https") or not parts.netloc or not path.startswith("/")
            or "//" in path):
        return None
    directory = path[: path.rfind("/") + 1]
    if _DOT_SEGMENT.search(directory) is not None:
        return None
    return f"{parts.scheme}://{parts.netloc}{directory}"


@lru_cache(maxsize=RESOLVE_CACHE_SIZE)
def resolve_href(base: str, href: str) -> str | None:
    try:
        absolute = urldefrag(urljoin(base, href)).url
    except ValueError:
        return None
    return http_url(absolute)


@lru_cache(maxsize=RESOLVE_CACHE_SIZE)
def http_url(absolute: str) -> str | None:
    try:
        parts = urlsplit(absolute)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            return None
        return str(safe_url_string(absolute))
    except ValueError:
        return None
