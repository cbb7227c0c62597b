"""HTML extraction: main content as Markdown, links with their place, head metadata."""

from __future__ import annotations

import codecs
import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.page.extract import _A_TAG, _TAG_START, Link, Page, _cut, decode_html, extract
from tests.fixture_site import RELEVANT_PATHS, route

URL = "http://shop.example/help/page"

SMALL_PAGE = """<!DOCTYPE html>
<html lang="EN-GB"><head><title>  Refund
  policy | Shop </title></head>
<body>
<header><a href="/">Shop</a><nav><ul><li><a href="/about">About us</a></li></ul></nav></header>
<main>
  <h1>Refund <em>policy</em></h1>
  <p>You can get a <a href="refunds">full   refund</a>
     within 30&nbsp;days.</p>
  <ul><li>Unused items</li><li><p>Used items, <b>minus</b> a fee</p></li></ul>
  <ol><li>Sign in</li><li>Print the label</li></ol>
  <h2>Fees</h2>
  <table><tr><th>Item</th><th>Fee</th></tr><tr><td>Boots</td><td>5 €</td></tr></table>
  <pre>step 1
  step 2

step 3</pre>
  <script>var tracking = "ignored";</script>
  <nav class="pager"><a href="/help/next">Next</a></nav>
</main>
<footer><p>© Shop</p><a href="/legal">Legal</a></footer>
</body></html>"""

SMALL_PAGE_MARKDOWN = "\n\n".join(
    [
        "# Refund policy",
        "You can get a [full refund](http://shop.example/help/refunds) within 30 days.",
        "- Unused items",
        "- Used items, minus a fee",
        "1. Sign in",
        "2. Print the label",
        "## Fees",
        "Item | Fee",
        "Boots | 5 €",
        "```\nstep 1\n  step 2\nstep 3\n```",
    ]
)


def test_markdown_of_a_small_page_is_exact() -> None:
    page = extract(SMALL_PAGE, URL)
    assert page.markdown == SMALL_PAGE_MARKDOWN


def test_a_nested_list_is_indented_under_its_item_and_numbered_on_its_own() -> None:
    # CommonMark nests a list by indenting its items to the text of the item they are in; a
    # bulleted list inside a numbered one was numbered on from the outer list ("2. pip")
    html = ("<main><ol><li>Install<ul><li>pip</li><li><a href='/apt'>apt</a></li></ul></li>"
            "<li>Run<ol><li>once</li></ol></li></ol>"
            "<ul><li>a<ul><li>b<ul><li>c</li></ul></li></ul></li></ul></main>")
    assert extract(html, URL).markdown == (
        "1. Install\n\n   - pip\n\n   - [apt](http://shop.example/apt)\n\n2. Run\n\n"
        "   1. once\n\n- a\n\n  - b\n\n    - c")


def test_a_definition_list_of_pages_is_a_list_each_definition_on_its_entrys_line() -> None:
    # git(1)'s command lists: a term that is one link, its definition one paragraph; the
    # definition says what the page is about, so it is written where a link's context is
    # read (its line), and the entries are one list block (docs/DESIGN.md §2)
    html = ("<main><h2>Syncing</h2><dl><dt><a href='/daemon'>git-daemon(1)</a></dt>"
            "<dd><p>A really simple server.</p></dd>"
            "<dt> <a href='/shell'>git-shell(1)</a> </dt><dd>Restricted login shell.</dd>"
            "<dt><a href='/bare'>git-bare(1)</a></dt>"
            "<dt><a href='/two'>two</a></dt><dd><p>First.</p><p>Second.</p></dd></dl></main>")
    assert extract(html, URL).markdown == (
        "## Syncing\n\n"
        "- [git-daemon(1)](http://shop.example/daemon) — A really simple server.\n\n"
        "- [git-shell(1)](http://shop.example/shell) — Restricted login shell.\n\n"
        "[git-bare(1)](http://shop.example/bare)\n\n"
        "- [two](http://shop.example/two) — First.\n\nSecond.")
    page = extract(html, URL)
    assert "git-daemon(1) — A really simple server." in page.text.split("\n\n")


