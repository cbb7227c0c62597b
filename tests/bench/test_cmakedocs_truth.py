"""The CMake-documentation truth files (benchmarks/cmakedocs/, the fifth held-out set): read off
the toctrees of the reference manuals' sections, entries naming their pages, pages at plain
paths, English pages only, queries read as English, and served by the URLs the pages link to
(the checks every dev set shares: test_docsite_truth.py)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from lxml import html as lxml_html

from pagesift_ui.bench import Truth
from tests.bench.docsite_truth import CMAKEDOCS, PLACEHOLDER, write_site

DOCSET = CMAKEDOCS  # the conftest's make_truth fixture loads its make_truth.py
TRUTH_FILES = DOCSET.truth_files


def test_a_query_with_a_url_word_is_refused(make_truth: ModuleType) -> None:
    spec = make_truth.QuerySpec("sleep", "pausing a dashboard: sleep", "x.html#y", "-")
    with pytest.raises(ValueError, match="'sleep' is in the URL .*ctest_sleep"):
        make_truth.render(spec, ["command/ctest_sleep.html", "command/ctest_test.html"],
                          "index.html", "test")


def test_a_query_read_in_another_language_is_refused(make_truth: ModuleType) -> None:
    # a lone "C" is a French stop word: the crawler reads this query as French
    spec = make_truth.QuerySpec("c", "compilers for C, C++ and Objective-C", "x.html#y", "-")
    with pytest.raises(ValueError, match="not English"):
        make_truth.check_language(spec)
    make_truth.check_language(make_truth.QuerySpec("f", "compilers for Fortran", "x", "-"))


# A made-up Sphinx site laid out as CMake's is: the seed's "Reference Manuals" toctree lists a
# manual whose sections (one with a subsection) each have a toctree of pages.
_INDEX = """<html lang="en"><head><meta charset="utf-8" /></head><body><div class="body">
<section id="reference-manuals">
<h1>Reference Manuals<a class="headerlink" href="#reference-manuals">\u00b6</a></h1>
<div class="toctree-wrapper compound"><ul>
<li class="toctree-l1"><a class="reference internal" href="manual/things.7.html">things(7)</a></li>
</ul></div></section></div></body></html>"""
_MANUAL = """<html lang="en"><head><meta charset="utf-8" /></head><body><div class="body">
<section id="things-7"><h1>things(7)</h1>
<section id="some-things"><h2>Some Things<a class="headerlink" href="#some-things">\u00b6</a></h2>
<div class="toctree-wrapper compound"><ul>
<li class="toctree-l1"><a class="reference internal" href="../thing/one.html">one</a></li>
<li class="toctree-l1"><a class="reference internal" href="../thing/two.html#x">two</a></li>
<li class="toctree-l1"><a class="reference internal" href="../thing/CMP0003.html">CMP0003: Three
 is a policy.</a></li>
