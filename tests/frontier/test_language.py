"""Queries and pages in other languages (docs/DESIGN.md §1.1): stemmer, stop words, detection."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.errors import ConfigError
from pagesift_ui.frontier.focus import Focus, markdown_language
from pagesift_ui.frontier.language import (
    ENGLISH_STOP_WORDS,
    SUPPORTED,
    Language,
    declared_language,
    detect,
    page_language,
    query_language,
    stem_function,
    stop_words,
)
from pagesift_ui.frontier.query import STOP_WORDS, Query, stem, words
from pagesift_ui.frontier.relevance import page_signal
from pagesift_ui.session.config import CrawlConfig

GERMAN = Language.GERMAN
ENGLISH = Language.ENGLISH


def test_german_stop_words_are_not_query_terms() -> None:
    query = Query("die Gebühren für das Studium und die Miete")
    assert query.language is GERMAN
    assert query.terms == ["gebühren", "studium", "miete"]
    assert {"die", "für", "und", "das"} <= stop_words(GERMAN)


def test_gebuehren_and_gebuehr_share_a_german_stem() -> None:
    german_stem = stem_function(GERMAN)
    assert german_stem("gebühren") == german_stem("gebühr") == "gebuhr"
    # the English stemmer, the only one before, kept them apart
    assert stem("gebühren") != stem("gebühr")
    query = Query("Gebühren für Austauschstudierende")
    assert query.hit_mask("Die Gebühr beträgt 50 Euro.", GERMAN) == 0b01


def test_detection_picks_german_for_a_german_query_and_english_for_an_english_one() -> None:
    assert detect("Wohnen für Austauschstudierende") is GERMAN
    assert detect("housing for exchange students") is ENGLISH
    assert Query("Wohnen für Austauschstudierende").language is GERMAN
    assert Query("housing for exchange students").language is ENGLISH


def test_a_query_without_any_stop_word_is_read_in_english() -> None:
    assert detect("tuition fees") is None
    assert query_language("tuition fees") is ENGLISH
    assert Query("Gebühren Studium").language is ENGLISH  # choose German to have it German


def test_detection_breaks_a_tie_in_favour_of_english_then_the_more_common_language() -> None:
    # "for" is an English, Danish and Norwegian stop word: one hit each
    assert "for" in stop_words(Language.DANISH) and "for" in stop_words(Language.NORWEGIAN)
    assert detect("rooms for guests") is ENGLISH
    # "die" is a German and a Dutch stop word
    assert "die" in stop_words(Language.DUTCH)
    assert detect("die Miete") is GERMAN


def test_the_explicit_language_overrides_detection() -> None:
    query = Query("housing for exchange students", GERMAN)
    assert query.language is GERMAN
    assert query.terms == ["housing", "for", "exchange", "students"]  # "for" is no German stop
    assert query.stems == tuple(stem_function(GERMAN)(t) for t in query.terms)
    config = CrawlConfig.from_mapping({"seed_url": "http://e.localhost/",
                                       "query": "Wohnen für Austauschstudierende",
                                       "language": "en"})
    assert config.language is ENGLISH and config.query_language is ENGLISH
    assert config.describe_language() == "English (chosen)"


def test_an_auto_config_records_the_detected_language() -> None:
    config = CrawlConfig(seed_url="http://e.localhost/", query="Wohnen für Austauschstudierende")
    assert config.language is Language.AUTO
    assert config.query_language is GERMAN
    assert config.describe_language() == "German (detected)"
    assert config.to_dict()["language"] == "auto"
    assert CrawlConfig.from_mapping(config.to_dict()) == config


@pytest.mark.parametrize("value", ["xx", "ja", "german", ""])
def test_an_unsupported_language_is_a_clear_config_error(value: str) -> None:
    with pytest.raises(ConfigError, match="not supported") as caught:
        CrawlConfig.from_mapping({"seed_url": "http://e.localhost/", "query": "fees",
                                  "language": value})
    assert caught.value.field == "language"
    assert "auto" in str(caught.value) and "de (German)" in str(caught.value)


def test_only_stop_words_of_the_chosen_language_leave_no_term() -> None:
    with pytest.raises(ConfigError, match="only stop words"):
        CrawlConfig.from_mapping({"seed_url": "http://e.localhost/", "query": "die und für",
                                  "language": "de"})


def test_html_lang_beats_detection_for_a_page() -> None:
    english_text = "All about the housing for the students and their rooms."
    assert detect(english_text) is ENGLISH
    assert page_language("de", english_text, ENGLISH) is GERMAN
    assert page_language("de-AT", english_text, ENGLISH) is GERMAN
    assert page_language("", "Alles über das Wohnen für die Studierenden.", ENGLISH) is GERMAN
    focus = Focus(Query("housing for exchange students"))
    assert focus.page_language("de", english_text) is GERMAN
    assert focus.page_language("", english_text) is ENGLISH


def test_a_page_in_an_unsupported_or_unknown_language_is_read_in_the_querys() -> None:
    assert declared_language("ja") is None
    assert page_language("ja", "Alles über das Wohnen für die Studierenden.", ENGLISH) is ENGLISH
    assert page_language("", "Talheim 2025", GERMAN) is GERMAN
    assert declared_language("no") is Language.NORWEGIAN
    assert declared_language("EN_gb") is ENGLISH


def test_detection_reads_link_labels_not_link_urls() -> None:
    # "/en/" URLs would count "en" as a French, Dutch and Spanish stop word
    markdown = "[Housing](/en/housing/) [Wohnen](/en/wohnen/) [Rooms](/en/rooms/)"
    assert markdown_language("", markdown, GERMAN) is GERMAN  # no stop word seen: fallback


def test_english_keeps_its_own_stop_word_list() -> None:
    assert stop_words(ENGLISH) is ENGLISH_STOP_WORDS is STOP_WORDS
    assert len(ENGLISH_STOP_WORDS) == 126
    assert "research" not in ENGLISH_STOP_WORDS  # the package's English list has it
    assert SUPPORTED[0] is ENGLISH and Language.AUTO not in SUPPORTED


def test_every_supported_language_has_a_stemmer_and_stop_words() -> None:
    for language in SUPPORTED:
        assert stop_words(language), language
        assert stem_function(language)("2025") == "2025"
    with pytest.raises(ValueError):
        stop_words(Language.AUTO)


def test_a_german_page_is_counted_with_german_stems_and_stop_words() -> None:
    query = Query("Gebühren für Austauschstudierende")
    body = "Die Gebühr für Austauschstudierende: die Gebühren sind gering."
    german = page_signal(query, "http://h.localhost/gebuehren", "Gebühren", [], body, GERMAN)
    assert german.tf[0] == 2 and german.tf[1] == 1  # "Gebühr" and "Gebühren"
    assert german.content_words == len(words(body)) - 4  # die, für, die, sind
    # before, query and page were English: only "Gebühren" itself, and "die", "für" content
    as_before = Query("Gebühren für Austauschstudierende", ENGLISH)
    assert as_before.terms == ["gebühren", "für", "austauschstudierende"]
    english = page_signal(as_before, "http://h.localhost/gebuehren", "Gebühren", [], body)
    assert english.tf[0] == 1 and english.content_words == len(words(body))  # no English stop


def test_an_english_word_on_a_german_page_still_meets_an_english_term() -> None:
    query = Query("housing for exchange students")
    # the German stemmer leaves "housing" as it is, the English one makes it "hous"
    assert stem_function(GERMAN)("housing") != stem("housing")
    assert query.hit_mask("Housing: see our halls", GERMAN) == 0b001
    assert query.hit_mask("Mehr zum Wohnen", GERMAN) == 0


# The counting of ``page_signal`` before pages had languages, for the equivalence below:
# Counter of the content stems and of adjacent content-stem pairs.
def _old_counts(query: Query, text: str) -> list[int]:
    sequence = [stem(w) for w in words(text) if w not in STOP_WORDS]
    singles = Counter(sequence)
    pairs = Counter(zip(sequence, sequence[1:], strict=False))
    counts = [singles[s] for s in query.stems]
    counts += [pairs[(query.stems[i], query.stems[i + 1])] for i in range(len(query) - 1)]
    return counts


_VOCABULARY = ["fee", "fees", "tuition", "the", "of", "student", "students", "visa", "a",
               "Gebühr", "refund", "and", "international"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_VOCABULARY), max_size=40),  # the empty page too
       st.lists(st.sampled_from(_VOCABULARY), min_size=1, max_size=5))
def test_an_english_page_is_counted_exactly_as_before(body: list[str], query_words: list[str]
                                                      ) -> None:
    query = Query(" ".join(query_words))
    if not len(query):
        return
    text = " ".join(body)
    signal = page_signal(query, "http://h.localhost/", "", [], text, ENGLISH)
    assert list(signal.tf) == _old_counts(query, text)
    assert signal.content_words == sum(1 for w in words(text) if w not in STOP_WORDS)
    old_mask = sum(1 << i for i, s in enumerate(query.stems) if s in {stem(w) for w in
                                                                       words(text)})
    assert query.hit_mask(text) == query.hit_mask(text, ENGLISH) == old_mask


def test_a_config_recorded_before_languages_existed_is_read_in_english() -> None:
    recorded = {"seed_url": "http://e.localhost/", "query": "die casting"}
    # a new crawl detects: "die" is a German (and Dutch) stop word, the query has no English one
    assert CrawlConfig.from_mapping(recorded).query_language is GERMAN
    # a recording without the key was read in English, so it is read in English again
    old = CrawlConfig.from_recorded(recorded)
    assert old.language is ENGLISH and Query(old.query, old.language).terms == ["die", "casting"]
    assert CrawlConfig.from_recorded({**recorded, "language": "auto"}).language is Language.AUTO
    assert CrawlConfig.from_recorded(old.to_dict()) == old
