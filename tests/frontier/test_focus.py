"""The Focus object, and the scenario of the issue on a toy university site (docs/DESIGN.md
§6–§8)."""

from __future__ import annotations

import math

import pytest

from pagesift_ui.frontier.focus import Focus
from pagesift_ui.frontier.linkrules import markdown_text
from pagesift_ui.frontier.links import LinkSignal, link_contexts
from pagesift_ui.frontier.model import PRIOR_WEIGHTS
from pagesift_ui.frontier.query import Query, words
from pagesift_ui.frontier.relevance import PageSignal

SEED_HOST = "www.uni.localhost"
U = "https://www.uni.localhost"

# A toy university: url → (title, headings, Markdown body).
SITE: dict[str, tuple[str, list[str], str]] = {
    f"{U}/": (
        "University of Somewhere",
        ["Welcome to the University of Somewhere", "News"],
        "# Welcome to the University of Somewhere\n\n"
        "Our students come from 120 countries. Read about "
        f"[International student fees]({U}/admissions/international-student-fees) "
        "before you apply.\n\n"
        "## News\n\n"
        "- [International students celebrate fees freeze]"
        f"({U}/news/2024/05/international-students-celebrate-fees-freeze)\n"
        f"- [Admissions]({U}/admissions/)\n"
        f"- [About us]({U}/about/)\n"
        f"- [Archive]({U}/archive/)\n",
    ),
    f"{U}/admissions/": (
        "Admissions",
        ["Admissions"],
        "# Admissions\n\nHow students apply, step by step, for every programme we teach.\n",
    ),
    f"{U}/about/": (
        "About us",
        ["About us"],
        "# About us\n\nFounded in 1850, the university serves 20,000 students.\n",
    ),
    f"{U}/archive/2019/students/": (
        "Student archive 2019",
        ["Archive"],
        "# Archive\n\nStudents of 2019 remembered.\n\n"
        "- [Fees for international students, 2019]"
        f"({U}/archive/2019/students/fees-international)\n",
    ),
    f"{U}/library/": (
        "Library",
        ["Library"],
        "# Library\n\nOpening hours for students and staff.\n",
    ),
}


def _fetch(focus: Focus, url: str, lang: str = "en") -> tuple[PageSignal, float]:
    title, headings, body = SITE[url]
    signal = focus.page_signal(url, title, headings, body)
    focus.observe_page(signal, lang)
    return signal, focus.relevance(signal)


def _links(focus: Focus, url: str, depth: int, relevance: float) -> dict[str, LinkSignal]:
    """The link signals of a fetched page, keyed by URL (first occurrence)."""
    _, _, body = SITE[url]
    contexts = link_contexts(body)
    hub = Focus.is_hub(len(words(markdown_text(body))), len(contexts))
    return {
        target: focus.link_signal(target, anchor, context, depth + 1, relevance, hub, SEED_HOST)
        for target, ((anchor, context), *_) in contexts.items()
    }


def test_scenario_fees_link_outranks_news_and_deep_archive() -> None:
    focus = Focus(Query("international student fees"))
    _, seed_relevance = _fetch(focus, f"{U}/")
    seed_links = _links(focus, f"{U}/", 0, seed_relevance)
    _, archive_relevance = _fetch(focus, f"{U}/archive/2019/students/")
    archive_links = _links(focus, f"{U}/archive/2019/students/", 3, archive_relevance)

    fees = seed_links[f"{U}/admissions/international-student-fees"]
    news = seed_links[f"{U}/news/2024/05/international-students-celebrate-fees-freeze"]
    archive = archive_links[f"{U}/archive/2019/students/fees-international"]
    assert news.anchor_mask == fees.anchor_mask == 0b111  # the news link names every term…
    assert news.dated and news.furniture  # …but is a dated leaf under /news/
    assert archive.depth == 4 and archive.furniture and archive.dated

    scores = {name: focus.score(sig) for name, sig in
              (("fees", fees), ("news", news), ("archive", archive))}
    assert scores["fees"] > scores["news"]
    assert scores["fees"] > scores["archive"]
    explanation = focus.explain(news)
    assert [step.rule for step in explanation.steps] == ["dated", "depth"]
    assert explanation.score == scores["news"]


