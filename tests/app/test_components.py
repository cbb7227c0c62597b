"""Pure tests of the app's building blocks on synthetic step records (no Streamlit run)."""

from __future__ import annotations

import dataclasses
import threading
from collections.abc import Iterator
from typing import Any

import numpy as np
import plotly.graph_objects as go
import pytest

from components.charts import (
    CHART_HEIGHT,
    FOREST_SORTS,
    LEGEND_ROW_PX,
    coverage_figure,
    forest_figure,
    legend_room,
    stale_cold_figure,
    switch_counts,
    threshold_line,
    verdict_marks,
    weight_switches,
    weights_figure,
)
from components.decision_log import (
    explain_override,
    explain_step,
    explain_verdict,
    log_entries,
    md_escape,
    short_url,
)
from components.inspector import highlight_blocks, relevance_rows
from components.labels import STOP_REASONS, SUBTREE_STATES, VERDICT_FATES, Label
from components.live import chart_caption
from components.metrics import headline_metrics
from components.runner import RunMode, TickEnd, advance
from components.sidebar import config_mapping, form_defaults
from components.state import one_run_at_a_time, set_session
from components.tables import frontier_frame, pages_frame
from components.whatif import (
    whatif_coverage_figure,
    whatif_frame,
    whatif_marks,
    whatif_stale_figure,
)
from pagesift_ui.frontier.adaptive import AdaptiveOptions, StopReason
from pagesift_ui.frontier.model import PRIOR_WEIGHTS
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.stats import z_one_sided
from pagesift_ui.session import (
    CrawlConfig,
    FrontierRow,
    Override,
    OverrideKind,
    PageRow,
    PartStats,
    SessionDone,
    StepOutcome,
    StepRecord,
    SubtreeState,
    VerdictFate,
)
from pagesift_ui.session.rules import NO_STOP_WHY
from pagesift_ui.session.whatif import Found, ReplayedVerdict, RuleResult, WhatIf, WhatIfPoint

SEED = "http://www.uni.localhost:8000/"
CONFIG = CrawlConfig.from_mapping({"seed_url": SEED, "query": "tuition fees visa"})

LINK = {
    "features": [
        {"name": "anchor", "value": 1.0, "weight": 2.0, "contribution": 2.0},
        {"name": "locator", "value": 0.0, "weight": 1.5, "contribution": 0.0},
        {"name": "context", "value": 0.5, "weight": 1.0, "contribution": 0.5},
        {"name": "parent", "value": 0.8, "weight": 0.5, "contribution": 0.4},
        {"name": "phrase", "value": 0.0, "weight": 0.5, "contribution": 0.0},
    ],
    "raw": 2.9,
    "steps": [{"rule": "depth", "factor": 0.9, "score": 2.61}],
    "score": 2.61,
    "blind": False,
}
DETAIL = {
    "units": [
        {"unit": "tuition", "about": True, "head": True, "tf": 3, "evidence": 0.9, "weight": 1.0},
        {"unit": "fees", "about": False, "head": True, "tf": 2, "evidence": 0.5, "weight": 0.5},
        {"unit": "visa", "about": False, "head": False, "tf": 0, "evidence": 0.0, "weight": 1.0},
    ],
    "relevance": 0.41,
    "avg_len": 300.0,
    "pages": 12,
}


def make_record(step: int = 1, **changes: Any) -> StepRecord:
    """A fetched page's record with plausible values; ``changes`` override fields."""
    values: dict[str, Any] = {
        "step": step, "url": SEED + "admissions/fees", "final_url": SEED + "admissions/fees",
        "outcome": StepOutcome.FETCHED, "status": 200, "error": None, "error_kind": None,
        "content_type": "text/html", "depth": 1, "title": "Fees", "lang": "en",
        "score": 2.61, "link": LINK, "blind": False, "subtree": "uni.localhost/admissions",
        "cluster": "www.uni.localhost/admissions", "relevance": 0.41,
        "relevance_detail": DETAIL, "fresh": True, "evidence_added": (2, 1, 0),
        "evidence": (3, 1, 0), "evidence_blocks": (1, 3), "coverage": 0.44, "covered": False,
        "sources": 1, "stale": 0, "cold": 0, "verdict": None,
        "verdict_fate": VerdictFate.NONE, "verdict_stale": 0, "verdict_cold": 0, "forgiven": False,
        "forgiven_why": "", "stopped": False, "terms": ("tuition", "fees", "visa"),
        "term_weights": (1.0, 0.8, 1.0), "link_weights": PRIOR_WEIGHTS,
        "posterior_mean": PRIOR_WEIGHTS, "standard_error": (2.0,) * 5, "prior": PRIOR_WEIGHTS,
        "model_changed": False, "rescored": False, "subtree_stats": None,
        "cluster_stats": None, "queue_length": 10, "pages_scheduled": step,
        "pages_fetched": step, "relevant_pages": 1,
        "links": {"found": 30, "queued": 12}, "dropped_dry": (), "duplicate_of": "",
        "markdown": "", "elapsed_ms": 5.0, "fetched_at": 0.0,
    }
    values.update(changes)
    return StepRecord(**values)


def history(n: int, **changes: Any) -> list[StepRecord]:
    return [make_record(i, stale=i % 4, cold=0, **changes) for i in range(1, n + 1)]


# -- decision log ---------------------------------------------------------------------------


def test_explain_step_tells_score_relevance_coverage_and_counters() -> None:
    text = explain_step(make_record(12), CONFIG)
    assert text.startswith("Step 12: fetched /admissions/fees “Fees” (score 2.61: ")
    assert "anchor 1.00 × 2.00 + context 0.50 × 1.00 + parent 0.80 × 0.50, depth → 2.61" in text
    assert "Relevance 0.41 (≥ 0.15" in text and "“tuition” about+head, tf 3" in text
    assert "New evidence: tuition +2, fees +1 from 2 blocks: Stale back to 0." in text
    assert ("Coverage 44% (needs 100%; the mean over terms of evidence up to 3; 1 of 3 terms "
            "at 3), sources 1 (needs 2).") in text
    assert "Stale 0/5, cold 0/10." in text
    assert "Links: 30 found, 12 queued." in text


def test_explain_step_says_when_the_weights_moved_since_the_link_was_ranked() -> None:
    text = explain_step(make_record(3, score=3.0), CONFIG)
    assert "(ranked with score 3.00; with the weights when it was fetched: anchor 1.00" in text
    assert "depth → 2.61)" in text