def test_other_definition_lists_are_read_as_before() -> None:
    # a glossary's word, an API signature with a link in it, and a DocBook table of contents
    # (a term that is one link whose definition is a nested list, not a paragraph)
    html = ("<main><dl><dt>Hash</dt><dd><p>A digest.</p></dd>"
            "<dt>run(<a href='/coro'>coro</a>)</dt><dd><p>Runs it.</p></dd></dl>"
            "<dl class='toc'><dt><a href='/ch1'>1. Start</a></dt>"
            "<dd><dl><dt><a href='/s1'>1.1. First</a></dt></dl></dd></dl></main>")
    assert extract(html, URL).markdown == (
        "Hash\n\nA digest.\n\nrun([coro](http://shop.example/coro))\n\nRuns it.\n\n"
        "[1. Start](http://shop.example/ch1)\n\n[1.1. First](http://shop.example/s1)")


def test_title_lang_headings_and_text() -> None:
    page = extract(SMALL_PAGE, URL)
    assert (page.url, page.title, page.lang) == (URL, "Refund policy | Shop", "en-gb")
    assert page.headings == ("Refund policy", "Fees")
    assert page.text.startswith("Refund policy\n\nYou can get a full refund within 30 days.")
    assert "tracking" not in page.text and "About us" not in page.text
    assert page.word_count == len(page.text.split())


def test_links_in_document_order_with_main_or_navigation() -> None:
    links = extract(SMALL_PAGE, URL).links
    assert [(link.url, link.anchor, link.in_main) for link in links] == [
        ("http://shop.example/", "Shop", False),
        ("http://shop.example/about", "About us", False),
        ("http://shop.example/help/refunds", "full refund", True),
        ("http://shop.example/help/next", "Next", False),  # a nav inside <main>
        ("http://shop.example/legal", "Legal", False),
    ]


def test_without_main_the_body_minus_boilerplate_is_the_content() -> None:
    html = (
        "<body><div class='navbar'><a href='/x'>X</a></div><aside><a href='/y'>Y</a></aside>"
        "<div><p>Body text with <a href='/z'>a link</a>.</p></div>"
        "<header><h1>Site name</h1></header><form><a href='/f'>F</a></form></body>"
    )
    page = extract(html, URL)
    assert page.markdown == "Body text with [a link](http://shop.example/z)."
    assert [link.in_main for link in page.links] == [False, False, True, False]
    assert page.headings == ()


def test_role_main_and_articles_are_main_content() -> None:
    role = extract("<div>menu</div><div role='main'><p>Inside</p></div>", URL)
    assert role.markdown == "Inside"
    articles = extract(
        "<p>teaser</p><article><h2>One</h2></article><p>ad</p><article><p>Two</p></article>",
        URL,
    )
    assert articles.markdown == "## One\n\nTwo"


def test_base_href_is_used_to_resolve_links_and_fragments_are_dropped() -> None:
    html = (
        "<head><base href='https://cdn.example/docs/'></head><body><main>"
        "<a href='guide.html#part-2'>Guide</a><a href='/root'>Root</a>"
        "<a href='#top'>Top</a><a href='mailto:a@b.example'>Mail</a>"
        "<a href='javascript:void(0)'>JS</a><a href=' //other.example/a b '>Other</a>"
        "</main></body>"
    )
    page = extract(html, URL)
    assert [link.url for link in page.links] == [
        "https://cdn.example/docs/guide.html",
        "https://cdn.example/root",
        "https://other.example/a%20b",
    ]
    assert page.markdown == (
        "[Guide](https://cdn.example/docs/guide.html)[Root](https://cdn.example/root)"
        "TopMailJS[Other](https://other.example/a%20b)"
    )


def test_canonical_and_hreflang_alternates() -> None:
    html = (
        "<head><link rel='canonical' href='/help/refund-policy?ref=x#y'>"
        "<link rel='alternate' hreflang='DE' href='/de/rueckerstattung'>"
        "<link rel='alternate' hreflang='x-default' href='https://shop.example/help/'>"
        "<link rel='alternate' type='application/rss+xml' href='/feed'></head>"
        "<body><a href='/fr/' hreflang='fr'>Français</a></body>"
    )
    page = extract(html, URL)
    assert page.canonical == "http://shop.example/help/refund-policy?ref=x"
    assert page.alternates == (
        ("de", "http://shop.example/de/rueckerstattung"),
        ("x-default", "https://shop.example/help/"),
    )
    assert page.links == (Link("http://shop.example/fr/", "Français", True, False, "fr"),)


