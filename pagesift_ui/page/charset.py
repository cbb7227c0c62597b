"""Decoding HTML bytes the way browsers do (used by the fetcher and by ``extract``)."""

from __future__ import annotations

import codecs
import logging
import re
from collections.abc import Callable

import charset_normalizer

__all__ = ["UTF8_CHECK_COMPILED", "codec_for", "decode_html", "is_utf8"]

logger = logging.getLogger(__name__)

_META_PRESCAN_BYTES = 2048
_META_CHARSET = re.compile(rb"""<meta[^>]*?charset\s*=\s*["']?\s*([A-Za-z0-9_.:-]+)""", re.I)
# WHATWG Encoding Standard §4.2: browsers read these labels as these encodings, so pages
# written for browsers decode without mojibake only with the same mapping (a page labelled
# iso-8859-1 that contains € or “quotes” is really windows-1252; Shift_JIS is cp932).
_WEB_CODECS = {
    label: codec
    for codec, labels in (
        (
            "cp1252",
            "ascii us-ascii iso-8859-1 iso8859-1 iso_8859-1 latin1 latin-1 l1 cp819 "
            "ibm819 iso-ir-100 csisolatin1 windows-1252 x-cp1252",
        ),
        ("cp932", "shift_jis shift-jis sjis x-sjis ms_kanji csshiftjis windows-31j ms932"),
        ("gb18030", "gb2312 gbk x-gbk chinese csgb2312"),
        ("cp949", "euc-kr ks_c_5601-1987 korean windows-949"),
        ("cp1254", "iso-8859-9 latin5 l5 windows-1254"),
        ("cp874", "tis-620 iso-8859-11 windows-874"),
    )
    for label in labels.split()
}
# WHATWG Encoding §4.2 names the text encodings a page may declare. Python knows many more
# codecs under labels a page can send — idna, punycode and "undefined" raise on decoding,
# unicode_escape, utf-7 or charmap turn text into mojibake, rot13, base64 and zlib are not
# text codecs at all — so a declared label counts only when it names one of these (the
# Python codecs of the WHATWG encodings); any other falls through to detection.
_WEB_TEXT_CODECS = frozenset(
    codecs.lookup(name).name
    for name in (
        "utf-8 utf-8-sig utf-16 utf-16-le utf-16-be cp866 iso8859-2 iso8859-3 iso8859-4 "
        "iso8859-5 iso8859-6 iso8859-7 iso8859-8 iso8859-10 iso8859-13 iso8859-14 iso8859-15 "
        "iso8859-16 koi8-r koi8-u mac-roman mac-cyrillic cp874 cp1250 cp1251 cp1252 cp1253 "
        "cp1254 cp1255 cp1256 cp1257 cp1258 gbk gb18030 big5 big5hkscs euc-jp iso2022-jp "
        "shift_jis cp932 euc-kr cp949"
    ).split()
)


def decode_html(body: bytes, header_charset: str | None) -> tuple[str, str]:
    """Decode an HTML body; returns ``(codec name, text)``. Never raises.

    Order: byte-order mark, header charset, ``<meta charset>``/``http-equiv`` in the first
    2 KB, then detection (valid UTF-8, else charset-normalizer preferring windows-1252).
    Undecodable bytes become U+FFFD. The BOM comes first as in the WHATWG HTML
    encoding-sniffing algorithm (§13.2.3.2): it cannot be wrong, while a server's default
    charset often is. Labels map as browsers map them (WHATWG Encoding §4.2).
    """
    for bom, codec in (
        (codecs.BOM_UTF8, "utf-8-sig"),
        (codecs.BOM_UTF16_LE, "utf-16"),
        (codecs.BOM_UTF16_BE, "utf-16"),
    ):
        if body.startswith(bom):
            return codec, body.decode(codec, "replace")
    meta = _META_CHARSET.search(body[:_META_PRESCAN_BYTES])
    meta_label = meta.group(1).decode("ascii") if meta else None
    # WHATWG HTML §13.2.3.3: a prescanned "utf-16" means utf-8 (the bytes were ASCII).
    if meta_label is not None and meta_label.lower().startswith("utf-16"):
        meta_label = "utf-8"
    for label in (header_charset, meta_label):
        declared = codec_for(label)
        if declared is not None:
            return declared, body.decode(declared, "replace")
    sniffed = _sniff_codec(body)
    try:
        return sniffed, body.decode(sniffed, "replace")
    except (LookupError, UnicodeError):  # a detector's answer Python cannot decode with
        return "utf-8", body.decode("utf-8", "replace")


def _sniff_codec(body: bytes) -> str:
    """Guess an undeclared encoding: UTF-8 if valid, else charset-normalizer's answer."""
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        pass
    else:
        return "utf-8"  # legacy text almost never forms valid UTF-8 by accident
    matches = charset_normalizer.from_bytes(body)
    # On short Western text the detector often picks a sibling code page (cp1250, cp1257)
    # that turns "è" into "č"; windows-1252 is the web's default legacy encoding (WHATWG
    # HTML §13.2.3.2 step 9), so it wins whenever it is a plausible reading.
    if any("cp1252" in match.could_be_from_charset for match in matches):
        return "cp1252"
    best = matches.best()
    return _python_codec(best.encoding if best is not None else None) or "utf-8"


def codec_for(label: str | None) -> str | None:
    """The Python codec for a declared charset label, as browsers read it; None when the
    label names no web text encoding (unknown, or a codec such as idna or base64)."""
    codec = _python_codec(label)
    return codec if codec in _WEB_TEXT_CODECS else None


def _python_codec(label: str | None) -> str | None:
    if not label:
        return None
    name = label.strip().lower()
    name = _WEB_CODECS.get(name, name)
    try:
        info = codecs.lookup(name)
    except LookupError:
        return None
    # bytes→bytes codecs such as base64 or zlib are not character encodings.
    return info.name if getattr(info, "_is_text_encoding", True) else None


def _is_utf8_in_python(data: bytes) -> bool:
    """``is_utf8`` by the strict decoder: the reference of the compiled check."""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def _compiled_is_utf8() -> Callable[[bytes], bool] | None:
    """The compiled check (``_cutf8.pyx``), or None when the install did not build it."""
    try:
        from pagesift_ui.page import _cutf8
    except ImportError as error:
        logger.debug("the compiled UTF-8 check is not available (%s): decoding", error)
        return None
    return _cutf8.is_utf8


#: True when ``data`` is well-formed UTF-8 (Python's strict decoder's answer). Compiled where
#: the install built it: the decoder builds the whole str, ~250 MB/s on bench_step's pages
#: and 5% of a step, to answer it (issue 15; ``extract`` parses such a page as bytes).
is_utf8: Callable[[bytes], bool] = _compiled_is_utf8() or _is_utf8_in_python
#: True when ``is_utf8`` runs compiled; the CLI's ``--version`` says so.
UTF8_CHECK_COMPILED = is_utf8 is not _is_utf8_in_python