def test_explain_step_names_the_family_that_lifted_a_link() -> None:
    family = {"name": "family", "value": 0.25, "weight": 1.0, "contribution": 0.25}
    lifted = {**LINK, "features": [*LINK["features"], family]}  # type: ignore[list-item]
    text = explain_step(make_record(4, url=SEED + "admissions/fees-2024", link=lifted), CONFIG)
    assert ("its name family (pages named /admissions/fees…) has credit 0.25 from those of its "
            "pages fetched so far") in text
    unlifted = {**LINK, "features": [*LINK["features"], {**family, "value": 0.0,  # type: ignore[list-item]
                                                          "contribution": 0.0}]}
    assert "name family (" not in explain_step(make_record(5, link=unlifted), CONFIG)


def test_explain_step_says_what_scored_a_blind_link_and_why_a_citation_took_half() -> None:
    blind = explain_step(make_record(4, blind=True), CONFIG)
    assert ("a blind link: no query word in its anchor, URL or context, so its parent, its "
            "siblings, its popularity, its name family and its meaning scored it") in blind
    assert "floor" not in blind  # there is no section floor any more (issue 11)
    cited = explain_step(make_record(5, link={**LINK, "cited": True}), CONFIG)
    assert "a citation: its page names it in running text, so it takes half the page's " \
           "relevance" in cited
    assert "a citation" not in explain_step(make_record(6), CONFIG)


def test_explain_step_says_what_a_links_meaning_added() -> None:
    meaning = {"name": "meaning", "value": 0.07, "weight": 1.0, "contribution": 0.07}
    lifted = {**LINK, "features": [*LINK["features"], meaning]}  # type: ignore[list-item]
    text = explain_step(make_record(4, blind=True, link=lifted), CONFIG)
    assert "meaning 0.07 × 1.00" in text
    assert ("its anchor and list title, read by meaning, are nearer the query than most links "
            "read so far (+0.07)") in text
    assert "read by meaning" not in explain_step(make_record(5), CONFIG)


def test_explain_step_says_which_learned_pair_left_copies_unfetched() -> None:
    links = {"found": 9, "queued": 2, "skipped_by_reason": {
        "a copy of a fetched page by a learned parameter: print=1": 3,
        "a copy of a fetched page by a learned parameter: sort=newest": 1, "nofollow": 2}}
    text = explain_step(make_record(7, links=links), CONFIG)
    assert ("Copies not fetched: links to fetched pages plus ?print=1 (3), ?sort=newest (1), "
            "a query pair learned to make copies.") in text
    # a duplicate step that taught a pair lists the queued copies it dropped
    dropped = explain_step(make_record(
        8, outcome=StepOutcome.DUPLICATE, duplicate_of=SEED + "admissions/fees",
        links={"found": 0, "skipped_by_reason": {
            "a copy of a fetched page by a learned parameter: print=1": 14}}), CONFIG)
    assert "plus ?print=1 (14)" in dropped
    assert "Copies not fetched" not in explain_step(make_record(9), CONFIG)


def test_explain_step_says_when_the_query_names_a_links_list() -> None:
    named = explain_step(make_record(5, link={**LINK, "named_list": "► Features"}), CONFIG)
    assert ("its list's title (\"► Features\") is all query words, so its sibling credit "
            "holds 1.0 for the site filing it under the query") in named
    assert "list's title" not in explain_step(make_record(6), CONFIG)


def test_explain_step_for_the_seed_errors_and_duplicates() -> None:
    assert "the start URL (score 1.00)" in explain_step(
        make_record(1, link=None, score=1.0, url=SEED, final_url=SEED), CONFIG)
    error = make_record(4, outcome=StepOutcome.ERROR, error="404 Not Found", relevance=None)
    assert explain_step(error, CONFIG) == "Step 4: /admissions/fees failed (404 Not Found). " \
        "Links: 30 found, 12 queued."
    duplicate = make_record(5, outcome=StepOutcome.DUPLICATE, duplicate_of=SEED + "a", links={})
    assert explain_step(duplicate, CONFIG) == "Step 5: /admissions/fees repeats /a; not counted."


def test_explain_step_states_the_rule_that_fired_and_its_fate() -> None:
    stopped = make_record(9, verdict=StopReason.SATURATED, stale=5, stopped=True, relevance=0.0,
                          verdict_fate=VerdictFate.STOPPED, verdict_stale=5)
    text = explain_step(stopped, CONFIG)
    # a page under the minimum gain counts as nothing new though its step lists evidence
    assert ("Verdict saturated: 5 pages in a row brought nothing new (patience 5; a page "
            "counts as new when its new evidence is at least 5% of all collected so far).") in text
    assert text.endswith("The crawl stopped here.")
    forgiven = make_record(9, verdict=StopReason.COVERAGE_REACHED, stale=0, forgiven=True,
                           forgiven_why="a link with clues scoring 0.9 is still queued",
                           verdict_fate=VerdictFate.AUTO_FORGIVEN, verdict_stale=3)
    text = explain_step(forgiven, CONFIG)
    # the counter when the rule fired, not the 0 it was reset to
    assert "and 3 pages in a row brought nothing new (ceil(patience/2) = 3; a page" in text
    # the check read the queue before the page's own links were added (a record said "no
    # link is queued" beside "Links: 54 found, 22 queued")
    assert text.endswith("Forgiven, judged on the queue before this page's links were added: "
                         "a link with clues scoring 0.9 is still queued.")


def test_the_latest_box_opens_with_the_verdict() -> None:
    # the box scrolls, and the verdict at the end of the step's paragraph was out of sight
    stopped = make_record(9, verdict=StopReason.SATURATED, stale=5, stopped=True, relevance=0.0,
                          verdict_fate=VerdictFate.STOPPED, verdict_stale=5)
    text = explain_step(stopped, CONFIG, verdict_first=True)
    assert text.startswith("Verdict saturated: 5 pages in a row brought nothing new")
    assert "The crawl stopped here." in text and "Step 9" in text
    assert sorted(text.split()) == sorted(explain_step(stopped, CONFIG).split())
    plain = make_record(4)
    assert explain_step(plain, CONFIG, verdict_first=True) == explain_step(plain, CONFIG)


