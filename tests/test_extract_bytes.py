"""Valid UTF-8 under the caps is parsed as bytes, not decoded first (issue 15); the ``Page``
is the one the decoded text gives: lxml encodes a str to UTF-8 for libxml2 anyway."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pagesift_ui.page.extract as extract_module
import pagesift_ui.page.lxmltree as lxmltree
from pagesift_ui.page import charset
from pagesift_ui.page.charset import is_utf8
from pagesift_ui.page.extract import Page, extract

PYDOCS = Path("/usr/share/doc/python3.11/html")
URL = "http://docs.example/dir/page.html"


def _decoded(monkeypatch: pytest.MonkeyPatch, html: bytes, **options: Any) -> Page:
    """The page as the decoded text reads it."""
    with monkeypatch.context() as patch:
        patch.setattr(extract_module, "_whole_utf8", lambda *args: None)
        return extract(html, URL, **options)


def _parsed(monkeypatch: pytest.MonkeyPatch, html: bytes,
            **options: Any) -> tuple[Page, list[type]]:
    """The page, and the type of each markup lxml was given."""
    given_types: list[type] = []
    read_tree = lxmltree.read_tree

    def spy(markup: str | bytes) -> Any:
        given_types.append(type(markup))
        return read_tree(markup)

    with monkeypatch.context() as patch:
        patch.setattr(extract_module, "read_tree", spy)
        return extract(html, URL, **options), given_types


_PIECES = st.sampled_from([
    "<p>", "</p>", "<a href='/x'>", "<a href=\"http://docs.example/é\">", "</a>", "<h2>", "</h2>",
    "<main>", "</main>", "<nav>", "</nav>", "<title>T</title>", "<html lang='de'>", "<body>",
    "<meta charset='iso-8859-1'>", "<meta http-equiv='Content-Type' content='text/html; "
    "charset=windows-1252'>", "<pre>", "</pre>", "<li>", "<ul>", "</ul>", "<!-- c -->",
    "<script>x<1</script>", "<?xml version='1.0'?>", "\x00", "\ufeff", "é", "—", "€", "𝔘",
    "\u2028", "\r\n", " ", "text", "&amp;", "&eacute;", "<", ">", "<br/>", "<base href='/b/'>",
])
_MARKUP = st.lists(_PIECES, max_size=40).map("".join)


@settings(max_examples=400, deadline=None)
@given(_MARKUP)
def test_bytes_read_as_the_decoded_text_reads(markup: str) -> None:
    html = markup.encode("utf-8")
    with pytest.MonkeyPatch.context() as monkeypatch:
        page, given_types = _parsed(monkeypatch, html, encoding="utf-8")
        assert given_types[:1] == [bytes]
        assert page == _decoded(monkeypatch, html, encoding="utf-8")


@pytest.mark.parametrize("html", [
    b"\xef\xbb\xbf\xef\xbb\xbf<p>two byte-order marks</p>",
    b"<?xml version='1.0' encoding='utf-8'?><html><body><p>x</p></body></html>",
    b"no tag at all, \xc3\xa9",
    b"<p>a\x00b</p>",
    b"<html><head><meta charset='iso-8859-1'></head><body><p>caf\xc3\xa9</p></body></html>",
    b"",
    b"<frameset><frame src='a.html'></frameset>",
])
def test_corners_read_as_the_decoded_text_reads(html: bytes,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    page, given_types = _parsed(monkeypatch, html, encoding="utf-8")
    assert given_types[:1] == [bytes]
    assert page == _decoded(monkeypatch, html, encoding="utf-8")


@pytest.mark.parametrize(("html", "options"), [
    (b"<p>caf\xe9 is not UTF-8</p>", {"encoding": "utf-8"}),  # invalid: decoded, replaced
    (b"<p>caf\xc3\xa9</p>", {"encoding": "windows-1252"}),  # declared otherwise
    (b"<p>caf\xc3\xa9</p>", {}),  # nothing declared: sniffed
    (b"<a href=/a>a</a>" * 5, {"encoding": "utf-8", "max_links": 3}),  # over a cap: cut
])
def test_other_bytes_are_decoded_first(html: bytes, options: dict[str, Any],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    page, given_types = _parsed(monkeypatch, html, **options)
    assert given_types[:1] == [str]
    assert page == _decoded(monkeypatch, html, **options)


def test_a_page_over_a_cap_is_still_cut_where_it_was() -> None:
    page = extract(b"<a href=/a>a</a>" * 5, URL, encoding="utf-8", max_links=3)
    assert page.cut == "after 3 links"
    assert page.links_not_read == 2


def test_utf8_validity_is_the_strict_decoders() -> None:
    assert is_utf8("é—𝔘".encode())
    assert is_utf8(b"")
    assert not is_utf8(b"\xe9")
    assert not is_utf8(b"\xed\xa0\x80")  # an encoded surrogate
    assert not is_utf8(b"\xc0\xaf")  # overlong


@pytest.mark.skipif(not PYDOCS.is_dir(), reason="python3.11-doc is not installed")
def test_the_python_docs_read_alike_as_bytes(monkeypatch: pytest.MonkeyPatch) -> None:
    pages = 0
    for path in sorted(PYDOCS.rglob("*.html"))[::25]:
        html = path.read_bytes()
        page, given_types = _parsed(monkeypatch, html, encoding="utf-8")
        assert given_types == [bytes], path
        assert page == _decoded(monkeypatch, html, encoding="utf-8"), path
        pages += 1
    assert pages > 15


needs_compiled_check = pytest.mark.skipif(not charset.UTF8_CHECK_COMPILED,
                                          reason="the compiled UTF-8 check is not built")


@needs_compiled_check
def test_the_compiled_check_answers_as_the_decoder_for_every_short_sequence() -> None:
    reference = charset._is_utf8_in_python
    continuations = [0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xFF]
    sequences = [bytes([first, second]) for first in range(256) for second in range(256)]
    sequences += [bytes([first, second, third]) for first in range(0xC0, 0x100)
                  for second in range(256) for third in continuations]
    sequences += [bytes([first, second, third, fourth]) for first in range(0xE0, 0x100)
                  for second in continuations for third in continuations
                  for fourth in continuations]
    for sequence in sequences:
        # alone, cut short, and after ASCII runs that end on every byte of an 8-byte block
        for data in (sequence, sequence[:-1], b"a" * 7 + sequence, b"a" * 13 + sequence + b"z"):
            assert is_utf8(data) == reference(data), data


@needs_compiled_check
@settings(max_examples=1000, deadline=None)
@given(st.lists(st.one_of(st.binary(max_size=12), st.text(max_size=12).map(
    lambda text: text.encode("utf-8", "surrogatepass"))), max_size=8).map(b"".join))
def test_the_compiled_check_answers_as_the_decoder(data: bytes) -> None:
    assert is_utf8(data) == charset._is_utf8_in_python(data)


@needs_compiled_check
def test_the_compiled_check_takes_bytes_only() -> None:
    with pytest.raises(TypeError):
        is_utf8(None)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        is_utf8("text")  # type: ignore[arg-type]