def test_rel_nofollow_and_meta_robots() -> None:
    html = "<body><a href='/a' rel='sponsored NoFollow'>A</a><a href='/b'>B</a></body>"
    page = extract(html, URL)
    assert [link.nofollow for link in page.links] == [True, False]
    assert (page.noindex, page.nofollow, page.canonical) == (False, False, None)

    meta = "<head><meta name='ROBOTS' content='noindex,nofollow'></head>" + html
    page = extract(meta, URL)
    assert (page.noindex, page.nofollow) == (True, True)
    assert [link.nofollow for link in page.links] == [True, True]

    none = extract("<meta name='robots' content='none'>" + html, URL)
    assert (none.noindex, none.nofollow) == (True, True)


def test_anchor_falls_back_to_image_alt_title_and_aria_label() -> None:
    html = (
        "<main><a href='/1'><img src='l.png' alt=' Logo '></a>"
        "<a href='/2' title='By title'></a><a href='/3' aria-label='By label'><i></i></a>"
        "<a href='/4'><img src='x.png'></a></main>"
    )
    page = extract(html, URL)
    assert [link.anchor for link in page.links] == ["Logo", "By title", "By label", ""]
    assert page.markdown == (
        "[Logo](http://shop.example/1)[By title](http://shop.example/2)"
        "[By label](http://shop.example/3)"
    )


def test_bytes_with_and_without_a_known_encoding() -> None:
    html = "<html><head><meta charset='windows-1252'></head><body><p>Café “quoted” €</p>"
    encoded = html.encode("cp1252")
    assert extract(encoded, URL, encoding="cp1252").markdown == "Café “quoted” €"
    assert extract(encoded, URL).markdown == "Café “quoted” €"  # sniffed from <meta>
    assert extract(encoded, URL, encoding="no-such-charset").markdown == "Café “quoted” €"


def test_xhtml_with_xml_declaration_parses_without_warnings() -> None:
    xhtml = (
        '<?xml version="1.0" encoding="utf-8"?>\n<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0'
        ' Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd">\n'
        '<html xmlns="http://www.w3.org/1999/xhtml" xml:lang="fr"><head><title>T</title>'
        "</head><body><p>Bonjour</p></body></html>"
    )
    page = extract(xhtml, URL)  # pytest turns any bs4 warning into an error
    assert (page.title, page.lang, page.markdown) == ("T", "fr", "Bonjour")


def test_deeply_nested_markup_does_not_hit_the_recursion_limit() -> None:
    html = "<div>" * 5000 + "<p>deep <a href='/d'>link</a></p>" + "</div>" * 5000
    page = extract(html, URL)
    assert page.links[0].url == "http://shop.example/d"


def test_extraction_is_deterministic() -> None:
    assert extract(SMALL_PAGE, URL) == extract(SMALL_PAGE, URL)


def test_fixture_home_page_links_to_the_relevant_pages_in_main() -> None:
    response = route("/", "", "127.0.0.1")
    page = extract(response.body, "http://127.0.0.1:1/", encoding="utf-8")
    main_paths = {
        link.url.removeprefix("http://127.0.0.1:1") for link in page.links if link.in_main
    }
    assert {"/help/refund-policy", "/help/returns", "/help/"} <= main_paths
    assert all(not link.in_main for link in page.links if link.url.endswith("/careers"))
    for path in RELEVANT_PATHS:
        relevant = extract(route(path, "", "127.0.0.1").body, "http://127.0.0.1:1" + path)
        assert "refund" in relevant.text.lower()


