"""The GNU-Octave-manual truth files (benchmarks/octavedocs/, the third held-out set): enough of
them, from several parts of the manual, read off the chapters' entries of the texinfo table of
contents and matching the chapters' menus, English pages only, and served by the URLs the
pages link to (the checks every dev set shares: test_docsite_truth.py)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from lxml import html as lxml_html

from pagesift_ui.bench import Truth
from tests.bench.docsite_truth import OCTAVEDOCS, PLACEHOLDER, write_site

DOCSET = OCTAVEDOCS  # the conftest's make_truth fixture loads its make_truth.py
TRUTH_FILES = DOCSET.truth_files




def test_a_query_with_a_url_word_is_refused(make_truth: ModuleType) -> None:
    spec = make_truth.QuerySpec("debug", "debugging with breakpoints", "Debugging.html", "-")
    with pytest.raises(ValueError, match="'debugging' is in the URL .*Debugging"):
        make_truth.render(spec, ["Debugging.html", "Breakpoints.html"], "index.html", "test")


# A made-up texinfo manual laid out as Octave's: the Top node's contents (one <li> per
# chapter, nested lists of its nodes, a fragment inside a page, another site), chapter and
# section pages with their menus, a redirection file and a page that is not in English.
_CONTENTS = """<html><body lang="en"><div class="top" id="Top">
<div class="Contents_element" id="SEC_Contents"><h2 class="contents-heading">Table of Contents</h2>
<div class="contents"><ul class="no-bullet">
<li><a id="toc-Guide-1" href="Guide.html">1 The Guide</a>
<ul class="no-bullet"><li><a href="One.html">1.1 One</a>
<ul class="no-bullet"><li><a href="One.html#Inside">1.1.1 Inside</a></li>
<li><a href="Deep.html">1.1.2 Deep</a></li></ul></li>
<li><a href="Two.html">1.2 Two</a></li>
<li><a href="https://example.org/elsewhere.html">1.3 Elsewhere</a></li></ul></li>
<li><a href="Mixed.html">2 Mixed</a>
<ul class="no-bullet"><li><a href="One.html">2.1 One</a></li>
<li><a href="Dois.html">2.2 Dois</a></li><li><a href="Two.html">2.3 Two</a></li></ul></li>
<li><a href="Moved.html">3 Moved</a>
<ul class="no-bullet"><li><a href="Stub.html">3.1 Stub</a></li>
<li><a href="Two.html">3.2 Two</a></li></ul></li>
</ul></div></div></div></body></html>"""


def _page(heading: str, menu: tuple[str, ...] = (), lang: str = "en") -> str:
    items = "".join(f'<li><a href="{href}">{href}</a></li>' for href in menu)
    toc = f'<ul class="section-toc">{items}</ul>' if menu else ""
    return f'<html><body lang="{lang}"><h2 class="chapter">{heading}</h2>{toc}</body></html>'


def _made_up_manual(docs: Path) -> Path:
    pages = {
        "index.html": _CONTENTS,
        "Guide.html": _page("1 The Guide", ("One.html", "Two.html")),
        "One.html": _page("1.1 One", ("#Inside", "Deep.html")),
        "Deep.html": _page("1.1.2 Deep"),
        "Two.html": _page("1.2 Two"),
        "Mixed.html": _page("2 Mixed", ("One.html", "Dois.html", "Two.html")),
        "Dois.html": _page("2.2 Dois", lang="pt"),
        "Moved.html": _page("3 Moved", ("Stub.html", "Two.html")),
        "Stub.html": '<html><head><meta http-equiv="Refresh" content="0; url=Two.html">'
                     '</head><body lang="en"></body></html>',
    }
    return write_site(docs, pages)


def test_a_chapter_lists_its_installed_english_pages(make_truth: ModuleType,
                                                     tmp_path: Path) -> None:
    docs = _made_up_manual(tmp_path)
    assert make_truth.chapter_title(docs, "Guide.html") == "The Guide"
    pages = ["Guide.html", "One.html", "Deep.html", "Two.html"]
    assert make_truth.contents_pages(docs, "Guide.html") == pages
    assert make_truth.menu_pages(docs, "Guide.html") == pages
    with pytest.raises(ValueError, match=r"not in English: \[\('Dois\.html', 'pt'\)"):
        make_truth.contents_pages(docs, "Mixed.html")
    with pytest.raises(ValueError, match=r"redirection files: \['Stub\.html'\]"):
        make_truth.contents_pages(docs, "Moved.html")
    with pytest.raises(ValueError, match="0 chapter entries for Nowhere.html"):
        make_truth.contents_pages(docs, "Nowhere.html")
    with pytest.raises(ValueError, match="not a chapter page"):
        make_truth.chapter_title(docs, "index.html")
    (docs / "Deep.html").unlink()
    with pytest.raises(FileNotFoundError, match=r"Deep\.html"):
        make_truth.contents_pages(docs, "Guide.html")
    with pytest.raises(FileNotFoundError, match=r"Deep\.html"):
        make_truth.menu_pages(docs, "Guide.html")


def test_menus_that_differ_from_the_contents_are_refused(
        make_truth: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _made_up_manual(tmp_path)
    (docs / "Guide.html").write_text(_page("1 The Guide", ("Two.html", "One.html")), "utf-8")
    monkeypatch.setitem(make_truth.TITLES, "Guide.html", "The Guide")
    spec = make_truth.QuerySpec("x", "a made-up topic", "Guide.html", "-")
    with pytest.raises(ValueError, match="its menus list"):
        make_truth.pages_of(spec, docs)
    (docs / "Guide.html").write_text(_page("1 The Other Guide", ("One.html", "Two.html")),
                                     "utf-8")
    with pytest.raises(ValueError, match="names Guide.html '1 The Guide', its page '1 The "
                                         "Other Guide'"):
        make_truth.pages_of(spec, docs)


@OCTAVEDOCS.needs_docs
def test_the_chapter_entry_is_what_the_truth_lists(make_truth: ModuleType) -> None:
    docs = OCTAVEDOCS.docs
    assert make_truth.chapter_title(docs, "Debugging.html") == "Debugging"
    assert make_truth.contents_pages(docs, "Debugging.html") == [
        "Debugging.html", "Entering-Debug-Mode.html", "Leaving-Debug-Mode.html",
        "Breakpoints.html", "Debug-Mode.html", "Call-Stack.html", "Profiling.html",
        "Profiler-Example.html"]
    # subsections are pages of their own, listed under their section
    sparse = make_truth.contents_pages(docs, "Sparse-Matrices.html")
    assert sparse.index("Sparse-Functions.html") > sparse.index("Operators-and-Functions.html")


@OCTAVEDOCS.needs_docs
def test_a_chapter_that_is_not_the_named_one_is_refused(
        make_truth: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match="not a chapter page"):
        make_truth.chapter_title(OCTAVEDOCS.docs, "Breakpoints.html")
    monkeypatch.setitem(make_truth.TITLES, "Statistics.html", "Sets")
    spec = make_truth.QuerySpec("x", "summarizing samples", "Statistics.html", "-")
    with pytest.raises(ValueError, match="is the chapter 'Statistics'"):
        make_truth.pages_of(spec, OCTAVEDOCS.docs)


@OCTAVEDOCS.needs_docs
def test_the_seed_page_links_every_truth_page() -> None:
    """index.html (the Top node) carries the whole table of contents: every truth page is one
    link from the seed."""
    root = lxml_html.parse(str(OCTAVEDOCS.docs / "index.html")).getroot()
    linked = {href.partition("#")[0] for href in root.xpath("//a/@href")}
    for path in TRUTH_FILES:
        for url in Truth.load(path).urls:
            assert url.removeprefix(PLACEHOLDER) in linked, url

