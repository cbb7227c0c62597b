"""Regenerate the Python-docs truth files from the installed documentation's own structure.

Run: ``python3 benchmarks/pydocs/make_truth.py`` (needs ``apt-get install python3.11-doc``).
``--check`` compares instead of writing and exits 1 when a truth file is out of date.

Each query's relevant pages are one chapter page of the library reference plus every page its
Sphinx toctree (``<div class="toctree-wrapper">``) lists: the grouping the documentation's
authors chose, not pages picked by the words in their URLs. Fragment links (a section inside a
listed page) collapse to their page; the order is the toctree's. A query is refused while one
of its words is in a truth URL (``benchmarks/truthcheck.py``: stemmed, and as a part of a URL
word, so "zip" is given away by ``zipfile.html``).

The truth files hold URLs on the placeholder base ``http://127.0.0.1:0/``;
``benchmarks/run_all.py`` rebases them on the port it serves the docs on. For the CLI, write
copies on a real base::

    python3 -m pagesift_ui serve /usr/share/doc/python3.11/html --port 8000 &
    python3 benchmarks/pydocs/make_truth.py --base http://127.0.0.1:8000/ --out /tmp/pydocs
    python3 -m pagesift_ui bench --site http://127.0.0.1:8000/index.html \\
        --truth /tmp/pydocs/asyncio.truth --label pydocs-asyncio --limit 200
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
    render,
    require_installed,
)

__all__ = ["DOCS", "PLACEHOLDER", "QUERIES", "TRUTH_DIR", "render", "toctree_pages",
           "SITE"]

#: Where Debian's python3.11-doc package installs the HTML documentation (530 pages).
DOCS = Path("/usr/share/doc/python3.11/html")
PACKAGE = "python3.11-doc"
TRUTH_DIR = Path(__file__).resolve().parent
SEED_PAGE = "index.html"
# Matches class="toctree-wrapper compound" (and any other class order).
_TOCTREE = "//div[contains(concat(' ', normalize-space(@class), ' '), ' toctree-wrapper ')]//a"


def _chapter(name: str, query: str, chapter: str, title: str) -> QuerySpec:
    return QuerySpec(name, query, f"library/{chapter}.html",
                     f"the library chapter '{title}' (library/{chapter}.html) and the pages "
                     "its toctree lists")


#: Twelve chapters of the library reference; each query says what a person wants from the
#: chapter without a word that is in one of its pages' URLs (make_truth refuses those).
QUERIES: tuple[QuerySpec, ...] = (
    _chapter("archiving", "compress and decompress data streams and pack members into a "
             "single bundle", "archiving", "Data Compression and Archiving"),
    _chapter("asyncio", "concurrent code with coroutines, await, timeouts and sockets",
             "asyncio", "asyncio — Asynchronous I/O"),
    _chapter("concurrency", "running work in parallel on several cores, worker pools, locks "
             "and launching child programs", "concurrency", "Concurrent Execution"),
    _chapter("datatypes", "container classes, priority queues, keeping a list sorted and "
             "named constants", "datatypes", "Data Types"),
    _chapter("debug", "setting breakpoints and stepping through a program, measuring "
             "execution speed and memory usage", "debug", "Debugging and Profiling"),
    _chapter("devtools", "verifying that code works: automated checks, fake objects, static "
             "annotations and documentation", "development", "Development Tools"),
    _chapter("filesys", "directories, wildcard patterns, copying folders and temporary "
             "storage", "filesys", "File and Directory Access"),
    _chapter("internet", "send and receive email and download resources from remote hosts "
             "over the network", "internet", "Internet Protocols and Support"),
    _chapter("markup", "processing tagged documents as an object model or with streaming "
             "callbacks", "markup", "Structured Markup Processing Tools"),
    _chapter("numeric", "arithmetic, square roots and logarithms, exact rational and "
             "fixed-point values, averages and sampling", "numeric",
             "Numeric and Mathematical Modules"),
    _chapter("persistence", "saving objects to disk: serialization and simple key-value "
             "databases", "persistence", "Data Persistence"),
    _chapter("text", "regular expressions, differences between sequences, paragraph "
             "formatting and character properties", "text", "Text Processing Services"),
)


def toctree_pages(docs: Path, chapter: str) -> list[str]:
    """Docs-relative paths of ``chapter`` and of every page its toctree(s) link to, in order.

    Raises FileNotFoundError when the chapter or a listed page is missing, ValueError when
    the chapter has no toctree.
    """
    page = docs / chapter
    tree = lxml_html.parse(str(page))
    pages = [chapter]
    for href in tree.xpath(_TOCTREE + "/@href"):
        relative = local_page(href, chapter)  # None: an external link in a toctree
        if relative is not None and relative not in pages:
            pages.append(relative)
    if len(pages) == 1:
        raise ValueError(f"{page} has no toctree links")
    require_installed(docs, pages, f"{chapter}'s toctree")
    return pages


def pages_of(spec: QuerySpec, docs: Path = DOCS) -> list[str]:
    return toctree_pages(docs, spec.source)


def source_of(spec: QuerySpec, docs: Path = DOCS) -> str:
    return f"<div class=\"toctree-wrapper\"> links of {spec.source} in {docs}, fragments dropped"


SITE = DocSite(__doc__.splitlines()[0], DOCS, PACKAGE, SEED_PAGE, TRUTH_DIR, QUERIES,
               pages_of, source_of)

if __name__ == "__main__":
    sys.exit(SITE.main())