@pytest.mark.parametrize(
    ("body", "header", "expected"),
    [
        ("Grüße".encode(), "utf-8", ("utf-8", "Grüße")),
        ("“x” €".encode("cp1252"), "ISO-8859-1", ("cp1252", "“x” €")),  # WHATWG label map
        (codecs.BOM_UTF8 + "é".encode(), "iso-8859-1", ("utf-8-sig", "é")),  # BOM wins
        ("é".encode("utf-16"), None, ("utf-16", "é")),
        (
            b"<meta http-equiv='Content-Type' content='text/html; charset=Shift_JIS'>\x82\xa0",
            None,
            ("cp932", "<meta http-equiv='Content-Type' content='text/html; charset=Shift_JIS'>あ"),
        ),
        (b"<meta charset='utf-16'>\xc3\xa9", None, ("utf-8", "<meta charset='utf-16'>é")),
        ("Übergrößenträger für Äpfel".encode(), "base64", ("utf-8", "Übergrößenträger für Äpfel")),
        (b"plain ascii", None, ("utf-8", "plain ascii")),
        ("undeclared ünïcödé".encode(), None, ("utf-8", "undeclared ünïcödé")),
    ],
)
def test_decode_html_order(body: bytes, header: str | None, expected: tuple[str, str]) -> None:
    assert decode_html(body, header) == expected


@pytest.mark.parametrize(
    ("text", "codec"),
    [
        ("Le café était très agréable, déjà réservé pour l’été à Genève. " * 4, "cp1252"),
        ("Müller, Größe, Straße und Übergröße für Käufer – ‚gut‘. " * 3, "cp1252"),
        ("Политика возврата: вы можете вернуть товар в течение тридцати дней. " * 3, "cp1251"),
        ("返金ポリシー：未使用品は全額返金します。ご不明な点はお問い合わせください。" * 3, "cp932"),
    ],
)
def test_decode_html_detects_undeclared_legacy_text(text: str, codec: str) -> None:
    assert decode_html(text.encode(codec), None) == (codec, text)


HTML_PIECES = st.sampled_from(
    [
        "<",
        ">",
        "</",
        "<a href='",
        "'>",
        "<p>",
        "</p>",
        "<main>",
        "<nav>",
        "<li>",
        "<dl>",
        "<dt>",
        "</dt>",
        "<dd>",
        "</dd>",
        "</dl>",
        "<h1>",
        "<table><tr><td>",
        "<pre>",
        "</pre>",
        "<base href='",
        "<meta name=robots content='",
        "<!--",
        "-->",
        "<?xml ?>",
        "<![CDATA[",
        "&amp;",
        "&#0;",
        "\x00",
        "\ufeff",
        "javascript:",
        "http://[::1",
        "#",
        "//",
        " ",
        "\n",
        "é",
        "<img alt='",
        "<script>",
        "<svg>",
        "<br>",
    ]
)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_random_text_never_raises(html: str) -> None:
    assert isinstance(extract(html, URL), Page)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(HTML_PIECES, st.text(max_size=5)), max_size=60), st.binary(max_size=64))
def test_malformed_html_never_raises(pieces: list[str], raw: bytes) -> None:
    html = "".join(pieces)
    page = extract(html, URL)
    assert "\n\n\n" not in page.markdown and page.markdown == page.markdown.strip()
    assert all(link.url.startswith(("http://", "https://")) for link in page.links)
    assert isinstance(extract(raw + html.encode("utf-8", "replace"), URL), Page)


def test_markdown_link_destination_equals_link_url_when_parentheses_balance() -> None:
    html = "<main><a href='/wiki/Foo_(bar)'>Foo [1]</a> <a href='/x)y'>odd</a></main>"
    page = extract(html, URL)
    assert [link.url for link in page.links] == [
        "http://shop.example/wiki/Foo_(bar)",
        "http://shop.example/x)y",
    ]
    assert page.links[0].anchor == "Foo [1]"
    assert page.markdown == (
        r"[Foo \[1\]](http://shop.example/wiki/Foo_(bar)) [odd](http://shop.example/x%29y)"
    )


def test_nested_and_fragment_anchors_close_the_right_link() -> None:
    html = "<main><a href='/outer'>out <a href='#x'>frag</a> tail</a><p>after</p></main>"
    page = extract(html, URL)
    # The HTML parser closes the outer <a> where the inner one starts; "#x" is no link.
    assert page.links == (Link("http://shop.example/outer", "out", True, False, None),)
    assert page.markdown == "[out](http://shop.example/outer) frag tail\n\nafter"