def test_explain_step_says_why_a_verdict_stood_with_the_lead_checks_numbers() -> None:
    why = ("the next 5 links to fetch score 0.12 on average (the first: http://e.edu/x), below "
           "0.36, the lowest score of the 9 links that led to on-topic pages")
    stopped = make_record(9, verdict=StopReason.SATURATED, stale=5, stopped=True, relevance=0.0,
                          verdict_fate=VerdictFate.STOPPED, verdict_stale=5, lead_why=why)
    before = ", judged on the queue before this page's links were added"
    assert explain_step(stopped, CONFIG).endswith(
        f"The crawl stopped here. It stood{before}: {why}.")
    recorded = make_record(9, verdict=StopReason.SATURATED, stale=0, forgiven=True,
                           forgiven_why=NO_STOP_WHY, verdict_fate=VerdictFate.NO_STOP,
                           verdict_stale=5, lead_why=why)
    assert explain_step(recorded, CONFIG).endswith(
        f"Forgiven: {NO_STOP_WHY}. It stood{before}: {why}.")
    # the first saturated verdict on one source: no lead, forgiven all the same (leads.py)
    graced_why = f"{why}; but only 1 page has given evidence so far"
    graced = make_record(9, verdict=StopReason.SATURATED, stale=0, forgiven=True,
                         forgiven_why=graced_why, verdict_fate=VerdictFate.AUTO_FORGIVEN,
                         verdict_stale=5, lead_why=why)
    assert explain_step(graced, CONFIG).endswith(f"Forgiven{before}: {graced_why}.")


def test_explain_verdict_for_every_stop_reason() -> None:
    record = make_record(11, cold=10)
    assert explain_verdict("no_relevant_pages", record, CONFIG).startswith(
        "no_relevant_pages: nothing relevant was found yet and 10 pages in a row")
    # the budget the step spent, not the config's: the user may have raised it since
    at_budget = make_record(200, pages_scheduled=200, pages_fetched=200)
    assert explain_verdict("limit_reached", at_budget, CONFIG) == (
        "limit_reached: the page budget of 200 is spent")
    raised = make_record(260, pages_scheduled=260, pages_fetched=260)
    assert explain_verdict("limit_reached", raised, CONFIG) == (
        "limit_reached: the page budget of 260 is spent")
    # a sweep cell: 120 spent, the Pages tile 70 (50 pages missing from its snapshot)
    short = make_record(120, pages_scheduled=120, pages_fetched=70)
    assert explain_verdict("limit_reached", short, CONFIG) == (
        "limit_reached: the page budget of 120 is spent (70 pages read; the other 50 fetches "
        "failed, were not recorded or were not HTML)")
    assert "no fetchable link" in explain_verdict("exhausted", record, CONFIG)
    assert "the user stopped" in explain_verdict("cancelled", record, CONFIG)


def test_log_entries_are_newest_first_with_overrides_after_their_step() -> None:
    steps = history(3)
    pin = Override(2, OverrideKind.PIN, SEED + "x")
    entries = log_entries(steps, [pin], CONFIG)
    assert [kind for kind, _ in entries] == ["step", "override", "step", "step"]
    # an override of an older bundle without a note; a pin's own note says where it is
    assert entries[1][1] == (f"Override after step 2: you pinned {SEED}x: pins are fetched "
                             "in the order they were made.")
    second = Override(2, OverrideKind.PIN, SEED + "y",
                      note="pinned: fetched after the 1 link pinned before it")
    assert log_entries(steps, [second], CONFIG)[1][1] == (
        f"Override after step 2: you pinned {SEED}y: fetched after the 1 link pinned before "
        "it.")
    assert len(log_entries(history(80), [], CONFIG, n=50)) == 50


def test_overrides_of_one_step_are_listed_newest_first() -> None:
    pin = Override(2, OverrideKind.PIN, SEED + "x")
    drop = Override(2, OverrideKind.DROP, SEED + "y")
    entries = log_entries(history(3), [pin, drop], CONFIG)
    assert [text.split(": you ")[1][:7] for kind, text in entries if kind == "override"] == [
        "dropped", "pinned "]


def test_explain_override_relabel_and_markdown_escaping() -> None:
    event = Override(3, OverrideKind.RELABEL, SEED + "a", False)  # an older bundle: no note
    assert explain_override(event) == f"Override after step 3: you labelled {SEED}a irrelevant."
    noted = Override(3, OverrideKind.RELABEL, SEED + "a", True,
                     "labelled relevant (the crawler: irrelevant, relevance 0.02): coverage "
                     "0.25 → 0.50")
    assert explain_override(noted) == (
        f"Override after step 3: {SEED}a: labelled relevant (the crawler: irrelevant, "
        "relevance 0.02): coverage 0.25 → 0.50.")
    assert md_escape("fees $9,250 *new* [x](y)") == r"fees \$9,250 \*new\* \[x\](y)"
    assert short_url("http://other.localhost/a", SEED) == "http://other.localhost/a"
    assert short_url(SEED + "a?b=1", SEED) == "/a?b=1"


def test_a_url_in_escaped_text_links_to_itself_without_its_escapes() -> None:
    # Markdown links a bare URL by itself, escapes included: no\_such went to no%5C_such
    assert md_escape("http://127.0.0.1:8/no_such_page could not be fetched") == (
        r"[http://127.0.0.1:8/no\_such\_page](<http://127.0.0.1:8/no_such_page>) could not "
        "be fetched")
    # a quoted URL ends at its quote, a sentence's full stop is not part of it
    assert md_escape("not crawlable: 'http://e.edu/a_b'.") == (
        r"not crawlable: '[http://e.edu/a\_b](<http://e.edu/a_b>)'.")
    assert md_escape("see www.e.edu/x_y, then") == (
        r"see [www.e.edu/x\_y](<http://www.e.edu/x_y>), then")
    assert md_escape("http:// and https://.") == "http:// and https://."


# -- charts ---------------------------------------------------------------------------------


def test_stale_cold_chart_draws_counters_thresholds_and_verdict_fates() -> None:
    steps = history(20)
    steps[9] = make_record(10, verdict=StopReason.COVERAGE_REACHED, forgiven=True, stale=0,
                           forgiven_why="a link with clues is still queued",
                           verdict_fate=VerdictFate.AUTO_FORGIVEN, verdict_stale=3)
    steps[14] = make_record(15, verdict=StopReason.SATURATED, stopped=True, stale=5,
                            verdict_fate=VerdictFate.STOPPED, verdict_stale=5)
    forgive = Override(15, OverrideKind.FORGIVE, "saturated")
    fig = stale_cold_figure(steps, CONFIG, [forgive])
    stale = fig.data[0]
    assert stale.name == "stale" and isinstance(stale.y, np.ndarray)
    assert stale.y.tolist() == [r.stale for r in steps]
    assert sorted(shape.y0 for shape in fig.layout.shapes) == [3, 5, 10]
    markers = {trace.name: trace for trace in fig.data if trace.legendgroup == "verdict"}
    auto = markers["forgiven automatically"]
    assert auto.x.tolist() == [10] and auto.y.tolist() == [3]  # fired at ceil(5/2)
    user = markers["continued by the user"]
    assert user.x.tolist() == [15] and user.y.tolist() == [5]
    override = next(trace for trace in fig.data if trace.name == "override")
    assert override.x[0] == 15.5


