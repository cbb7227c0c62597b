"""Regenerate the Apache-HTTP-Server-docs truth files (a HELD-OUT dev set) from the installed docs.

Run: ``python3 benchmarks/apachedocs/make_truth.py`` (needs ``apt-get install apache2-doc``).
``--check`` compares instead of writing and exits 1 when a truth file is out of date.

This set is held out: nothing is chosen or tuned on it, it is only measured
(``benchmarks/apachedocs/README.md``). The queries were worded before any crawl of the site.

The site is the English Apache HTTP Server 2.4 manual as Debian's ``apache2-doc`` installs it:
upstream's content-negotiated variants (``bind.html.en``, ``bind.html.fr``, ...) are already
split into one folder per language, each page under its plain name, so
``/usr/share/doc/apache2-doc/manual/en`` (244 HTML pages in ten folders) is served as it is,
``index.html`` its seed, every link between its pages relative. The manual's own table of
contents is its site map, ``sitemap.html``: one ``<div class="section">`` per part of the
manual, its ``<h2>`` naming the part and its list linking the part's pages (the part's own
index page first, where it has one). Each query's relevant pages are the pages that one titled
section of a listing page links to (a section of ``sitemap.html``, or the first section of the
module index ``mod/index.html``): fragments dropped, pages outside the site dropped, in list
order. No page is in or out because of a word in its URL, and a query is refused while one of
its words is in a truth URL (``benchmarks/truthcheck.py``).

Two faults of the installed site are checked rather than papered over: a page the list names
that is not installed (the crawler gets a 404) must be declared in :data:`ABSENT`, and every
truth page must be English (``<html lang="en">``): Debian's ``en/`` folder holds the Brazilian
Portuguese text of six top-level pages (``bind.html``, ``install.html``, ...), which is why no
query is taken from the sections that list them.

The truth files hold URLs on the placeholder base ``http://127.0.0.1:0/``;
``benchmarks/run_all.py --only apachedocs`` rebases them on the port it serves the docs on.
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
    check_pages,
    has_class,
    local_page,
    render,
    require_installed,
)
from truthmaker import (
    html_language as page_language,
)

__all__ = ["ABSENT", "DOCS", "PLACEHOLDER", "QUERIES", "SITE", "TITLES", "TRUTH_DIR",
           "check_length", "page_language", "render", "section_pages", "section_title"]

#: Where Debian's apache2-doc package installs the English manual (244 HTML pages).
DOCS = Path("/usr/share/doc/apache2-doc/manual/en")
PACKAGE = "apache2-doc"
TRUTH_DIR = Path(__file__).resolve().parent
SEED_PAGE = "index.html"
#: A titled section of a listing page: <div class="section"><h2><a id="ID">Title</a></h2>.
_SECTION = "//div[@id='page-content']/div[" + has_class("section") + "][h2/a[@id='{}']]"
#: The heading's text without its permalink mark (a "¶" link some pages add).
_HEADING = "h2//text()[not(ancestor::a[" + has_class("permalink") + "])]"

#: Section (``page#id``) → its heading, checked against the installed page.
TITLES: dict[str, str] = {}

#: Section → pages its list links to that the package does not install (404 to a crawler):
#: dropped from the truth, and any other missing page is an error.
ABSENT: dict[str, tuple[str, ...]] = {
    "sitemap.html#platform": ("platform/perf-hp.html",),
}


def _section(name: str, query: str, source: str, title: str) -> QuerySpec:
    TITLES[source] = title
    page, _, _ = source.partition("#")
    return QuerySpec(name, query, source, f"the pages that the section '{title}' of {page} lists")


#: Nine parts of the manual, 5-19 pages each: eight sections of the site map (virtual hosts,
#: URL rewriting, SSL/TLS, the how-tos, platforms, programs, miscellaneous, developers) and the
#: module index's core and MPM modules; each query says what a person wants from the part
#: without a word that is in one of its pages' URLs (make_truth refuses those). Worded before
#: any crawl of the site, and not to be reworded after one.
QUERIES: tuple[QuerySpec, ...] = (
    # Users' guide parts of the site map
    _section("vhosts", "several websites on one machine: telling them apart by requested "
             "domain or by address, configuring hundreds dynamically, file descriptor "
             "ceilings", "sitemap.html#vhosts", "Apache Virtual Host documentation"),
    _section("rewrite", "changing request URLs with regular expressions: redirects, "
             "conditions, lookup tables kept in external files and when simpler directives "
             "suffice", "sitemap.html#rewrite", "URL Rewriting Guide"),
    _section("ssl", "encrypting traffic with TLS: certificates and private keys, cipher "
             "choices, verifying clients, browser quirks and common questions",
             "sitemap.html#ssl", "Apache SSL/TLS Encryption"),
    _section("howto", "tutorials: requiring a password, restricting clients, dynamic "
             "scripts, server side includes, users' home pages and load balancing",
             "sitemap.html#howto", "Guides, Tutorials, and HowTos"),
    _section("misc", "making the server fast and hard to attack: hardware choices, hardening "
             "advice, the RFCs it follows and credential hashing formats",
             "sitemap.html#misc", "Apache Miscellaneous Documentation"),
    # Platforms, programs, developers
    _section("platform", "the web server on other operating systems: Microsoft, building it "
             "from source there, Red Hat packages, Novell and mainframe character sets",
             "sitemap.html#platform", "Platform-specific Notes"),
    _section("programs", "utilities bundled with the web daemon: its control script, "
             "benchmarking, building add-on modules, password upkeep, pruning the disk store",
             "sitemap.html#programs", "Apache HTTP Server and Supporting Programs"),
    _section("developer", "writing server extensions in C: attaching to processing phases, "
             "following an incoming call, transforming response bodies, concurrency "
             "pitfalls", "sitemap.html#developer", "Developer Documentation"),
    # The module reference: the module index's first section
    _section("mpm", "directives every build has, and how the daemon serves many simultaneous "
             "connections with child processes and threads on each operating system",
             "mod/index.html#core", "Core Features and Multi-Processing Modules"),
)


def _split(source: str) -> tuple[str, str]:
    page, hash_, section = source.partition("#")
    if not (page and hash_ and section):
        raise ValueError(f"{source!r} is not a section reference 'page.html#id'")
    return page, section


def section_title(docs: Path, source: str) -> str:
    """The heading of the section ``source`` (``page#id``): "URL Rewriting Guide" for
    ``sitemap.html#rewrite``; ValueError when the page has not exactly one such section."""
    page, section = _split(source)
    found = lxml_html.parse(str(docs / page)).xpath(_SECTION.format(section))
    if len(found) != 1:
        raise ValueError(f"{docs / page} has {len(found)} sections with the id {section!r}, "
                         "not one")
    return " ".join("".join(found[0].xpath(_HEADING)).split())



def section_pages(docs: Path, source: str, absent: tuple[str, ...] = ()) -> list[str]:
    """Docs-relative paths of every page the section ``source`` (``page#id``) links to, in
    order (fragments dropped, other sites dropped, the listing page itself dropped, the
    declared ``absent`` pages dropped).

    Raises FileNotFoundError when a listed page is missing and not declared absent, ValueError
    when a declared-absent page is installed after all, when a listed page is not in English,
    when the page has not exactly one such section, or when it lists fewer than three pages.
    """
    page, section = _split(source)
    found = lxml_html.parse(str(docs / page)).xpath(_SECTION.format(section))
    if len(found) != 1:
        raise ValueError(f"{docs / page} has {len(found)} sections with the id {section!r}, "
                         "not one")
    pages: list[str] = []
    listed: list[str] = []
    for href in found[0].xpath(".//a/@href"):
        relative = local_page(href, page)
        if relative is None or relative == page or relative in listed:
            continue  # another site, the list page itself or a page listed already
        listed.append(relative)
        if relative not in absent:
            pages.append(relative)
    installed = [p for p in absent if (docs / p).is_file()]
    if installed:
        raise ValueError(f"{source}: pages declared absent are installed: {installed}")
    require_installed(docs, pages, source)
    unlisted = [p for p in absent if p not in listed]
    if unlisted:
        raise ValueError(f"{source}: pages declared absent are not listed: {unlisted}")
    check_pages(docs, pages, source)
    if len(pages) < 3:
        raise ValueError(f"{source} lists fewer than three installed pages: {pages}")
    return pages


def pages_of(spec: QuerySpec, docs: Path = DOCS) -> list[str]:
    """Docs-relative relevant pages of ``spec``; ValueError when its section is not the one
    named (another package version renamed or moved it) or the query is too long."""
    check_length(spec)
    title = section_title(docs, spec.source)
    if title != TITLES[spec.source]:
        raise ValueError(f"{spec.source} is the section {title!r}, not "
                         f"{TITLES[spec.source]!r}")
    return section_pages(docs, spec.source, ABSENT.get(spec.source, ()))


def source_of(spec: QuerySpec, docs: Path = DOCS) -> str:
    page, section = _split(spec.source)
    absent = ABSENT.get(spec.source, ())
    dropped = f", {', '.join(absent)} dropped (not installed)" if absent else ""
    return (f"links of the <div class=\"section\"> '{section}' of {page} in {docs}, fragments "
            f"and other sites dropped{dropped}")


SITE = DocSite(__doc__.splitlines()[0], DOCS, PACKAGE, SEED_PAGE, TRUTH_DIR, QUERIES,
               pages_of, source_of)

if __name__ == "__main__":
    sys.exit(SITE.main())
