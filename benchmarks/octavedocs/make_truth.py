"""Regenerate the GNU-Octave-manual truth files (a HELD-OUT dev set) from the installed docs.

Run: ``python3 benchmarks/octavedocs/make_truth.py`` (needs ``apt-get install octave-doc``).
``--check`` compares instead of writing and exits 1 when a truth file is out of date.

This set is held out: nothing is chosen or tuned on it, it is only measured
(``benchmarks/octavedocs/README.md``). The queries were worded before any crawl of the site.

The site is the GNU Octave 7 manual as Debian's ``octave-doc`` installs it: texinfo output
split one page per node, ``/usr/share/doc/octave/octave.html`` (507 HTML pages, flat, every
link between them relative), served as it is, ``index.html`` its seed. The folder also holds
2,356 texinfo redirection files (one per function or figure anchor, a
``<meta http-equiv="Refresh">`` and no text) that no page links to; they are never truth
pages. The manual's table of contents is
texinfo's: ``index.html`` (the Top node) carries the whole contents,
``<div class="Contents_element" id="SEC_Contents">``, one ``<li>`` per chapter whose link
names the chapter ("13 Debugging") and whose nested lists link every section, subsection and
subsubsection page of it; each chapter and section page repeats its own part of it as the node's
menu, ``<ul class="section-toc">``. Each query's relevant pages are the pages that one chapter's
entry of the contents lists, the chapter page first: fragments dropped (the few that point
inside a page), pages outside the site dropped, in contents order. ``make_truth`` checks that
the entry names the chapter (another version may renumber or rename it), that the chapter's
menus, walked from its page, list the very same pages in the same order, that every page is
installed, in English (``<body lang="en">``) and not a redirection file. No page is in or out
because of a word in its URL, and a query is refused while one of its words is in a truth URL
(``benchmarks/truthcheck.py``).

The truth files hold URLs on the placeholder base ``http://127.0.0.1:0/``;
``benchmarks/run_all.py --only octavedocs`` rebases them on the port it serves the docs on.
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
    element_text,
    has_class,
    is_redirection,
    local_page,
    render,
    require_installed,
)

__all__ = ["CONTENTS", "DOCS", "PLACEHOLDER", "QUERIES", "SITE", "TITLES", "TRUTH_DIR",
           "chapter_title", "check_length", "contents_pages", "menu_pages", "page_language",
           "render"]

#: Where Debian's octave-doc package installs the manual (507 HTML pages, and redirections).
DOCS = Path("/usr/share/doc/octave/octave.html")
PACKAGE = "octave-doc"
TRUTH_DIR = Path(__file__).resolve().parent
SEED_PAGE = "index.html"
#: The page whose table of contents the truth is read from (the texinfo Top node).
CONTENTS = "index.html"
#: The contents' chapter entries: <div id="SEC_Contents"><div class="contents"><ul><li>.
_CHAPTERS = ("//div[@id='SEC_Contents']/div[" + has_class("contents") + "]/ul/li")
#: A chapter page's heading: <h2 class="chapter">13 Debugging</h2>.
_HEADING = "//h2[" + has_class("chapter") + "]"
#: A node's menu: the direct entries of its <ul class="section-toc">.
_MENU = "//ul[" + has_class("section-toc") + "]/li/a/@href"

#: Chapter page → its heading without the number, checked against the installed page.
TITLES: dict[str, str] = {}


def _chapter(name: str, query: str, chapter: str, title: str) -> QuerySpec:
    TITLES[f"{chapter}.html"] = title
    return QuerySpec(name, query, f"{chapter}.html",
                     f"the pages that the chapter '{title}' ({chapter}.html) lists in the "
                     f"manual's table of contents ({CONTENTS})")


#: Thirteen chapters from across the book (the language, debugging, numerics, classes, sound,
#: the system, packages), 7-23 pages each; each query says what a person wants from the
#: chapter without a word that is in one of its pages' URLs (make_truth refuses those).
#: Worded before any crawl of the site, and not to be reworded after one.
QUERIES: tuple[QuerySpec, ...] = (
    # The language
    _chapter("started", "a first session with the interpreter: launch flags, leaving it, "
             "finding documentation, keyboard shortcuts for recalling and changing input, "
             "annotating code", "Getting-Started", "Getting Started"),
    _chapter("strings", "text values: backslash notation in literals, padded rows of letters, "
             "gluing and tokenizing, regex find and substitute, turning numbers into text",
             "Strings", "Strings"),
    _chapter("containers", "grouping mixed values: records with named fields, key-value "
             "dictionaries, curly-brace collections, and expanding them into argument "
             "sequences", "Data-Containers", "Data Containers"),
    _chapter("statements", "control flow: conditional branching, case selection, repetition "
             "with a counter or a test, leaving early, guaranteed cleanup and handling "
             "exceptions", "Statements", "Statements"),
    _chapter("errors", "signalling problems from your own code: throwing with identifiers, "
             "intercepting failures, the last message, and switching individual diagnostics "
             "on or off", "Errors-and-Warnings", "Errors and Warnings"),
    _chapter("debugging", "hunting mistakes: pausing at chosen lines or on error, stepping "
             "statement by statement, inspecting outer frames and measuring where time goes",
             "Debugging", "Debugging"),
    # Numerics
    _chapter("vectorize", "speeding up loops: whole-array operations, implicit expansion of "
             "singleton dimensions, mapping callbacks over elements, summing into bins",
             "Vectorization-and-Faster-Code-Execution",
             "Vectorization and Faster Code Execution"),
    _chapter("sparse", "mostly-zero arrays: compressed columns, building them from triplets, "
             "results that stay compact, Krylov solvers and fill-reducing orderings",
             "Sparse-Matrices", "Sparse Matrices"),
    _chapter("stats", "summarizing samples: mean, median, spread, moving averages, ranking, "
             "covariance, probability densities, draws from normal or uniform laws",
             "Statistics", "Statistics"),
    # Programming, sound, the system, packages
    _chapter("oop", "user-made types with their own behaviour: constructors, custom plus and "
             "subscripting, parent types, composition, reference versus copy semantics",
             "Object-Oriented-Programming", "Object Oriented Programming"),
    _chapter("audio", "sound: reading and writing WAV, listing sound cards, listening through "
             "speakers, capturing from a microphone, mu-law conversion", "Audio-Processing",
             "Audio Processing"),
    _chapter("sysutils", "interacting with the host machine: clocks and stopwatches, zip and "
             "tar, downloading from URLs, spawning external commands, user accounts, "
             "checksums", "System-Utilities", "System Utilities"),
    _chapter("packages", "community toolboxes: fetching and loading them, where they are kept, "
             "and bundling your own with metadata and load-time hooks", "Packages",
             "Packages"),
)


def _untitled(heading: str, chapter: str) -> str:
    number, space, title = heading.partition(" ")
    if not (number.isdigit() and space and title):
        raise ValueError(f"{chapter} is not a numbered chapter (heading {heading!r})")
    return title


def chapter_title(docs: Path, chapter: str) -> str:
    """The chapter's heading without its number: "Debugging" for "13 Debugging", read off the
    chapter page's ``<h2 class="chapter">``; ValueError when the page is not a numbered
    chapter, or when the contents' entry for it does not say the same."""
    headings = lxml_html.parse(str(docs / chapter)).xpath(_HEADING)
    if len(headings) != 1:
        raise ValueError(f"{chapter} is not a chapter page ({len(headings)} chapter headings)")
    heading = element_text(headings[0])
    entry = _contents_entry(docs, chapter)
    listed = element_text(entry.xpath("a")[0])
    if listed != heading:
        raise ValueError(f"{CONTENTS} names {chapter} {listed!r}, its page {heading!r}")
    return _untitled(heading, chapter)


