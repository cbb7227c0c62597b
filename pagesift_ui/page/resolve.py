"""Resolving a page's hrefs to absolute http(s) URLs, with bounded caches (issue 15).

A site's pages repeat their navigation, so the same hrefs, directories and URLs come back
page after page; ``extract`` and the ``Document`` readers share these (docs/DESIGN.md §2).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from functools import lru_cache
from urllib.parse import urldefrag, urljoin, urlsplit

from w3lib.url import safe_url_string

from pagesift_ui.frontier.urls import MAX_URL_LENGTH

__all__ = [
    "HREF_CACHE_SIZE",
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


#: Entries of the cache of cleaned hrefs, keyed by an href's part before its fragment: a
#: site's pages repeat their navigation, and a docs page's references name the same pages
#: with different fragments ("asyncio-task.html#asyncio.sleep"). bench_step's 120 pages
#: resolve 42,957 hrefs: 17,526 distinct, 1,448 once their fragments are set aside.
HREF_CACHE_SIZE = 4_096


def resolve(base: str, href: str) -> str | None:
    """Absolute http(s) URL without fragment, or None for anything else."""
    # The answer does not depend on what the fragment says, only on whether there is one
    # that cleaning leaves (urldefrag rebuilds a URL that had one): "x.html#a" and
    # "x.html#b" are one cleaned href, "x.html#f". Split before cleaning, the cleaning is
    # cached by the part before the fragment; cleaning strips the ends and drops tabs and
    # newlines (below), so a fragment is left exactly when it is not all white space. The
    # cache keyed by (page, href) it replaces missed 87% of the time (every page is new)
    # and took ~5% of a step on the Python docs (issue 15).
    if len(href) > MAX_URL_LENGTH:
        return _resolve_long(base, href)
    path, hash_sign, fragment = href.partition("#")
    cleaned, relative = _cleaned(
        path, ("f" if fragment and not fragment.isspace() else "") if hash_sign else None)
    if relative:
        # urljoin reads no more of the base than its directory for a relative path (RFC
        # 3986 §5.2.2-5.2.3: the base's query, parameters and last segment are dropped):
        # keyed by the directory, "../c-api/intro.html" and "x.html#f" are joined once for
        # every page of a directory, not once a page, as a first crawl has them (issue 15)
        directory = _base_directory(base)
        if directory is not None:
            return _join_in_directory(directory, cleaned)
    return resolve_href(base, cleaned)


def _resolve_long(base: str, href: str) -> str | None:
    """``resolve`` of an href over ``MAX_URL_LENGTH`` characters, with no cache: the caches are
    bounded in entries, not bytes, and such a link is refused unless cleaning shortens it
    (a page of 1,900 links of 2 KB each kept a GB across the caches; docs/FAULTS.md)."""
    return _join(base, href.strip().translate(TAB_NEWLINE), checked=_http_url)


@lru_cache(maxsize=HREF_CACHE_SIZE)
def _cleaned(path: str, fragment: str | None) -> tuple[str, bool]:
    """The href ``path`` + "#" + ``fragment`` (``path`` alone for None) cleaned, and whether
    it is a relative-path reference."""
    # WHATWG URL §4.4: leading/trailing spaces and tabs/newlines anywhere are dropped; with
    # a fragment, the href's end is the fragment's, already reduced to "f" or ""
    if fragment is None:
        href = path.strip().translate(TAB_NEWLINE)
    else:
        href = f"{path.lstrip().translate(TAB_NEWLINE)}#{fragment}"
    return href, _RELATIVE_PATH.match(href) is not None


@lru_cache(maxsize=RESOLVE_CACHE_SIZE)
def _join_in_directory(directory: str, href: str) -> str | None:
    """A relative-path ``href`` (cleaned) joined to a base whose directory is ``directory``."""
    if "#" not in href and _PLAIN_RELATIVE.fullmatch(href) and _DOT_SEGMENT.search(href) is None:
        return http_url(directory + href)  # a plain path: the join is the concatenation
    return _join(directory, href)


#: An href that is a relative path of plain segments: no scheme, query, fragment, ";"
#: parameters or empty segment. Every link of a page is new to ``resolve_href``'s cache
#: (it is keyed by the page), and most of a documentation page's are such paths
#: ("zlib.html", "../c-api/intro.html" is not); for them ``urljoin`` is the base's directory
#: followed by the href (RFC 3986 §5.2.2-5.2.3 with nothing to remove), ``_base_directory``
#: says when. tests/test_url_caches.py holds the two to the same URL (issue 15).
_PLAIN_RELATIVE = re.compile(r"[A-Za-z0-9_.~%+-]+(?:/[A-Za-z0-9_.~%+-]+)*")
#: A relative-path reference (RFC 3986 §4.2): a first segment that is not empty and has no
#: ":" (which would make it a scheme), whatever follows. Nor does it start with ";":
#: ``urljoin`` reads ";" alone (or before "?" or "#") as an empty path with empty parameters
#: and answers the whole base, not its directory ("http://h/a" joined with ";" is "http://h/a";
#: hypothesis found it).
_RELATIVE_PATH = re.compile(r"[^/?#:;][^/?#:]*(?:[/?#]|$)")
#: A "." or ".." segment, which ``urljoin`` would resolve.
_DOT_SEGMENT = re.compile(r"(?:^|/)\.\.?(?:/|$)")


@lru_cache(maxsize=HREF_CACHE_SIZE)
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
    """A cleaned ``href`` joined to ``base``, as an http(s) URL without fragment or None."""
    return _join(base, href)


def _join(
    base: str, href: str, checked: Callable[[str], str | None] | None = None
) -> str | None:
    """``href`` (cleaned) joined to ``base`` and checked by ``checked`` (``http_url``, the
    cached one, unless a caller keeps out of the caches)."""
    try:
        absolute = urldefrag(urljoin(base, href)).url
    except ValueError:
        return None
    return (checked or http_url)(absolute)


@lru_cache(maxsize=RESOLVE_CACHE_SIZE)
def http_url(absolute: str) -> str | None:
    """``absolute`` as a safe http(s) URL string, or None when it is not http(s)."""
    return _http_url(absolute)


def _http_url(absolute: str) -> str | None:
    try:
        parts = urlsplit(absolute)
        if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
            return None
        return str(safe_url_string(absolute))
    except ValueError:
        return None
