"""Links read by meaning (frontier/meaning.py ``LinkMeaning``, docs/DESIGN.md §8.2): a link's
anchor and list title against the query, lifted over the upper quartile of the site's link
texts (the median for a crawl recorded before), and the lift's place in the link score."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier import meaning as meaning_module
from pagesift_ui.frontier.focus import Focus
from pagesift_ui.frontier.language import Language
from pagesift_ui.frontier.linkbatch import score_batch
from pagesift_ui.frontier.linkrules import anchor_and_title, link_contexts, title_of
from pagesift_ui.frontier.links import LinkSignal, explain, link_signal, score
from pagesift_ui.frontier.meaning import (
    LINK_TEXT_QUANTILE,
    LinkMeaning,
    RunningMedian,
    RunningQuantile,
    word_vectors,
)
from pagesift_ui.frontier.model import PRIOR_WEIGHTS
from pagesift_ui.frontier.query import Query
from tests.frontier.test_meaning import tiny_table  # "cat", "kitten" one way, "tax" the other

QUERY = "the C client library: opening a session, sending statements, reading results"
U = "http://docs.localhost"


def test_an_anchor_that_names_the_subject_in_other_words_is_lifted_and_others_are_not() -> None:
    reader = LinkMeaning(word_vectors(), QUERY, 0.25)
    answer = "Database Connection Control Functions"
    others = ["Release Notes", "Legal Notice", "Bibliography", "Acknowledgments",
              "Installation from Source Code on Windows"]
    lifts = reader.read_page([answer, *others])
    assert lifts[answer] > 0.05
    assert max(lifts[text] for text in others) < lifts[answer]
    assert all(0.0 <= lift <= 0.25 for lift in lifts.values())  # at most the weight


def test_a_pages_texts_join_the_reference_before_any_is_lifted() -> None:
    # the first text of a crawl, read alone, would be its own reference and never lifted
    reader = LinkMeaning(tiny_table(), "kitten", 1.0, quantile=0.5)
    lifts = reader.read_page(["cat", "tax", "tax"])  # "tax" counted once
    assert reader.reference == pytest.approx((reader.cosine("cat") + reader.cosine("tax")) / 2)  # type: ignore[operator]
    assert lifts["cat"] > 0.0 and lifts["tax"] == 0.0


def test_the_lift_is_the_weighted_excess_over_the_reference_scaled_and_rounded() -> None:
    reader = LinkMeaning(tiny_table(), "kitten", 0.5)
    lifts = reader.read_page(["cat", "tax", "kitten"])
    reference = reader.reference
    assert reference is not None
    cosine = reader.cosine("kitten")
    assert cosine is not None
    assert lifts["kitten"] == round(0.5 * (cosine - reference) / (1 - reference), 6)


def test_by_default_a_text_is_lifted_only_above_three_in_four_link_texts() -> None:
    # the Python docs' front page for "pack members into a single bundle": over the median
    # link text, "Distributing Python Modules" took a lift of a few hundredths and was
    # fetched before the library (docs/DECISIONS.md, "Adopted: a link lifted by meaning only
    # above three in four link texts")
    texts = ["cat", "kitten", "tax", "tax cat", "zzz tax", "tax tax cat"]
    upper = LinkMeaning(tiny_table(), "kitten", 1.0)
    assert upper.quantile == LINK_TEXT_QUANTILE == 0.75
    median = LinkMeaning(tiny_table(), "kitten", 1.0, quantile=0.5)
    lifted_upper, lifted_median = upper.read_page(texts), median.read_page(texts)
    cosines = sorted(c for c in (upper.cosine(t) for t in texts) if c is not None)
    assert upper.reference == pytest.approx(float(np.quantile(cosines, 0.75)))
    assert median.reference == pytest.approx(float(np.quantile(cosines, 0.5)))
    between = [t for t in lifted_median if lifted_median[t] > 0.0 and lifted_upper[t] == 0.0]
    assert between  # lifted over the median, not over the upper quartile
    assert lifted_upper["kitten"] > 0.0  # the text nearest the query is lifted by both
    assert sum(lift > 0 for lift in lifted_upper.values()) < sum(
        lift > 0 for lift in lifted_median.values())


@pytest.mark.parametrize("quantile", [-0.1, 1.5, float("nan"), True, "0.75"])
def test_a_quantile_outside_zero_to_one_is_refused(quantile: object) -> None:
    with pytest.raises(ValueError, match="quantile"):
        RunningQuantile(quantile)  # type: ignore[arg-type]


def test_a_text_without_a_known_word_has_no_lift_and_does_not_move_the_reference() -> None:
    reader = LinkMeaning(tiny_table(), "kitten", 1.0)
    lifts = reader.read_page(["zzz qqq", "tax"])
    assert "zzz qqq" not in lifts
    assert reader.reference == reader.cosine("tax")
    assert LinkMeaning(tiny_table(), "nothing known", 1.0).read_page(["cat"]) == {}


def test_the_weight_must_be_in_zero_one() -> None:
    for weight in (0.0, 1.5, -0.1):
        with pytest.raises(ValueError, match="weight must be in"):
            LinkMeaning(tiny_table(), "cat", weight)


def test_the_text_cache_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(meaning_module, "LINK_TEXTS_KEPT", 2)
    reader = LinkMeaning(tiny_table(), "kitten", 1.0)
    first = reader.cosine("cat")
    reader.cosine("tax")
    reader.cosine("kitten")  # the third: the cache is emptied first
    assert len(reader._cosines) == 1  # noqa: SLF001 (the bound is the point)
    assert reader.cosine("cat") == first


def test_a_links_text_for_meaning_is_its_anchor_and_its_lists_title() -> None:
    contexts = link_contexts(f"## Client Interfaces\n\n- [libpq]({U}/libpq.html)\n")
    anchor, context = contexts[f"{U}/libpq.html"][0]
    assert title_of(context) == "Client Interfaces"
    assert anchor_and_title(anchor, context) == "libpq Client Interfaces"
    assert anchor_and_title("Preface", "Preface and more") == "Preface"
    assert title_of("a line without a list title") == ""


def test_meaning_adds_to_the_raw_score_before_the_shape_and_is_explained() -> None:
    query = Query(QUERY)
    terms = [1.0] * len(query)
    plain = link_signal(query, f"{U}/a/b.html", "Preface", "", 1, 0.2, False, "docs.localhost")
    lifted = link_signal(query, f"{U}/a/b.html", "Preface", "", 1, 0.2, False,
                         "docs.localhost", meaning=0.125)
    assert lifted.blind and plain.blind  # meaning is no word of the query: still blind
    before = score(plain, PRIOR_WEIGHTS, terms, False, True)
    after = score(lifted, PRIOR_WEIGHTS, terms, False, True)
    assert after == pytest.approx(before + 0.125 * 0.9)  # + meaning, then the depth decay
    explanation = explain(lifted, PRIOR_WEIGHTS, terms, False, True)
    term = {f.name: f for f in explanation.features}["meaning"]
    assert (term.value, term.weight, term.contribution) == (0.125, 1.0, 0.125)
    assert "meaning" not in {f.name for f in explain(plain, PRIOR_WEIGHTS, terms, False,
                                                     True).features}
    both = score_batch([plain, lifted], PRIOR_WEIGHTS, terms, False, True)
    assert both.tolist() == [before, after]


def test_a_signals_meaning_is_checked_and_kept_only_when_set() -> None:
    for bad in (-0.1, 1.5, True, "0.2"):
        with pytest.raises(ValueError, match="meaning must be a number in"):
            LinkSignal(f"{U}/x", meaning=bad)  # type: ignore[arg-type]
    signal = LinkSignal(f"{U}/x", meaning=0.2)
    assert signal.to_dict()["meaning"] == 0.2
    assert LinkSignal.from_dict(signal.to_dict()) == signal
    assert "meaning" not in LinkSignal(f"{U}/x").to_dict()  # records before it read the same


def test_focus_reads_links_by_meaning_only_in_english() -> None:
    reader = LinkMeaning(word_vectors(), QUERY, 0.25)
    focus = Focus(Query(QUERY), link_meaning=reader)
    texts = ["Database Connection Control Functions", "Release Notes", "Legal Notice"]
    assert focus.link_lifts(texts, Language.GERMAN) == {}
    assert focus.link_lifts(texts, Language.ENGLISH)
    german = Focus(Query("Verbindung zur Datenbank öffnen", Language.GERMAN),
                   link_meaning=LinkMeaning(word_vectors(), QUERY, 0.25))
    assert german.link_meaning is None
    assert Focus(Query(QUERY)).link_lifts(texts) == {}


@given(st.lists(st.floats(-1.0, 1.0, allow_nan=False).map(lambda x: round(x, 6)), max_size=200))
def test_the_running_median_is_the_middle_of_the_sorted_numbers_exactly(
    values: list[float],
) -> None:
    running = RunningMedian()
    for count, value in enumerate(values, start=1):
        running.add(value)
        ordered = sorted(values[:count])
        middle = count // 2
        expected = ordered[middle] if count % 2 else (ordered[middle - 1] + ordered[middle]) / 2
        assert running.median == expected  # the same float, not a near one
    if not values:
        assert running.median is None


@given(st.lists(st.floats(-1.0, 1.0, allow_nan=False).map(lambda x: round(x, 6)), max_size=200),
       st.sampled_from([0.0, 0.1, 0.25, 0.5, 0.75, 0.9, 1.0]))
def test_the_running_quantile_interpolates_the_sorted_numbers_exactly(
    values: list[float], quantile: float,
) -> None:
    running = RunningQuantile(quantile)
    for count, value in enumerate(values, start=1):
        running.add(value)
        ordered = sorted(values[:count])
        position = quantile * (count - 1)
        below = int(position)
        fraction = position - below
        expected = ordered[below] if fraction == 0.0 else (
            (1.0 - fraction) * ordered[below] + fraction * ordered[below + 1])
        assert running.value == expected  # the same float, not a near one
        assert running.value == pytest.approx(float(np.quantile(ordered, quantile)))
    if not values:
        assert running.value is None


def test_the_running_median_counts_a_bounded_number_of_values(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(meaning_module, "MEDIAN_COUNTS_KEPT", 3)
    running = RunningMedian()
    for value in (0.1, 0.2, 0.3, 0.9, 0.9, 0.9):
        running.add(value)
    assert len(running) == 3 and running.median == 0.2


def test_a_long_link_text_is_read_to_its_first_characters_and_kept_so() -> None:
    # a page may wrap whole paragraphs in a link: the cache must stay bounded whatever it holds
    reader = LinkMeaning(tiny_table(), "kitten", 1.0)
    head = "cat " * (meaning_module.LINK_TEXT_CHARS // 4)
    assert reader.cosine(head + "tax " * 10_000) == reader.cosine(head)
    assert all(len(text) <= meaning_module.LINK_TEXT_CHARS for text in reader._cosines)  # noqa: SLF001


def test_texts_that_read_the_same_count_once_in_the_median() -> None:
    # two long texts that differ only past LINK_TEXT_CHARS are one text read: one count
    reader = LinkMeaning(tiny_table(), "kitten", 1.0)
    head = "cat " * (meaning_module.LINK_TEXT_CHARS // 4)
    lifts = reader.read_page([head + "tax", head + "kitten", "tax"])
    assert len(reader._read) == 2  # noqa: SLF001 (the count is the point)
    assert lifts[head + "tax"] == lifts[head + "kitten"]
