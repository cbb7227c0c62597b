"""Regenerate the Django-documentation truth files (a HELD-OUT dev set) from the installed docs.

Run: ``python3 benchmarks/djangodocs/make_truth.py`` (needs ``apt-get install
python-django-doc``). ``--check`` compares instead of writing and exits 1 when a truth file is
out of date.

This set is held out: nothing is chosen or tuned on it, it is only measured
(``benchmarks/djangodocs/README.md``). The queries were worded before any crawl of the site.

The site is Django 3.2's documentation as Debian's ``python-django-doc`` installs it: Sphinx
output with Django's own theme, ``/usr/share/doc/python-django-doc/html`` (692 HTML pages: the
topic guides, how-to guides, reference, FAQ, internals, release notes and the highlighted
source of the modules, every link between them relative), served as it is. Its seed
``index.html`` is a hand-written overview that links the main pages of each part and the
documentation's table of contents, ``contents.html``, whose Sphinx toctree lists the parts'
index pages; each part's index page lists its own pages in a toctree, and some of those are
index pages of subparts with a toctree of their own (``topics/index.html`` lists
``topics/db/index.html``, which lists the guides on models and databases). A toctree is
``<div class="toctree-wrapper"><ul><li class="toctree-l1"><a href>``, one top-level entry per
page, its link text the page's title. Every page's title is the first ``<h1>`` of its body
(``<div id="bd">``): the page header's ``<h1>`` is the documentation's name.

Each query's relevant pages are one such index page and the pages its toctree lists, in list
order (an entry that points into a page already listed, ``fields.html#field-attribute-
reference``, is that page). ``make_truth`` checks that the index page still has the title
named (another version may rename or regroup it), that the seed links the table of contents and
the table of contents leads to the index page through toctrees, that each entry's link text is
the title of the page it links to, that every page is installed, has a plain path (no space or
escape in its URL, so the truth URL is the file's own path), is in English (Sphinx puts
``lang="en"`` on ``<html>``) and is not a redirection file, and that the query is read as
English by the crawler. No page is in or out because of a word in its URL, and a query is
refused while one of its words is in a truth URL (``benchmarks/truthcheck.py``).

The truth files hold URLs on the placeholder base ``http://127.0.0.1:0/``;
``benchmarks/run_all.py --only djangodocs`` rebases them on the port it serves the docs on.
"""

from __future__ import annotations

import sys
from collections import deque
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
           "render", "toctree_route"]

#: Where Debian's python-django-doc package installs the documentation (692 HTML pages).
DOCS = Path("/usr/share/doc/python-django-doc/html")
PACKAGE = "python-django-doc"
TRUTH_DIR = Path(__file__).resolve().parent
SEED_PAGE = "index.html"
#: The table of contents: the root of the documentation's toctrees, linked from the seed.
CONTENTS = "contents.html"
#: A page's title: the first <h1> of its body (the header's <h1> is the documentation's name).
_TITLE = "//div[@id='bd']//h1"
#: The toctrees of a page's body, each top-level entry's link.
_ENTRIES = ("//div[@id='bd']//div[" + has_class("toctree-wrapper") + "]//li["
            + has_class("toctree-l1") + "]/a[1]")

#: Index page → its title, checked against the installed page.
TITLES: dict[str, str] = {}


def _list(name: str, query: str, source: str, title: str) -> QuerySpec:
    TITLES[source] = title
    return QuerySpec(name, query, source,
                     f"the page '{title}' ({source}) and the pages its toctree lists")


#: Twelve index pages from across the documentation, 7-20 truth pages each: two topic
#: guides, three reference parts, two contrib packages, the how-to guides, the tutorials, the
#: FAQ, the internals and the contributing guide; each query says what a person wants from the
#: part, worded from the index page's title and its entries' link texts only, without a word
#: that is in one of its pages' URLs (make_truth refuses those). Worded before any crawl of
#: the site, and not to be reworded after one.
QUERIES: tuple[QuerySpec, ...] = (
    # Using Django (topics/index.html)
    _list("dbtopics", "storing and retrieving data: defining fields and relationships, "
          "summarising rows, raw statements, atomic commits, several backends",
          "topics/db/index.html", "Models and databases"),
    _list("httptopics", "answering web requests: mapping addresses to handlers, wrapping "
          "functions, receiving attachments, visitor state, processing hooks",
          "topics/http/index.html", "Handling HTTP requests"),
    # API Reference (ref/index.html)
    _list("modelref", "the ORM API: column kinds, uniqueness rules, introspection, reverse "
          "accessors, filtering operators, case-when logic, SQL helpers",
          "ref/models/index.html", "Models"),
    _list("formref", "handling submitted user input: bound values, input kinds, HTML "
          "controls, cleaning and checking, several copies on one page",
          "ref/forms/index.html", "Forms"),
    _list("cbvref", "ready-made handler objects: listing and detail pages, adding, changing "
          "or removing records, yearly archives, composable behaviours",
          "ref/class-based-views/index.html", "Built-in class-based views API"),
    # contrib packages (ref/contrib/index.html)
    _list("pgextras", "database-specific extras for psycopg2: array, range and hstore "
          "columns, exclusion rules, trigram similarity, full-text ranking",
          "ref/contrib/postgres/index.html", "django.contrib.postgres"),
    _list("geo", "geographic web applications: spatial columns, distance queries, polygons "
          "and rasters, units of length, locating visitors by IP address",
          "ref/contrib/gis/index.html", "GeoDjango"),
    # the other parts of the table of contents (contents.html)
    _list("recipes", "practical recipes: extending the framework, going live on a server, "
          "seeding fixtures, spreadsheets, printable documents, schema changes",
          "howto/index.html", "\u201cHow-to\u201d guides"),
    _list("starting", "getting started for beginners: a first look, setting up, building a "
          "first application step by step, sharing it as a package, a first patch",
          "intro/index.html", "Getting started"),
    _list("questions", "frequently asked questions: what the framework is, setting it up, "
          "databases, the back office, getting support, sending changes, fixing common "
          "problems", "faq/index.html", "Django FAQ"),
    _list("project", "how the open-source project is run: discussion groups, governance, "
          "vulnerability disclosure, versioning schedule, removal timeline, code repository",
          "internals/index.html", "Django internals"),
    _list("volunteers", "helping improve the framework as a volunteer: advice for newcomers, "
          "filing defects, sorting reported issues, translating, merging changes",
          "internals/contributing/index.html", "Contributing to Django"),
)


