"""Query parameters that make copies, learned from the copies the crawl fetched; pure.

A site that serves every page again under ``?print=1`` (or ``?view=full``, ``?share=1``) links
each page's copy from the page itself. Each copy is caught when fetched (its canonical link
names the page, or its text is the page's: docs/DESIGN.md §10), but each still costs a
fetch, and on the university demo 37 of 104 fetches were printer-friendly copies. URL
templates do not catch them: a template is a path, and the copies are spread over every
path of the site.

This is the DUST problem ("different URLs with similar text": Bar-Yossef, Keidar and
Schonfeld, *Do not crawl in the DUST*, WWW 2007; Dasgupta et al., *De-duping URLs via
rewrite rules*, KDD 2008): learn, from pairs of URLs known to hold the same page, the rules
that rewrite one into the other, and apply them to URLs before fetching. The rules learned
here are the simplest kind those papers find: a ``name=value`` pair whose presence makes a
copy (the copy's URL is the page's URL plus the pair). A pair is learned once copies carrying
it were fetched under ``COPY_PATHS`` different paths, and never while any fetched page that
carries it proved a page of its own (a paginated ``?page=2`` is not a copy of page 1): one
copy may be one page ignoring an unknown parameter, two on different paths are the site's
habit. A learned pair is dropped from a link's URL before the link is queued, so the link
stands for the page it copies (docs/DESIGN.md §10, "copy parameters"). Pairs are learned per
host, as the papers learn rules per site: one site's ``?print=1`` says nothing of another's.

A name is learned whatever its value (``sort=*``) once copies carried ``COPY_VALUES``
different values of it, on ``COPY_PATHS`` paths, and no page of its own carries it with any
value: its value does not matter to the page (a listing's ``?sort=newest`` and
``?sort=popular``; a cache-buster ``?v=`` whose value is new on every link, which no pair
rule ever learns). One value's copies (``?page=1`` naming the list canonical) say nothing of
the other values (``?page=2`` is another page), so they teach the pair alone.
"""

from __future__ import annotations

import logging
from urllib.parse import unquote_plus, urlsplit, urlunsplit

__all__ = ["ANY_VALUE", "COPY_PATHS", "COPY_VALUES", "CopyParameters", "query_pairs"]

logger = logging.getLogger(__name__)

#: Different paths whose copies must carry a pair before it is learned (module docstring).
COPY_PATHS = 2
#: Different values of one name its copies must carry before the name is learned whatever
#: its value (module docstring).
COPY_VALUES = 2
#: Candidate pairs kept at most: a hostile site may put a fresh pair on every copy, and only
#: a pair seen on more than one path is ever learned.
MAX_CANDIDATES = 4_096

Pair = tuple[str, str]
_Key = tuple[str, Pair]  # (host, pair): a pair is learned per host
#: The value of a name's rule, learned whatever the value (``name=*``); no decoded query
#: value holds a NUL and a star.
ANY_VALUE = "\x00*"


def query_pairs(query: str) -> list[tuple[Pair, str]]:
    """The query's ``(name, value)`` pairs, decoded (names lower-cased), each with its raw
    text, in order.

    >>> query_pairs("print=1&Q=a+b")
    [(('print', '1'), 'print=1'), (('q', 'a b'), 'Q=a+b')]
    """
    out = []
    for raw in query.split("&"):
        if not raw:
            continue
        name, _, value = raw.partition("=")
        out.append(((unquote_plus(name).lower(), unquote_plus(value)), raw))
    return out


def _extra_pairs(copy_url: str, original_url: str) -> frozenset[Pair]:
    """The pairs ``copy_url`` adds to ``original_url``, when it is that URL plus pairs (same
    scheme, host and path; every pair of the original kept); empty otherwise."""
    copy, original = urlsplit(copy_url), urlsplit(original_url)
    if (copy.scheme, copy.netloc.lower(), copy.path) != (
            original.scheme, original.netloc.lower(), original.path):
        return frozenset()
    copy_pairs = {pair for pair, _ in query_pairs(copy.query)}
    original_pairs = {pair for pair, _ in query_pairs(original.query)}
    if not original_pairs <= copy_pairs:
        return frozenset()
    return frozenset(copy_pairs - original_pairs)


