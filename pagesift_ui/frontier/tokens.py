"""Page text as words and blocks, a block's identity, and a token estimate (docs/DESIGN.md §1-2)."""

from __future__ import annotations

import hashlib
import math
import re
from typing import Any

from pagesift_ui.frontier import ctext

__all__ = ["ASCII_SEPARATORS", "CLASSED_WORDS", "WORD_CLASSES", "block_hash", "blocks",
           "estimate_tokens", "is_cjk_char", "unicode_words", "words"]


_WHITESPACE = re.compile(r"\s+")

# Words are runs of letters and digits; everything else (including "_") separates them.
_WORD = re.compile(r"[^\W_]+")
#: Characters outside ASCII that are neither letters nor digits, the commonest first in web
#: and documentation text (a list title's "§", a heading's "¶", typographic quotes and
#: dashes, box drawing): each separates words as a space does, so a text whose only
#: characters outside ASCII are these is read as ASCII, by ``_ASCII_WORD_BYTES`` (95 of 120
#: pages of the Python docs; the Unicode class was a seventh of a step after extraction;
#: issue 15).
ASCII_SEPARATORS = "§¶’—“”–‘…\xa0─├└│•·©→"
#: The words of an ASCII text, lower-cased (ASCII's case folding), are its runs of ``a-z``
#: and ``0-9``: a byte table turns every other byte into a space, and ``split()`` (no byte
#: kept is white space) gives exactly the runs the regex ``[a-z0-9]+`` finds, at 2.4× its
#: speed on a docs page's text and 2.3× on an anchor (issue 15; docs/DECISIONS.md).
_ASCII_WORD_BYTES = bytes(
    byte if (0x30 <= byte <= 0x39 or 0x61 <= byte <= 0x7A) else 0x20 for byte in range(256)
)

# CJK ideographs, Kana and Hangul count one token per character (docs/DESIGN.md §2 [ours]): a
# model's tokenizer spends roughly one token per such character, against ~4 characters per token for
# alphabetic text.
_CJK_RANGES = (
    (0x1100, 0x11FF),  # Hangul Jamo
    (0x2E80, 0x2FDF),  # CJK radicals
    (0x3040, 0x30FF),  # Hiragana, Katakana
    (0x3100, 0x312F),  # Bopomofo
    (0x3130, 0x318F),  # Hangul compatibility Jamo
    (0x31F0, 0x31FF),  # Katakana phonetic extensions
    (0x3400, 0x4DBF),  # CJK extension A
    (0x4E00, 0x9FFF),  # CJK unified ideographs
    (0xAC00, 0xD7AF),  # Hangul syllables
    (0xF900, 0xFAFF),  # CJK compatibility ideographs
    (0xFF66, 0xFF9F),  # half-width Katakana
    (0x20000, 0x2FA1F),  # CJK extensions B-F and supplement
)


# The same ranges as one character class, so a count runs in the regex engine rather than
# character by character in Python (issue 15: the loop was 53 ms of a 95 ms step on one page).
_CJK_CHAR = re.compile("[" + "".join(f"\\U{lo:08x}-\\U{hi:08x}" for lo, hi in _CJK_RANGES) + "]")


def is_cjk_char(char: str) -> bool:
    """True for a CJK ideograph, Kana or Hangul character."""
    code = ord(char)
    # every range lies above U+1100: Latin text (every character of an English query's
    # terms, read for every page) is decided by the first comparison (issue 15)
    return code >= _CJK_RANGES[0][0] and any(lo <= code <= hi for lo, hi in _CJK_RANGES)


def words(text: str) -> list[str]:
    """Unicode case-folded words of ``text``, split on non-alphanumerics."""
    if not text.isascii():
        for separator in ASCII_SEPARATORS:
            if separator in text:
                text = text.replace(separator, " ")
                if text.isascii():
                    break
        else:
            return unicode_words(text)
    return text.encode("ascii").lower().translate(_ASCII_WORD_BYTES).decode("ascii").split()


def unicode_words(text: str) -> list[str]:
    """The words of ``text`` by the Unicode rule: the runs of letters and digits of its case
    folding (what ``words`` gives a text with characters outside ASCII other than the
    separators)."""
    return _WORD.findall(text.casefold())


def _compiled_word_classes() -> Any:
    """``_ctext.WordClasses``, or None when the install did not build it (``setup.py``)."""
    module = ctext.load("word classes")
    return None if module is None else module.WordClasses


#: Where the install built it, ``_ctext.WordClasses``: a text's words read as ``words`` reads
#: them, each by a class kept by its bytes, so a word met before costs no str; made with
#: ``(classify, unicode_words, ASCII_SEPARATORS)``. None where it was not built: its readers
#: (``contentwords``, ``Query.hit_mask``) run their Python references then.
WORD_CLASSES = _compiled_word_classes()
#: Words whose class a table keeps (``_ctext._CLASS_WORDS``), emptied when full; a word of
#: more than 64 bytes is classified each time, never kept.
CLASSED_WORDS = 65_536


def estimate_tokens(text: str) -> int:
    """1 per CJK/Kana/Hangul character plus ceil(other non-space characters / 4).

    At least 1 for text with any non-space character, 0 otherwise.

    >>> estimate_tokens("refund policy")
    3
    >>> estimate_tokens("退款政策")
    4
    """
    # str.split() splits on exactly the characters str.isspace() accepts, and no CJK range
    # holds one (U+3000, the ideographic space, lies between them), so the non-space count
    # less the CJK count is the old loop's "other"
    non_space = sum(map(len, text.split()))
    if non_space == 0:
        return 0
    cjk = 0 if text.isascii() else len(_CJK_CHAR.findall(text))
    other = non_space - cjk
    return max(1, cjk + math.ceil(other / 4))


def blocks(markdown: str) -> list[str]:
    """The page's blocks: split on a blank line (``"\\n\\n"``), trimmed, empty ones skipped."""
    return [block for part in markdown.split("\n\n") if (block := part.strip())]


def block_hash(block: str) -> int:
    """A 64-bit identity of a block's whitespace-normalised text (docs/DESIGN.md §2).

    blake2b rather than ``hash()``: Python salts str hashes per process, and a resumed or
    replayed crawl must see the same blocks as "seen before".
    """
    normalised = _WHITESPACE.sub(" ", block).strip()
    digest = hashlib.blake2b(normalised.encode("utf-8"), digest_size=8).digest()
    return int.from_bytes(digest, "big")
