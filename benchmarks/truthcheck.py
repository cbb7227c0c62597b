"""The check every dev-set query must pass: none of its words is in a truth page's URL.

A dev-set query is worded as a person would ask, and its truth comes from the site's own
structure (a table of contents), so a crawler can only find the answers by the pages' content
and the site's links, never by matching the query against URL words. This module makes that
checkable: :func:`url_word_clashes` lists every (query term, truth URL, URL token) pair that
clash, and both truth makers (``pydocs/make_truth.py``, ``sqlitedocs/make_truth.py``) refuse
to write a truth file while the list is not empty.

A query term clashes with a URL token (the path split on everything that is not a letter or
a digit, lower-cased, the page extension dropped) when, after the crawler's own Snowball
stemming (``pagesift_ui.frontier.query``):

- the two stems are equal (``archives`` ~ ``archiving``), or
- the term's stem (3+ letters) is inside the token (``zip`` in ``zipfile``, ``url`` in
  ``urllib``), or
- the token (4+ letters) is inside the term (``test`` in ``testing``, ``filesys`` in
  ``filesystem``).

This is stricter than the crawler's locator match (whole stemmed words only), on purpose:
a URL that *contains* a query word is a URL that gives the answer away to a reader.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from urllib.parse import unquote, urlsplit

from pagesift_ui.frontier.query import Query, stem

__all__ = ["Clash", "url_tokens", "url_word_clashes"]

_TOKEN = re.compile(r"[a-z0-9]+")
_EXTENSION = re.compile(r"\.(?:html?|php|aspx?|jsp|txt)$")
MIN_TERM_INSIDE = 3  # a term stem this long is looked for inside URL tokens
MIN_TOKEN_INSIDE = 4  # a URL token this long is looked for inside query terms


@dataclass(frozen=True, slots=True)
class Clash:
    """A query term that a truth URL gives away."""

    term: str
    url: str
    token: str

    def __str__(self) -> str:
        return f"query word {self.term!r} is in the URL {self.url} (token {self.token!r})"


def url_tokens(url: str) -> list[str]:
    """The words of a URL's path: lower-cased, split on non-alphanumerics, the page-type
    extension of the last segment dropped (the host and query string are not words of the
    page)."""
    path = _EXTENSION.sub("", unquote(urlsplit(url).path).lower())
    return _TOKEN.findall(path)


def _clash(term_stem: str, term: str, token: str) -> bool:
    if term_stem == stem(token):
        return True
    if len(term_stem) >= MIN_TERM_INSIDE and term_stem in token:
        return True
    return len(token) >= MIN_TOKEN_INSIDE and token in term


def url_word_clashes(query: str, urls: Iterable[str]) -> list[Clash]:
    """Every (term, URL, token) where a term of ``query`` (stop words dropped, as the crawler
    parses it) is given away by a URL of ``urls``; empty when the query is clean."""
    parsed = Query(query)
    out: list[Clash] = []
    for url in urls:
        tokens = url_tokens(url)
        for term, term_stem in zip(parsed.terms, parsed.stems, strict=True):
            out.extend(Clash(term, url, token) for token in tokens
                       if _clash(term_stem, term, token))
    return out
