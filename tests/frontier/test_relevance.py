"""Page relevance by facet (docs/DESIGN.md §7)."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.relevance import (
    P_NORM,
    FacetStats,
    PageSignal,
    SiteStats,
    UnitEvidence,
    evidence,
    page_signal,
)
from pagesift_ui.frontier.weights import idf

QUERY = Query("international student fees")


def _signal(url: str, body: str, title: str = "", headings: tuple[str, ...] = ()) -> PageSignal:
    return page_signal(QUERY, url, title, list(headings), body)


# --------------------------------------------------------------------------- evidence


@pytest.mark.parametrize(("tf", "expected"), [(0, 0.0), (1, 1 / 9), (3, 1 / 5)])
def test_tf_saturates_as_tf_over_tf_plus_two_at_average_length(tf: int, expected: float) -> None:
    # len = avg_len: (0 + 0 + tf/(tf + 1 + 1)) / 3 → 0, (1/3)/3 = 1/9, (3/5)/3 = 1/5
    assert evidence(False, False, tf, 120, 120.0) == (tf / (tf + 2)) / 3
    assert evidence(False, False, tf, 120, 120.0) == pytest.approx(expected, rel=1e-15)


def test_short_page_saturates_faster() -> None:
    # len = avg_len / 2: tf 1 → 1 / (1 + 1 + 0.5) = 0.4
    assert evidence(False, False, 1, 50, 100.0) == pytest.approx(0.4 / 3)
    assert evidence(True, True, 1, 50, 100.0) == pytest.approx((2 + 0.4) / 3)


def test_about_and_head_each_add_a_third() -> None:
    assert evidence(True, False, 0, 10, 10.0) == pytest.approx(1 / 3)
    assert evidence(True, True, 0, 10, 10.0) == pytest.approx(2 / 3)
    assert evidence(False, False, 0, 10, 0.0) == 0.0  # no average yet: counts as average


# --------------------------------------------------------------------------- signals


def test_page_signal_counts_about_head_and_tf_per_unit() -> None:
    sig = _signal(
        "https://www.uni.localhost/admissions/international-fees",
        "International students pay tuition fees. Fees are due in September.",
        title="Fees and funding",
        headings=("International students", "Paying your fees"),
    )
    assert sig.units == (
        "international", "student", "fees", "international student", "student fees",
    )
    assert sig.n_terms == 3
    # about: title "fees and funding" + URL words "admissions international fees"
    assert sig.about == (True, False, True, False, False)
    assert sig.head == (True, True, True, True, False)
    assert sig.tf == (1, 1, 2, 1, 0)
    assert sig.length == 10  # every word; "are" and "in" are stop words:
    assert sig.content_words == 8
    assert sig.body_mask == 0b111


def test_markdown_links_count_as_their_anchor_text_not_their_url() -> None:
    body = "See [International fees](https://u.localhost/international-student-fees)."
    sig = _signal("https://u.localhost/", body)
    assert sig.tf[:3] == (1, 0, 1)
    assert sig.length == 3


def test_pair_skips_stop_words_between_its_terms() -> None:
    query = Query("cost of living")
    sig = page_signal(query, "https://x.localhost/", "", [], "The cost of living is high.")
    assert sig.units == ("cost", "living", "cost living")
    assert sig.tf == (1, 1, 1)


def test_cjk_terms_count_substrings_and_form_no_pairs() -> None:
    query = Query("退款 政策")
    body = "我们的退款政策。退款需要三天。"
    sig = page_signal(query, "https://x.localhost/", "退款政策", [], body)
    assert sig.units == ("退款", "政策")
    assert sig.tf == (2, 1)
    assert sig.about == (True, True)


def test_page_signal_round_trips_through_json() -> None:
    sig = _signal("https://www.uni.localhost/fees", "student fees", title="Fees")
    assert PageSignal.from_dict(json.loads(json.dumps(sig.to_dict()))) == sig
    with pytest.raises(ValueError, match="lacks"):
        PageSignal.from_dict({"url": "x"})


def test_page_signal_validates_its_parts() -> None:
    with pytest.raises(ValueError, match="one value per unit"):
        PageSignal("u", 1, ("a",), (True,), (), (0,), 0, 0, 0)
    with pytest.raises(ValueError, match="headings"):
        page_signal(QUERY, "u", "", "one heading", "")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- relevance


def test_relevance_before_three_pages_weighs_every_term_one() -> None:
    stats = FacetStats(QUERY)
    sig = _signal(
        "https://www.uni.localhost/admissions/international-fees",
        "International students pay tuition fees. Fees are due in September.",
        title="Fees and funding",
        headings=("International students", "Paying your fees"),
    )
    stats.observe(sig)
    # avg_len = len: international (1 + 1 + 1/3)/3 = 7/9, student (0 + 1 + 1/3)/3 = 4/9,
    # fees (1 + 1 + 2/4)/3 = 5/6; no pairs before 3 pages; equal weights, so the p-norm OR
    # is the power mean (((7/9)³ + (4/9)³ + (5/6)³)/3)^(1/3), p = P_NORM = 3
    expected = (((7 / 9) ** 3 + (4 / 9) ** 3 + (5 / 6) ** 3) / 3) ** (1 / 3)
    assert P_NORM == 3.0
    assert stats.relevance(sig) == pytest.approx(expected)
    explanation = stats.explain_relevance(sig)
    assert [u.unit for u in explanation.units] == ["international", "student", "fees"]
    assert [u.weight for u in explanation.units] == [1.0, 1.0, 1.0]
    assert (explanation.pages, explanation.avg_len) == (1, 10.0)
    json.dumps(explanation.to_dict())


def test_nothing_active_means_zero() -> None:
    empty = Query("the of and")
    stats = FacetStats(empty)
    sig = page_signal(empty, "https://x.localhost/", "t", [], "body")
    stats.observe(sig)
    assert stats.relevance(sig) == 0.0


def test_unit_on_every_page_stops_counting() -> None:
    stats = FacetStats(QUERY)
    pages = [
        _signal("https://u.localhost/a", "Students meet the dean."),
        _signal("https://u.localhost/b", "Students read. Fees are listed."),
        _signal("https://u.localhost/c", "Library hours for students."),
    ]
    for sig in pages:
        stats.observe(sig)
    weights = dict(zip(stats.units, stats.unit_weights(), strict=True))
    # N = 3, no floor: df 3 → ln(4/3.5)/ln 4 = 0.0963; df 1 → ln(4/1.5)/ln 4 = 0.7075; df 0 → 1
    assert weights["student"] == pytest.approx(math.log(4 / 3.5) / math.log(4))
    assert weights["fees"] == pytest.approx(math.log(4 / 1.5) / math.log(4))
    assert weights["international"] == 1.0
    for i in range(6):
        stats.observe(_signal(f"https://u.localhost/p{i}", "More about students."))
    weights = dict(zip(stats.units, stats.unit_weights(), strict=True))
    assert weights["student"] == pytest.approx(idf(9, 9, floor=0.0))  # ln(10/9.5)/ln 10 = 0.022
    assert weights["student"] < 0.15  # below even the link-score floor of docs/DESIGN.md §6
    only_students = _signal("https://u.localhost/s", "Students, students, students!",
                            title="Students", headings=("Students",))
    one_fee = _signal("https://u.localhost/f", "A fee applies to all courses this term.")
    assert stats.relevance(one_fee) > stats.relevance(only_students)


def _tuition_corpus() -> tuple[Query, list[PageSignal]]:
    query = Query("tuition fees housing")
    bodies = [
        "tuition fees library campus garden river bridge tower music",
        "housing office opens early tuition fees payable online today",
        "tuition fees cover teaching housing costs extra charges apply",
    ]
    return query, [
        page_signal(query, f"https://u.localhost/p{i}", "", [], body)
        for i, body in enumerate(bodies)
    ]


def test_always_adjacent_pair_is_a_collocation_and_becomes_a_unit() -> None:
    query, pages = _tuition_corpus()
    stats = SiteStats(query)
    for sig in pages:
        stats.observe(sig)
    tuition_fees, fees_housing = stats.collocations()
    # 27 content words; count(tuition) = count(fees) = 3, O = 3 → E = 3·3/27 = 1/3;
    # p = P(Poisson(1/3) ≥ 3) = 1 − e^(−1/3)(1 + 1/3 + 1/18) = 0.0048176
    assert (tuition_fees.pair, tuition_fees.observed) == ("tuition fees", 3)
    assert tuition_fees.expected == pytest.approx(1 / 3)
    assert tuition_fees.p_value == pytest.approx(1 - math.exp(-1 / 3) * (1 + 1 / 3 + 1 / 18))
    # Benjamini–Hochberg over 2 pairs: the smaller p × 2/1
    assert tuition_fees.adjusted == pytest.approx(2 * tuition_fees.p_value)
    assert tuition_fees.significant
    # "fees" is never directly followed by "housing": O = 0, p = 1
    assert (fees_housing.observed, fees_housing.p_value) == (0, 1.0)
    assert not fees_housing.significant
    units = [u.unit for u in stats.explain_relevance(pages[0]).units]
    assert units == ["tuition", "fees", "housing", "tuition fees"]


def test_pairs_wait_for_three_pages() -> None:
    query, pages = _tuition_corpus()
    stats = FacetStats(query)
    stats.observe(pages[0])
    stats.observe(pages[1])
    assert stats.collocations()[0].significant  # the test already passes…
    units = [u.unit for u in stats.explain_relevance(pages[0]).units]
    assert units == ["tuition", "fees", "housing"]  # …but pairs join only from page 3
    assert stats.unit_weights()[3:] == (0.0, 0.0)


def test_stored_signal_is_rescored_under_current_statistics() -> None:
    query, pages = _tuition_corpus()
    stats = FacetStats(query)
    stats.observe(pages[0])
    before = stats.relevance(pages[0])
    for sig in pages[1:]:
        stats.observe(sig)
    after = stats.explain_relevance(pages[0])
    assert after.relevance != before
    assert after.pages == 3


def test_signal_of_another_query_is_rejected() -> None:
    stats = FacetStats(QUERY)
    other = page_signal(Query("refund policy"), "https://x.localhost/", "", [], "refund")
    with pytest.raises(ValueError, match="units"):
        stats.observe(other)


_VOCAB = ["international", "students", "student", "fees", "fee", "tuition", "housing", "the",
          "of", "campus", "library", "news", "2024", "Ünïcode", "退款"]
_TEXT = st.lists(st.sampled_from(_VOCAB), max_size=30).map(" ".join)


@settings(max_examples=60, deadline=None)
@given(
    query_words=st.lists(st.sampled_from(_VOCAB), min_size=1, max_size=5),
    pages=st.lists(
        st.tuples(_TEXT, st.lists(_TEXT, max_size=3), _TEXT, st.booleans()),
        min_size=1,
        max_size=8,
    ),
)
def test_relevance_is_always_in_unit_interval(
    query_words: list[str], pages: list[tuple[str, list[str], str, bool]]
) -> None:
    query = Query(" ".join(query_words))
    stats = FacetStats(query)
    signals = [
        page_signal(query, f"https://u.localhost/{title.replace(' ', '-')}", title, heads, body)
        for title, heads, body, _ in pages
    ]
    for sig, (_, _, _, observed) in zip(signals, pages, strict=True):
        if observed:
            stats.observe(sig)
        for each in signals:
            explanation = stats.explain_relevance(each)
            assert 0.0 <= explanation.relevance <= 1.0
            assert explanation.relevance == stats.relevance(each)
            assert all(0.0 <= u.evidence <= 1.0 and 0.0 <= u.weight <= 1.0
                       for u in explanation.units)


def test_a_page_about_one_want_of_a_long_query_is_relevant() -> None:
    # seven wants, the page is about one of them only (title, heading, body): the weighted mean
    # gives it less than EVIDENCE_RELEVANCE; the p-norm OR (docs/DESIGN.md §7) does not
    from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE

    query = Query("compress archives sockets timeouts parsers locks queues")
    stats = FacetStats(query)
    page = page_signal(query, "https://d.localhost/zlib", "Compress data", ["Compress"],
                       "Compress a stream. Compress again.")
    stats.observe(page)
    explanation = stats.explain_relevance(page)
    parts = [(u.weight, u.evidence) for u in explanation.units]
    mean = sum(w * e for w, e in parts) / sum(w for w, _ in parts)
    p_norm = (sum((w * e) ** P_NORM for w, e in parts) / sum(w**P_NORM for w, _ in parts)) ** (
        1 / P_NORM
    )
    assert mean < EVIDENCE_RELEVANCE
    assert explanation.relevance == pytest.approx(p_norm)
    assert explanation.relevance >= EVIDENCE_RELEVANCE


@given(st.text(max_size=5), st.booleans(), st.booleans(), st.integers(0, 99),
       st.floats(0, 1), st.floats(0, 9))
def test_a_unit_evidence_dict_is_its_asdict(unit: str, about: bool, head: bool, tf: int,
                                             evidence: float, weight: float) -> None:
    item = UnitEvidence(unit, about, head, tf, evidence, weight)
    assert list(item.to_dict().items()) == list(dataclasses.asdict(item).items())