def _contents_entry(docs: Path, chapter: str) -> lxml_html.HtmlElement:
    entries = [li for li in lxml_html.parse(str(docs / CONTENTS)).xpath(_CHAPTERS)
               if [local_page(h, CONTENTS) for h in li.xpath("a/@href")] == [chapter]]
    if len(entries) != 1:
        raise ValueError(f"{CONTENTS}'s table of contents has {len(entries)} chapter entries "
                         f"for {chapter}, not one")
    entry: lxml_html.HtmlElement = entries[0]
    return entry


def page_language(docs: Path, page: str) -> str:
    """The ``lang`` of the page's ``<body>`` (texinfo puts it there; lower-cased, empty when
    none)."""
    bodies = lxml_html.parse(str(docs / page)).xpath("//body")
    return str(bodies[0].get("lang", "")).strip().lower() if bodies else ""


def _add(pages: list[str], href: str, base: str) -> None:
    relative = local_page(href, base)
    if relative is not None and relative not in pages:  # None: not the served docs
        pages.append(relative)


def contents_pages(docs: Path, chapter: str) -> list[str]:
    """Docs-relative paths of every page the contents' entry of ``chapter`` links to, the
    chapter page first, in order (fragments dropped, other sites dropped).

    Raises FileNotFoundError when a listed page is missing, ValueError when the contents have
    not exactly one entry for the chapter, when a listed page is a redirection file or not in
    English, or when the entry lists fewer than three pages.
    """
    pages: list[str] = []
    for href in _contents_entry(docs, chapter).xpath(".//a/@href"):
        _add(pages, href, CONTENTS)
    require_installed(docs, pages, f"{CONTENTS}'s entry for {chapter}")
    redirections = [p for p in pages if is_redirection(docs, p)]
    if redirections:
        raise ValueError(f"{chapter}'s entry lists redirection files: {redirections}")
    foreign = [(p, lang) for p in pages if (lang := page_language(docs, p)) != "en"]
    if foreign:
        raise ValueError(f"{chapter}'s entry lists pages that are not in English: {foreign}")
    if len(pages) < 3:
        raise ValueError(f"{chapter}'s entry lists fewer than three pages: {pages}")
    return pages