def page_title(docs: Path, page: str) -> str:
    """The page's title: the first ``<h1>`` of its body ("Models and databases"); empty when
    it has none."""
    headings = lxml_html.parse(str(docs / page)).xpath(_TITLE)
    return element_text(headings[0]) if headings else ""


def list_title(docs: Path, source: str) -> str:
    """The title of the index page ``source``; ValueError when it has no ``<h1>``."""
    title = page_title(docs, source)
    if not title:
        raise ValueError(f"{docs / source} has no <h1> in its body")
    return title


def _toctree_links(docs: Path, page: str) -> list[tuple[str, str]]:
    """(docs-relative page, link text) of the top-level entries of ``page``'s toctrees, in
    order; None pages (other sites) dropped."""
    out = []
    for link in lxml_html.parse(str(docs / page)).xpath(_ENTRIES):
        relative = local_page(str(link.get("href", "")), page)
        if relative is not None:
            out.append((relative, element_text(link)))
    return out


def _misnamed(docs: Path, entries: list[tuple[str, str]]) -> list[tuple[str, str, str]]:
    """(page, link text, page title) of the entries whose link text is not the title of the
    page they link to."""
    return [(page, text, title) for page, text in entries
            if text != (title := page_title(docs, page))]


def list_pages(docs: Path, source: str) -> list[str]:
    """Docs-relative paths of the index page ``source`` and of every page its toctree lists,
    in order (fragments dropped, other sites dropped, a page listed twice kept once).

    Raises FileNotFoundError when a listed page is missing, ValueError when an entry's link
    text is not the title of its page, when a page's URL is not its file's plain path (a space
    or an escape in it), is not in English or is a redirection file, or when the toctree lists
    fewer than three pages (a hidden toctree lists none).
    """
    pages: list[str] = [source]
    named: list[tuple[str, str]] = []
    for relative, text in _toctree_links(docs, source):
        if relative in pages:
            continue  # the index page itself or a page listed already (another of its parts)
        pages.append(relative)
        named.append((relative, text))
    escaped = [p for p in pages if quote(p) != p]
    if escaped:
        raise ValueError(f"{source} lists pages whose URL is not their file's path: {escaped}")
    require_installed(docs, pages, source)
    misnamed = _misnamed(docs, named)
    if misnamed:
        raise ValueError(f"{source}: entries that do not name the page they link to: "
                         f"{misnamed}")
    check_pages(docs, pages, source)
    if len(named) < 3:
        raise ValueError(f"{source}'s toctree lists fewer than three installed pages: "
                         f"{pages[1:]}")
    return pages


def toctree_route(docs: Path, page: str) -> list[str]:
    """The seed, the table of contents and the toctree entries that lead from it to ``page``
    (``["index.html", "contents.html", "topics/index.html", "topics/db/index.html"]``), the
    shortest such route; ValueError when the seed does not link the table of contents or no
    toctree leads to ``page``."""
    linked = {local_page(str(h), SEED_PAGE)
              for h in lxml_html.parse(str(docs / SEED_PAGE)).xpath("//a/@href")}
    if CONTENTS not in linked:
        raise ValueError(f"{SEED_PAGE} does not link the table of contents {CONTENTS}")
    parent: dict[str, str] = {CONTENTS: SEED_PAGE}
    queue = deque([CONTENTS])
    while queue and page not in parent:
        current = queue.popleft()
        if not (docs / current).is_file():
            continue  # a missing page lists nothing (list_pages reports a missing truth page)
        for child, _ in _toctree_links(docs, current):
            if child not in parent:
                parent[child] = current
                queue.append(child)
    if page not in parent:
        raise ValueError(f"no toctree from {CONTENTS} leads to {page}")
    route = [page]
    while route[-1] != SEED_PAGE:
        route.append(parent[route[-1]])
    return route[::-1]


def pages_of(spec: QuerySpec, docs: Path = DOCS) -> list[str]:
    """Docs-relative relevant pages of ``spec``; ValueError when its index page is not the one
    named (another package version renamed or regrouped it), when the seed does not lead to
    it, or when the query is too long or not read as English."""
    check_length(spec)
    check_language(spec)
    title = list_title(docs, spec.source)
    if title != TITLES[spec.source]:
        raise ValueError(f"{spec.source} is the page {title!r}, not {TITLES[spec.source]!r}")
    toctree_route(docs, spec.source)
    return list_pages(docs, spec.source)


def source_of(spec: QuerySpec, docs: Path = DOCS) -> str:
    return (f"{spec.source} and the links of the top-level entries (li.toctree-l1) of its "
            f"toctree in {docs}, fragments and other sites dropped")


SITE = DocSite(__doc__.splitlines()[0], DOCS, PACKAGE, SEED_PAGE, TRUTH_DIR, QUERIES,
               pages_of, source_of)

if __name__ == "__main__":
    sys.exit(SITE.main())