@pytest.mark.parametrize("position", ["top left", "top right", "bottom left", "bottom right"])
@pytest.mark.parametrize("font_size", [None, 10])
def test_threshold_line_is_what_add_hline_adds(position: str, font_size: int | None) -> None:
    line = {"dash": "dash", "color": "#2ca02c", "width": 1}
    added = go.Figure(go.Scatter(x=[1, 2], y=[0, 4]))
    added.add_hline(y=2.5, line=line, annotation_text="saturated: 2.5",
                    annotation_position=position, annotation_font_size=font_size)
    shape, annotation = threshold_line(2.5, "saturated: 2.5", line, position, font_size)
    built = go.Figure(go.Scatter(x=[1, 2], y=[0, 4]),
                      {"shapes": [shape], "annotations": [annotation]})
    assert built.layout.to_plotly_json() == added.layout.to_plotly_json()


def test_forest_labels_are_cut_and_the_plot_grows_with_the_rows() -> None:
    long = "uni.localhost/international/admissions/fees-and-funding"
    rows = [part(f"{long}/{i}", 30 - i, 1, SubtreeState.OPEN) for i in range(30)]
    fig = forest_figure(rows, "pages")
    labels = list(fig.layout.yaxis.categoryarray)
    assert len(set(labels)) == 30 and all(len(label) <= 26 + len(" (1/30)") for label in labels)
    assert labels[-1] == "uni.localhos…and-funding/0 (1/30)"  # both ends kept
    assert long in fig.data[1].hovertext[0]  # the full name in the hover text
    assert fig.layout.height >= 170 + 22 * 30
    assert fig.layout.legend.yref == "container"  # below the x-axis title, off the data


def test_time_charts_draw_only_the_window() -> None:
    steps = history(2000)
    fig = stale_cold_figure(steps, CONFIG, window=500)
    assert len(fig.data[0].x) == 500 and fig.data[0].x[0] == 1501
    fig = weights_figure(steps, CONFIG, "anchor", window=100)
    assert all(len(trace.x) == 100 for trace in fig.data[:4])


def test_weights_chart_band_prior_and_switches() -> None:
    used = [2.0, 2.0, 2.6, 2.6, 3.1]
    steps = [make_record(i + 1, link_weights=(w, 1.5, 1.0, 0.5, 0.5),
                         posterior_mean=(w + 0.1, 1.5, 1.0, 0.5, 0.5),
                         standard_error=(0.4, 2.0, 2.0, 2.0, 2.0)) for i, w in enumerate(used)]
    fig = weights_figure(steps, CONFIG, "anchor")
    z = z_one_sided(CONFIG.delta)
    upper, lower, mean, in_use = fig.data[:4]
    np.testing.assert_allclose(upper.y - mean.y, z * 0.4)
    np.testing.assert_allclose(mean.y - lower.y, z * 0.4)
    assert in_use.y.tolist() == used
    switched = next(trace for trace in fig.data if trace.name == "switched")
    assert switched.x.tolist() == [3, 5]
    assert fig.layout.shapes[0].y0 == 2.0 and fig.layout.shapes[0].line.dash == "dash"
    assert weight_switches(np.array(used)).tolist() == [2, 4]
    assert switch_counts(steps)["anchor"] == 2 and switch_counts(steps)["phrase"] == 0


def test_coverage_chart_bars_target_and_min_sources_note() -> None:
    fig = coverage_figure([make_record(3)], CONFIG)
    bars = fig.data[0]
    assert bars.x.tolist() == ["tuition", "fees", "visa"] and bars.y.tolist() == [3, 1, 0]
    assert bars.marker.color.tolist() == ["#2ca02c", "#ff7f0e", "#ff7f0e"]
    assert fig.layout.shapes[0].y0 == CONFIG.adaptive.evidence_per_term
    assert "sources 1/2 NOT met → not covered yet" in fig.layout.title.subtitle.text
    assert coverage_figure([], CONFIG).layout.title.subtitle.text == "no page yet"


def part(
    name: str, pages: int, hits: int, state: SubtreeState, forced: SubtreeState | None = None
) -> PartStats:
    return PartStats(name, pages, hits, 0.1, 0.9, 0.2, 0.6, state, forced)


def test_forest_plot_sorts_colours_and_labels() -> None:
    dry, proven, open_ = SubtreeState.DRY, SubtreeState.PROVEN, SubtreeState.OPEN
    rows = [part("a/x", 3, 3, proven), part("a/y", 9, 0, dry, dry), part("a/b", 5, 2, open_)]
    fig = forest_figure(rows, "pages")
    assert list(fig.layout.xaxis.range) == [-0.04, 1.04]
    assert all(trace.cliponaxis is False for trace in fig.data)  # points at 1.0 drawn whole
    top_first = list(fig.layout.yaxis.categoryarray)[::-1]
    assert top_first == ["a/y (0/9) [forced dry]", "a/b (2/5)", "a/x (3/3)"]
    assert list(forest_figure(rows, "estimate").layout.yaxis.categoryarray)[::-1][0] == \
        "a/x (3/3)"
    assert list(forest_figure(rows, "name").layout.yaxis.categoryarray)[::-1][0] == "a/b (2/5)"
    by_name = {trace.name: trace for trace in fig.data}
    assert by_name["dry"].marker.color == "#d62728" and by_name["dry"].x.tolist() == [0.0]
    assert by_name["proven"].x.tolist() == [1.0]
    rest = by_name["rest of the site"]
    np.testing.assert_allclose(rest.x + rest.error_x.array, [0.6] * 3)
    with pytest.raises(ValueError, match="sort_by"):
        forest_figure(rows, "size")
    assert FOREST_SORTS == ("pages", "estimate", "name")


def test_verdict_marks_fate_for_no_stop() -> None:
    record = make_record(4, verdict=StopReason.NO_RELEVANT_PAGES, forgiven=True, cold=0,
                         forgiven_why="--no-stop: verdict recorded, crawl goes on",
                         verdict_fate=VerdictFate.NO_STOP, verdict_cold=10)
    (mark,) = verdict_marks([record], [], CONFIG)
    assert (mark.fate, mark.level) == (VerdictFate.NO_STOP, 10)


