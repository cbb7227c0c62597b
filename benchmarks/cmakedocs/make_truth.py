"""Regenerate the CMake-documentation truth files (a HELD-OUT dev set) from the installed docs.

Run: ``python3 benchmarks/cmakedocs/make_truth.py`` (needs ``apt-get install cmake-doc``).
``--check`` compares instead of writing and exits 1 when a truth file is out of date.

This set is held out: nothing is chosen or tuned on it, it is only measured
(``benchmarks/cmakedocs/README.md``). The queries were worded before any crawl of the site.

The site is CMake 3.25's reference documentation as Debian's ``cmake-doc`` installs it: Sphinx
output, one HTML page per command, module, variable, property, policy and generator,
``/usr/share/doc/cmake-data/html`` (1,936 HTML pages in 17 folders and at the top, every link
between them relative), served as it is. Its seed ``index.html`` is the documentation's root
table of contents: a Sphinx toctree per section ("Reference Manuals" lists the 19 reference
manuals). Each reference manual that catalogues pages (``manual/cmake-commands.7.html``,
``manual/cmake-variables.7.html``, ...) sorts them into titled sections (``<section id>`` with
an ``<h2>`` or ``<h3>`` heading), each with a toctree of its own
(``<div class="toctree-wrapper"><ul><li class="toctree-l1"><a href>``, one entry per page, its
link text the page's title).

Each query's relevant pages are the pages that one such section's toctree links to, in list
order. ``make_truth`` checks that the section still has the title named (another version may
rename or regroup it), that the manual is in the "Reference Manuals" toctree of the seed, that
each entry's link text is the ``<h1>`` of the page it links to (or, for a policy, starts with
it: "CMP0011: Included scripts do ..."), that every listed page is installed, has a plain path
(no space or escape in its URL, so the truth URL is the file's own path), is in English
(Sphinx puts ``lang="en"`` on ``<html>``) and is not a redirection file, and that the query is
read as English by the crawler. No page is in or out because of a word in its URL, and a query
is refused while one of its words is in a truth URL (``benchmarks/truthcheck.py``).

The truth files hold URLs on the placeholder base ``http://127.0.0.1:0/``;
``benchmarks/run_all.py --only cmakedocs`` rebases them on the port it serves the docs on.
"""

from __future__ import annotations

import sys
from pathlib import Path
from urllib.parse import quote

from lxml import html as lxml_html

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from truthmaker import (  # noqa: E402
    PLACEHOLDER,
    DocSite,
    QuerySpec,
    check_language,
    check_length,
    check_pages,
    element_text,
    has_class,
    local_page,
    render,
    require_installed,
)
from truthmaker import (
    html_language as page_language,
)

__all__ = ["CONTENTS", "DOCS", "PLACEHOLDER", "QUERIES", "SITE", "TITLES", "TRUTH_DIR",
           "check_language", "check_length", "list_pages", "list_title", "page_language",
           "render"]

#: Where Debian's cmake-doc package installs the documentation (1,936 HTML pages;
#: ``/usr/share/doc/cmake-doc`` is a symbolic link to ``cmake-data``).
DOCS = Path("/usr/share/doc/cmake-data/html")
PACKAGE = "cmake-doc"
TRUTH_DIR = Path(__file__).resolve().parent
SEED_PAGE = "index.html"
#: The seed's section whose toctree lists the reference manuals the truth lists are read from.
CONTENTS = "reference-manuals"
#: A titled section: <section id="ID"> (docutils >= 0.18) or <div class="section" id="ID">.
_SECTION = "//*[self::section or self::div[" + has_class("section") + "]][@id='{}']"
_HEADING = "./*[self::h1 or self::h2 or self::h3 or self::h4 or self::h5 or self::h6]"
#: The toctrees directly in a section (not in its subsections), each top-level entry's link.
_ENTRIES = ("./div[" + has_class("toctree-wrapper") + "]//li[" + has_class("toctree-l1")
            + "]/a[1]")

#: List (``page#section``) → its title, checked against the installed page.
TITLES: dict[str, str] = {}


def _list(name: str, query: str, source: str, title: str) -> QuerySpec:
    TITLES[source] = title
    page, _, _ = source.partition("#")
    return QuerySpec(name, query, source,
                     f"the pages that the list '{title}' of {page} links to")


