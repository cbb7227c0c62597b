"""What the dev sets' truth makers share: the query spec, the file text, the command line.

A site's ``make_truth.py`` defines its ``QUERIES`` and a ``pages(spec, docs)`` function that
reads the relevant pages off the installed site's own structure; this module renders a truth
file (``pagesift_ui.bench.truth`` reads it), refuses a query that a truth URL gives away
(:mod:`truthcheck`), and runs the write / ``--check`` command line.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from urllib.parse import urldefrag, urljoin, urlsplit

BENCHMARKS = Path(__file__).resolve().parent
ROOT = BENCHMARKS.parent
for _path in (ROOT, BENCHMARKS):
    if str(_path) not in sys.path:
        sys.path.insert(0, str(_path))

from lxml import html as lxml_html  # noqa: E402
from truthcheck import url_word_clashes  # noqa: E402

from pagesift_ui.frontier.language import Language  # noqa: E402
from pagesift_ui.frontier.query import MAX_TERMS, Query  # noqa: E402

__all__ = ["PLACEHOLDER", "REFRESH", "DocSite", "QuerySpec", "check_language", "check_length",
           "check_pages", "check_query", "element_text",
           "has_class", "html_language", "is_redirection", "local_page", "main", "render",
           "require_installed"]

#: The base URL the truth files are written on; the benchmark rebases it on the served port.
PLACEHOLDER = "http://127.0.0.1:0/"

PagesOf = Callable[["QuerySpec", Path], list[str]]


@dataclass(frozen=True, slots=True)
class QuerySpec:
    """One dev-set query: what a person types, and where in the site its answer is listed."""

    name: str  # file stem: <name>.truth, and the report label <site>-<name>
    query: str
    source: str  # where the truth comes from, in the site's own terms (a page, a section)
    why: str


#: A ``<meta http-equiv="refresh">`` (a redirection file), whatever the attribute's case.
REFRESH = "//meta[translate(@http-equiv, 'REFSH', 'refsh')='refresh']"


def has_class(name: str) -> str:
    """An XPath test that the element's ``class`` holds the token ``name``."""
    return f"contains(concat(' ', normalize-space(@class), ' '), ' {name} ')"


def element_text(element: lxml_html.HtmlElement) -> str:
    """The element's text, whitespace collapsed and a heading's pilcrow anchor (Sphinx's,
    texinfo's) dropped: what a reader sees as its title."""
    return " ".join(element.text_content().replace("\N{PILCROW SIGN}", " ").split())


def html_language(docs: Path, page: str) -> str:
    """The language of the page's ``<html>``: its ``lang``, else its ``xml:lang`` (asciidoc
    writes only that one), lower-cased; empty when neither."""
    root = lxml_html.parse(str(docs / page)).getroot()
    return str(root.get("lang") or root.get("xml:lang") or "").strip().lower()


def is_redirection(docs: Path, page: str) -> bool:
    """True when the page is a redirection file (a refresh ``<meta>``)."""
    return bool(lxml_html.parse(str(docs / page)).xpath(REFRESH))


def check_pages(docs: Path, pages: Sequence[str], where: str) -> None:
    """Raise ValueError when one of the truth ``pages`` is a redirection file (the crawler
    lands on another page) or is not in English (the queries are); ``where`` names the list
    in the message ("… lists redirection files: [...]"). Redirections first: a redirection
    file declares no language, so its own is no news."""
    redirections = [p for p in pages if is_redirection(docs, p)]
    if redirections:
        raise ValueError(f"{where} lists redirection files: {redirections}")
    foreign = [(p, lang) for p in pages if (lang := html_language(docs, p)) != "en"]
    if foreign:
        raise ValueError(f"{where} lists pages that are not in English: {foreign}")


def local_page(href: str, base_page: str) -> str | None:
    """The docs-relative page ``href`` on ``base_page`` points to (fragment dropped), None for
    another site or a URL with a query (not a page of the served docs)."""
    url, _ = urldefrag(urljoin(PLACEHOLDER + base_page, href))
    if not url.startswith(PLACEHOLDER) or urlsplit(url).query:
        return None
    return str(PurePosixPath(urlsplit(url).path).relative_to("/"))


def require_installed(docs: Path, pages: Sequence[str], where: str) -> None:
    """Raise FileNotFoundError naming the ``pages`` ``where`` lists that ``docs`` lacks."""
    missing = [p for p in pages if not (docs / p).is_file()]
    if missing:
        raise FileNotFoundError(f"{where} lists pages that are not installed: {missing}")


def check_length(spec: QuerySpec) -> None:
    """Raise ValueError when the crawler would cut the query: it reads at most ``MAX_TERMS``
    terms, so the later words would be neither read nor checked against the truth URLs."""
    if len(Query(spec.query).terms) >= MAX_TERMS:
        raise ValueError(f"{spec.name}: {MAX_TERMS} or more terms; the crawler reads only "
                         f"the first {MAX_TERMS}")


