"""Relevance by meaning (frontier/meaning.py, docs/DESIGN.md §7a): the shipped table, the
text vectors, the lift over the site's median page and its fusion into page relevance."""

from __future__ import annotations

import re

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import meaning as meaning_module
from pagesift_ui.frontier.focus import Focus
from pagesift_ui.frontier.language import Language
from pagesift_ui.frontier.meaning import Meaning, MeaningLift, WordVectors, word_vectors
from pagesift_ui.frontier.query import Query

QUERY = "who may connect to the server and how they prove who they are"


def tiny_table() -> WordVectors:
    # three words on two axes: "cat" and "kitten" point the same way, "tax" the other
    words = ["cat", "kitten", "tax"]
    codes = np.array([[127, 0], [100, 10], [0, 127]], dtype=np.int8)
    return WordVectors(words, codes, np.array([1.0, 1.0, 0.5], dtype=np.float32))


def test_the_shipped_table_holds_the_distilled_vocabulary() -> None:
    table = word_vectors()
    assert len(table) == 75_471
    assert table.dimensions == 128
    assert word_vectors() is table  # read once per process


def test_a_text_vector_is_the_unit_sum_of_its_known_words() -> None:
    table = tiny_table()
    vector = table.vector("The Cat, the TAX!")
    assert vector is not None
    expected = np.array([127.0, 0.0]) + np.array([0.0, 63.5])
    assert np.allclose(vector, expected / np.linalg.norm(expected))
    assert table.vector("no known word here") is None
    assert table.vector("") is None


# ASCII, the characters whose lower case is ASCII ("K" Kelvin, "İ" dotted I), letters of other
# scripts, a lone surrogate, and anything
_TEXTS = st.text(alphabet=st.one_of(
    st.characters(max_codepoint=127), st.sampled_from("\u212aİéßΣ\ud800—\xa0"),
    st.characters()), max_size=80)


@settings(max_examples=500, deadline=None)
@given(_TEXTS)
def test_the_table_reads_a_text_as_the_runs_of_a_to_z_of_its_lower_case(text: str) -> None:
    assert meaning_module._words(text) == re.findall(r"[a-z]+", text.lower())


def test_a_table_needs_one_row_and_one_scale_per_word() -> None:
    with pytest.raises(ValueError, match="one row of codes and one scale per word"):
        WordVectors(["a", "b"], np.zeros((3, 2), dtype=np.int8), np.ones(2, dtype=np.float32))


def test_a_page_about_the_subject_in_other_words_is_nearer_the_query_than_an_unrelated_one() -> (
    None
):
    meaning = Meaning(word_vectors(), QUERY, 0.25)
    answer = meaning.cosine("Client Authentication", ["Password Authentication",
                            "Certificate Authentication"],
                            "Each client must log in with a password or a certificate.")
    other = meaning.cosine("Release Notes", ["Version 15.2"],
                           "This release fixes bugs in the planner and the build scripts.")
    assert answer is not None and other is not None
    assert answer > other + 0.1


def test_cosines_are_kept_to_six_decimals_so_crawls_repeat_on_any_cpu() -> None:
    meaning = Meaning(word_vectors(), QUERY, 0.25)
    cosine = meaning.cosine("Client Authentication", [], "passwords and certificates")
    assert cosine is not None and cosine == round(cosine, 6)


def test_nothing_is_read_by_meaning_without_a_known_word() -> None:
    assert not Meaning(tiny_table(), "zzz qqq", 0.5).active
    meaning = Meaning(tiny_table(), "cat", 0.5)
    assert meaning.active
    assert meaning.cosine("", [], "zzz") is None


def test_the_lift_is_the_weighted_excess_over_the_median_page_read() -> None:
    meaning = Meaning(tiny_table(), "cat", 0.5)
    assert meaning.lift(0.9, 0.1) is None  # no page read yet: no median to stand out from
    for cosine in (0.2, 0.6, 0.4):
        meaning.observe(cosine)
    assert meaning.median == 0.4
    assert meaning.lift(0.4, 0.1) == MeaningLift(0.4, 0.4, 0.0, 0.1)
    assert meaning.lift(0.1, 0.1).lift == 0.0  # type: ignore[union-attr]
    assert meaning.lift(0.7, 0.1).lift == pytest.approx(0.5 * 0.3 / 0.6)  # type: ignore[union-attr]
    assert meaning.lift(1.0, 0.1).lift == 0.5  # type: ignore[union-attr]
    meaning.observe(0.8)
    assert meaning.median == pytest.approx(0.5)  # even count: the mean of the middle two


def test_the_weight_must_be_in_zero_one() -> None:
    for weight in (0.0, -0.1, 1.5):
        with pytest.raises(ValueError, match="weight must be in"):
            Meaning(tiny_table(), "cat", weight)


def _focus(query: str = QUERY) -> Focus:
    return Focus(Query(query), meaning=Meaning(word_vectors(), query, 0.25))


def test_relevance_is_fused_and_never_below_the_lexical() -> None:
    focus = _focus()
    pages = [("Release Notes", "Version 15.2 fixes bugs in the planner."),
             ("Build scripts", "How the documentation is built from its sources."),
             ("Client Authentication", "Each client must log in with a password or a "
              "certificate before it is let in.")]
    signals = []
    for number, (title, text) in enumerate(pages):
        signal = focus.page_signal(f"http://x.example/{number}.html", title, [title], text)
        focus.observe_page(signal, lang="en")
        signals.append(signal)
    explanations = [focus.explain_relevance(s) for s in signals]
    lexical = [focus.facets.explain_relevance(s).relevance for s in signals]
    for explanation, words in zip(explanations, lexical, strict=True):
        assert explanation.meaning is not None
        assert explanation.meaning.lexical == words
        assert explanation.relevance == pytest.approx(
            1 - (1 - words) * (1 - explanation.meaning.lift))
        assert explanation.relevance >= words
    # the answer never says "connect" or "prove", yet stands out from the site by meaning
    assert lexical[2] == 0.0 and explanations[2].relevance > 0.05
    assert explanations[2].to_dict()["meaning"]["cosine"] == signals[2].cosine


def test_meaning_is_english_only() -> None:
    german = Focus(Query("wer darf sich verbinden", Language.GERMAN),
                   meaning=Meaning(word_vectors(), "wer darf sich verbinden", 0.25))
    assert german.meaning is None
    focus = _focus()
    signal = focus.page_signal("http://x.example/de.html", "Anmeldung", [],
                               "Passwort und Zertifikat", Language.GERMAN)
    assert signal.cosine is None
    focus.observe_page(signal, lang="de")
    assert focus.explain_relevance(signal).meaning is None


def test_without_meaning_relevance_is_the_lexical_one() -> None:
    focus = Focus(Query(QUERY))
    signal = focus.page_signal("http://x.example/a.html", "Client Authentication", [],
                               "passwords")
    assert signal.cosine is None
    focus.observe_page(signal, lang="en")
    assert focus.explain_relevance(signal) == focus.facets.explain_relevance(signal)
    assert "meaning" not in focus.explain_relevance(signal).to_dict()
