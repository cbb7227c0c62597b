"""The Django-documentation truth files (benchmarks/djangodocs/, the sixth held-out set): an
index page and the pages its toctree lists, entries naming their pages, pages at plain paths,
English pages only, the index page reached from the seed through the table of contents'
toctrees, queries read as English, and served by the URLs the pages link to (the checks every
dev set shares: test_docsite_truth.py)."""

from __future__ import annotations

import posixpath
from pathlib import Path
from types import ModuleType

import pytest
from lxml import html as lxml_html

from pagesift_ui.bench import Truth
from tests.bench.docsite_truth import DJANGODOCS, PLACEHOLDER, write_site

DOCSET = DJANGODOCS  # the conftest's make_truth fixture loads its make_truth.py
TRUTH_FILES = DOCSET.truth_files


def test_a_query_with_a_url_word_is_refused(make_truth: ModuleType) -> None:
    spec = make_truth.QuerySpec("sessions", "visitor state: sessions", "x/index.html", "-")
    with pytest.raises(ValueError, match="'sessions' is in the URL .*http/sessions"):
        make_truth.render(spec, ["topics/http/sessions.html", "topics/http/urls.html"],
                          "index.html", "test")


def test_a_query_read_in_another_language_is_refused(make_truth: ModuleType) -> None:
    # a draft of formref: the crawler's language detection reads it as Portuguese
    draft = ("processing submitted user input: bound data, input types, HTML controls, "
             "cleaning values, several copies per page")
    with pytest.raises(ValueError, match="not English"):
        make_truth.check_language(make_truth.QuerySpec("formref", draft, "x", "-"))
    for spec in make_truth.QUERIES:
        make_truth.check_language(spec)


# A made-up Sphinx site laid out as Django's is: the header's <h1> is the documentation's
# name, the seed links the table of contents, whose toctree leads to a part's index page,
# whose toctree leads to a subpart's index page, whose toctree lists its pages.
def _page(title: str, body: str = "", lang: str = "en", header: str = "Made-up docs") -> str:
    return (f'<html lang="{lang}"><head><meta charset="utf-8" /></head><body>'
            f'<div class="document"><div id="hd"><h1><a href="#">{header}</a></h1></div>'
            f'<div id="bd"><div id="yui-main"><div class="section" id="s-p">'
            f'<h1>{title}<a class="headerlink" href="#p">\u00b6</a></h1>{body}</div></div>'
            '<div id="sidebar"><a href="#">Table of Contents</a></div></div></div>'
            "</body></html>")


def _toctree(*entries: str) -> str:
    return ('<div class="toctree-wrapper compound"><ul>' + "".join(entries) + "</ul></div>")


def _entry(href: str, text: str, nested: str = "") -> str:
    return (f'<li class="toctree-l1"><a class="reference internal" href="{href}">{text}</a>'
            f"{nested}</li>")


_INDEX = _page("Made-up docs", '<p><a href="contents.html">Table of contents</a></p>')
_CONTENTS = _page("Contents", _toctree(_entry("topics/index.html", "Using things"),
                                       _entry("https://example.org/", "elsewhere")))
_TOPICS = _page("Using things", _toctree(_entry("things/index.html", "Things"),
                                         _entry("more/index.html", "More things"),
                                         _entry("hidden/index.html", "Hidden things")))
_THINGS = _page("Things", _toctree(
    _entry("one.html", "One"),
    _entry("two.html", "Two"),
    _entry("two.html#more", "More of two"),  # a part of a page listed already
    _entry("three.html#top", "Three"),
    _entry("https://example.org/four.html", "Four"),
    _entry("one.html", "One", '<ul><li class="toctree-l2"><a href="five.html">Five</a>'
                              "</li></ul>")))  # a nested entry is not the toctree's own
_MORE = _page("More things", _toctree(_entry("six.html", "Six"), _entry("gone.html", "Gone"),
                                      _entry("fremd.html", "Fremd")))
_HIDDEN = _page("Hidden things", '<div class="toctree-wrapper compound">\n</div>')


def _made_up_docs(docs: Path) -> Path:
    pages = {"index.html": _INDEX, "contents.html": _CONTENTS, "topics/index.html": _TOPICS,
             "topics/things/index.html": _THINGS, "topics/more/index.html": _MORE,
             "topics/hidden/index.html": _HIDDEN,
             "topics/things/one.html": _page("One"), "topics/things/two.html": _page("Two"),
             "topics/things/three.html": _page("Three", "<h1>Three again</h1>"),
             "topics/things/five.html": _page("Five"), "topics/more/six.html": _page("Six"),
             "topics/more/fremd.html": _page("Fremd", lang="de")}
    return write_site(docs, pages)