#: Twelve lists from across the reference manuals, 6-24 pages each: two sections of
#: cmake-commands(7), one of cmake-modules(7), two of cmake-variables(7), one of
#: cmake-properties(7), three of cmake-env-variables(7), the list of cpack-generators(7) and two
#: of cmake-policies(7); each query says what a person wants from the list, worded from the
#: section's title and its entries' link texts only, without a word that is in one of its
#: pages' URLs (make_truth refuses those). Worded before any crawl of the site, and not to be
#: reworded after one.
QUERIES: tuple[QuerySpec, ...] = (
    # cmake-commands(7)
    _list("ctestcmds", "automating a nightly dashboard: fetching sources, compiling, leak "
          "detection, line counts, sending results to a server, pausing between steps",
          "manual/cmake-commands.7.html#ctest-commands", "CTest Commands"),
    _list("deprecatedcmds", "obsolete calls superseded by replacements: old-style nested "
          "folders, spawning processes, saving text to disk, legacy deployment",
          "manual/cmake-commands.7.html#deprecated-commands", "Deprecated Commands"),
    # cmake-modules(7)
    _list("oldmodules", "outdated includable helpers: keyword options, Visual Studio update "
          "level, overriding toolchain choice, wxWidgets, package compatibility",
          "manual/cmake-modules.7.html#deprecated-utility-modules",
          "Deprecated Utility Modules"),
    # cmake-variables(7)
    _list("cpackvars", "bundler behaviour: rejecting full paths, enclosing outer folder, mode "
          "bits of created folders, staging root, relocation",
          "manual/cmake-variables.7.html#variables-for-cpack", "Variables for CPack"),
    _list("internalvars", "private bookkeeping values set by the generator itself: "
          "application binary interface, processor family, which toolchain wins when mixing "
          "source kinds", "manual/cmake-variables.7.html#internal-variables",
          "Internal Variables"),
    # cmake-properties(7)
    _list("cacheprops", "attributes of persistent user-editable settings: hidden in expert "
          "mode, tooltip text, drop-down choices, changed flag, kind",
          "manual/cmake-properties.7.html#properties-on-cache-entries",
          "Properties on Cache Entries"),
    # cmake-env-variables(7)
    _list("buildenv", "environment variables shaping how projects are made: concurrent jobs, "
          "colour warnings, default flavor, wrappers such as ccache, ARM chips",
          "manual/cmake-env-variables.7.html#environment-variables-that-control-the-build",
          "Environment Variables that Control the Build"),
    _list("langenv", "environment variables choosing compilers and default options per "
          "language: Fortran, assembly, GPU kernels, Windows resources",
          "manual/cmake-env-variables.7.html#environment-variables-for-languages",
          "Environment Variables for Languages"),
    _list("ctestenv", "environment variables for the suite runner: printing logs of broken "
          "cases, concurrency, a one-line status display, pausing on crashes",
          "manual/cmake-env-variables.7.html#environment-variables-for-ctest",
          "Environment Variables for CTest"),
    # cpack-generators(7)
    _list("packagers", "creating distributable installers: Debian and Red Hat formats, macOS "
          "disk images, Windows setup wizards, tarballs, zips",
          "manual/cpack-generators.7.html#generators", "Generators"),
    # cmake-policies(7)
    _list("policies26", "2.6 compatibility switches: minimum version, unique target names, "
          "whitespace in linked libraries, escaped preprocessor definitions",
          "manual/cmake-policies.7.html#policies-introduced-by-cmake-2-6",
          "Policies Introduced by CMake 2.6"),
    _list("policies324", "3.24 compatibility switches: path equality, Watcom runtime, "
          "download timestamps, registry view fallback, loop errors",
          "manual/cmake-policies.7.html#policies-introduced-by-cmake-3-24",
          "Policies Introduced by CMake 3.24"),
)


def _split(source: str) -> tuple[str, str]:
    """``page#section`` → (page, section)."""
    page, _, section = source.partition("#")
    if not page or not section:
        raise ValueError(f"{source!r} is not a list reference 'page#section'")
    return page, section


def _section(docs: Path, page: str, section: str) -> lxml_html.HtmlElement:
    found = lxml_html.parse(str(docs / page)).xpath(_SECTION.format(section))
    if len(found) != 1:
        raise ValueError(f"{docs / page} has {len(found)} sections with the id {section!r}, "
                         "not one")
    box: lxml_html.HtmlElement = found[0]
    return box


