"""Regenerate the PostgreSQL-docs truth files (a HELD-OUT dev set) from the installed docs.

Run: ``python3 benchmarks/pgdocs/make_truth.py`` (needs ``apt-get install postgresql-doc-15``).
``--check`` compares instead of writing and exits 1 when a truth file is out of date.

This set is held out: nothing is chosen or tuned on it, it is only measured
(``benchmarks/pgdocs/README.md``). The queries were worded before any crawl of the site.

The site (``/usr/share/doc/postgresql-doc-15/html``, 1,169 HTML pages, DocBook output, flat:
every page is one path segment) is a book of parts and chapters; each chapter page opens with
its own table of contents, ``<div class="toc">``, listing its sections (one page per ``sect1``,
its ``sect2`` entries as fragments of that page). Each query's relevant pages are one chapter
page plus every page its table of contents lists: fragments dropped (a ``sect2`` entry is its
page), pages outside the site dropped, in TOC order, as the Python docs take a chapter and its
toctree. No page is in or out because of a word in its URL, and a query is refused while one of
its words is in a truth URL (``benchmarks/truthcheck.py``: stemmed, and as a part of a URL
word, so "text" and "search" are both given away by ``textsearch-intro.html``).

The truth files hold URLs on the placeholder base ``http://127.0.0.1:0/``;
``benchmarks/run_all.py --only pgdocs`` rebases them on the port it serves the docs on.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lxml import html as lxml_html

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from truthmaker import (  # noqa: E402
    PLACEHOLDER,
    DocSite,
    QuerySpec,
    check_length,
    has_class,
    local_page,
    render,
    require_installed,
)

__all__ = ["DOCS", "PLACEHOLDER", "QUERIES", "SITE", "TITLES", "TRUTH_DIR", "chapter_title",
           "check_length", "render", "toc_pages"]

#: Where Debian's postgresql-doc-15 package installs the HTML documentation (1,169 pages).
DOCS = Path("/usr/share/doc/postgresql-doc-15/html")
PACKAGE = "postgresql-doc-15"
TRUTH_DIR = Path(__file__).resolve().parent
SEED_PAGE = "index.html"
#: The chapter's own table of contents: <div class="chapter"> → <div class="toc">.
_CHAPTER = f"//div[{has_class('chapter')}]"
_TOC = f"{_CHAPTER}/div[{has_class('toc')}]"
_TITLE = f"normalize-space({_CHAPTER}/div[{has_class('titlepage')}]//h2)"


#: Chapter page → its heading without the number, checked against the installed page.
TITLES: dict[str, str] = {}


def _chapter(name: str, query: str, chapter: str, title: str) -> QuerySpec:
    TITLES[f"{chapter}.html"] = title
    return QuerySpec(name, query, f"{chapter}.html",
                     f"the chapter '{title}' ({chapter}.html) and the pages its table of "
                     "contents lists")


#: Thirteen chapters from five parts of the book (II The SQL Language, III Server
#: Administration, IV Client Interfaces, V Server Programming, VII Internals), 7-23 pages
#: each; each query says what a person wants from the chapter without a word that is in one of
#: its pages' URLs (make_truth refuses those). Worded before any crawl of the site, and not
#: to be reworded after one.
QUERIES: tuple[QuerySpec, ...] = (
    # Part II. The SQL Language
    _chapter("ddl", "designing tables: primary keys and uniqueness checks, reshaping them "
             "later, access rights, namespaces and splitting huge tables into pieces", "ddl",
             "Data Definition"),
    _chapter("indexes", "speeding up lookups with B-tree or hash structures: several fields at "
             "once, sorted output, computed values and a subset of rows", "indexes",
             "Indexes"),
    _chapter("mvcc", "what concurrent sessions see of writes by others: isolation "
             "guarantees, deadlocks, invariants enforced by the application and retrying "
             "after a conflicting commit", "mvcc", "Concurrency Control"),
    _chapter("textsearch", "finding documents by natural-language words: stemming, ranking "
             "matches, highlighting hits, stop words, synonyms and thesauri", "textsearch",
             "Full Text Search"),
    # Part III. Server Administration
    _chapter("clientauth", "who may connect and how they prove who they are: rules per host, "
             "Kerberos, directory servers, operating-system accounts and TLS keys",
             "client-authentication", "Client Authentication"),
    _chapter("runtime", "operating the database service: the service account, a fresh data "
             "directory, launching and stopping, major version moves and secure connections",
             "runtime", "Server Setup and Operation"),
    _chapter("wal", "not losing data after a crash or power failure: disk write caches, the "
             "write-ahead journal, checkpoints and trading durability for speed", "wal",
             "Reliability and the Write-Ahead Log"),
    _chapter("logicalrep", "sending changes of selected tables to another server as they "
             "happen: picking columns, clashes on the receiving side and required "
             "parameters", "logical-replication", "Logical Replication"),
    # Part IV. Client Interfaces
    _chapter("libpq", "the C client library: opening a session, sending statements, fetching "
             "results, password files and environment variables", "libpq",
             "libpq — C Library"),
    # Part V. Server Programming
    _chapter("plpgsql", "stored procedures in the built-in procedural language: variables, "
             "loops, conditionals, raising exceptions and converting code from Oracle",
             "plpgsql", "PL/pgSQL — SQL Procedural Language"),
    _chapter("extend", "adding your own functions, aggregates and kinds of values to the "
             "database, writing them in compiled code, and packaging them for installation",
             "extend", "Extending SQL"),
    # Part VII. Internals
    _chapter("protocol", "how client and server talk on the wire: startup handshake, extended "
             "query cycles, SCRAM password exchange and streaming to standbys", "protocol",
             "Frontend/Backend Protocol"),
    _chapter("storage", "tables on disk: the data directory, oversized values kept out of "
             "line, free space and visibility maps, and the block format", "storage",
             "Database Physical Storage"),
)


def chapter_title(docs: Path, chapter: str) -> str:
    """The chapter's heading without its number: "Data Definition" for "Chapter 5. Data
    Definition"; ValueError when the page is not a chapter."""
    tree = lxml_html.parse(str(docs / chapter))
    heading = " ".join(str(tree.xpath(_TITLE)).split())  # DocBook puts no-break spaces in
    number, dot, title = heading.partition(". ")
    if not (number.startswith("Chapter ") and dot):
        raise ValueError(f"{chapter} is not a chapter page (heading {heading!r})")
    return title


