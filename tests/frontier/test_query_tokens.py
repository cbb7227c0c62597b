"""Query terms and matching (docs/DESIGN.md §1), blocks and tokens (docs/DESIGN.md §2)."""

from __future__ import annotations

import math
import re
from collections.abc import Iterator

import pytest
import snowballstemmer
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import query as query_module
from pagesift_ui.frontier import tokens as tokens_module
from pagesift_ui.frontier.language import Language, stem_function
from pagesift_ui.frontier.query import MAX_TERMS, Query, stem
from pagesift_ui.frontier.tokens import (
    _CJK_RANGES,
    block_hash,
    blocks,
    estimate_tokens,
    is_cjk_char,
    words,
)


def test_refund_policy_has_two_terms() -> None:
    q = Query("refund policy")
    assert len(q) == 2
    assert q.terms == ["refund", "policy"]


def test_terms_are_casefolded_deduplicated_and_stop_words_removed() -> None:
    q = Query("The Fees, the FEES and the tuition-fees of Students!")
    assert q.terms == ["fees", "tuition", "students"]


def test_words_of_one_stem_are_one_term_the_first_written() -> None:
    # every text matches "database" and "databases" alike (by stem), so two terms of them
    # would count one word twice: in a link's phrase, coverage, relevance and the stop rules
    q = Query("utilities shipped with the database for comparing two databases")
    assert q.terms == ["utilities", "shipped", "database", "comparing", "two"]
    assert q.hit_mask("Attached databases") == 1 << 2
    # only a stem already taken is skipped: it neither counts towards nor is left out of
    # the sixteen
    many = Query("value values " + " ".join(f"word{i}" for i in range(15)) + " valued")
    assert many.terms == ["value"] + [f"word{i}" for i in range(15)] and many.left_out == ""
    # CJK terms match as substrings, not by stem: they are compared as written
    assert Query("学费 学费 学").terms == ["学费", "学"]


def test_at_most_sixteen_terms() -> None:
    q = Query(" ".join(f"word{i}" for i in range(40)))
    assert len(q) == MAX_TERMS == 16
    assert q.terms == [f"word{i}" for i in range(16)] and q.left_out == "word16"
    # repeated and stop words past the sixteenth term are not left out: nothing is
    assert Query(" ".join(f"word{i}" for i in range(16)) + " the word3 of").left_out == ""


