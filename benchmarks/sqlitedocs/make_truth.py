"""Regenerate the SQLite-docs truth files from the installed documentation's own structure.

Run: ``python3 benchmarks/sqlitedocs/make_truth.py`` (needs ``apt-get install sqlite3-doc``).
``--check`` compares instead of writing and exits 1 when a truth file is out of date.

The site (``/usr/share/doc/sqlite3``, 766 HTML pages, flat: almost every page is one path
segment) has one table of contents for all its documents, ``docs.html``: ten named sections
("Overview Documents", "Programming Interfaces", "Extensions", ...), each a list of
documents. A query's relevant pages are the entries of one section (links of
``<ul id="sh_sub_N">`` under the section's heading, pages of this site only, fragments
dropped, in list order); ``docs.html`` itself is not one of them: it lists every section. One
more query takes the statement list of the SQL reference, ``lang.html`` (the page and the
entries of its ``<div class="columns">`` list). No page is in or out because of a word in its
URL, and a query is refused while one of its words is in a truth URL
(``benchmarks/truthcheck.py``).

The truth files hold URLs on the placeholder base ``http://127.0.0.1:0/``;
``benchmarks/run_all.py`` rebases them on the port it serves the docs on.
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
    local_page,
    require_installed,
)

__all__ = ["DOCS", "PLACEHOLDER", "QUERIES", "TRUTH_DIR", "docs_sections", "list_pages",
           "pages_of", "SITE"]

#: Where Debian's sqlite3-doc package installs the HTML documentation.
DOCS = Path("/usr/share/doc/sqlite3")
PACKAGE = "sqlite3-doc"
TRUTH_DIR = Path(__file__).resolve().parent
SEED_PAGE = "index.html"
TOC_PAGE = "docs.html"
STATEMENTS_PAGE = "lang.html"
_SECTIONS = "//ul[starts-with(@id, 'sh_sub_')]"
_ENTRY = ".//a[contains(concat(' ', normalize-space(@class), ' '), ' sh_link ')]/@href"
_STATEMENTS = "//div[contains(concat(' ', normalize-space(@class), ' '), ' columns ')]//a/@href"


def _section(name: str, query: str, title: str) -> QuerySpec:
    return QuerySpec(name, query, f"{TOC_PAGE}: {title}",
                     f"the entries of the section '{title}' of the documentation's table of "
                     f"contents ({TOC_PAGE})")


#: Nine sections of docs.html ("Document Lists And Indexes", three index pages, is left out)
#: and the SQL statement list; each query says what a person wants from the section without
#: a word that is in one of its pages' URLs (make_truth refuses those).
QUERIES: tuple[QuerySpec, ...] = (
    _section("overview", "introduction to the database engine: when to choose it, what sets "
             "it apart, odd behaviours and common questions", "Overview Documents"),
    _section("programming", "programming interfaces for calling the database from an "
             "application, statement grammar, built-in routines and error numbers",
             "Programming Interfaces"),
    _section("extensions", "optional add-on modules: full-text search, spatial range "
             "queries, change capture and virtual tables", "Extensions"),
    _section("features", "engine features: write-ahead journaling, referential integrity, "
             "size ceilings, live copies and concurrent connections", "Features"),
    _section("tools", "command-line utilities shipped with the database: an interactive "
             "shell, a space usage report and comparing two databases", "Tools"),
    _section("advocacy", "why store the documents of a desktop application in the database, well "
             "known users, and speed versus reading blobs from disk",
             "Advocacy"),
    _section("internals", "how the engine works inside: transactions that survive crashes, "
             "concurrency control, the optimizer, the bytecode virtual machine and the "
             "on-disk layout", "Technical and Design Documentation"),
    _section("upgrading", "upgrading to a newer release: what broke between versions, "
             "release history, backwards compatibility of the database layout and "
             "maintaining your own fork", "Upgrading SQLite, Backwards Compatibility"),
    _section("obsolete", "obsolete documents: the first-generation programming library, "
             "legacy storage classes, an early bytecode tutorial and old timing comparisons",
             "Obsolete Documents"),
    QuerySpec("statements", "SQL statement reference: defining schemas, querying and "
              "modifying rows, committing and rolling back", STATEMENTS_PAGE,
              f"{STATEMENTS_PAGE} ('SQL As Understood By SQLite') and the statements its "
              "list links to"),
)


def _unique_installed(docs: Path, pages: list[str], where: str) -> list[str]:
    out: list[str] = []
    for page in pages:
        if page not in out:
            out.append(page)
    require_installed(docs, out, where)
    if len(out) < 3:
        raise ValueError(f"{where} lists fewer than three pages of this site: {out}")
    return out


def docs_sections(docs: Path = DOCS) -> dict[str, list[str]]:
    """Every section of docs.html: its title (the ▼/► marker dropped) → its local pages."""
    tree = lxml_html.parse(str(docs / TOC_PAGE))
    sections: dict[str, list[str]] = {}
    for ul in tree.xpath(_SECTIONS):
        heading = ul.getprevious()
        title = heading.text_content().strip().lstrip("▼►").strip() if heading is not None else ""
        pages = [p for href in ul.xpath(_ENTRY) if (p := local_page(href, TOC_PAGE)) is not None]
        sections[title] = pages
    return sections


def list_pages(docs: Path = DOCS) -> list[str]:
    """lang.html and the pages of its statement list."""
    tree = lxml_html.parse(str(docs / STATEMENTS_PAGE))
    pages = [STATEMENTS_PAGE]
    pages += [p for href in tree.xpath(_STATEMENTS)
              if (p := local_page(href, STATEMENTS_PAGE)) is not None]
    return _unique_installed(docs, pages, STATEMENTS_PAGE)


def pages_of(spec: QuerySpec, docs: Path = DOCS) -> list[str]:
    """Docs-relative relevant pages of ``spec``."""
    if spec.source == STATEMENTS_PAGE:
        return list_pages(docs)
    title = spec.source.removeprefix(f"{TOC_PAGE}: ")
    sections = docs_sections(docs)
    if title not in sections:
        raise ValueError(f"{TOC_PAGE} has no section {title!r}; it has {sorted(sections)}")
    return _unique_installed(docs, sections[title], f"{TOC_PAGE} section {title!r}")


def source_of(spec: QuerySpec, docs: Path = DOCS) -> str:
    if spec.source == STATEMENTS_PAGE:
        where = f"{STATEMENTS_PAGE} plus the links of its <div class=\"columns\"> list"
    else:
        where = (f"<a class=\"sh_link\"> entries under the heading "
                 f"'{spec.source.removeprefix(TOC_PAGE + ': ')}' of {TOC_PAGE}")
    return f"{where} in {docs}, other sites and fragments dropped"


SITE = DocSite(__doc__.splitlines()[0], DOCS, PACKAGE, SEED_PAGE, TRUTH_DIR, QUERIES,
               pages_of, source_of)

if __name__ == "__main__":
    sys.exit(SITE.main())
