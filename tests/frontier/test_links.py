"""Link contexts, URL rules, link signals and the link score (docs/DESIGN.md §8)."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier.linkbatch import (
    score_batch,
)
from pagesift_ui.frontier.linkrules import LIST_TITLE_BYTES
from pagesift_ui.frontier.links import (
    CONTEXT_BYTES,
    DATED_FACTOR,
    DEPTH_DECAY,
    FURNITURE_FACTOR,
    FURNITURE_WORDS,
    HUB_FACTOR,
    LANGUAGE_PORTAL_SCORE,
    OTHER_LANGUAGE_FACTOR,
    SIBLING_WEIGHT,
    FeatureContribution,
    LinkSignal,
    explain,
    features,
    is_dated,
    is_furniture,
    is_language_portal,
    is_section_entry,
    link_contexts,
    link_signal,
    locator_text,
    other_language,
    score,
)
from pagesift_ui.frontier.model import PRIOR_WEIGHTS
from pagesift_ui.frontier.query import Query

SEED = "www.uni.localhost"
U = "https://www.uni.localhost"
# weights chosen so coverages are exact: Σw = 2
TERM_WEIGHTS = (1.0, 0.25, 0.75)


def test_constants_are_the_spec_values() -> None:
    assert (CONTEXT_BYTES, HUB_FACTOR, FURNITURE_FACTOR, DATED_FACTOR) == (400, 0.5, 0.2, 0.1)
    assert (LANGUAGE_PORTAL_SCORE, OTHER_LANGUAGE_FACTOR, SIBLING_WEIGHT) == (0.6, 0.2, 1.0)
    assert DEPTH_DECAY == 0.9
    spec_words = """news events blog press calendar tag tags category search archive feed rss
        sitemap about history leadership governance board mission strategy brand awards privacy
        terms cookies legal accessibility login""".split()
    # but a site map is the site's table of contents, not furniture (docs/DECISIONS.md)
    assert set(spec_words) - FURNITURE_WORDS == {"sitemap"}
    assert not {"sitemap", "site-map"} & FURNITURE_WORDS


# --------------------------------------------------------------------------- contexts


def test_link_contexts_lists_absolute_links_with_their_lines() -> None:
    markdown = (
        "# Fees\n"
        f"- [International student fees]({U}/fees/international) and [News]({U}/news/)\n"
        "See [relative](/x), [mail](mailto:a@b.c) and ![photo](https://cdn.localhost/p.png).\n"
        f"[![Logo](https://cdn.localhost/l.png)]({U}/)\n"
        f'Read the [fees]({U}/fees/international "Fees") again.\n'
    )
    assert link_contexts(markdown) == {
        f"{U}/fees/international": [
            ("International student fees", "International student fees and News § Fees"),
            ("fees", "Read the fees again."),
        ],
        f"{U}/news/": [("News", "International student fees and News § Fees")],
        f"{U}/": [("Logo", "Logo")],
    }


def test_a_list_entry_carries_its_lists_title() -> None:
    # the title is the nearest heading or link-less list item above (SQLite's "► Obsolete
    # Documents"); a paragraph leaves it, a link outside a list item does not get it
    markdown = (
        "# Handbook\n\n"
        "- ► Obsolete Documents\n\n"
        f"- [VDBE Tutorial]({U}/vdbe.html)\n\n"
        "Older pages follow.\n\n"
        f"1. [Speed]({U}/speed.html)\n\n"
        f"See [the tutorial]({U}/tutorial.html).\n\n"
        "## " + "Very long title " * 20 + "\n\n"
        f"- [Last]({U}/last.html)\n"
    )
    contexts = link_contexts(markdown)
    assert contexts[f"{U}/vdbe.html"] == [("VDBE Tutorial", "VDBE Tutorial § ► Obsolete Documents")]
    assert contexts[f"{U}/speed.html"] == [("Speed", "Speed § ► Obsolete Documents")]
    assert contexts[f"{U}/tutorial.html"] == [("the tutorial", "See the tutorial.")]
    ((_, last),) = contexts[f"{U}/last.html"]
    title = last.split(" § ", 1)[1]
    assert len(title.encode("utf-8")) <= LIST_TITLE_BYTES
    assert title == "Very long title " * 7 + "Very"  # 120 bytes, the half-cut word dropped


def test_long_line_is_cut_around_the_anchor_on_character_and_word_boundaries() -> None:
    line = "word " * 100 + f"[International fee policy]({U}/fees)" + " " + "é" * 300
    ((anchor, context),) = link_contexts(line)[f"{U}/fees"]
    # rendered: 500 bytes of "word ", the 24-byte anchor at byte 500, " ", 600 bytes of é.
    # Window: 400 − 24 = 376 spare, 188 before → bytes [312, 712); byte 312 is mid-"word"
    # ("rd" dropped), byte 712 is mid-"é" (cut back to 711 = 93 whole é).
    assert anchor == "International fee policy"
    assert context == "word " * 37 + "International fee policy " + "é" * 93
    assert len(context.encode("utf-8")) <= CONTEXT_BYTES


@settings(max_examples=80, deadline=None)
@given(
    before=st.text(alphabet="abc é退\u00a0 -", max_size=700),
    anchor=st.text(alphabet="Fes é退", min_size=1, max_size=40).map(str.strip).filter(bool),
    after=st.text(alphabet="xyz ü款 .", max_size=700),
)
def test_context_is_at_most_context_bytes_and_keeps_the_anchor(
    before: str, anchor: str, after: str
) -> None:
    contexts = link_contexts(f"{before}[{anchor}]({U}/a){after}")
    ((found, context),) = contexts[f"{U}/a"]
    assert len(context.encode("utf-8")) <= CONTEXT_BYTES
    assert found in context


def test_link_contexts_rejects_non_text() -> None:
    with pytest.raises(ValueError):
        link_contexts(b"[a](https://x.localhost/)")  # type: ignore[arg-type]


# --------------------------------------------------------------------------- rules


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (f"{U}/admissions/intl-student_fees.html", "admissions intl student fees"),
        ("https://journals.uni.localhost/article/view/12345/a1b2c3d4e5", "journals article view"),
        ("https://www.ox.ac.uk/study/fees.php?year=2025", "study fees"),
        ("https://localhost/Études/Frais%20de%20scolarité", "études frais de scolarité"),
        (f"{U}/files/0f3a9c2b7d1e4f56a8b9.pdf", "files"),
        ("https://cdn.uni.localhost/", "cdn"),
        ("https://uni.localhost/", ""),  # the site's own name says nothing
    ],
)
def test_locator_text_keeps_only_meaningful_url_words(url: str, expected: str) -> None:
    assert locator_text(url) == expected


@pytest.mark.parametrize(
    ("url", "anchor", "expected"),
    [
        (f"{U}/news/", "Read on", True),
        (f"{U}/About_Us.html", "Who we are", True),  # segment about-us
        (f"{U}/history-department/", "Department", False),  # not a whole segment
        (f"{U}/x", "Latest news", True),  # short anchor, head word "news"
        (f"{U}/x", "Privacy policy", True),  # whole anchor privacy-policy
        (f"{U}/x", "About tuition fees", False),  # head word "fees"
        (f"{U}/x", "International student fees", False),
        (f"{U}/x", "Board of the international student union", False),  # a title, not a label
        # a software site's machinery: licences, downloads, bug reports
        ("https://docs.localhost/license.html", "History and License", True),
        ("https://docs.localhost/download.html", "Download these documents", True),
        ("https://docs.localhost/bugs.html", "Reporting bugs", True),
        ("https://docs.localhost/x", "Dealing with Bugs", True),  # head word "bugs"
        ("https://docs.localhost/library/asyncio-dev.html", "Developing with asyncio", False),
        ("https://docs.localhost/x", "Downloading files over HTTP", False),  # a title
    ],
)
def test_furniture(url: str, anchor: str, expected: bool) -> None:
    assert is_furniture(url, anchor) is expected


@pytest.mark.parametrize(
    ("query", "url", "anchor", "expected"),
    [
        # the query names the word: its pages are what the reader asked for
        ("release history of the database", f"{U}/changes.html", "Release History", False),
        ("campus events this week", f"{U}/events/open-day", "Open day", False),
        ("campus events this week", f"{U}/x", "Upcoming events", False),
        # other furniture words still mark furniture
        ("campus events this week", f"{U}/news/", "Read on", True),
        ("release history of the database", f"{U}/x", "Latest news", True),
        # a joined entry stays furniture: "policy" asks for a policy, not the privacy notice
        ("refund policy", f"{U}/x", "Privacy policy", True),
        ("refund policy", f"{U}/privacy-policy", "Read", True),
    ],
)
def test_a_furniture_word_the_query_names_marks_nothing(
    query: str, url: str, anchor: str, expected: bool
) -> None:
    signal = link_signal(Query(query), url, anchor, "", 1, 0.0, False, "uni.localhost")
    assert signal.furniture is expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (f"{U}/news/2024/05/fees-freeze", True),
        (f"{U}/news/2024/", False),  # a year index, not a leaf under it
        (f"{U}/blog/2024-05-17-fees-freeze", True),
        (f"{U}/2024-05-17", True),
        (f"{U}/catalogue/1850/items", False),  # before 1990
        (f"{U}/programmes/2100/x", False),  # after 2099
        (f"{U}/events/2025-13-01-x", False),  # no month 13
        (f"{U}/fees/international", False),
        # a leaf named by a version: one of a series of per-release pages
        (f"{U}/whatsnew/3.5.html", True),
        (f"{U}/releaselog/3_7_1.html", True),
        (f"{U}/whatsnew/index.html", False),
        (f"{U}/35to36.html", False),  # a name, not a version
        (f"{U}/3.5/library/index.html", False),  # only the leaf is read
        (f"{U}/2024.html", False),  # one number: no version
    ],
)
def test_dated(url: str, expected: bool) -> None:
    assert is_dated(url) is expected


@pytest.mark.parametrize(
    ("url", "anchor", "expected"),
    [
        (f"{U}/admissions/", "Admissions", True),
        (f"{U}/de/zulassung", "Zulassung", True),  # language segment skipped
        ("https://uni.localhost/research", "Research", True),  # same site without www
        (f"{U}/admissions/fees", "Fees", False),  # two segments
        (f"{U}/admissions?tab=1", "Admissions", False),  # query string
        (f"{U}/admissions", "", False),
        (f"{U}/admissions", "one two three four five", False),
        ("https://journals.uni.localhost/", "", True),  # root of another host of the site
        (f"{U}/", "Home", False),  # the seed host's own root
        ("https://other.localhost/admissions", "Admissions", False),
    ],
)
def test_section_entry(url: str, anchor: str, expected: bool) -> None:
    assert is_section_entry(url, anchor, SEED) is expected


@pytest.mark.parametrize(
    ("url", "anchor", "expected"),
    [
        (f"{U}/en/", "", True),
        (f"{U}/en.html", "", True),
        (f"{U}/english/", "", True),
        (f"{U}/en/index.html", "", True),
        (f"{U}/lang?l=2", "English", True),
        (f"{U}/x", "EN", True),
        ("https://en.uni.de/", "", True),
        (f"{U}/en/study/fees", "Fees", False),
        (f"{U}/de/", "Deutsch", False),
    ],
)
def test_language_portal(url: str, anchor: str, expected: bool) -> None:
    assert is_language_portal(url, anchor) is expected


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        (f"{U}/de/studium", True),
        (f"{U}/fr-fr/", True),
        (f"{U}/deutsch/", True),
        (f"{U}/en/study", False),
        (f"{U}/study/de/", False),  # only a leading segment names a language
        (f"{U}/it/services", False),  # /it/ is the IT department
        (f"{U}/", False),
    ],
)
def test_other_language(url: str, expected: bool) -> None:
    assert other_language(url) is expected


# --------------------------------------------------------------------------- signals


def test_link_signal_reads_masks_and_rules() -> None:
    query = Query("international student fees")
    sig = link_signal(
        query,
        f"{U}/news/2024/05/international-students-celebrate-fees-freeze",
        "International students celebrate fees freeze",
        "Campus news: International students celebrate fees freeze",
        1, 0.4, False, SEED,
    )
    # the context's only hits are the anchor's own words: the context reads the words around it
    assert (sig.anchor_mask, sig.locator_mask, sig.context_mask) == (0b111, 0b111, 0b000)
    assert sig.phrase and not sig.blind
    assert sig.furniture and sig.dated and not sig.section and not sig.portal


def test_one_word_the_query_writes_twice_is_no_phrase() -> None:
    # "database" and "databases" are one term: an anchor naming it once hits one term, so it
    # has no phrase bonus (SQLite's "attached databases" outranked its Tools list by it)
    query = Query("command-line tools shipped with the database, comparing two databases")
    sig = link_signal(query, f"{U}/lang_attach.html", "attached databases", "", 1, 0.0,
                      False, SEED)
    assert bin(sig.anchor_mask).count("1") == 1 and not sig.phrase


def test_context_mask_reads_the_words_around_the_anchor() -> None:
    query = Query("international student fees")
    around = link_signal(query, f"{U}/x", "Fees", "Fees for international students",
                         1, 0.0, False, SEED)
    assert (around.anchor_mask, around.context_mask) == (0b100, 0b011)
    # the anchor's words elsewhere in the line still count: only its own occurrence goes
    twice = link_signal(query, f"{U}/x", "Fees", "Fees: the fees table", 1, 0.0, False, SEED)
    assert twice.context_mask == 0b100
    # an anchor the context does not hold (whitespace folded differently) leaves it whole
    whole = link_signal(query, f"{U}/x", "Fees  table", "Fees table", 1, 0.0, False, SEED)
    assert whole.context_mask == 0b100


def test_blind_and_phrase_come_from_the_masks() -> None:
    assert LinkSignal(f"{U}/admissions/").blind is True
    assert LinkSignal(f"{U}/x", context_mask=0b1).blind is False
    assert LinkSignal(f"{U}/x", anchor_mask=0b1).phrase is False
    assert LinkSignal(f"{U}/x", anchor_mask=0b101).phrase is True
    with pytest.raises(ValueError, match="contradicts"):
        LinkSignal(f"{U}/x", anchor_mask=0b1, blind=True)


@pytest.mark.parametrize(
    "bad", [{"depth": -1}, {"parent_relevance": 1.5}, {"parent_relevance": float("nan")},
            {"anchor_mask": -2}],
)
def test_link_signal_validates(bad: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        LinkSignal(f"{U}/x", **bad)  # type: ignore[arg-type]


def test_link_signal_round_trips_through_json() -> None:
    sig = LinkSignal(f"{U}/x", "Fees", "Pay fees", 2, 0.5, True, 0b1, 0b11, 0b1, furniture=True)
    data = json.loads(json.dumps(sig.to_dict()))
    assert LinkSignal.from_dict(data) == sig
    with pytest.raises(ValueError, match="unknown"):
        LinkSignal.from_dict({**data, "colour": "red"})


def test_a_signal_keeps_the_key_of_its_page_for_a_relabel_but_not_in_its_record() -> None:
    query = Query("tuition fees")
    sig = link_signal(query, f"{U}/fees", "Fees", "Fees for everyone", 2, 0.4, False,
                      "uni.localhost", parent="uni.localhost/study")
    assert sig.parent == "uni.localhost/study"
    assert replace(sig, parent_relevance=0.15).parent == "uni.localhost/study"
    assert "parent" not in sig.to_dict()  # where it was read is the crawl's, not the score's
    assert replace(sig, parent="") == sig  # nor does it make two signals differ
    assert score(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True) == score(
        replace(sig, parent=""), PRIOR_WEIGHTS, TERM_WEIGHTS, False, True)
    with pytest.raises(ValueError, match="parent must be a page key"):
        LinkSignal(f"{U}/x", parent=3)  # type: ignore[arg-type]


# --------------------------------------------------------------------------- score


def test_features_and_score_of_a_strong_link_by_hand() -> None:
    sig = LinkSignal(f"{U}/fees/international", depth=2, parent_relevance=0.6,
                     parent_is_hub=True, anchor_mask=0b111, locator_mask=0b101,
                     context_mask=0b011)
    # anchor 2/2 = 1; locator (1 + 0.75)/2 = 0.875; context (1 + 0.25)/2 = 0.625;
    # parent 0.6 × 0.5 (hub) = 0.3; phrase 1
    assert features(sig, TERM_WEIGHTS) == (1.0, 0.875, 0.625, 0.3, 1.0)
    # raw = 2·1 + 1.5·0.875 + 1·0.625 + 0.5·0.3 + 0.5·1 = 4.5875; depth 2 → × 0.81 = 3.715875
    assert score(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True) == pytest.approx(3.715875)
    explanation = explain(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True)
    assert explanation.raw == pytest.approx(4.5875)
    assert [f.name for f in explanation.features] == [
        "anchor", "locator", "context", "parent", "phrase",
    ]
    assert explanation.features[1].contribution == pytest.approx(1.3125)
    assert [tuple(s)[:2] for s in explanation.steps] == [("depth", pytest.approx(0.81))]
    json.dumps(explanation.to_dict())


def test_a_citation_passes_on_half_its_pages_relevance_and_a_hubs_citation_a_quarter() -> None:
    cited = LinkSignal(f"{U}/x", depth=1, parent_relevance=0.6, cited=True)
    listed = LinkSignal(f"{U}/x", depth=1, parent_relevance=0.6)
    hub_cited = LinkSignal(f"{U}/x", depth=1, parent_relevance=0.6, parent_is_hub=True,
                           cited=True)
    assert features(listed, TERM_WEIGHTS)[3] == 0.6
    assert features(cited, TERM_WEIGHTS)[3] == 0.3
    assert features(hub_cited, TERM_WEIGHTS)[3] == 0.15
    # the packed row (what a batch scores) holds the same float as features()
    assert [s.row[4] for s in (listed, cited, hub_cited)] == [0.6, 0.3, 0.15]
    # raw = 0.5 (parent prior) × 0.3 = 0.15 → × 0.9 = 0.135
    assert score(cited, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True) == pytest.approx(0.135)
    # the flag is kept in the record only when set: records made before it read the same
    assert "cited" not in listed.to_dict()
    assert explain(cited, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True).to_dict()["cited"] is True
    assert "cited" not in explain(listed, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True).to_dict()
    assert LinkSignal.from_dict(json.loads(json.dumps(cited.to_dict()))) == cited


def test_dated_news_link_takes_the_dated_factor_instead_of_furniture() -> None:
    sig = LinkSignal(f"{U}/news/2024/05/x", depth=1, parent_relevance=0.6,
                     anchor_mask=0b111, locator_mask=0b111, furniture=True, dated=True)
    # raw = 2 + 1.5 + 0 + 0.5·0.6 + 0.5 = 4.3; dated × 0.1 = 0.43; depth 1 → 0.387
    steps = explain(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True).steps
    assert steps == (("dated", 0.1, pytest.approx(0.43)), ("depth", 0.9, pytest.approx(0.387)))


def test_blind_section_entry_scores_only_what_its_parent_says() -> None:
    sig = LinkSignal(f"{U}/admissions/", "Admissions", depth=1, parent_relevance=0.4,
                     section=True)
    # raw = 0.5·0.4 = 0.2 → × 0.9 = 0.18: no floor lifts it (issue 11, mechanism 1)
    explanation = explain(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True)
    assert explanation.blind
    assert explanation.steps == (("depth", 0.9, pytest.approx(0.18)),)


def test_relevant_chapters_blind_entry_outranks_the_seeds_blind_entry() -> None:
    # the seed (relevance 0.05) lists "Legal Notice"; a chapter one click deeper (0.34)
    # lists "Runners": the chapter's entry comes first, though it is deeper
    seed_entry = LinkSignal(f"{U}/legal.html", "Legal Notice", depth=1, parent_relevance=0.05,
                            section=True)
    chapter_entry = LinkSignal(f"{U}/lib/runner.html", "Runners", depth=2,
                               parent_relevance=0.34)
    seed_score = score(seed_entry, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True)
    chapter_score = score(chapter_entry, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True)
    assert seed_score == pytest.approx(0.5 * 0.05 * 0.9)
    assert chapter_score == pytest.approx(0.5 * 0.34 * 0.81)
    assert chapter_score > seed_score


def test_sibling_credit_adds_to_the_raw_score_and_is_explained() -> None:
    sig = LinkSignal(f"{U}/lib/queue.html", "Queues", depth=2, parent_relevance=0.3, group=1)
    credits = np.array([0.9, 0.25])
    # raw = 0.5·0.3 + 1.0·0.25 = 0.4 → × 0.81 = 0.324
    explanation = explain(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True, credits)
    assert explanation.features[-1] == FeatureContribution("siblings", 0.25, 1.0, 0.25)
    assert explanation.raw == pytest.approx(0.4)
    assert explanation.score == pytest.approx(0.324)
    assert score_batch([sig], PRIOR_WEIGHTS, TERM_WEIGHTS, False, True, credits)[0] == (
        explanation.score
    )
    # outside any group, or without credits: no sibling term
    assert score(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True) == pytest.approx(0.15 * 0.81)


def test_language_portal_floor_only_while_open_under_an_english_query() -> None:
    sig = LinkSignal(f"{U}/en/", "English", depth=1, parent_relevance=0.2, portal=True)
    # raw = 0.5·0.2 = 0.1; open: max(0.1, 0.6) × 0.9 = 0.54; else 0.1 × 0.9 = 0.09
    assert score(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, True, True) == pytest.approx(0.54)
    assert score(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True) == pytest.approx(0.09)
    assert score(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, True, False) == pytest.approx(0.09)


def test_other_language_path_is_cut_under_an_english_query() -> None:
    sig = LinkSignal(f"{U}/de/gebuehren", "Fees", anchor_mask=0b001, other_language=True)
    # anchor coverage 1/2 → raw 2·0.5 = 1.0; × 0.2 under an English query; depth 0
    assert score(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True) == pytest.approx(0.2)
    assert score(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, False) == pytest.approx(1.0)


def test_score_rejects_wrong_weights() -> None:
    sig = LinkSignal(f"{U}/x", anchor_mask=0b1000)
    with pytest.raises(ValueError, match="link_weights"):
        score(sig, (1.0, 2.0), TERM_WEIGHTS, False, True)
    with pytest.raises(ValueError, match="beyond"):
        score(sig, PRIOR_WEIGHTS, TERM_WEIGHTS, False, True)