def test_a_pasted_page_is_read_only_up_to_its_sixteenth_term(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # a query's words are read no further than its last term: a 500 KB paste costs what 16
    # words cost (its terms were once gathered whole, and compared each with all before it:
    # 11 s for 50,000 distinct words, in the app's sidebar and the CLI's validation alike)
    read: list[str] = []

    def counted(text: str) -> Iterator[str]:
        for word in query_module_words(text):
            read.append(word)
            yield word

    query_module_words = query_module.words
    monkeypatch.setattr(query_module, "words", counted)
    q = Query("the " + " ".join(f"word{i % 20} the" for i in range(100_000)))
    assert q.terms == [f"word{i}" for i in range(16)] and q.left_out == "word16"
    assert len(read) == 34  # "the", 16 words with a "the" after each, and the one left out


def test_hit_mask_stems_both_sides_and_matches_whole_words() -> None:
    q = Query("international students tuition fees")
    assert q.hit_mask("A student pays a fee") == 0b1010
    assert q.hit_mask("INTERNATIONALLY") == 0b0001  # Snowball: internationally → internat
    assert q.hit_mask("studentship") == 0
    assert q.hit_mask("") == 0
    assert Query("refund policy").hit_mask("Refunds for gift cards: policy.") == 0b11


def test_cjk_terms_match_as_substrings() -> None:
    q = Query("退款 政策")
    assert q.hit_mask("我们的退款政策") == 0b11
    assert q.hit_mask("政策") == 0b10


def test_estimate_tokens_counts_cjk_per_character() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("   ") == 0
    assert estimate_tokens("a") == 1
    assert estimate_tokens("refund policy") == 3  # 12 non-space chars → ceil(12/4)
    assert estimate_tokens("退款政策") == 4
    assert estimate_tokens("退款 abcde") == 2 + 2


def test_blocks_split_on_blank_lines_trimmed() -> None:
    assert blocks("# Title\n\n  para one \n\n\n\npara two\nline") == [
        "# Title", "para one", "para two\nline",
    ]
    assert blocks("") == []


def test_block_identity_ignores_whitespace_and_is_stable() -> None:
    assert block_hash("a  b\nc") == block_hash("a b c")
    assert block_hash("a b") != block_hash("a c")
    # stable across processes (blake2b, not the salted hash())
    assert block_hash("refund policy") == 0xE7A92378754216E1


# ----------------------------------------------------------------- the regex token estimate


def _estimate_tokens_by_characters(text: str) -> int:
    """The character-by-character estimate that tokens.estimate_tokens replaced (issue 15)."""
    cjk = other = 0
    for char in text:
        if char.isspace():
            continue
        if is_cjk_char(char):
            cjk += 1
        else:
            other += 1
    if cjk == 0 and other == 0:
        return 0
    return max(1, cjk + math.ceil(other / 4))


# whitespace, the edges of every CJK range and their neighbours, and anything else
_EDGES = [chr(c) for lo, hi in _CJK_RANGES for c in (lo - 1, lo, hi, hi + 1)]
_TEXT = st.text(
    alphabet=st.one_of(st.sampled_from([" ", "\t", "\n", "\u3000", "\xa0", "\u2028", *_EDGES]),
                       st.characters()),
    max_size=200,
)


@settings(max_examples=500, deadline=None)
@given(_TEXT)
def test_the_regex_estimate_equals_the_character_loop(text: str) -> None:
    assert estimate_tokens(text) == _estimate_tokens_by_characters(text)


def test_the_regex_estimate_agrees_on_every_code_point() -> None:
    # one character at a time: whitespace and CJK are classified alike for every code point
    for start in range(0, 0x110000, 0x800):
        chunk = [chr(c) for c in range(start, start + 0x800)]
        assert [estimate_tokens(c) for c in chunk] == [
            _estimate_tokens_by_characters(c) for c in chunk]
    text = "".join(chr(c) for c in range(0x110000))
    assert estimate_tokens(text) == _estimate_tokens_by_characters(text)


def test_snowball_leaves_ascii_digit_runs_unchanged() -> None:
    # why stem() may return them without asking Snowball
    stemmer = snowballstemmer.stemmer("english")
    numbers = [str(n) for n in range(100_000)]
    numbers += ["0" * k + str(n) for k in range(1, 4) for n in range(0, 1000, 7)]
    numbers += [str(7**k) for k in range(1, 80)]
    for number in numbers:
        assert stemmer.stemWord(number) == number == stem(number)


def test_stem_still_stems_words_with_digits_and_other_digits() -> None:
    stemmer = snowballstemmer.stemmer("english")
    for word in ("2024s", "covid19s", "mp3s", "²³", "١٢٣", "12ly"):
        assert stem(word) == stemmer.stemWord(word)


def test_a_querys_hit_masks_stay_within_their_bound_and_answer_as_uncached() -> None:
    from pagesift_ui.frontier.query import HIT_MASK_CACHE_SIZE

    query = Query("tuition fees for international students")
    texts = [f"fees page {n} for students" if n % 3 else f"housing {n}"
             for n in range(HIT_MASK_CACHE_SIZE + 500)]
    for text in texts:
        assert query.hit_mask(text) == query._hit_mask(text, None)
        assert len(query._masks) <= HIT_MASK_CACHE_SIZE
    assert query.hit_mask("Tuition FEES") == 0b11  # a cached answer is the same answer
    assert query.hit_mask("Tuition FEES") == 0b11
    german = query._hit_mask("Studiengebühren fees", Language.GERMAN)
    assert query.hit_mask("Studiengebühren fees", Language.GERMAN) == german == 0b10


def _hit_mask_by_stemming(query: Query, text: str, language: Language | None) -> int:
    """``Query.hit_mask`` as it was before the word cache (issue 15): every distinct word of
    the text stemmed, by the query's stemmer and the text's."""
    text_words = set(words(text))
    text_stems = {query.stem(word) for word in text_words}
    other_stems: set[str] = set()
    other_keys = query.stems
    if language is not None and language is not query.language:
        other_stems = {stem_function(language)(word) for word in text_words}
        other_keys = query.stems_in(language)
    mask = 0
    for i, term in enumerate(query.terms):
        if any(is_cjk_char(char) for char in term):
            found = term in text.casefold()
        else:
            found = query.stems[i] in text_stems or other_keys[i] in other_stems
        mask |= int(found) << i
    return mask


_WORDY = st.lists(
    st.one_of(st.sampled_from(["fees", "Fee", "FEES!", "students", "student's", "Gebühren",
                               "gebühr", "housing", "Housing", "退款", "政策", "und", "12",
                               "tuition-fees", "ΣΊΣΥΦΟΣ", "straße", "STRASSE"]),
              st.text(max_size=12)),
    max_size=30,
).map(" ".join)


@settings(max_examples=300, deadline=None)
@given(_WORDY, st.sampled_from([None, Language.ENGLISH, Language.GERMAN, Language.FRENCH]))
def test_a_hit_mask_is_the_stems_of_the_texts_words(text: str, language: Language | None) -> None:
    for query in _QUERIES:
        assert query._hit_mask(text, language) == _hit_mask_by_stemming(query, text, language)


_QUERIES = (Query("tuition fees for international students"),
            Query("die Gebühren für das Studium"), Query("退款 policy", Language.ENGLISH))

#: Texts the compiled word classes read in C alone (``tokens.WORD_CLASSES``): ASCII but for
#: the separators.
_ASCII_WORDY = st.lists(
    st.one_of(st.sampled_from(["fees", "Fee", "FEES!", "students", "student's", "housing",
                               "und", "die", "studium", "Studiums", "12", "tuition-fees",
                               "a_b", "fees_", "_students", "tuition_fees", "policy", "Policies",
                               *tokens_module.ASCII_SEPARATORS]),
              st.text(alphabet=st.characters(max_codepoint=127), max_size=8)),
    max_size=30,
).map(" ".join)
needs_word_classes = pytest.mark.skipif(tokens_module.WORD_CLASSES is None,
                                        reason="the compiled word classes are not built")


@needs_word_classes
@settings(max_examples=300, deadline=None)
@given(_ASCII_WORDY, st.sampled_from([None, Language.ENGLISH, Language.GERMAN, Language.FRENCH]))
def test_a_hit_mask_by_the_word_classes_is_the_stems_of_the_texts_words(
    text: str, language: Language | None
) -> None:
    for query in _QUERIES:
        assert query._hit_mask(text, language) == _hit_mask_by_stemming(query, text, language)
        read_in = query.language if language is None else language
        assert read_in in query._word_tables  # the compiled path


@needs_word_classes
def test_a_query_parsed_again_shares_its_word_table_and_the_tables_are_bounded() -> None:
    query_module.clear_word_tables()
    first, again = Query("tuition fees"), Query("tuition fees")
    assert first.hit_mask("Fees") == again.hit_mask("fees") == 0b10
    assert first._word_tables[Language.ENGLISH] is again._word_tables[Language.ENGLISH]
    for n in range(2 * query_module.WORD_TABLES):
        assert Query(f"fees{n} fees").hit_mask("fees") == 0b10
        assert len(query_module._WORD_TABLES) <= query_module.WORD_TABLES


def test_the_word_cache_stays_within_its_bound_and_answers_alike_after_a_clear(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(query_module, "WORD_HITS_CACHE_SIZE", 50)
    # the Python path, which fills the word cache (the compiled one keeps masks in a table
    # of its own, filled by ``word_masks``)
    monkeypatch.setattr(query_module, "WORD_CLASSES", None)
    query = Query("tuition fees")
    texts = [f"fees word{n} word{n + 1} tuition{n % 2}" for n in range(200)]
    for text in texts:
        assert query._hit_mask(text, None) == _hit_mask_by_stemming(query, text, None)
        hits = query._word_hits[Language.ENGLISH]
        assert len(hits.known) <= 50
        assert set(hits.masks) == hits.words <= hits.known
    assert query.word_hits({"fees", "fee", "word3", "tuitions"}) == {
        "fees": 0b10, "fee": 0b10, "tuitions": 0b01}


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=60))
def test_the_words_of_an_ascii_text_are_the_unicode_rules(text: str) -> None:
    assert words(text) == re.findall(r"[^\W_]+", text.casefold())


def test_every_ascii_character_splits_or_joins_words_as_the_unicode_rule_does() -> None:
    for code in range(128):
        text = f"a{chr(code)}b {chr(code)}Z9"
        assert words(text) == re.findall(r"[^\W_]+", text.casefold()), code


def test_the_ascii_separators_are_neither_letters_nor_digits() -> None:
    for char in tokens_module.ASCII_SEPARATORS:
        assert not char.isascii() and re.fullmatch(r"[^\W_]", char) is None, repr(char)
        assert words(f"a{char}B") == ["a", "b"]


_MOSTLY_ASCII = st.text(alphabet=st.one_of(
    st.characters(max_codepoint=127), st.sampled_from(tokens_module.ASCII_SEPARATORS),
    st.sampled_from("éßİKﬀΣ٣\u2028"), st.characters()), max_size=60)


@settings(max_examples=500, deadline=None)
@given(_MOSTLY_ASCII)
def test_the_words_of_a_text_are_the_unicode_rules(text: str) -> None:
    assert words(text) == re.findall(r"[^\W_]+", text.casefold())
