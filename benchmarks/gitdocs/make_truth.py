"""Regenerate the Git-documentation truth files (a HELD-OUT dev set) from the installed docs.

Run: ``python3 benchmarks/gitdocs/make_truth.py`` (needs ``apt-get install git-doc``).
``--check`` compares instead of writing and exits 1 when a truth file is out of date.

This set is held out: nothing is chosen or tuned on it, it is only measured
(``benchmarks/gitdocs/README.md``). The queries were worded before any crawl of the site.

The site is Git 2.39's documentation as Debian's ``git-doc`` installs it: asciidoc output,
one HTML page per manual page and guide, ``/usr/share/doc/git/html`` (a link to
``/usr/share/doc/git-doc``: 241 HTML pages, two subfolders ``howto/`` and ``technical/``, every
link between them relative), served as it is. Its seed ``index.html`` is a symbolic link to
``git.html``, the git(1) manual page, which is the documentation's own table of contents: it
sorts every command into titled sections (``<div class="sect2">`` under an ``<h3 id>``: the
main porcelain commands, the ancillary ones, the plumbing that manipulates, interrogates or
syncs, the internal helpers) and lists the guides, the interface documents and the format and
protocol documents in sections of their own (``<div class="sect1">`` under an ``<h2 id>``),
each list an asciidoc definition list (``<div class="dlist"><dl><dt><a href>``, one entry per
page, its link text the page's name, ``git-add(1)``). Two smaller index pages that git(1)
links to list the how-to articles (``howto-index.html``) and the internal API documents
(``technical/api-index.html``) in bulleted lists.

Each query's relevant pages are the pages that one such list links to, in list order: the
definition lists directly under one section heading of ``git.html`` (or the one that follows a
label paragraph such as "Manipulators:" inside it), or the bulleted lists of an index page's
preamble (each item's first link; the authors' mail addresses and other sites dropped).
``make_truth`` checks that the section or page still has the title named (another version may
rename or regroup it), that each manual-page entry's link text is the ``<h1>`` of the page it
links to, that every listed page is installed (except the declared :data:`ABSENT` ones, which
must really be missing), in English (asciidoc puts ``xml:lang="en"`` on ``<html>``) and not a
redirection file, that an index page is linked from the seed, and that the seed is the same
page as ``git.html``. No page is in or out because of a word in its URL, and a query is
refused while one of its words is in a truth URL (``benchmarks/truthcheck.py``).

The truth files hold URLs on the placeholder base ``http://127.0.0.1:0/``;
``benchmarks/run_all.py --only gitdocs`` rebases them on the port it serves the docs on.
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
    element_text,
    has_class,
    local_page,
    render,
    require_installed,
)
from truthmaker import (
    html_language as page_language,
)

__all__ = ["ABSENT", "CONTENTS", "DOCS", "PLACEHOLDER", "QUERIES", "SITE", "TITLES",
           "TRUTH_DIR", "check_length", "list_pages", "list_title", "page_language", "render"]

#: Where Debian's git-doc package installs the documentation (241 HTML pages, and links).
DOCS = Path("/usr/share/doc/git/html")
PACKAGE = "git-doc"
TRUTH_DIR = Path(__file__).resolve().parent
SEED_PAGE = "index.html"
#: The page whose sections list the commands, guides and documents: git(1), which the seed
#: ``index.html`` is a symbolic link to.
CONTENTS = "git.html"
#: A titled section of git.html: <div class="sect1"><h2 id="ID"> or <div class="sect2"><h3 id>.
_HEADING = "//*[self::h2 or self::h3][@id='{}']"
#: The lists directly in a section: its definition lists (a sect1's are in its sectionbody).
_DLISTS = ("./div[" + has_class("dlist") + "] | ./div[" + has_class("sectionbody")
           + "]/div[" + has_class("dlist") + "]")
_ENTRIES = "./dl/dt/a[1]"
#: An index page's lists: the bulleted lists of its preamble, each item's first link.
_BULLETS = ("//div[@id='preamble']//div[" + has_class("ulist") + "]/ul/li/p/a[1]")
_MANUAL_PAGE = " Manual Page"  # asciidoc's <h1>: "git-add(1) Manual Page"

#: List (``page#section``, ``page#section:Label`` or ``page``) → its title, checked against the
#: installed page.
TITLES: dict[str, str] = {}

#: List → pages it links to that the package does not install (404 to a crawler): dropped
#: from the truth, and any other missing page is an error. git-p4's manual page is not
#: built by Debian (git-p4 is not packaged), but git(1) still lists it.
ABSENT: dict[str, tuple[str, ...]] = {
    "git.html#_interacting_with_others": ("git-p4.html",),
}


def _list(name: str, query: str, source: str, title: str) -> QuerySpec:
    TITLES[source] = title
    page, _, _ = source.partition("#")
    return QuerySpec(name, query, source, f"the pages that the list '{title}' of {page} links to")


#: Twelve lists from across the documentation, 5-21 pages each: nine sections of git(1) (the
#: ancillary commands' two lists, interacting with others, the three plumbing sections and the
#: internal helpers, the guides, the interface documents, the formats and protocols), the
#: how-to index and the API index; each query says what a person wants from the list without a
#: word that is in one of its pages' URLs (make_truth refuses those). Worded before any crawl
#: of the site, and not to be reworded after one.
QUERIES: tuple[QuerySpec, ...] = (
    # High-level commands (porcelain) other than the main ones (44 pages, too many)
    _list("manipulators", "auxiliary repository changes: settings, bulk history rewriting, "
          "dumps for migration, conflict resolution programs, discarding unreachable data",
          "git.html#_ancillary_commands:Manipulators",
          "Ancillary Commands: Manipulators"),
    _list("interrogators", "examining a repository without modifying it: authorship of each "
          "line, integrity checks, signature validation, disk usage, browsing it from a "
          "browser", "git.html#_ancillary_commands:Interrogators",
          "Ancillary Commands: Interrogators"),
    _list("others", "foreign version control systems and other people: Subversion bridges, "
          "Concurrent Versions conversion, patches by message, asking upstream to integrate",
          "git.html#_interacting_with_others", "Interacting with Others"),
    # Low-level commands (plumbing)
    _list("plumbchange", "plumbing that alters the database: filling the staging area, "
          "directory snapshots, signed labels, delta compression, moving branch pointers",
          "git.html#_manipulation_commands", "Manipulation commands"),
    _list("plumbquery", "read-only plumbing: printing stored objects by type, comparing "
          "snapshots with the staging area, enumerating history and references, common "
          "ancestors", "git.html#_interrogation_commands", "Interrogation commands"),
    _list("syncing", "hosting repositories for others: the transfer programs on both sides of "
          "a clone, web access, restricted logins over SSH, dumb transports",
          "git.html#_syncing_repositories", "Syncing repositories"),
    _list("helpers", "helpers for other commands: remembering passwords, validating branch "
          "names, excluded paths, breaking mailboxes into messages, footers, whitespace "
          "cleanup", "git.html#_internal_helper_commands", "Internal helper commands"),
    # Guides and documents
    _list("guides", "learning material: introductory walkthroughs, a daily minimum of "
          "commands, answers to common questions, terms defined, recommended team practices",
          "git.html#_guides", "Guides"),
    _list("interfaces", "files a repository obeys: path properties, excluded patterns, event "
          "scripts, author aliases, naming commits, on-disk structure",
          "git.html#_repository_command_and_file_interfaces",
          "Repository, command and file interfaces"),
    _list("formats", "byte-level specifications for developers: on-disk encodings of the "
          "staging area and compressed object archives, and what clients and servers "
          "exchange over the wire",
          "git.html#_file_formats_protocols_and_other_developer_interfaces",
          "File formats, protocols and other developer interfaces"),
    # The index pages git(1) links to
    _list("howtos", "recipes: undoing a bad join, salvaging damaged storage, disclosing "
          "security fixes, publishing on a web host, nesting projects", "howto-index.html",
          "Git Howto Index"),
    _list("api", "internal C interfaces: reporting failures, argument flags, three-way "
          "combining, interprocess messages, performance logging",
          "technical/api-index.html", "Git API Documents"),
)


def _split(source: str) -> tuple[str, str, str]:
    """``page#section:Label`` → (page, section, label); the last two may be empty."""
    page, hash_, rest = source.partition("#")
    section, colon, label = rest.partition(":")
    if not page or (hash_ and not section) or (colon and not label):
        raise ValueError(f"{source!r} is not a list reference 'page', 'page#section' or "
                         "'page#section:Label'")
    return page, section, label


