"""The compiled tree walk, the compiled collector and the compiled white-space collapse give
the very same ``Page`` as the Python ones (issue 15).

``pagesift_ui/page/_cwalk.pyx`` (the walk over libxml2's nodes), ``collect.py`` itself,
typed by ``collect.pxd``, and ``_cspace.pyx`` (``markup.normalise``) are built by ``pip
install`` when Cython and a C compiler are there (setup.py); ``lxmltree._walk_tree``,
``collect.py`` read as Python and the join of the split are the references.
Here each compiled part and its reference read every demo page, a sample of the Python docs
at several text caps, the corner cases of tests/test_extract_paths.py and generated
documents, and the Pages are compared. CI builds all three and asks for them
(``PAGESIFT_REQUIRE_COMPILED_WALK=1`` in ``.ci/run``), so a build that silently fell back to
Python does not pass there.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import pagesift_ui.page.extract as extract_module
from pagesift_ui.page import charset, collect, lxmltree, markup, soup
from pagesift_ui.page.extract import Page, extract
from tests.compiled import refuse_import
from tests.test_extract_paths import (
    CORNERS,
    PYDOCS,
    URL,
    _demo_pages,
    _differences,
    pydocs_sample,
)

COMPILED = lxmltree.COMPILED_WALK

needs_compiled = pytest.mark.skipif(COMPILED is None, reason="the compiled walk is not built")


PYTHON_COLLECT = collect.python_source()


#: The modules that call ``markup.normalise`` by a name of their own.
NORMALISERS = (collect, PYTHON_COLLECT, lxmltree, soup)


@pytest.fixture(params=["python walk", "python head", "python collector", "python normalise"])
def reference(request: pytest.FixtureRequest,
              monkeypatch: pytest.MonkeyPatch) -> Callable[..., Page]:
    """``extract`` with one compiled part swapped for its Python reference (skipped where
    that part is not compiled): each comparison below runs once per compiled part."""
    patches: list[tuple[ModuleType, str, object]]
    if request.param == "python walk":
        if COMPILED is None:
            pytest.skip("the compiled walk is not built")
        patches = [(lxmltree, "COMPILED_WALK", None)]
    elif request.param == "python head":
        if lxmltree.COMPILED_HEAD is None:
            pytest.skip("the compiled head search is not built")
        patches = [(lxmltree, "COMPILED_HEAD", None)]
    elif request.param == "python collector":
        if not collect.is_compiled():
            pytest.skip("the compiled collector is not built")
        patches = [(extract_module, "Collector", PYTHON_COLLECT.Collector)]
    else:
        if not markup.NORMALISE_COMPILED:
            pytest.skip("the compiled white-space collapse is not built")
        patches = [(module, "normalise", markup._normalise_in_python)
                   for module in NORMALISERS]

    def reference_extract(*args: object, **kwargs: object) -> Page:
        with monkeypatch.context() as patch:
            for target, name, value in patches:
                patch.setattr(target, name, value)
            return extract(*args, **kwargs)  # type: ignore[arg-type]

    return reference_extract


@pytest.mark.skipif(os.environ.get("PAGESIFT_REQUIRE_COMPILED_WALK") != "1",
                    reason="only where the install is known to have a C compiler (CI)")
def test_the_install_built_the_compiled_walk_and_collector() -> None:
    assert COMPILED is not None, "pip install did not build pagesift_ui/page/_cwalk.pyx"
    assert collect.is_compiled(), "pip install did not build pagesift_ui/page/collect.py"
    assert markup.NORMALISE_COMPILED, "pip install did not build pagesift_ui/page/_cspace.pyx"
    assert charset.UTF8_CHECK_COMPILED, "pip install did not build pagesift_ui/page/_cutf8.pyx"


#: White space of every kind str.split knows (and "\x1c", which only it does), in every str
#: width, at the ends, doubled and alone.
_SPACED = st.lists(st.one_of(
    st.sampled_from([" ", "  ", "\t", "\n", "\r\n", "\x0b", "\x0c", "\x1c", "\x1f", "\x85",
                     "\xa0", "\u1680", "\u2000", "\u2028", "\u3000", "a", "é", "ω", "字",
                     "\U0001f600", "\u200b"]),
    st.text(max_size=4)), max_size=20).map("".join)


@given(_SPACED)
@settings(max_examples=500, deadline=None)
def test_the_compiled_normalise_is_the_join_of_the_split(text: str) -> None:
    assert markup.normalise(text) == markup._normalise_in_python(text)


def test_normalise_reads_a_str_subclass_as_its_value() -> None:
    # bs4's NavigableString and lxml's smart strings are str subclasses, which a compiled
    # function's ``str`` argument would refuse
    from bs4 import NavigableString

    for text in (NavigableString(" a \n b "), NavigableString("ab")):
        assert markup.normalise(text) == markup._normalise_in_python(text)
        assert type(markup.normalise(text)) is str
    with pytest.raises((TypeError, AttributeError)):
        markup.normalise(3)  # type: ignore[arg-type]


def test_a_compiled_normalise_that_cannot_be_imported_leaves_the_join(
        monkeypatch: pytest.MonkeyPatch) -> None:
    refuse_import(monkeypatch, "pagesift_ui.page._cspace")
    assert markup._compiled_normalise() is None


def test_collect_pxd_declares_exactly_the_fields_of_the_python_classes() -> None:
    # a field added to collect.py and not to collect.pxd has no slot in the compiled class
    # (AttributeError on the first page read where it was built, nothing where it was not)
    declared: dict[str, set[str]] = {}
    current = ""
    pxd = Path(PYTHON_COLLECT.__file__).with_name("collect.pxd")
    for line in pxd.read_text().splitlines():
        if match := re.match(r"cdef class (\w+):", line):
            current = match.group(1)
            declared[current] = set()
        elif current and (match := re.match(r"    cdef (?:public )?\w+ (\w+)$", line)):
            declared[current].add(match.group(1))
    assert declared == {name: set(getattr(PYTHON_COLLECT, name).__slots__)
                        for name in ("_OpenLink", "Collector")}


def test_the_collector_source_reads_as_python() -> None:
    # the reference the compiled collector is held to is Python, and reads a page
    assert not PYTHON_COLLECT.is_compiled()
    collector = PYTHON_COLLECT.Collector(URL, False, 100)
    collector.text("words", True)
    collector.flush(end=True)
    assert collector.plain_blocks == ["words"]


@pytest.mark.parametrize("failure", [ImportError, ValueError, AttributeError, TypeError])
def test_a_compiled_walk_that_cannot_be_imported_leaves_the_python_walk(
        failure: type[Exception], monkeypatch: pytest.MonkeyPatch) -> None:
    # not built, built against another lxml (its types changed size), another C API, a
    # collector that is not the compiled type it calls
    refuse_import(monkeypatch, "pagesift_ui.page._cwalk", failure)
    assert lxmltree._compiled_walk() is None
    assert lxmltree._compiled_head() is None


def test_the_compiled_walk_is_not_imported_beside_a_collector_in_python(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # it calls the compiled collector in C: beside a Python one it must not run at all
    imported: list[str] = []

    class Watching:
        def find_spec(self, fullname: str, *args: object) -> None:
            imported.append(fullname)

    monkeypatch.setattr(collect, "is_compiled", lambda: False)
    monkeypatch.delitem(sys.modules, "pagesift_ui.page._cwalk", raising=False)
    monkeypatch.setattr(sys, "meta_path", [Watching(), *sys.meta_path])
    assert lxmltree._compiled_walk() is None
    assert lxmltree._compiled_head() is None
    assert "pagesift_ui.page._cwalk" not in imported


def test_extract_walks_in_python_when_the_compiled_walk_is_absent(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[object] = []
    original = lxmltree._walk_tree

    def spy(*args: object) -> int:
        calls.append(args)
        return original(*args)

    monkeypatch.setattr(lxmltree, "COMPILED_WALK", None)
    monkeypatch.setattr(lxmltree, "_walk_tree", spy)
    page = extract("<main><p>text <a href='/x'>x</a></p></main>", URL)
    assert len(calls) == 1
    assert page.text == "text x"


@needs_compiled
def test_extract_walks_in_c_when_the_compiled_walk_is_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def no_python_walk(*args: object) -> int:
        raise AssertionError("walked in Python")

    monkeypatch.setattr(lxmltree, "_walk_tree", no_python_walk)
    assert extract("<main><p>text <a href='/x'>x</a></p></main>", URL).text == "text x"


def test_the_compiled_parts_read_every_demo_page_alike(
        reference: Callable[..., Page]) -> None:
    python_extract = reference
    pages, report = 0, []
    for scenario, url, body in _demo_pages():
        pages += 1
        for cap in (None, 300):
            kwargs = {} if cap is None else {"max_text_chars": cap}
            diff = _differences(extract(body, url, **kwargs), python_extract(body, url, **kwargs))
            if diff:
                report.append(f"{scenario} {url} (cap {cap}): {diff[:3]}")
    assert pages > 200
    assert not report, "\n".join(report[:10])


@pytest.mark.skipif(not PYDOCS.is_dir(), reason="python3.11-doc is not installed")
def test_the_compiled_parts_read_the_python_docs_alike(reference: Callable[..., Page]) -> None:
    python_extract = reference
    sample = pydocs_sample(every=8)
    report = []
    for index, path in enumerate(sample):
        body = path.read_bytes()
        url = "http://127.0.0.1:8000/" + path.relative_to(PYDOCS).as_posix()
        # a text cap cuts a page in a different place each time: in a merged run of text,
        # between two pieces, inside a link
        for cap in (None, (5000, 300, 20)[index % 3]):
            kwargs = {} if cap is None else {"max_text_chars": cap}
            diff = _differences(extract(body, url, encoding="utf-8", **kwargs),
                                python_extract(body, url, encoding="utf-8", **kwargs))
            if diff:
                report.append(f"{url} (cap {cap}): {diff[:3]}")
    assert len(sample) > 60
    assert not report, "\n".join(report[:10])


@pytest.mark.parametrize("markup", CORNERS.values(), ids=CORNERS.keys())
@pytest.mark.parametrize("cap", [None, 1, 7, 40])
def test_the_compiled_parts_read_corner_cases_alike(markup: str, cap: int | None,
                                                    reference: Callable[..., Page]) -> None:
    kwargs = {} if cap is None else {"max_text_chars": cap}
    python_extract = reference
    assert _differences(extract(markup, URL, **kwargs), python_extract(markup, URL, **kwargs)) == []


#: ``<a>`` the compiled walk gives no events (no href; a fragment, after ASCII spaces) beside
#: ones it must give: an empty or valueless href is the page itself, an entity or a start
#: outside ASCII is left to the Collector (``_cwalk._may_link``).
_ANCHORS = ["<a>no href</a>", "<a href='#top'>top</a>", "<a href=' \t\n#x'>spaced</a>",
            "<a href=''>empty</a>", "<a href>valueless</a>", "<a href='&#35;e'>entity</a>",
            "<a href='\xa0#nbsp'>nbsp</a>", "<a href='\u2003/em'>em space</a>",
            "<a name='n' href='/named'>named</a>", "<a xlink:href='#ns'>ns</a>"]


@pytest.mark.parametrize("anchor", _ANCHORS)
@pytest.mark.parametrize("cap", [None, 3, 12])
def test_the_compiled_parts_give_the_same_links_for_every_kind_of_href(
        anchor: str, cap: int | None, reference: Callable[..., Page]) -> None:
    # text on both sides of the <a>: where the compiled walk gives it no events, the text
    # around it reaches the Collector as one piece, which must read the same
    markup = f"<html><body><p>before {anchor} after <a href='/z'>z</a></p></body></html>"
    kwargs = {} if cap is None else {"max_text_chars": cap}
    python_extract = reference
    compiled = extract(markup, URL, **kwargs)
    assert _differences(compiled, python_extract(markup, URL, **kwargs)) == []
    assert cap is not None or compiled.links[-1].url == "http://shop.example/z"


# Generated documents: the elements the walk treats apart (collected, skipped, boilerplate,
# preformatted, namespaced), attributes that make an element boilerplate or main, with values
# outside ASCII that only Python's str.lower/str.split read right (the Kelvin sign lowercases
# to "k", a no-break space splits a class), and text the walk merges or keeps apart.
_TAGS = ["div", "p", "span", "a", "img", "br", "td", "th", "tr", "table", "pre", "code",
         "textarea", "nav", "aside", "footer", "header", "main", "article", "section", "h1",
         "h2", "li", "ol", "ul", "dl", "dt", "dd", "script", "noscript", "em", "form", "menu",
         "svg", "b", "blockquote", "x-foo", "svg:rect", "figure", "figcaption", "details"]
_ATTRIBUTES = ["class='nav'", "class='NavBar  x'", "class='\u212aip s\u212aip-link'",
               "class='a\xa0menu'", "class='\x1cmenu'", "id='Sidebar'", "id='sidebar '",
               "id='m\xe9nu'", "role=' Navigation '", "role='main'", "role='banner'",
               "role='\u2003menu'", "role='search\x0b'", "hidden", "aria-hidden='true'",
               "aria-hidden='TRUE'", "href='/x'", "href='#top'", "href=' https://e.org/(a'",
               "rel='NoFollow'", "hreflang=' EN '", "alt='pic'", "title='t'",
               "class='sidebar&amp;'", "class='&#110;av'", "data-x='1'",
               # an <a> the compiled walk gives no events (no href, a fragment) and ones it
               # must give (an empty href is the page itself; a start it cannot read plainly)
               "href=' \t#frag'", "href=''", "href", "href='&#35;x'", "href='\xa0#x'",
               "href='\u2003/y'"]
_TEXTS = ["hello", "  ", "\n  \n", "\t", "w\u00e9lt ", " \u00a0 ", "x\r\ny", "<!-- c -->",
          "<?pi x?>", "<![CDATA[cd]]>", "&amp;", "&nbsp;", "\u4e2d\u6587", "\U0001f600 e",
          "[br]ack]", "\x0c", "a longer run of words that fills a small cap"]


@st.composite
def _fragments(draw: st.DrawFn, depth: int = 0) -> str:
    parts = []
    for _ in range(draw(st.integers(0, 4 if depth < 5 else 0))):
        if draw(st.booleans()):
            parts.append(draw(st.sampled_from(_TEXTS)))
        else:
            tag = draw(st.sampled_from(_TAGS))
            attributes = " ".join(draw(st.lists(st.sampled_from(_ATTRIBUTES), max_size=2)))
            closed = draw(st.integers(0, 9)) > 0
            parts.append(f"<{tag} {attributes}>{draw(_fragments(depth + 1))}"
                         + (f"</{tag}>" if closed else ""))
    return "".join(parts)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                    HealthCheck.function_scoped_fixture])
@given(body=_fragments(), cap=st.sampled_from([None, 1, 5, 17, 40]))
def test_the_compiled_parts_read_generated_documents_alike(
        body: str, cap: int | None, reference: Callable[..., Page]) -> None:
    markup = f"<html><head><title>t</title></head><body>{body}</body></html>"
    kwargs = {} if cap is None else {"max_text_chars": cap}
    python_extract = reference
    assert _differences(extract(markup, URL, **kwargs), python_extract(markup, URL, **kwargs)) == []


_ROLE_PAGES = [
    "<body><div role='main'>a</div></body>",
    "<body><div role=' MAIN \t'>a</div><p role='main'>b</p></body>",
    "<body><nav role='navigation'><div role='Main'>x</div></nav></body>",
    "<body role='main'><div>no role below the body</div></body>",
    "<body><div role='mainx'><span role='ma in'>a</span></div></body>",
    "<body><div role='m&#97;in'>an entity</div><p role='main'>b</p></body>",
    "<body><div role='\u2003main'>a wide space</div><p role='main'>b</p></body>",
    "<body><div role='\u212aey'>Kelvin</div><p role='main'>b</p></body>",
    "<body><div role=''>empty</div><div role>bare</div><section role='main'>s</section></body>",
    "<body><!-- c --><div><p><span role='main'>deep</span></p></div></body>",
    "<html><head><title>T</title><meta name=robots content=none><link rel=x href=/a>"
    "</head><body><meta name='robots' content='noindex'><base href='/b/'><title>2</title>"
    "<link href='/c'></body></html>",
    "<title>only a title</title><p>text",
]


@pytest.mark.skipif(lxmltree.COMPILED_HEAD is None,
                    reason="the compiled head search is not built")
@pytest.mark.parametrize("markup", _ROLE_PAGES + list(CORNERS.values()))
def test_the_compiled_head_search_finds_what_lxml_finds(markup: str) -> None:
    from lxml import etree

    from pagesift_ui.page._cwalk import head_parts, main_by_role

    parser = etree.HTMLParser(recover=True)
    parser.feed(markup)
    root = parser.close()
    if root is None:
        return
    assert head_parts(root) == list(root.iter("title", "base", "meta", "link", "body"))
    for body in root.iter("body"):
        by_xpath = next((role.getparent() for role in lxmltree._ROLES(body)
                         if role.strip().lower() == "main"), None)
        found = main_by_role(body)
        if found is False:  # left to the XPath: a role C does not read as ASCII
            assert not all(str(role).isascii() for role in lxmltree._ROLES(body))
        else:
            assert found == by_xpath