class CopyParameters:
    """The ``name=value`` pairs learned to make copies, per host (module docstring).

    ``fetched(url, copy_of)`` tells it about each fetched page: ``copy_of`` the URL of the page
    it copies (a canonical link that names another URL, or the page fetched before whose text
    it repeats), "" for a page of its own. ``original(url)`` is the URL without the pairs
    learned on its host, or None when it carries none. A pair is learned per host: a site's
    habit is its own (DUST rules are learned per site).
    """

    __slots__ = ("_copies", "_distinct", "_learned", "_values")

    def __init__(self) -> None:
        # (host, pair) → the paths of copies carrying it, or of pages of their own; a name's
        # rule is the pair (name, ANY_VALUE), which every value of the name counts for
        self._copies: dict[_Key, set[str]] = {}
        self._distinct: dict[_Key, set[str]] = {}
        self._values: dict[_Key, set[str]] = {}  # (host, (name, ANY_VALUE)) → copies' values
        self._learned: set[_Key] = set()

    def learned(self) -> dict[str, int]:
        """Each learned pair as ``name=value`` → the paths of copies that taught it (the most
        of any host that learned it)."""
        out: dict[str, int] = {}
        for key in sorted(self._learned, key=lambda key: (key[1], key[0])):
            text = _text(key[1])
            out[text] = max(out.get(text, 0), len(self._copies[key]))
        return out

    def fetched(self, url: str, copy_of: str = "") -> str:
        """A page fetched at ``url`` (cleaned), a copy of ``copy_of`` or a page of its own.
        Returns the pair this page taught as ``name=value``, or ""."""
        parts = urlsplit(url)
        host = parts.netloc.lower()
        if not copy_of:
            touched = _keys(host, [pair for pair, _ in query_pairs(parts.query)])
            for key in touched:
                self._note(self._distinct, key, parts.path)
            return self._settle(touched)
        added = _extra_pairs(url, copy_of)
        # the page it repeats was the copy (the copy was fetched first and named no
        # canonical page): that page was not a page of its own after all
        repeated = _keys(host, sorted(_extra_pairs(copy_of, url)))
        for key in repeated:
            self._distinct.get(key, set()).discard(parts.path)
        touched = _keys(host, sorted(added)) + repeated
        for key in touched:
            self._note(self._copies, key, parts.path)
            _, (name, value) = key
            if value != ANY_VALUE:  # the name's rule counts the values its copies carried
                values = self._values.get((host, (name, ANY_VALUE)))
                if values is not None:
                    values.add(value)
                elif len(self._values) < MAX_CANDIDATES:
                    self._values[(host, (name, ANY_VALUE))] = {value}
        return self._settle(touched)

    def _note(self, paths_of: dict[_Key, set[str]], key: _Key, path: str) -> None:
        paths = paths_of.get(key)
        if paths is None:
            if len(self._copies) + len(self._distinct) >= MAX_CANDIDATES:
                return
            paths = paths_of[key] = set()
        paths.add(path)

    def _settle(self, touched: list[_Key]) -> str:
        """Of the ``touched`` pairs, learn those with copies on ``COPY_PATHS`` paths and no
        page of their own; unlearn one that has one now. Returns the first learned, or ""."""
        taught = ""
        for key in touched:
            host, (name, value) = key
            paths = len(self._copies.get(key, ()))
            own = bool(self._distinct.get(key))
            # a name's rule also needs two values: one value's copies say nothing of the
            # others'
            enough = (paths >= COPY_PATHS and (
                value != ANY_VALUE or len(self._values.get(key, ())) >= COPY_VALUES))
            if key in self._learned and own:
                self._learned.discard(key)
                logger.info("%s no longer makes copies on %s: a page carrying it is a "
                            "page of its own", _text((name, value)), host)
            elif key not in self._learned and not own and enough:
                self._learned.add(key)
                taught = taught or _text((name, value))
                logger.info("learned: %s makes copies on %s (copies on %d paths)",
                            _text((name, value)), host, paths)
        return taught

    def original(self, url: str) -> tuple[str, str] | None:
        """``url`` without the pairs learned on its host, and the first pair dropped
        (``name=value``); None when it carries no learned pair."""
        # most links carry no query at all: no split for them (every link of a page is
        # asked once a pair is learned; issue 15)
        if not self._learned or "?" not in url:
            return None
        parts = urlsplit(url)
        if not parts.query:
            return None
        host = parts.netloc.lower()
        kept: list[str] = []
        dropped = ""
        for pair, raw in query_pairs(parts.query):
            if (host, pair) in self._learned:
                dropped = dropped or _text(pair)
            elif (host, (pair[0], ANY_VALUE)) in self._learned:
                dropped = dropped or _text((pair[0], ANY_VALUE))
            else:
                kept.append(raw)
        if not dropped:
            return None
        return urlunsplit(parts._replace(query="&".join(kept))), dropped


def _keys(host: str, pairs: list[Pair]) -> list[_Key]:
    """Each pair's rule and its name's, on ``host``, in order (a name once)."""
    keys: dict[_Key, None] = {}
    for name, value in pairs:
        keys[(host, (name, value))] = None
        keys[(host, (name, ANY_VALUE))] = None
    return list(keys)


def _text(pair: Pair) -> str:
    """``name=value``, or ``name=*`` for a name's rule."""
    return f"{pair[0]}={'*' if pair[1] == ANY_VALUE else pair[1]}"