<li class="toctree-l1"><a href="https://example.org/four.html">four</a></li>
</ul></div>
<section id="more-things"><h3>More Things</h3>
<div class="toctree-wrapper compound"><ul>
<li class="toctree-l1"><a class="reference internal" href="../thing/five.html">five</a></li>
<li class="toctree-l1"><a class="reference internal" href="../thing/gone.html">gone</a></li>
<li class="toctree-l1"><a class="reference internal" href="../thing/six.html">six</a></li>
<li class="toctree-l1"><a class="reference internal" href="../thing/fremd.html">fremd</a></li>
</ul></div></section></section></section></div></body></html>"""


def _page(title: str, lang: str = "en") -> str:
    return (f'<html lang="{lang}"><head><meta charset="utf-8" /></head><body>'
            f'<div class="body"><section id="p"><h1>{title}'
            f'<a class="headerlink" href="#p">\u00b6</a></h1><p>text</p></section></div>'
            "</body></html>")


def _made_up_docs(docs: Path) -> Path:
    pages = {"index.html": _INDEX, "manual/things.7.html": _MANUAL,
             "thing/one.html": _page("one"), "thing/two.html": _page("two"),
             "thing/CMP0003.html": _page("CMP0003"), "thing/five.html": _page("five"),
             "thing/six.html": _page("six"), "thing/fremd.html": _page("fremd", lang="de")}
    return write_site(docs, pages)


def test_a_section_gives_its_own_toctree_pages_in_order(make_truth: ModuleType,
                                                        tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    source = "manual/things.7.html#some-things"
    assert make_truth.list_title(docs, source) == "Some Things"
    # the fragment is dropped, the other site too, and the subsection's toctree is not read
    assert make_truth.list_pages(docs, source) == ["thing/one.html", "thing/two.html",
                                                   "thing/CMP0003.html"]


def test_a_listed_page_must_be_installed_and_in_english(make_truth: ModuleType,
                                                        tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    source = "manual/things.7.html#more-things"
    assert make_truth.list_title(docs, source) == "More Things"
    with pytest.raises(FileNotFoundError, match=r"thing/gone\.html"):
        make_truth.list_pages(docs, source)
    (docs / "thing/gone.html").write_text(_page("gone"), encoding="utf-8")
    with pytest.raises(ValueError, match=r"not in English: \[\('thing/fremd\.html', 'de'\)"):
        make_truth.list_pages(docs, source)
    (docs / "thing/fremd.html").write_text(_page("fremd"), encoding="utf-8")
    assert make_truth.list_pages(docs, source) == ["thing/five.html", "thing/gone.html",
                                                   "thing/six.html", "thing/fremd.html"]


def test_a_page_whose_url_is_not_its_path_is_refused(make_truth: ModuleType,
                                                      tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    manual = docs / "manual/things.7.html"
    manual.write_text(_MANUAL.replace("../thing/two.html#x", "../thing/Two%20Words.html"),
                      encoding="utf-8")
    (docs / "thing/Two Words.html").write_text(_page("two"), encoding="utf-8")
    with pytest.raises(ValueError, match="not their file's path"):
        make_truth.list_pages(docs, "manual/things.7.html#some-things")


def test_an_entry_that_does_not_name_its_page_is_refused(make_truth: ModuleType,
                                                          tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    (docs / "thing/two.html").write_text(_page("deux"), encoding="utf-8")
    with pytest.raises(ValueError, match="do not name the page"):
        make_truth.list_pages(docs, "manual/things.7.html#some-things")


def test_a_list_that_is_not_the_named_one_or_not_under_the_seed_is_refused(
        make_truth: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _made_up_docs(tmp_path)
    source = "manual/things.7.html#some-things"
    spec = make_truth.QuerySpec("x", "a made-up topic", source, "-")
    monkeypatch.setitem(make_truth.TITLES, source, "Other Things")
    with pytest.raises(ValueError, match="is the list 'Some Things'"):
        make_truth.pages_of(spec, docs)
    monkeypatch.setitem(make_truth.TITLES, source, "Some Things")
    assert make_truth.pages_of(spec, docs) == ["thing/one.html", "thing/two.html",
                                               "thing/CMP0003.html"]
    (docs / "index.html").write_text(_INDEX.replace("manual/things.7.html", "other.html"),
                                     encoding="utf-8")
    with pytest.raises(ValueError, match="does not list manual/things.7.html"):
        make_truth.pages_of(spec, docs)
    with pytest.raises(ValueError, match="0 sections"):
        make_truth.list_title(docs, "manual/things.7.html#no-such-section")


@CMAKEDOCS.needs_docs
def test_the_seed_page_leads_to_every_truth_page_through_its_manual() -> None:
    """index.html's "Reference Manuals" toctree links the manual of each list, and the manual
    links every page of it: each truth page is two links from the seed."""
    docs = CMAKEDOCS.docs
    seed = lxml_html.parse(str(docs / "index.html")).getroot()
    manuals = {h.partition("#")[0] for h in seed.xpath("//section[@id='reference-manuals']"
                                                        "//li[@class='toctree-l1']/a/@href")}
    second = set()
    for manual in manuals:
        page = lxml_html.parse(str(docs / manual)).getroot()
        second |= {("manual/" + h.partition("#")[0]).replace("manual/../", "")
                   for h in page.xpath("//a/@href") if "://" not in h}
    for path in TRUTH_FILES:
        truth = Truth.load(path)
        assert truth.seed == PLACEHOLDER + "index.html"
        for url in truth.urls:
            assert url.removeprefix(PLACEHOLDER) in second, url