def test_verdict_marks_name_a_stop_the_user_continued_past() -> None:
    stopped = make_record(4, verdict=StopReason.SATURATED, stopped=True,
                          verdict_fate=VerdictFate.STOPPED, verdict_stale=5)
    (mark,) = verdict_marks([stopped], [], CONFIG)
    assert (mark.reason, mark.fate) == (StopReason.SATURATED, VerdictFate.STOPPED)
    forgive = Override(4, OverrideKind.FORGIVE, "saturated")
    (mark,) = verdict_marks([stopped], [forgive], CONFIG)
    assert mark.fate is VerdictFate.USER_FORGIVEN


@pytest.mark.parametrize(
    ("table", "enum_type"),
    [(STOP_REASONS, StopReason), (VERDICT_FATES, VerdictFate), (SUBTREE_STATES, SubtreeState)],
)
def test_every_outcome_has_words_and_a_colour(table: dict[Any, Label], enum_type: Any) -> None:
    assert set(table) == set(enum_type)
    assert all(label.words and label.colour.startswith("#") for label in table.values())


# -- inspector, metrics, tables, setup --------------------------------------------------------


def test_highlight_blocks_marks_stemmed_hits_escapes_and_outlines_evidence() -> None:
    markdown = "# Tuition <b>Fees</b>\n\nNothing here.\n\nVisas & fee waivers"
    html_text = highlight_blocks(markdown, Query("tuition fee visa"), [2])
    assert "<mark>Tuition</mark> &lt;b&gt;<mark>Fees</mark>&lt;/b&gt;" in html_text
    assert "<mark>Visas</mark> &amp; <mark>fee</mark> waivers" in html_text
    assert html_text.count("<b>evidence</b>") == 1 and "block 2 <b>evidence</b>" in html_text
    assert "<b>Fees</b>" not in html_text


def test_highlight_blocks_marks_a_german_page_as_the_crawl_read_it() -> None:
    from pagesift_ui.frontier.language import Language

    markdown = "Die Gebühr für Austauschstudierende\n\nHousing: see the halls"
    german = highlight_blocks(markdown, Query("Gebühren für Austauschstudierende"), [],
                              Language.GERMAN)
    assert "Die <mark>Gebühr</mark> für <mark>Austauschstudierende</mark>" in german
    english = highlight_blocks(markdown, Query("housing for exchange students"), [],
                               Language.GERMAN)
    assert "<mark>Housing</mark>: see the halls" in english  # the English stem still meets it


def test_the_setup_form_offers_the_query_language() -> None:
    values = {**form_defaults(), "query": "Wohnen für Austauschstudierende"}
    assert values["language"] == "auto"
    mapping = config_mapping({**values, "language": "de"}, "http://e.localhost/")
    assert mapping["language"] == "de"


def test_relevance_rows_sum_to_the_relevance() -> None:
    frame, line = relevance_rows(DETAIL)
    assert frame["weight × evidence"].tolist() == [0.9, 0.25, 0.0]
    assert "= 1.150 / 2.500 = 0.410" in line
    assert relevance_rows(None)[1] == "No active unit: relevance by the query's words 0."


def test_relevance_rows_say_what_meaning_added() -> None:
    meaning = {"cosine": 0.62, "median": 0.5, "lift": 0.06, "lexical": 0.41}
    _, line = relevance_rows({**DETAIL, "relevance": 1 - 0.59 * 0.94, "meaning": meaning})
    assert "relevance by the words = Σ weight·evidence / Σ weight = 1.150 / 2.500 = 0.410" in line
    assert ("By meaning: cosine with the query 0.620 against the median page read 0.500, lift "
            "0.060; relevance = 1 − (1 − 0.410)(1 − 0.060) = 0.445") in line
    lifted = {"units": [], "relevance": 0.06, "meaning": {**meaning, "lexical": 0.0}}
    assert relevance_rows(lifted)[1].endswith("= 0.060")


def test_headline_metrics_labels_and_values() -> None:
    summary = {"pages_fetched": 4, "relevant_pages": 2, "harvest_rate": 0.5, "fresh_rate": 0.25,
               "queue_length": 40, "coverage": 0.25, "stop_reason": None}
    steps = [make_record(2, pages_fetched=2), make_record(3, stale=2, cold=1, pages_fetched=3)]
    metrics = {m.label: m for m in headline_metrics(summary, steps, CONFIG)}
    assert list(metrics) == ["Pages fetched", "Relevant pages", "Harvest rate", "Queue",
                             "Coverage", "Stale", "Cold", "Verdict"]
    assert all(len(label) <= 14 for label in metrics)  # whole in a tile at 1280 px
    assert metrics["Pages fetched"].value == "4" and metrics["Pages fetched"].delta == "in 2 steps"
    # relevant ÷ fetched, as Compare and the sweeps name it; the share with new evidence apart
    assert (metrics["Harvest rate"].value, metrics["Harvest rate"].delta) == (
        "50%", "25% brought new evidence")
    # an older bundle named the share with new evidence harvest_rate: read from the counts
    old = {m.label: m for m in headline_metrics({**summary, "harvest_rate": 0.9, "fresh_rate":
                                                 None}, steps, CONFIG)}
    assert (old["Harvest rate"].value, old["Harvest rate"].delta) == ("50%", None)
    # a forced-dry subtree's links stay queued until their turn: the tile says how many
    dry = {m.label: m for m in headline_metrics({**summary, "queue_in_dry": 3}, steps, CONFIG)}
    assert (dry["Queue"].value, dry["Queue"].delta) == ("40", "3 in dry subtrees")
    assert metrics["Queue"].delta is None
    assert metrics["Stale"].value == "2 / 5"
    assert metrics["Cold"].value == "1 / 10"
    # a live summary's counters win over the last record's (a label moved them since)
    live = {m.label: m for m in headline_metrics({**summary, "stale": 4, "cold": 0}, steps,
                                                 CONFIG)}
    assert (live["Stale"].value, live["Cold"].value) == ("4 / 5", "0 / 10")
    assert metrics["Verdict"].value == "—"
    stopped = headline_metrics({**summary, "stop_reason": "saturated"}, steps, CONFIG)[-1]
    assert (stopped.value, stopped.delta) == ("saturated", "stopped")