def menu_pages(docs: Path, chapter: str) -> list[str]:
    """``chapter`` and every page its menu lists, each followed by the pages its own menu
    lists (depth first, in menu order; a menu entry that points inside its own page adds
    nothing). Raises FileNotFoundError when a menu names a page that is not installed."""
    pages: list[str] = []

    def walk(page: str) -> None:
        if not (docs / page).is_file():
            raise FileNotFoundError(f"a menu lists {page}, which is not installed")
        pages.append(page)
        for href in lxml_html.parse(str(docs / page)).xpath(_MENU):
            relative = local_page(href, page)
            if relative is not None and relative not in pages:
                walk(relative)

    walk(chapter)
    return pages


def pages_of(spec: QuerySpec, docs: Path = DOCS) -> list[str]:
    """Docs-relative relevant pages of ``spec``; ValueError when its chapter is not the one
    named (another package version renumbered or renamed it), when the chapter's menus do not
    list the same pages as the contents, or when the query is too long."""
    check_length(spec)
    title = chapter_title(docs, spec.source)
    if title != TITLES[spec.source]:
        raise ValueError(f"{spec.source} is the chapter {title!r}, not "
                         f"{TITLES[spec.source]!r}")
    pages = contents_pages(docs, spec.source)
    menus = menu_pages(docs, spec.source)
    if menus != pages:
        raise ValueError(f"{spec.source}: its menus list {menus}, the contents {pages}")
    return pages


def source_of(spec: QuerySpec, docs: Path = DOCS) -> str:
    return (f"links of the chapter {spec.source}'s <li> in the <div id=\"SEC_Contents\"> of "
            f"{CONTENTS} in {docs} (the same pages as its <ul class=\"section-toc\"> menus), "
            "fragments and other sites dropped")


SITE = DocSite(__doc__.splitlines()[0], DOCS, PACKAGE, SEED_PAGE, TRUTH_DIR, QUERIES,
               pages_of, source_of)

if __name__ == "__main__":
    sys.exit(SITE.main())
