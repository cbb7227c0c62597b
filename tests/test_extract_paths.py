"""The two ways ``extract`` reads HTML give the very same ``Page`` (issue 15).

The lxml path (an lxml tree walked with ``etree.iterwalk``) reads every document lxml gives a
body; bs4 (its lxml builder) reads the rest. Here both read the same pages — every page of
every demo scenario, a sample of the Python 3.11 documentation when it is installed, and
hand-made markup for the corners — and the Pages are compared field by field.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import fields
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pagesift_ui.page.extract as extract_module
from pagesift_ui.demo import SCENARIOS, build_site
from pagesift_ui.page.extract import Page, extract

PYDOCS = Path("/usr/share/doc/python3.11/html")
URL = "http://shop.example/dir/page.html"


def _read_with_bs4(monkeypatch: pytest.MonkeyPatch) -> Callable[..., Page]:
    def bs4_extract(*args: object, **kwargs: object) -> Page:
        with monkeypatch.context() as patch:
            patch.setattr(extract_module, "read_tree", lambda markup: None)
            return extract(*args, **kwargs)  # type: ignore[arg-type]

    return bs4_extract


def _differences(fast: Page, slow: Page) -> list[str]:
    out = []
    for field in fields(Page):
        a, b = getattr(fast, field.name), getattr(slow, field.name)
        if a != b:
            if isinstance(a, tuple) and isinstance(b, tuple):
                at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                          min(len(a), len(b)))
                out.append(f"{field.name}[{at}]: lxml {a[at:at + 1]} / bs4 {b[at:at + 1]} "
                           f"({len(a)} / {len(b)} items)")
            elif isinstance(a, str) and isinstance(b, str):
                at = next((i for i, (x, y) in enumerate(zip(a, b, strict=False)) if x != y),
                          min(len(a), len(b)))
                out.append(f"{field.name} at {at}: lxml {a[at - 40:at + 40]!r} / "
                           f"bs4 {b[at - 40:at + 40]!r}")
            else:
                out.append(f"{field.name}: lxml {a!r} / bs4 {b!r}")
    return out


def _demo_pages() -> Iterator[tuple[str, str, bytes]]:
    for scenario in SCENARIOS:
        site = build_site(scenario, 0)
        for host, target in site.iter_pages():
            response = site.respond(host, target)
            if response.status == 200 and "html" in response.content_type:
                yield scenario, f"http://{host}{target}", response.body


def test_both_paths_read_every_demo_page_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    bs4_extract = _read_with_bs4(monkeypatch)
    pages = differ = 0
    report = []
    for scenario, url, body in _demo_pages():
        pages += 1
        diff = _differences(extract(body, url), bs4_extract(body, url))
        if diff:
            differ += 1
            report.append(f"{scenario} {url}: {diff[:3]}")
    assert pages > 200  # every scenario's pages were read
    assert not report, f"{differ} of {pages} pages differ:\n" + "\n".join(report[:10])


def pydocs_sample(every: int) -> list[Path]:
    """Every ``every``-th page of the Python docs and the three largest."""
    files = sorted(PYDOCS.rglob("*.html"))
    largest = sorted(files, key=lambda path: path.stat().st_size)[-3:]
    return sorted(set(files[::every]) | set(largest))


@pytest.mark.skipif(not PYDOCS.is_dir(), reason="python3.11-doc is not installed")
def test_both_paths_read_the_python_docs_alike(monkeypatch: pytest.MonkeyPatch) -> None:
    bs4_extract = _read_with_bs4(monkeypatch)
    sample = pydocs_sample(every=12)
    report = []
    for path in sample:
        body = path.read_bytes()
        url = "http://127.0.0.1:8000/" + path.relative_to(PYDOCS).as_posix()
        diff = _differences(extract(body, url, encoding="utf-8"),
                            bs4_extract(body, url, encoding="utf-8"))
        if diff:
            report.append(f"{url}: {diff[:3]}")
    assert len(sample) > 40
    assert not report, f"{len(report)} of {len(sample)} pages differ:\n" + "\n".join(report[:10])


CORNERS = {
    "comments and processing instructions between text": (
        "<p>one<!-- c -->two<?pi x?>three <b>bold</b><!--x--> <i>it</i></p>"),
    "whitespace-only strings between inline elements and blocks": (
        "<div>\n  <span>a</span> <span>b</span>\t<span>c</span>\n\n<p> x </p>  </div>"
        "<p><a href='/l'> spaced </a>next</p>"),
    "preformatted text keeps its whitespace": (
        "<pre>  line 1\n\n\n   <b>line</b> 2  \n</pre><pre>\n \n</pre><p>after</p>"),
    "the head's elements wherever they are": (
        "<html lang=' EN-gb '><head><title> The   title </title><base href='/base/'>"
        "<meta name='ROBOTS' content='noindex, NOFOLLOW'>"
        "<link rel='canonical' href='c.html'><link rel='alternate' hreflang='de' href='/de/'>"
        "</head><body><link rel='Alternate Canonical' hreflang=' FR ' href='/fr/'>"
        "<meta name='robots' content='none'><p><a href='rel.html'>rel</a></p></body></html>"),
    "main by role, boilerplate by class, id, role, hidden and aria-hidden": (
        "<body><nav><a href='/n'>nav</a></nav><div class='x SideBar'><a href='/s'>s</a></div>"
        "<div id='cookie-banner'>c</div><div role='main'><h1>Head <em>line</em></h1>"
        "<p hidden>hid</p><p aria-hidden='true'>aria</p><footer>f</footer><p>body</p></div>"
        "<main><p>second main</p></main></body>"),
    "top-level articles, nested ones inside them": (
        "<body><header>h</header><article><p>one</p><article><p>inner</p></article></article>"
        "<p>between</p><article role='banner'><p>two</p></article></body>"),
    "links: nested, images, titles, fragments, nofollow, hreflang, brackets": (
        "<p><a href='/a' rel='NoFollow'>out <a href='/b'>in</a></a> "
        "<a href='/img'><img alt=' Logo '></a><a href='/t' title='Titled'></a>"
        "<a href='#top'>top</a><a href='javascript:x()'>js</a><a href='mailto:a@b'>m</a>"
        "<a href=' /sp ace\t(1) ' hreflang='EN'>[x] y</a><a>no href</a>"
        "<a href='http://other.example/p?q=1#f'>other</a></p>"),
    "lists, tables and breaks": (
        "<ol><li>one</li><li>two<ul><li>sub</li></ul></li></ol><table><tr><th>h</th>"
        "<td>a<br>b</td><td></td></tr></table><pre>a<br>b</pre>"),
    "skipped elements with links inside": (
        "<p>a<script>var a = '<a href=/x>';</script>b<template><a href='/t'>t</a></template>"
        "<svg><title>svg</title><a href='/svg'>s</a></svg><select><option>o</option></select>"
        "c<noscript><a href='/ns'>ns</a></noscript></p>"),
    "entities and odd characters": (
        "<p>&amp; &lt;tag&gt; &nbsp;nbsp&nbsp; &unknown; &#x1F600; caf&eacute;\x00 \ufeff</p>"),
    "an XHTML document with an XML declaration": (
        "<?xml version='1.0' encoding='utf-8'?><html xmlns='http://www.w3.org/1999/xhtml' "
        "xml:lang='de'><head><title>x</title></head><body><p>xhtml</p></body></html>"),
    "misnested and unclosed markup": (
        "<p>one<div>two<p>three<b>bold<i>both</b>italic</i><table><td>cell<p>in"),
    "text after the body": "<html><body><p>in</p></body></html> after <p>more</p>",
    "leaf elements: boilerplate, hidden, whitespace, textarea, a leaf main and a leaf in pre": (
        "<body><p><span class='n'>name</span> <code>x</code>\n <em> </em><span class='sidebar'>"
        "side</span><span hidden>gone</span><span aria-hidden='true'>aria</span>"
        "<textarea>  two  spaces\n</textarea><span></span></p><nav><span>in nav</span> "
        "<span id='x'>leaf</span></nav><div role='main'>root text</div>"
        "<pre><span class='k'>def</span>  <span>f</span>\n   <em>x</em></pre></body>"),
    "definition lists: entries with definitions, bare terms, a table of contents": (
        "<main><dl><dt><a href='/a'>a(1)</a></dt><dd><p>Does <b>a</b>.</p><p>More.</p></dd>"
        "<dt><a href='/b'>b</a></dt><dt>word</dt><dd>meaning</dd>"
        "<dt><a href='/c'>c</a></dt><dd><dl><dt><a href='/d'>d</a></dt><dd>sub</dd></dl>"
        "</dd></dl><ul><li><dl><dt><a href='/e'>e</a></dt><dd>in an item</dd></dl></li></ul>"
        "</main>"),
    "a leaf element as the main content": (
        "<body><p>before <span>x</span></p><p><span role='main'>the main</span> "
        "<em>after</em></p></body>"),
}


@pytest.mark.parametrize("markup", CORNERS.values(), ids=CORNERS.keys())
def test_both_paths_read_corner_cases_alike(markup: str, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    bs4_extract = _read_with_bs4(monkeypatch)
    assert _differences(extract(markup, URL), bs4_extract(markup, URL)) == []


@pytest.mark.parametrize("room", [1, 5, 17, 40, 200])
def test_both_paths_stop_at_the_same_character_of_text(room: int,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    markup = ("<main><p>first <a href='/1'>one</a> text</p>\n <p> <b>second</b> "
              "<a href='/2'>two</a></p><!-- c --><ul><li><a href='/3'>3</a></li>"
              "<li><a href='/4'>4</a></li></ul> tail</main><p><a href='/5'>5</a></p>")
    bs4_extract = _read_with_bs4(monkeypatch)
    fast = extract(markup, URL, max_text_chars=room)
    assert _differences(fast, bs4_extract(markup, URL, max_text_chars=room)) == []
    assert fast.cut if room < 40 else True


def _spy_on_bs4(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    original = extract_module.read_soup

    def spy(markup: str) -> object:
        calls.append(markup)
        return original(markup)

    monkeypatch.setattr(extract_module, "read_soup", spy)
    return calls


def test_an_ordinary_page_is_read_without_bs4(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _spy_on_bs4(monkeypatch)
    page = extract("<title>t</title><body><main><p>text <a href='/x'>x</a></p></main>", URL)
    assert page.links[0].url == "http://shop.example/x"
    assert calls == []


DOCUMENTS_FOR_BS4 = {
    "empty": "",
    "only spaces": "   ",
    "a frameset": "<html><head><title>f</title></head><frameset><frame src='/a'></frameset>",
    "nested deeper than libxml2 builds trees": (
        "<p>before</p>" + "<div>" * 300 + "<p>deep <a href='/d'>link</a></p>" + "</div>" * 300
        + "<p>after <a href='/after'>after</a></p>"),
}


@pytest.mark.parametrize("markup", DOCUMENTS_FOR_BS4.values(), ids=DOCUMENTS_FOR_BS4.keys())
def test_documents_lxml_gives_no_whole_body_are_read_by_bs4(
    markup: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = _spy_on_bs4(monkeypatch)
    page = extract(markup, URL)
    assert len(calls) == 1
    if "after" in markup:  # lxml would have stopped reading at the 256th level
        assert [link.url for link in page.links] == [
            "http://shop.example/d", "http://shop.example/after"]


# Lists of pages written as definition lists, nested in each other and in lists: a term is
# one link, a link with text around it, or words; a definition is a paragraph, bare text,
# two paragraphs, a nested list or nothing (docs/DESIGN.md §2, "a definition list of pages")
_WORD = st.sampled_from(["alpha", "beta", "gamma", "delta"])
_TERM = st.one_of(
    _WORD.map(lambda w: f"<a href='/{w}'>{w}(1)</a>"),
    _WORD.map(lambda w: f"run(<a href='/{w}'>{w}</a>)"),
    _WORD,
)


def _definition(inner: st.SearchStrategy[str]) -> st.SearchStrategy[str]:
    return st.one_of(
        _WORD.map(lambda w: f"<dd><p>Does {w}.</p></dd>"),
        _WORD.map(lambda w: f"<dd>Bare {w}</dd>"),
        _WORD.map(lambda w: f"<dd><p>One {w}.</p><p>Two.</p></dd>"),
        inner.map(lambda html: f"<dd>{html}</dd>"),
        st.just(""),
    )


_LISTS = st.recursive(
    _WORD.map(lambda w: f"<p>{w}</p>"),
    lambda inner: st.one_of(
        st.lists(st.tuples(_TERM, _definition(inner)), min_size=1, max_size=4).map(
            lambda entries: "<dl>" + "".join(f"<dt>{t}</dt>{d}" for t, d in entries)
            + "</dl>"),
        st.lists(inner, min_size=1, max_size=3).map(
            lambda items: "<ul>" + "".join(f"<li>{i}</li>" for i in items) + "</ul>"),
    ),
    max_leaves=12,
)


@settings(max_examples=150, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=_LISTS)
def test_both_paths_read_definition_lists_alike(body: str,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    markup = f"<html><body><main>{body}</main></body></html>"
    page = extract(markup, URL)
    assert _differences(page, _read_with_bs4(monkeypatch)(markup, URL)) == []
    # the Markdown and the plain text are the same blocks, so evidence indices line up
    assert len(page.markdown.split("\n\n")) == len(page.text.split("\n\n"))