def test_the_verdict_tile_names_the_first_verdict_that_stood() -> None:
    summary = {"stop_reason": "limit_reached", "first_verdict": "coverage_reached",
               "stop_step": 23}
    tile = headline_metrics(summary, [make_record(1)], CONFIG)[-1]
    assert (tile.value, tile.delta) == ("limit", "first: covered at step 23")
    running = headline_metrics({**summary, "stop_reason": None}, [make_record(1)], CONFIG)[-1]
    assert (running.value, running.delta) == ("—", "first: covered at step 23")
    same = headline_metrics({**summary, "stop_reason": "coverage_reached"}, [], CONFIG)[-1]
    # the tile's short name beside the reason's own, which the log and the tables use
    assert (same.value, same.delta) == ("covered", "stopped: coverage_reached")


def test_frontier_and_pages_frames() -> None:
    row = FrontierRow(1, "k", SEED + "a", 2.61, 1, "c", "s", False, False, True, False,
                      "Fees", LINK)
    frame = frontier_frame([row], SEED)
    assert frame.columns.is_unique and list(frame.columns[:4]) == ["rank", "pinned", "dry",
                                                                    "score"]
    # a forced-dry link at rank 1 read as the next fetch: it is marked
    assert not frame.loc[0, "dry"] and frontier_frame([row], SEED, {"s"}).loc[0, "dry"]
    assert frame.loc[0, "url"] == "/a" and frame.loc[0, "anchor·w"] == 2.0
    # the terms that are not learned have columns of their own (0 when the link has none)
    assert frame.loc[0, "meaning·w"] == 0.0 and "siblings·w" in frame.columns
    meaning = {"name": "meaning", "value": 0.07, "weight": 1.0, "contribution": 0.07}
    lifted = FrontierRow(1, "k", SEED + "a", 2.61, 1, "c", "s", False, False, True, False,
                         "Fees", {**LINK, "features": [*LINK["features"], meaning]})  # type: ignore[list-item]
    assert frontier_frame([lifted], SEED).loc[0, "meaning·w"] == 0.07
    assert frame.loc[0, "shaping"] == "depth 2.61" and bool(frame.loc[0, "pinned"])
    assert frame.loc[0, "now"] == 2.61 and not frame.loc[0, "cited"]
    cited = FrontierRow(1, "k", SEED + "a", 2.61, 1, "c", "s", False, False, False, False,
                        "for", {**LINK, "cited": True})
    assert bool(frontier_frame([cited], SEED).loc[0, "cited"])
    assert frame.loc[0, "named list"] == ""
    listed = FrontierRow(1, "k", SEED + "a", 2.61, 1, "c", "s", False, False, False, False,
                         "Autoincrement", {**LINK, "named_list": "► Features"})
    assert frontier_frame([listed], SEED).loc[0, "named list"] == "► Features"
    pages = [PageRow(i, f"u{i}", "", StepOutcome.FETCHED, 200, 0.2, True,
                     None if i < 2 else False, True, 1, "s", 1, 1.0, False, None) for i in (1, 2)]
    frame = pages_frame(pages)
    assert frame["step"].tolist() == [2, 1]
    assert frame["user_label"].tolist() == ["irrelevant", ""]


def test_setup_defaults_come_from_the_config_dataclasses() -> None:
    values = {**form_defaults(), "query": "tuition fees"}
    config = CrawlConfig.from_mapping(config_mapping(values, SEED))
    assert config == CrawlConfig(seed_url=SEED, query="tuition fees")


# -- the Run tick ---------------------------------------------------------------------------


class FakeSession:
    """Steps through prepared records; ``done`` after the last one."""

    def __init__(self, records: list[StepRecord]) -> None:
        self.records = records
        self.steps: list[StepRecord] = []
        self.config = CONFIG
        self.done = False
        self.stop_reason: str | None = None

    def step(self) -> StepRecord:
        if self.done:
            raise SessionDone("stopped")
        record = self.records[len(self.steps)]
        self.steps.append(record)
        if record.stopped or len(self.steps) == len(self.records):
            self.done, self.stop_reason = True, record.verdict or "exhausted"
        return record

    def iter_steps(self) -> Iterator[StepRecord]:  # CrawlSession's loop
        while not self.done:
            try:
                yield self.step()
            except SessionDone:
                return


def test_run_pauses_at_a_forgiven_verdict_but_run_to_stop_goes_on() -> None:
    records = history(6)
    records[2] = dataclasses.replace(records[2], verdict=StopReason.SATURATED, forgiven=True,
                                     verdict_fate=VerdictFate.AUTO_FORGIVEN)
    session: Any = FakeSession(records)
    result = advance(session, RunMode.RUN, budget_s=60, pause_on_forgiven=True)
    assert (result.steps, result.keep_running, result.end) == (3, False, TickEnd.VERDICT)
    assert result.message.startswith("Run paused at step 3: the saturated verdict fired.")
    result = advance(session, RunMode.TO_STOP, budget_s=60)
    assert (result.steps, result.keep_running, session.done) == (3, False, True)
    assert result.end is TickEnd.STOPPED
    assert advance(session, RunMode.TO_STOP, budget_s=60).steps == 0


def test_a_tick_is_time_boxed() -> None:
    ticks = iter(range(100))
    session: Any = FakeSession(history(50))
    result = advance(session, RunMode.TO_STOP, budget_s=3, clock=lambda: float(next(ticks)))
    assert (result.steps, result.keep_running, result.end) == (3, True, TickEnd.BUDGET)
    assert len(session.steps) == 3


# -- the what-if panel ----------------------------------------------------------------------


def sample_whatif() -> WhatIf:
    found = Found(12, 10, 4, 3, 0.75)
    rules = (
        RuleResult(StopReason.COVERAGE_REACHED, 12, 8, 2, found),
        RuleResult(StopReason.SATURATED, None, 5, 1, None),
        RuleResult(StopReason.NO_RELEVANT_PAGES, None, None, 0, None),
    )
    points = tuple(WhatIfPoint(i, 0.1 * i, i >= 12, i % 3, 0, None, False)
                   for i in range(1, 21))
    result = WhatIf(
        options=AdaptiveOptions(patience=3), rules=rules, stop_step=12,
        stop_reason=StopReason.COVERAGE_REACHED, found=found, actual_step=20,
        actual_reason=StopReason.SATURATED, actual=Found(20, 16, 5, 4, 1.0),
        verdicts=(ReplayedVerdict(8, StopReason.COVERAGE_REACHED, False, 2, 0),
                  ReplayedVerdict(12, StopReason.COVERAGE_REACHED, True, 2, 0)),
        points=points, lead_recorded=True, same_pages_until=None, notes=())
    return result