def _section(docs: Path, page: str, section: str) -> lxml_html.HtmlElement:
    headings = lxml_html.parse(str(docs / page)).xpath(_HEADING.format(section))
    if len(headings) != 1:
        raise ValueError(f"{docs / page} has {len(headings)} section headings with the id "
                         f"{section!r}, not one")
    heading: lxml_html.HtmlElement = headings[0]
    return heading


def _labelled(box: lxml_html.HtmlElement, label: str, source: str) -> lxml_html.HtmlElement:
    """The definition list right after the paragraph that says ``label:`` in ``box``."""
    found = [p.getnext() for p in box.xpath("./div[" + has_class("paragraph") + "]")
             if element_text(p) == f"{label}:"]
    if len(found) != 1 or found[0] is None or "dlist" not in found[0].get("class", "").split():
        raise ValueError(f"{source}: no single definition list after a paragraph '{label}:'")
    dlist: lxml_html.HtmlElement = found[0]
    return dlist


def list_title(docs: Path, source: str) -> str:
    """The title of the list ``source``: its section's heading ("Guides"), with the label after
    a colon for a labelled list ("Ancillary Commands: Manipulators"), or the index page's
    ``<h1>`` ("Git Howto Index"); ValueError when there is no such section or label."""
    page, section, label = _split(source)
    if not section:
        headings = lxml_html.parse(str(docs / page)).xpath("//h1")
        if len(headings) != 1:
            raise ValueError(f"{docs / page} has {len(headings)} <h1> headings, not one")
        return element_text(headings[0])
    heading = _section(docs, page, section)
    if label:
        _labelled(heading.getparent(), label, source)
        return f"{element_text(heading)}: {label}"
    return element_text(heading)


