"""Regenerate the Python-docs truth files from the installed documentation's own structure.

Run: ``python3 benchmarks/pydocs/make_truth.py`` (needs ``apt-get install python3.11-doc``).
``--check`` compares instead of writing and exits 1 when a truth file is out of date.

Each query's relevant pages are one chapter page of the library reference plus every page its
Sphinx toctree (``<div class="toctree-wrapper">``) lists: the grouping the documentation's
authors chose, not pages picked by the words in their URLs. Fragment links (a section inside a
listed page) collapse to their page; the order is the toctree's.

The truth files hold URLs on the placeholder base ``http://127.0.0.1:0/``;
``benchmarks/bench_pydocs.py`` rebases them on the port it serves the docs on. For the CLI,
write copies on a real base::

    python3 -m pagesift_ui serve /usr/share/doc/python3.11/html --port 8000 &
    python3 benchmarks/pydocs/make_truth.py --base http://127.0.0.1:8000/ --out /tmp/pydocs
    python3 -m pagesift_ui bench --site http://127.0.0.1:8000/index.html \\
        --truth /tmp/pydocs/asyncio.truth --label pydocs-asyncio --limit 700
"""

from __future__ import annotations

import argparse
import logging
import sys
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urldefrag, urljoin, urlsplit

from lxml import html as lxml_html

__all__ = [
    "DOCS",
    "PLACEHOLDER",
    "QUERIES",
    "TRUTH_DIR",
    "QuerySpec",
    "render",
    "toctree_pages",
    "truth_urls",
]

logger = logging.getLogger(__name__)

#: Where Debian's python3.11-doc package installs the HTML documentation (530 pages).
DOCS = Path("/usr/share/doc/python3.11/html")
#: The base URL the truth files are written on; the bench rebases it on the served port.
PLACEHOLDER = "http://127.0.0.1:0/"
TRUTH_DIR = Path(__file__).resolve().parent
SEED_PAGE = "index.html"
# Matches class="toctree-wrapper compound" (and any other class order).
_TOCTREE = "//div[contains(concat(' ', normalize-space(@class), ' '), ' toctree-wrapper ')]//a"


@dataclass(frozen=True, slots=True)
class QuerySpec:
    """One benchmark query: what a user types, and the chapter whose toctree answers it."""

    name: str  # file stem: <name>.truth, and the report label pydocs-<name>
    query: str
    chapter: str  # docs-relative path of the chapter page
    why: str


QUERIES: tuple[QuerySpec, ...] = (
    QuerySpec(
        "asyncio", "asynchronous coroutines, tasks and the event loop", "library/asyncio.html",
        "library/asyncio.html and the 16 pages of its three toctrees (high-level APIs, "
        "low-level APIs, guides) - the docs' own answer to 'how do I write async code'",
    ),
    QuerySpec(
        "archiving", "compress and decompress data, zip and tar archives",
        "library/archiving.html",
        "the chapter 'Data Compression and Archiving' (library/archiving.html) and the six "
        "modules its toctree lists",
    ),
    QuerySpec(
        "filesys", "access files, directories and file paths", "library/filesys.html",
        "the chapter 'File and Directory Access' (library/filesys.html) and the ten modules "
        "its toctree lists",
    ),
    QuerySpec(
        "internet", "http clients, urls and internet protocols", "library/internet.html",
        "the chapter 'Internet Protocols and Support' (library/internet.html) and the 22 "
        "pages its toctree lists",
    ),
    QuerySpec(
        "devtools", "development tools for testing, documentation and type hints",
        "library/development.html",
        "the chapter 'Development Tools' (library/development.html) and the nine pages its "
        "toctree lists (typing, pydoc, dev mode, doctest, unittest, unittest.mock, 2to3, test)",
    ),
)


def toctree_pages(docs: Path, chapter: str) -> list[str]:
    """Docs-relative paths of ``chapter`` and of every page its toctree(s) link to, in order.

    Raises FileNotFoundError when the chapter or a listed page is missing, ValueError when
    the chapter has no toctree.
    """
    page = docs / chapter
    tree = lxml_html.parse(str(page))
    base = f"{PLACEHOLDER}{chapter}"
    pages = [chapter]
    for href in tree.xpath(_TOCTREE + "/@href"):
        url, _ = urldefrag(urljoin(base, href))
        if not url.startswith(PLACEHOLDER):
            continue  # an external link in a toctree: not part of the served site
        relative = str(PurePosixPath(urlsplit(url).path).relative_to("/"))
        if relative not in pages:
            pages.append(relative)
    if len(pages) == 1:
        raise ValueError(f"{page} has no toctree links")
    missing = [p for p in pages if not (docs / p).is_file()]
    if missing:
        raise FileNotFoundError(f"{chapter}'s toctree lists pages that are not installed: "
                                f"{missing}")
    return pages


def truth_urls(spec: QuerySpec, docs: Path = DOCS) -> list[str]:
    """The relevant URLs of ``spec`` on the placeholder base."""
    return [PLACEHOLDER + p for p in toctree_pages(docs, spec.chapter)]


def render(spec: QuerySpec, docs: Path = DOCS, base: str = PLACEHOLDER) -> str:
    """The truth file text (``Truth.parse`` reads it; the ``# why``/``# source`` lines are
    comments it ignores). ``base`` replaces the placeholder, for ``pagesift-ui bench --truth``
    against a server on a known port."""
    lines = [
        f"# query: {spec.query}",
        f"# seed: {base}{SEED_PAGE}",
        f"# why: {spec.why}",
        f"# source: <div class=\"toctree-wrapper\"> links of {spec.chapter} in {docs}, "
        "fragments dropped; regenerate with benchmarks/pydocs/make_truth.py",
        *(base + url[len(PLACEHOLDER):] for url in truth_urls(spec, docs)),
    ]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--docs", type=Path, default=DOCS, help=f"default {DOCS}")
    parser.add_argument("--out", type=Path, default=TRUTH_DIR, help="folder for *.truth")
    parser.add_argument("--check", action="store_true",
                        help="compare with the files in --out instead of writing them")
    parser.add_argument("--base", default=PLACEHOLDER,
                        help="base URL of the served docs, e.g. http://127.0.0.1:8000/ "
                             f"(default the placeholder {PLACEHOLDER}, which bench_pydocs.py "
                             "rebases; give a real one for 'pagesift-ui bench --truth')")
    args = parser.parse_args(argv)
    if not args.base.endswith("/"):
        args.base += "/"
    if not (args.docs / SEED_PAGE).is_file():
        sys.stderr.write(f"make_truth: no Python docs at {args.docs}; install them with "
                         "'apt-get install python3.11-doc'\n")
        return 2
    stale = []
    for spec in QUERIES:
        text = render(spec, args.docs, args.base)
        path = args.out / f"{spec.name}.truth"
        if args.check:
            current = path.read_text(encoding="utf-8") if path.is_file() else ""
            if current != text:
                stale.append(path)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {len(truth_urls(spec, args.docs))} pages ({spec.chapter})")
    if stale:
        sys.stderr.write("out of date: " + ", ".join(str(p) for p in stale) + "\n")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