def test_whatif_frame_and_marks_put_each_rule_beside_the_actual_stop() -> None:
    result = sample_whatif()
    frame = whatif_frame(result, 20)
    assert frame[""].tolist() == ["actual stop", "what-if stop", "rule", "rule", "rule"]
    assert frame["step"].tolist()[:3] == [20, 12, 12]
    assert frame.loc[1, "pages"] == 10 and frame.loc[1, "recall"] == "75%"
    assert frame.loc[2, "note"] == "forgiven 2× before"
    assert frame.loc[3, "note"] == "fired at 5, always forgiven (1×)"
    assert frame.loc[4, "note"] == "not within the 20 recorded steps"
    assert whatif_marks(result) == [(12, "what-if covered"), (20, "actual saturated")]
    stale = whatif_stale_figure(result)
    assert [t.name for t in stale.data][-2:] == ["what-if covered", "actual saturated"]
    assert sorted(shape.y0 for shape in stale.layout.shapes) == [2, 3, 6]  # patience 3
    # six legend entries wrap into three rows at 1280 px: the figure grows by one row
    assert stale.layout.height == CHART_HEIGHT + LEGEND_ROW_PX
    coverage = whatif_coverage_figure(result, history(20))
    assert coverage.data[1].name == "coverage (what-if)" and len(coverage.data[1].x) == 20
    assert coverage.layout.shapes[0].y0 == 1.0  # the what-if threshold


def test_the_whatif_table_leaves_out_answers_and_recall_without_a_truth_set() -> None:
    # a site without truth printed "None" in every row of both columns
    unknown = Found(12, 10, 4, None, None)
    result = dataclasses.replace(
        sample_whatif(), found=unknown, actual=Found(20, 16, 5, None, None),
        rules=(RuleResult(StopReason.COVERAGE_REACHED, 12, 8, 2, unknown),))
    frame = whatif_frame(result, 20)
    assert list(frame.columns) == ["", "rule", "step", "pages", "relevant pages", "note"]
    assert frame["relevant pages"].tolist() == [5, 4, 4]


def test_the_weight_charts_caption_names_the_band_its_legend_draws() -> None:
    figure = weights_figure(history(20), CONFIG, "anchor", (), 100)
    band = next(trace.name for trace in figure.data if trace.name and "·se" in trace.name)
    caption = chart_caption("chart_weights", CONFIG)
    assert band == "±1.64·se" and f"posterior mean {band} (one-sided z for δ = 0.05)" in caption


def test_a_legend_of_more_than_two_rows_gets_room_below_the_plot() -> None:
    assert [legend_room(n) for n in (0, 4, 5, 6, 9)] == [0, 0, 20, 20, 60]


def _sample_figures() -> dict[str, go.Figure]:
    """Every figure the explorer draws, on records with verdicts of each fate, overrides, a
    what-if mark, a weight switch and subtrees in each state."""
    steps = history(150)
    steps[9] = make_record(10, verdict=StopReason.COVERAGE_REACHED, forgiven=True, stale=0,
                           verdict_fate=VerdictFate.AUTO_FORGIVEN, verdict_stale=3)
    steps[14] = make_record(15, verdict=StopReason.SATURATED, stopped=True, stale=5,
                            verdict_fate=VerdictFate.STOPPED, verdict_stale=5)
    steps[20] = make_record(21, verdict=StopReason.NO_RELEVANT_PAGES, forgiven=True,
                            verdict_fate=VerdictFate.NO_STOP, verdict_cold=10,
                            link_weights=(2.6, 1.5, 1.0, 0.5, 0.5))
    overrides = [Override(15, OverrideKind.FORGIVE, "saturated"),
                 Override(30, OverrideKind.PIN, SEED + "a")]
    dry, proven, open_ = SubtreeState.DRY, SubtreeState.PROVEN, SubtreeState.OPEN
    rows = [part("a/x", 3, 3, proven), part("a/y", 9, 0, dry, dry), part("a/b", 5, 2, open_)]
    figures = {f"stale {window}": stale_cold_figure(steps, CONFIG, overrides, window,
                                                     [(12, "what-if covered")])
               for window in (50, 500)}
    figures |= {f"weights {window}": weights_figure(steps, CONFIG, "anchor", overrides, window)
                for window in (50, 500)}
    figures |= {"coverage": coverage_figure(steps, CONFIG), "coverage empty":
                coverage_figure([], CONFIG), "forest": forest_figure(rows, "pages"),
                "forest empty": forest_figure([], "name"),
                "what-if stale": whatif_stale_figure(sample_whatif()),
                "what-if coverage": whatif_coverage_figure(sample_whatif(), steps)}
    return figures