def _entries(docs: Path, source: str) -> list[lxml_html.HtmlElement]:
    """The links of the list ``source``, one per entry, in order."""
    page, section, label = _split(source)
    if not section:
        links: list[lxml_html.HtmlElement] = lxml_html.parse(str(docs / page)).xpath(_BULLETS)
        return links
    box = _section(docs, page, section).getparent()
    dlists = [_labelled(box, label, source)] if label else box.xpath(_DLISTS)
    return [a for dlist in dlists for a in dlist.xpath(_ENTRIES)]




def _misnamed(docs: Path, entries: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(page, link text, page heading) of the manual-page entries (link text ``name(N)``)
    whose page's ``<h1>`` is not ``name(N) Manual Page``."""
    out = []
    for page, text in entries:
        if not text.endswith(")"):
            continue  # not a manual-page entry (the index pages' items are titles)
        headings = [element_text(h) for h in lxml_html.parse(str(docs / page)).xpath("//h1")]
        if headings != [text + _MANUAL_PAGE]:
            out.append((page, text, " / ".join(headings)))
    return out


def list_pages(docs: Path, source: str, absent: tuple[str, ...] = ()) -> list[str]:
    """Docs-relative paths of every page the list ``source`` links to, in order (fragments
    dropped, other sites and mail addresses dropped, the declared ``absent`` pages dropped).

    Raises FileNotFoundError when a listed page is missing and not declared absent, ValueError
    when a declared-absent page is installed after all or not listed, when a manual-page
    entry's link text is not the heading of its page, when a listed page is not in English or
    is a redirection file, or when the list has fewer than three pages.
    """
    page, _, _ = _split(source)
    pages: list[str] = []
    listed: list[str] = []
    named: list[tuple[str, str]] = []
    for link in _entries(docs, source):
        relative = local_page(str(link.get("href", "")), page)
        if relative is None or relative == page or relative in listed:
            continue  # another site, the list page itself or a page listed already
        listed.append(relative)
        if relative not in absent:
            pages.append(relative)
            named.append((relative, element_text(link)))
    installed = [p for p in absent if (docs / p).is_file()]
    if installed:
        raise ValueError(f"{source}: pages declared absent are installed: {installed}")
    unlisted = [p for p in absent if p not in listed]
    if unlisted:
        raise ValueError(f"{source}: pages declared absent are not listed: {unlisted}")
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
    """ValueError unless the seed is git.html's very text and links to the list's ``page``
    (so every truth page is at most two links from the seed)."""
    seed = docs / SEED_PAGE
    if seed.read_bytes() != (docs / CONTENTS).read_bytes():
        raise ValueError(f"{seed} is not the same page as {CONTENTS}")
    if page == CONTENTS:
        return
    linked = {local_page(str(h), SEED_PAGE)
              for h in lxml_html.parse(str(seed)).xpath("//a/@href")}
    if page not in linked:
        raise ValueError(f"{SEED_PAGE} does not link to {page}")


def pages_of(spec: QuerySpec, docs: Path = DOCS) -> list[str]:
    """Docs-relative relevant pages of ``spec``; ValueError when its list is not the one named
    (another package version renamed or regrouped it), when the seed does not lead to it, or
    when the query is too long."""
    check_length(spec)
    title = list_title(docs, spec.source)
    if title != TITLES[spec.source]:
        raise ValueError(f"{spec.source} is the list {title!r}, not {TITLES[spec.source]!r}")
    page, _, _ = _split(spec.source)
    _check_seed(docs, page)
    return list_pages(docs, spec.source, ABSENT.get(spec.source, ()))


def source_of(spec: QuerySpec, docs: Path = DOCS) -> str:
    page, section, label = _split(spec.source)
    absent = ABSENT.get(spec.source, ())
    dropped = f", {', '.join(absent)} dropped (not installed)" if absent else ""
    if not section:
        where = f"first links of the items of the <div id=\"preamble\"> bulleted lists of {page}"
    elif label:
        where = (f"links of the <dt> entries of the definition list after the paragraph "
                 f"'{label}:' in the section '{section}' of {page}")
    else:
        where = (f"links of the <dt> entries of the definition lists of the section "
                 f"'{section}' of {page}")
    return f"{where} in {docs}, other sites and mail addresses dropped{dropped}"


SITE = DocSite(__doc__.splitlines()[0], DOCS, PACKAGE, SEED_PAGE, TRUTH_DIR, QUERIES,
               pages_of, source_of)

if __name__ == "__main__":
    sys.exit(SITE.main())
