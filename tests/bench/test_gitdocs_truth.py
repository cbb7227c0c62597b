"""The Git-documentation truth files (benchmarks/gitdocs/, the fourth held-out set): read off
the lists of git(1) and of the index pages it links to, manual pages whose heading their entry
names, English pages only, the declared-absent page dropped, and served by the URLs the pages
link to (the checks every dev set shares: test_docsite_truth.py)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest
from lxml import html as lxml_html

from pagesift_ui.bench import Truth
from tests.bench.docsite_truth import GITDOCS, PLACEHOLDER, write_site

DOCSET = GITDOCS  # the conftest's make_truth fixture loads its make_truth.py
TRUTH_FILES = DOCSET.truth_files


def test_a_query_with_a_url_word_is_refused(make_truth: ModuleType) -> None:
    spec = make_truth.QuerySpec("blame", "who wrote each line: blame", "git.html", "-")
    with pytest.raises(ValueError, match="'blame' is in the URL .*git-blame"):
        make_truth.render(spec, ["git-blame.html", "git-fsck.html"], "index.html", "test")


# A made-up git(1) laid out as asciidoc writes it: a subsection whose lists follow labelled
# paragraphs, entries naming manual pages.
_GIT = """<html xml:lang="en"><body><div id="header"><h1>git(1) Manual Page</h1></div>
<div class="sect1"><h2 id="_commands">Commands</h2><div class="sectionbody">
<div class="sect2"><h3 id="_ancillary_commands">Ancillary Commands</h3>
<div class="paragraph"><p>Manipulators:</p></div>
<div class="dlist"><dl><dt class="hdlist1"><a href="git-one.html">git-one(1)</a></dt><dd>one</dd>
<dt class="hdlist1"><a href="git-two.html">git-two(1)</a></dt><dd>two</dd>
<dt class="hdlist1"><a href="git-three.html#_options">git-three(1)</a></dt><dd>three</dd>
<dt class="hdlist1"><a href="https://example.org/x.html">x(1)</a></dt><dd>elsewhere</dd>
</dl></div>
<div class="paragraph"><p>Interrogators:</p></div>
<div class="dlist"><dl><dt class="hdlist1"><a href="git-four.html">git-four(1)</a></dt><dd>4</dd>
<dt class="hdlist1"><a href="git-gone.html">git-gone(1)</a></dt><dd>not installed</dd>
<dt class="hdlist1"><a href="git-five.html">git-five(1)</a></dt><dd>5</dd>
<dt class="hdlist1"><a href="git-fremd.html">git-fremd(1)</a></dt><dd>6</dd></dl></div>
</div></div></div></body></html>"""


def _manual(name: str, lang: str = "en") -> str:
    return (f'<html xml:lang="{lang}"><body><div id="header"><h1>{name} Manual Page</h1>'
            f"</div><p>text</p></body></html>")


def _made_up_docs(docs: Path) -> Path:
    pages = {"git.html": _GIT, "index.html": _GIT, "git-one.html": _manual("git-one(1)"),
             "git-two.html": _manual("git-two(1)"), "git-three.html": _manual("git-three(1)"),
             "git-four.html": _manual("git-four(1)"), "git-five.html": _manual("git-five(1)"),
             "git-fremd.html": _manual("git-fremd(1)", lang="de")}
    return write_site(docs, pages)


def test_a_labelled_list_gives_its_installed_pages_in_order(make_truth: ModuleType,
                                                            tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    source = "git.html#_ancillary_commands:Manipulators"
    assert make_truth.list_title(docs, source) == "Ancillary Commands: Manipulators"
    # the fragment is dropped, the other site too
    assert make_truth.list_pages(docs, source) == ["git-one.html", "git-two.html",
                                                   "git-three.html"]


def test_a_listed_page_not_installed_must_be_declared_absent(make_truth: ModuleType,
                                                             tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    source = "git.html#_ancillary_commands:Interrogators"
    with pytest.raises(FileNotFoundError, match=r"git-gone\.html"):
        make_truth.list_pages(docs, source)
    with pytest.raises(ValueError, match=r"not in English: \[\('git-fremd\.html', 'de'\)"):
        make_truth.list_pages(docs, source, ("git-gone.html",))
    (docs / "git-fremd.html").write_text(_manual("git-fremd(1)"), encoding="utf-8")
    assert make_truth.list_pages(docs, source, ("git-gone.html",)) == [
        "git-four.html", "git-five.html", "git-fremd.html"]
    with pytest.raises(ValueError, match="declared absent are not listed"):
        make_truth.list_pages(docs, source, ("git-gone.html", "git-never.html"))
    (docs / "git-gone.html").write_text(_manual("git-gone(1)"), encoding="utf-8")
    with pytest.raises(ValueError, match="declared absent are installed"):
        make_truth.list_pages(docs, source, ("git-gone.html",))


def test_an_entry_that_does_not_name_its_page_is_refused(make_truth: ModuleType,
                                                          tmp_path: Path) -> None:
    docs = _made_up_docs(tmp_path)
    (docs / "git-two.html").write_text(_manual("git-deux(1)"), encoding="utf-8")
    with pytest.raises(ValueError, match="do not name the page"):
        make_truth.list_pages(docs, "git.html#_ancillary_commands:Manipulators")


def test_a_list_that_is_not_the_named_one_is_refused(
        make_truth: ModuleType, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    docs = _made_up_docs(tmp_path)
    source = "git.html#_ancillary_commands:Manipulators"
    monkeypatch.setitem(make_truth.TITLES, source, "Ancillary Commands: Changers")
    spec = make_truth.QuerySpec("x", "a made-up topic", source, "-")
    with pytest.raises(ValueError, match="is the list 'Ancillary Commands: Manipulators'"):
        make_truth.pages_of(spec, docs)
    with pytest.raises(ValueError, match="no single definition list"):
        make_truth.list_title(docs, "git.html#_ancillary_commands:Nothing")
    with pytest.raises(ValueError, match="0 section headings"):
        make_truth.list_title(docs, "git.html#_no_such_section")


@GITDOCS.needs_docs
def test_the_seed_page_leads_to_every_truth_page() -> None:
    """index.html is git(1) itself: every truth page is linked from it or from an index page
    it links to (how-tos, API documents)."""
    docs = GITDOCS.docs
    seed = lxml_html.parse(str(docs / "index.html")).getroot()
    linked = {href.partition("#")[0] for href in seed.xpath("//a/@href")}
    second = set(linked)
    for index in ("howto-index.html", "technical/api-index.html"):
        assert index in linked
        folder = index.rpartition("/")[0]
        page = lxml_html.parse(str(docs / index)).getroot()
        second |= {f"{folder}/{h.partition('#')[0]}".lstrip("/")
                   for h in page.xpath("//a/@href") if "://" not in h}
    for path in TRUTH_FILES:
        for url in Truth.load(path).urls:
            assert url.removeprefix(PLACEHOLDER) in second, url