# -- bounded reading (issue 12, failure 8) ----------------------------------------------------


def test_an_ordinary_page_is_read_whole() -> None:
    page = extract(SMALL_PAGE, URL)
    assert (page.cut, page.links_not_read) == ("", 0)


def test_reading_stops_before_the_link_after_the_cap_and_counts_the_rest() -> None:
    html = "<main><p>Refunds</p>" + "".join(f"<p><a href='/r{i}'>r{i}</a></p>" for i in range(9))
    page = extract(html + "<p>after the links</p></main>", URL, max_links=4)
    assert [link.anchor for link in page.links] == ["r0", "r1", "r2", "r3"]
    assert (page.cut, page.links_not_read) == ("after 4 links", 5)
    assert page.markdown.endswith("[r3](http://shop.example/r3)")  # nothing after the cut
    whole = extract(html, URL, max_links=9)
    assert (whole.cut, len(whole.links)) == ("", 9)  # exactly at the cap: read whole


def test_the_element_cap_counts_every_tag() -> None:
    html = "<body>" + "<span>a</span>" * 50 + "<a href='/late'>late</a></body>"
    page = extract(html, URL, max_elements=20)
    assert page.cut == "after 20 elements" and page.links == ()
    assert page.links_not_read == 1


def _cut_by_scanning(markup: str, max_links: int, max_elements: int) -> tuple[str, str, int]:
    """``_cut`` by its definition: every tag start scanned."""
    links = 0
    for elements, tag in enumerate(_TAG_START.finditer(markup), start=1):
        if tag.group(1) is not None:
            links += 1
            if links > max_links:
                return markup[: tag.start()], f"after {max_links:,} links", sum(
                    1 for _ in _A_TAG.finditer(markup, tag.start()))
        if elements > max_elements:
            return markup[: tag.start()], f"after {max_elements:,} elements", sum(
                1 for _ in _A_TAG.finditer(markup, tag.start()))
    return markup, "", 0


@settings(max_examples=300, deadline=None)
@given(
    pieces=st.lists(st.sampled_from(["<a href=x>", "<A>", "<a/>", "<abbr>", "</a>", "<b>",
                                     "</b>", "<", "<!-- c -->", "<!doctype html>", "</",
                                     "<1", "<a", "a", " ", "<A\t", "<aside>", ">"]),
                    max_size=40),
    max_links=st.integers(1, 8),
    max_elements=st.integers(1, 12),
)
def test_the_cut_by_counts_is_the_cut_by_scanning(
    pieces: list[str], max_links: int, max_elements: int
) -> None:
    # the counts (every "<"; the <a> tags by their own pattern) only skip the scan when the
    # scan would find the page whole
    markup = "".join(pieces)
    assert _cut(markup, max_links, max_elements) == _cut_by_scanning(
        markup, max_links, max_elements)


def test_text_past_the_cap_is_cut_and_open_links_still_close() -> None:
    html = "<main><p>abcdef <a href='/x'>refund policy</a> tail <a href='/y'>y</a></p></main>"
    page = extract(html, URL, max_text_chars=10)
    assert page.cut == "after 10 characters of text"
    assert page.links == (Link("http://shop.example/x", "ref", True, False, None),)
    assert page.links_not_read == 1  # /y was never reached
    assert page.text == "abcdef ref"


def test_the_caps_must_be_positive_integers() -> None:
    with pytest.raises(ValueError, match="max_links"):
        extract("<p>x</p>", URL, max_links=0)


def test_a_table_row_of_many_cells_costs_linear_time() -> None:
    # every cell used to join the row's Markdown so far: 20,000 cells took 3.7 s of CPU
    row = "".join(f"<td>c{i}</td>" for i in range(20_000))
    started = time.monotonic()
    page = extract(f"<table><tr>{row}</tr></table>", URL)
    assert time.monotonic() - started < 10.0
    assert page.markdown.startswith("c0 | c1 | c2") and page.markdown.endswith("c19999")
    assert extract("<table><tr><td> </td><td>a</td><td>b</td></tr></table>", URL).markdown == (
        "a | b"  # a blank first cell writes no separator, as before
    )