def test_figures_built_without_validation_send_what_validation_gives(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``components.plain`` skips plotly's validation (issue 15): the builders must write
    each property in the form validation gives it, or the chart sent would differ."""
    import json

    import plotly.io as pio

    from components import plain

    def sent(figures: dict[str, go.Figure]) -> dict[str, Any]:
        return {name: json.loads(pio.to_json(fig, validate=False))
                for name, fig in figures.items()}

    figures = _sample_figures()
    assert all(isinstance(fig, plain.PlainFigure) for fig in figures.values())
    unvalidated = sent(figures)
    monkeypatch.setattr(plain, "VALIDATE", True)
    reference = _sample_figures()  # plotly's own go.Figure(traces, layout), template and all
    assert not any(isinstance(fig, plain.PlainFigure) for fig in reference.values())
    validated = sent(reference)
    assert unvalidated.keys() == validated.keys()
    for name in validated:
        assert unvalidated[name] == validated[name], name


def test_a_plain_figure_is_converted_for_sending_once() -> None:
    from components import plain

    figure = stale_cold_figure(history(30), CONFIG)
    sent = figure.to_dict()
    assert figure.to_dict() is sent  # a memoised figure drawn again is not converted again
    assert sent["layout"]["template"] == go.Figure().to_dict()["layout"]["template"]
    other = weights_figure(history(30), CONFIG, "anchor")
    assert other.to_dict()["layout"]["template"] is sent["layout"]["template"]  # shared
    assert figure.layout.template.to_plotly_json() == {}  # not copied into the figure
    assert isinstance(figure, plain.PlainFigure)


def test_a_demo_is_known_with_its_answer_key_on_any_port() -> None:
    # a demo that took a free port because another process held its stable one (the
    # compare test's "Relevant pages" instead of "Recall" came from this)
    from components.targets import demo_truth
    from pagesift_ui.demo import SCENARIOS, DemoServer, build_site

    for name in SCENARIOS:
        site = build_site(name, 0)
        with DemoServer(site) as server:  # a free port
            query = site.query
            assert demo_truth(server.seed_url, query) == tuple(server.truth_urls())
            assert demo_truth(server.seed_url, f"  {query.upper()} ") == tuple(
                server.truth_urls())
            assert demo_truth(server.seed_url, "something else") is None  # answers unknown
            assert demo_truth(server.base_url() + "/elsewhere", query) is None
    assert demo_truth("http://example.org/", "x") is None
    assert demo_truth("http://[::1", "x") is None  # not a URL


def test_the_multilingual_demo_knows_its_german_query_s_answers() -> None:
    # the what-if panel measured the German query's crawl by the English answers: 0%
    from components.targets import demo_truth
    from pagesift_ui.demo import DemoServer, build_site

    site = build_site("multilingual", 0)
    (german,) = site.more_queries
    with DemoServer(site) as server:
        truth = demo_truth(server.seed_url, german.text)
        assert truth is not None and len(truth) == 9
        assert all("/wohnen" in url or "/austausch/" in url for url in truth)
        assert set(truth).isdisjoint(server.truth_urls())


def test_a_second_script_run_of_a_tab_waits_for_the_first_to_end() -> None:
    # Streamlit's header Stop lets a new runner start while the old one finishes its step
    # (docs/DESIGN.md §14.2): the tab's run lock makes the new run wait; a fragment drawn
    # inside a full run takes it again in the same thread.
    ss: dict[str, Any] = {}
    entered = threading.Event()
    with one_run_at_a_time(ss):
        with one_run_at_a_time(ss):  # re-entrant
            pass

        def second_run() -> None:
            with one_run_at_a_time(ss):
                entered.set()

        other = threading.Thread(target=second_run)
        other.start()
        assert not entered.wait(timeout=0.2), "a second run ran beside the first"
    assert entered.wait(timeout=10)
    other.join(timeout=10)


def test_a_new_session_clears_the_messages_of_earlier_attempts() -> None:
    # a refused upload's message stayed under the uploader through later Starts
    ss: dict[str, Any] = {"upload_error": "old.json: the bundle lacks the field 'steps'",
                          "saved_error": "session abc is being crawled by another process"}
    opened: Any = object()  # any session: a Start's, a Resume's, an upload's
    set_session(ss, opened)
    assert ss["session"] is opened
    assert ss["upload_error"] is None and ss["saved_error"] is None


def test_the_log_names_the_links_set_aside_in_dry_subtrees_and_where_they_went() -> None:
    # "Skipped 1 queued links of dry subtrees first." named neither the links nor their fate
    record = make_record(5, dropped_dry=(CONFIG.seed_url.rstrip("/") + "/fees/a",))
    assert ("Set aside 1 queued link of dry subtrees first (/fees/a): queued again when the "
            "subtree is no longer dry (its statistics, or you keeping it open or clearing "
            "it).") in explain_step(record, CONFIG)


def test_the_log_says_when_links_set_aside_come_back_by_the_statistics() -> None:
    record = make_record(9, links={"found": 3, "queued": 1, "unparked": 13})
    assert ("Queued again: 13 links set aside while their subtree was dry; with this page "
            "the statistics no longer find it dry.") in explain_step(record, CONFIG)


def test_a_budget_end_is_not_explained_as_a_verdict_to_go_on_past() -> None:
    # "Forgiven: --no-stop: verdict recorded, crawl goes on" and "It stood: the next 5
    # links … at least 1.1" beside a crawl that had stopped at its budget
    record = make_record(400, verdict=StopReason.LIMIT_REACHED, stopped=True, forgiven=True,
                         forgiven_why=NO_STOP_WHY, verdict_fate=VerdictFate.STOPPED,
                         lead_why="the next 5 links to fetch score 1.53 on average")
    text = explain_step(record, CONFIG)
    assert text.endswith("the page budget of 400 is spent. The crawl stopped here.")
    assert "Forgiven" not in text and "It stood" not in text


def test_the_log_says_what_keeping_a_subtree_open_queued_again() -> None:
    # the engine's note said "13 links … are queued again" and the log did not (found by
    # using the app)
    event = Override(7, OverrideKind.KEEP_OPEN, "uni.localhost/international/countries",
                     note="kept open; 13 links set aside while they were in a dry subtree "
                          "are queued again")
    assert explain_override(event) == (
        "Override after step 7: you kept subtree uni.localhost/international/countries open "
        "whatever its interval says; 13 links set aside while they were in a dry subtree are "
        "queued again.")
    plain = Override(7, OverrideKind.CLEAR_SUBTREE, "a.example/x", note="statistics decide again")
    assert explain_override(plain) == (
        "Override after step 7: you let the statistics decide subtree a.example/x again.")


@pytest.mark.parametrize(("changes", "words"), [
    ({"fresh": False}, "New evidence: tuition +2, fees +1 from 2 blocks, under 5% of all the "
                       "evidence read: counts toward Stale."),
    ({"fresh": False, "evidence_added": (0, 0, 0)},
     "Nothing new (its blocks were read before): counts toward Stale."),
    ({"relevance": 0.10, "fresh": False, "evidence_added": (0, 0, 0)},
     "Neither new nor stale: too weak to be read as evidence, Stale stays."),
    ({"relevance": 0.02, "fresh": False, "evidence_added": (0, 0, 0)},
     "Nothing new (irrelevant after a find): counts toward Stale."),
    ({"relevance": 0.02, "fresh": False, "evidence_added": (0, 0, 0), "evidence": (0, 0, 0)},
     "Nothing new, and nothing found yet: not stale."),
])
def test_the_log_says_what_a_page_did_to_stale_in_the_stop_rules_bands(
    changes: dict[str, Any], words: str
) -> None:
    # "Nothing new" was said of a page too weak to count, which left Stale as it was: a class
    # counting the log's "Nothing new" did not get the Stale tile (found by teaching with it)
    assert words in explain_step(make_record(12, **changes), CONFIG)


def test_the_stale_tile_names_the_count_that_ends_a_covered_query() -> None:
    # coverage_reached fired at "Stale 3 / 5": the 3 showed only as a dashed line on a chart
    # (found by teaching with the app)
    summary = {"pages_fetched": 10, "relevant_pages": 5, "coverage": 1.0, "stale": 3}
    stale = {m.label: m for m in headline_metrics({**summary, "covered": True}, [], CONFIG)}
    assert (stale["Stale"].value, stale["Stale"].delta) == ("3 / 5", "3 ends it: covered")
    assert "coverage_reached at 3 once the query is covered" in stale["Stale"].help
    plain = {m.label: m for m in headline_metrics({**summary, "covered": False}, [], CONFIG)}
    assert plain["Stale"].delta is None