def test_an_index_page_gives_itself_and_its_toctree_pages_in_order(make_truth: ModuleType,
                                                                   tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    source = "topics/things/index.html"
    # the body's first <h1>, not the header's
    assert make_truth.list_title(docs, source) == "Things"
    # fragments dropped, the other site too, a page listed twice kept once, and the nested
    # entry not read
    assert make_truth.list_pages(docs, source) == [
        "topics/things/index.html", "topics/things/one.html", "topics/things/two.html",
        "topics/things/three.html"]


def test_a_listed_page_must_be_installed_and_in_english(make_truth: ModuleType,
                                                        tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    source = "topics/more/index.html"
    with pytest.raises(FileNotFoundError, match=r"topics/more/gone\.html"):
        make_truth.list_pages(docs, source)
    (docs / "topics/more/gone.html").write_text(_page("Gone"), encoding="utf-8")
    with pytest.raises(ValueError,
                       match=r"not in English: \[\('topics/more/fremd\.html', 'de'\)"):
        make_truth.list_pages(docs, source)
    (docs / "topics/more/fremd.html").write_text(_page("Fremd"), encoding="utf-8")
    assert make_truth.list_pages(docs, source) == [
        "topics/more/index.html", "topics/more/six.html", "topics/more/gone.html",
        "topics/more/fremd.html"]


def test_a_redirection_file_or_a_page_whose_url_is_not_its_path_is_refused(
        make_truth: ModuleType, tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    source = "topics/things/index.html"
    (docs / "topics/things/two.html").write_text(
        _page("Two").replace("<head>", '<head><meta http-equiv="Refresh" content="0; '
                                       'url=one.html" />'), encoding="utf-8")
    with pytest.raises(ValueError, match=r"redirection files: \['topics/things/two\.html'\]"):
        make_truth.list_pages(docs, source)
    (docs / source).write_text(_THINGS.replace('href="two.html"', 'href="Two%20Words.html"'),
                               encoding="utf-8")
    (docs / "topics/things/Two Words.html").write_text(_page("Two"), encoding="utf-8")
    with pytest.raises(ValueError, match="not their file's path"):
        make_truth.list_pages(docs, source)


def test_an_entry_that_does_not_name_its_page_is_refused(make_truth: ModuleType,
                                                          tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    (docs / "topics/things/two.html").write_text(_page("Deux"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"do not name the page .*'Two', 'Deux'"):
        make_truth.list_pages(docs, "topics/things/index.html")


def test_a_hidden_toctree_lists_too_few_pages(make_truth: ModuleType, tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    with pytest.raises(ValueError, match="fewer than three"):
        make_truth.list_pages(docs, "topics/hidden/index.html")


def test_an_index_page_that_is_not_the_named_one_or_not_under_the_seed_is_refused(
        make_truth: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _made_up_docs(tmp_path)
    source = "topics/things/index.html"
    spec = make_truth.QuerySpec("x", "a made-up topic", source, "-")
    monkeypatch.setitem(make_truth.TITLES, source, "Other things")
    with pytest.raises(ValueError, match="is the page 'Things'"):
        make_truth.pages_of(spec, docs)
    monkeypatch.setitem(make_truth.TITLES, source, "Things")
    assert make_truth.toctree_route(docs, source) == [
        "index.html", "contents.html", "topics/index.html", source]
    assert len(make_truth.pages_of(spec, docs)) == 4
    (docs / "topics/index.html").write_text(_TOPICS.replace("things/index.html", "x.html"),
                                            encoding="utf-8")
    with pytest.raises(ValueError, match="no toctree from contents.html leads to"):
        make_truth.pages_of(spec, docs)
    (docs / "index.html").write_text(_INDEX.replace("contents.html", "other.html"),
                                     encoding="utf-8")
    with pytest.raises(ValueError, match="does not link the table of contents"):
        make_truth.pages_of(spec, docs)
    (docs / "untitled.html").write_text("<html><body><div id='bd'></div></body></html>",
                                        encoding="utf-8")
    with pytest.raises(ValueError, match="has no <h1>"):
        make_truth.list_title(docs, "untitled.html")


@DJANGODOCS.needs_docs
def test_the_seed_leads_to_every_truth_page_through_the_toctrees() -> None:
    """index.html links contents.html, whose toctrees lead (toctree by toctree) to each truth
    file's index page, its first URL, whose own toctree links the rest of the truth."""
    docs = DJANGODOCS.docs
    toctree = "//div[@id='bd']//div[contains(@class, 'toctree-wrapper')]//li[@class='toctree-l1']/a"

    def listed(page: str) -> set[str]:
        hrefs = lxml_html.parse(str(docs / page)).xpath(toctree + "/@href")
        folder = posixpath.dirname(page)
        return {posixpath.normpath(posixpath.join(folder, href.partition("#")[0]))
                for href in hrefs if "://" not in href}

    seed = lxml_html.parse(str(docs / "index.html")).getroot()
    assert "contents.html" in seed.xpath("//a/@href")
    reached, todo = {"contents.html"}, ["contents.html"]
    while todo:
        for page in listed(todo.pop()) - reached:
            reached.add(page)
            todo.append(page)
    for path in TRUTH_FILES:
        truth = Truth.load(path)
        assert truth.seed == PLACEHOLDER + "index.html"
        first, *rest = (url.removeprefix(PLACEHOLDER) for url in truth.urls)
        assert first.endswith("index.html") and first in reached, first
        assert set(rest) == listed(first), path.name