def toc_pages(docs: Path, chapter: str) -> list[str]:
    """Docs-relative paths of ``chapter`` and of every page its table of contents links to,
    in order (fragments dropped, other sites dropped).

    Raises FileNotFoundError when the chapter or a listed page is missing, ValueError when
    the page has not exactly one chapter table of contents or it lists fewer than two pages.
    """
    page = docs / chapter
    tree = lxml_html.parse(str(page))
    tocs = tree.xpath(_TOC)
    if len(tocs) != 1:
        raise ValueError(f"{page} has {len(tocs)} chapter tables of contents, not one")
    pages = [chapter]
    for href in tocs[0].xpath(".//a/@href"):
        relative = local_page(href, chapter)
        if relative is not None and relative not in pages:  # None: not the served docs
            pages.append(relative)
    if len(pages) < 3:
        raise ValueError(f"{page}'s table of contents lists fewer than two pages: {pages}")
    require_installed(docs, pages, f"{chapter}'s table of contents")
    return pages


def pages_of(spec: QuerySpec, docs: Path = DOCS) -> list[str]:
    """Docs-relative relevant pages of ``spec``; ValueError when its chapter is not the one
    named (another package version renumbered or renamed it) or the query is too long."""
    check_length(spec)
    title = chapter_title(docs, spec.source)
    if title != TITLES[spec.source]:
        raise ValueError(f"{spec.source} is the chapter {title!r}, not "
                         f"{TITLES[spec.source]!r}")
    return toc_pages(docs, spec.source)


def source_of(spec: QuerySpec, docs: Path = DOCS) -> str:
    return (f"<div class=\"toc\"> links of the chapter page {spec.source} in {docs}, "
            "fragments and other sites dropped")


SITE = DocSite(__doc__.splitlines()[0], DOCS, PACKAGE, SEED_PAGE, TRUTH_DIR, QUERIES,
               pages_of, source_of)

if __name__ == "__main__":
    sys.exit(SITE.main())