def _heading(box: lxml_html.HtmlElement, where: str) -> str:
    headings = box.xpath(_HEADING)
    if not headings:
        raise ValueError(f"{where}: the section has no heading")
    return element_text(headings[0])


def list_title(docs: Path, source: str) -> str:
    """The title of the list ``source``: its section's heading ("CTest Commands"); ValueError
    when there is no such section."""
    page, section = _split(source)
    return _heading(_section(docs, page, section), source)


def _entries(docs: Path, source: str) -> list[lxml_html.HtmlElement]:
    """The links of the list ``source``, one per toctree entry, in order."""
    page, section = _split(source)
    links: list[lxml_html.HtmlElement] = _section(docs, page, section).xpath(_ENTRIES)
    return links


def _page_title(docs: Path, page: str) -> str:
    """The page's one ``<h1>`` ("ctest_build", "CMP0011"), or " / "-joined when not one."""
    return " / ".join(element_text(h) for h in lxml_html.parse(str(docs / page)).xpath("//h1"))


def _misnamed(docs: Path, entries: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(page, link text, page heading) of the entries whose link text is not the page's
    ``<h1>`` (nor starts with it and a colon, as a policy's does)."""
    out = []
    for page, text in entries:
        title = _page_title(docs, page)
        if text != title and not text.startswith(title + ": "):
            out.append((page, text, title))
    return out


def list_pages(docs: Path, source: str) -> list[str]:
    """Docs-relative paths of every page the list ``source`` links to, in order (fragments
    dropped, other sites dropped).

    Raises FileNotFoundError when a listed page is missing, ValueError when an entry's link
    text is not the heading of its page, when a listed page's URL is not its file's plain path
    (a space or an escape in it), is not in English or is a redirection file, or when the list
    has fewer than three pages.
    """
    page, _ = _split(source)
    pages: list[str] = []
    named: list[tuple[str, str]] = []
    for link in _entries(docs, source):
        relative = local_page(str(link.get("href", "")), page)
        if relative is None or relative == page or relative in pages:
            continue  # another site, the list page itself or a page listed already
        pages.append(relative)
        named.append((relative, element_text(link)))
    escaped = [p for p in pages if quote(p) != p]
    if escaped:
        raise ValueError(f"{source} lists pages whose URL is not their file's path: {escaped}")
    require_installed(docs, pages, source)
    misnamed = _misnamed(docs, named)
    if misnamed:
        raise ValueError(f"{source}: entries that do not name the page they link to: "
                         f"{misnamed}")
    check_pages(docs, pages, source)
    if len(pages) < 3:
        raise ValueError(f"{source} lists fewer than three installed pages: {pages}")
    return pages


def _check_seed(docs: Path, page: str) -> None:
    """ValueError unless the seed's "Reference Manuals" toctree lists the manual ``page`` (so
    every truth page is two links from the seed)."""
    listed = {local_page(str(a.get("href", "")), SEED_PAGE)
              for a in _entries(docs, f"{SEED_PAGE}#{CONTENTS}")}
    if page not in listed:
        raise ValueError(f"the toctree '{CONTENTS}' of {SEED_PAGE} does not list {page}")


def pages_of(spec: QuerySpec, docs: Path = DOCS) -> list[str]:
    """Docs-relative relevant pages of ``spec``; ValueError when its list is not the one named
    (another package version renamed or regrouped it), when the seed does not lead to it, or
    when the query is too long or not read as English."""
    check_length(spec)
    check_language(spec)
    title = list_title(docs, spec.source)
    if title != TITLES[spec.source]:
        raise ValueError(f"{spec.source} is the list {title!r}, not {TITLES[spec.source]!r}")
    page, _ = _split(spec.source)
    _check_seed(docs, page)
    return list_pages(docs, spec.source)


def source_of(spec: QuerySpec, docs: Path = DOCS) -> str:
    page, section = _split(spec.source)
    return (f"links of the toctree entries (li.toctree-l1) of the section '{section}' of "
            f"{page} in {docs}, other sites dropped")


SITE = DocSite(__doc__.splitlines()[0], DOCS, PACKAGE, SEED_PAGE, TRUTH_DIR, QUERIES,
               pages_of, source_of)

if __name__ == "__main__":
    sys.exit(SITE.main())