def check_language(spec: QuerySpec) -> None:
    """Raise ValueError unless the crawler reads the query as English (a stray "C" or "et"
    can make it detect another language, with other stop words and stems)."""
    language = Query(spec.query).language
    if language is not Language.ENGLISH:
        raise ValueError(f"{spec.name}: the crawler reads the query as {language.value!r}, "
                         "not English")


def check_query(spec: QuerySpec, urls: Sequence[str]) -> None:
    """Raise ValueError when a word of the query is in a truth URL (see truthcheck)."""
    clashes = url_word_clashes(spec.query, urls)
    if clashes:
        raise ValueError(f"{spec.name}: " + "; ".join(str(c) for c in clashes))


def render(spec: QuerySpec, pages: Sequence[str], seed_page: str, source_line: str,
           base: str = PLACEHOLDER) -> str:
    """The truth file text: ``# query:``, ``# seed:``, ``# why:``, ``# source:``, then the
    URLs (``base`` + each docs-relative page). Raises ValueError if the query is given away
    by a truth URL."""
    urls = [base + page for page in pages]
    check_query(spec, [PLACEHOLDER + page for page in pages])
    lines = [
        f"# query: {spec.query}",
        f"# seed: {base}{seed_page}",
        f"# why: {spec.why}",
        f"# source: {source_line}",
        *urls,
    ]
    return "\n".join(lines) + "\n"


@dataclass(frozen=True, slots=True)
class DocSite:
    """One installed documentation site's truth maker: where the site is, its queries, and
    how to read a query's relevant pages (``pages_of``) off the site's own structure and say
    where in it they are (``source_of``)."""

    description: str
    docs: Path
    package: str
    seed_page: str
    truth_dir: Path
    queries: Sequence[QuerySpec]
    pages_of: PagesOf
    source_of: Callable[[QuerySpec, Path], str]

    def truth_urls(self, spec: QuerySpec, docs: Path | None = None) -> list[str]:
        """The relevant URLs of ``spec`` on the placeholder base."""
        return [PLACEHOLDER + p for p in self.pages_of(spec, docs or self.docs)]

    def render_spec(self, spec: QuerySpec, docs: Path | None = None,
                    base: str = PLACEHOLDER) -> str:
        """The truth file text of ``spec`` (``Truth.parse`` reads it)."""
        docs = docs or self.docs
        return render(spec, self.pages_of(spec, docs), self.seed_page,
                      self.source_line(spec, docs), base)

    def source_line(self, spec: QuerySpec, docs: Path) -> str:
        """The ``# source:`` line: where ``spec``'s pages were read, and how to redo it."""
        script = (self.truth_dir / "make_truth.py").relative_to(ROOT).as_posix()
        return f"{self.source_of(spec, docs)}; regenerate with {script}"

    def main(self, argv: Sequence[str] | None = None) -> int:
        """Write every query's truth file into ``--out`` (or ``--check`` them, exit 1 if
        stale)."""
        return main(argv, self)


def main(argv: Sequence[str] | None, site: DocSite) -> int:
    """Write every query's truth file into ``--out`` (or ``--check`` them, exit 1 if stale)."""
    parser = argparse.ArgumentParser(description=site.description)
    parser.add_argument("--docs", type=Path, default=site.docs, help=f"default {site.docs}")
    parser.add_argument("--out", type=Path, default=site.truth_dir, help="folder for *.truth")
    parser.add_argument("--check", action="store_true",
                        help="compare with the files in --out instead of writing them")
    parser.add_argument("--base", default=PLACEHOLDER,
                        help="base URL of the served docs, e.g. http://127.0.0.1:8000/ "
                             f"(default the placeholder {PLACEHOLDER}, which the benchmark "
                             "rebases; give a real one for 'pagesift-ui bench --truth')")
    args = parser.parse_args(argv)
    if not args.base.endswith("/"):
        args.base += "/"
    if not (args.docs / site.seed_page).is_file():
        sys.stderr.write(f"make_truth: no documentation at {args.docs}; install it with "
                         f"'apt-get install {site.package}'\n")
        return 2
    stale = []
    for spec in site.queries:
        pages = site.pages_of(spec, args.docs)
        text = render(spec, pages, site.seed_page, site.source_line(spec, args.docs), args.base)
        path = args.out / f"{spec.name}.truth"
        if args.check:
            current = path.read_text(encoding="utf-8") if path.is_file() else ""
            if current != text:
                stale.append(path)
            continue
        path.write_text(text, encoding="utf-8")
        print(f"{path}: {len(pages)} pages ({spec.source})")
    if stale:
        sys.stderr.write("out of date: " + ", ".join(str(p) for p in stale) + "\n")
        return 1
    return 0