def test_scenario_common_term_weight_falls_below_a_rare_one() -> None:
    focus = Focus(Query("fees for international students"))
    assert focus.query.terms == ["fees", "international", "students"]
    for url in SITE:  # every page mentions students; the seed and the archive mention fees
        _fetch(focus, url)
    fees, _, students = focus.term_weights.weights
    assert focus.term_weights.df == [2, 2, 5]
    assert students == 0.15  # idf(5, 5) = ln(6/5.5)/ln 6 = 0.049, clamped to MIN_WEIGHT
    assert fees == pytest.approx(math.log(6 / 2.5) / math.log(6))  # 0.489
    assert students < fees
    unit_weights = dict(zip(focus.facets.units, focus.facets.unit_weights(), strict=False))
    assert unit_weights["students"] < unit_weights["fees"]
    assert focus.needs_rescore()  # term weights moved by ≥ 0.1 since the start
    assert not focus.needs_rescore()


def test_score_batch_and_explain_agree_with_score() -> None:
    focus = Focus(Query("international student fees"))
    _, relevance = _fetch(focus, f"{U}/")
    signals = list(_links(focus, f"{U}/", 0, relevance).values())
    assert focus.score_batch(signals).tolist() == [focus.score(s) for s in signals]
    assert [focus.explain(s).score for s in signals] == [focus.score(s) for s in signals]


def test_relevance_explanation_comes_from_the_facets() -> None:
    focus = Focus(Query("international student fees"))
    signal, relevance = _fetch(focus, f"{U}/")
    explanation = focus.explain_relevance(signal)
    assert explanation.relevance == relevance
    assert [u.unit for u in explanation.units] == ["international", "student", "fees"]


def test_portal_opens_for_a_non_english_seed_until_an_english_home() -> None:
    focus = Focus(Query("tuition fees"))
    portal = LinkSignal(f"{U}/en/", "English", depth=1, portal=True)
    assert not focus.portal_open
    seed = focus.page_signal(f"{U}/", "Universität", [], "Willkommen")
    focus.observe_page(seed, "de")
    assert focus.portal_open
    assert focus.score(portal) == pytest.approx(0.6 * 0.9)  # raw 0 → portal floor → depth 1
    english_elsewhere = focus.page_signal(f"{U}/de/x", "x", [], "x")
    focus.observe_page(english_elsewhere, "en")
    assert focus.portal_open  # English, but not under a portal path
    english_home = focus.page_signal(f"{U}/en/", "University", [], "Welcome")
    focus.observe_page(english_home, "en-GB")
    assert not focus.portal_open
    assert focus.score(portal) == 0.0


@pytest.mark.parametrize(("query", "seed_lang"), [("tuition fees", "en"),
                                                  ("tuition fees", ""),
                                                  ("studiengebühren", "de")])
def test_portal_stays_closed(query: str, seed_lang: str) -> None:
    focus = Focus(Query(query))
    focus.observe_page(focus.page_signal(f"{U}/", "t", [], "b"), seed_lang)
    assert not focus.portal_open


def test_learn_feeds_features_to_the_model_and_asks_for_a_rescore() -> None:
    focus = Focus(Query("international student fees"))
    blind = focus.link_signal(f"{U}/admissions/", "Admissions", "", 1, 1.0, False, SEED_HOST)
    assert focus.model.weights == PRIOR_WEIGHTS
    changes = [focus.learn(blind, True) for _ in range(30)]
    # only the parent feature is non-zero: its weight rises past the significance threshold
    assert any(changes)
    assert focus.model.weights[3] > PRIOR_WEIGHTS[3]
    assert focus.model.weights[:3] == PRIOR_WEIGHTS[:3]
    assert focus.needs_rescore()
    assert not focus.needs_rescore()


@pytest.mark.parametrize(("word_count", "link_count", "hub"), [(10, 20, True), (20, 20, False)])
def test_hub_has_fewer_prose_words_than_links(word_count: int, link_count: int, hub: bool) -> None:
    assert Focus.is_hub(word_count, link_count) is hub


def test_focus_validates_its_inputs() -> None:
    with pytest.raises(ValueError):
        Focus("tuition fees")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        Focus.is_hub(-1, 3)
    with pytest.raises(ValueError):
        Focus(Query("fees"), prior=(1.0, 2.0))
