"""The app end to end with Streamlit's AppTest, against the bundled demo web on 127.0.0.1.

Widgets are found by key and outcomes read from session state (never element counts, except
the four charts the issue names). AppTest never fires ``run_every``: one ``at.run()`` is one
Run tick (docs/DESIGN.md §15.1).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from streamlit.testing.v1 import AppTest

from components import live
from components.decision_log import md_escape
from components.export import export_json
from components.sidebar import (
    ADVANCED_LABELS,
    FIELD_LABELS,
    LIMIT_LABELS,
    PRIOR_KEYS,
    SETUP_LABELS,
    form_defaults,
)
from components.targets import TARGET_DEMO, TARGET_URL, TARGETS
from pagesift_ui.demo import LESSONS, Lesson, lesson_step, shared_demo
from pagesift_ui.session import (
    CrawlSession,
    OverrideKind,
    SessionDone,
    StepOutcome,
    copy_skips,
)
from pagesift_ui.session.view import SessionView

APP = Path(__file__).resolve().parents[2] / "app.py"
CHART_KEYS = ("chart_coverage", "chart_stale", "chart_weights", "chart_forest")


@pytest.fixture
def at() -> Iterator[AppTest]:
    app = AppTest.from_file(str(APP), default_timeout=60)
    app.run()
    assert not app.exception
    yield app
    session = app.session_state["session"] if "session" in app.session_state else None
    if isinstance(session, CrawlSession):
        session.close()


def start(at: AppTest, scenario: str | None = None) -> CrawlSession:
    if scenario is not None:
        at.selectbox(key="scenario").set_value(scenario).run()
    at.button(key="start").click().run()
    assert not at.exception
    session = at.session_state.session
    assert isinstance(session, CrawlSession)
    return session


def start_long_run(at: AppTest) -> CrawlSession:
    """Start a crawl that outlasts one run of the live fragment (``RUN_SPAN_S``), as
    bench_ui's does (limit 2,000, Stop on verdict off), and press Run to stop."""
    unfold(at, "setup_limits")
    at.number_input(key="limit").set_value(2000).run()
    unfold(at, "setup_advanced")
    at.checkbox(key="stop_on_verdict").uncheck().run()
    session = start(at)
    at.button(key="run_to_stop").click().run()
    return session


def step(at: AppTest, times: int = 1) -> None:
    for _ in range(times):
        at.button(key="step").click().run()
        assert not at.exception


def unfold(at: AppTest, key: str) -> None:
    """Open a folded part of the setup form (``setup_limits``, ``setup_advanced``): its
    inputs are drawn only while it is open, as a click on it in the browser does."""
    at.session_state[key] = True
    at.run()
    assert not at.exception


def run_ticks(at: AppTest, limit: int = 60) -> None:
    """Let a Run go on, one tick per rerun, until it stops or ``limit`` ticks have passed."""
    for _ in range(limit):
        if not at.session_state.running:
            break
        at.run()  # one Run tick
        assert not at.exception


def metric(at: AppTest, label: str) -> str:
    return next(m.value for m in at.metric if m.label == label)


def live_charts(at: AppTest) -> list[Any]:
    """The live panel's four charts (the What-if view draws two more of its own)."""
    return [chart for chart in at.get("plotly_chart") if chart.key in CHART_KEYS]


def chart_titles(at: AppTest) -> list[str]:
    specs = [json.loads(chart.proto.spec) for chart in live_charts(at)]
    return [spec["layout"]["title"]["text"] for spec in specs]


def test_default_scenario_three_steps_show_metrics_and_four_charts(at: AppTest) -> None:
    assert not at.button(key="start").disabled
    session = start(at)
    assert session.config.query == at.text_input(key="query").value
    step(at, 3)
    assert len(session.steps) == 3
    assert metric(at, "Pages fetched") == "3"
    assert [chart.key for chart in live_charts(at)] == list(CHART_KEYS)
    assert chart_titles(at) == ["Evidence per term", "Stale and cold counters",
                                "Link weight: anchor", "New evidence per subtree (Wilson interval)"]


def test_a_pasted_query_is_named_by_its_start_and_its_left_out_words_are_said(
    at: AppTest,
) -> None:
    pasted = " ".join(f"fees{i}" for i in range(5_000))  # 35 KB, 5,000 distinct words
    at.text_input(key="query").input(pasted).run()
    session = start(at)
    assert session.config.query == pasted and len(session.state.query) == 16
    (line,) = [c.value for c in at.caption if c.value.startswith("Query “")]
    assert len(line) < 500 and "fees0 fees1" in line
    assert line.endswith("the query uses its first 16 terms; 'fees16' and the words after it "
                         "are left out")


def test_a_bad_url_shows_an_error_and_starts_nothing(at: AppTest) -> None:
    at.radio(key="target").set_value("URL").run()
    at.text_input(key="url").input("not a url").run()
    at.button(key="start").click().run()
    assert at.session_state.session is None
    assert "is not an http(s) URL" in at.error[0].value
    assert at.session_state.field_errors.keys() == {"seed_url"}


def test_an_invalid_setting_is_reported_under_start_naming_its_field(at: AppTest) -> None:
    assert not drawn(at, "limit")  # folded: not drawn until opened
    unfold(at, "setup_limits")
    at.number_input(key="limit").set_value(0).run()
    at.button(key="start").click().run()
    assert at.session_state.session is None
    assert at.session_state.field_errors == {
        "limit": "must be a whole number from 1 to 100000, got 0"}
    assert [e.value for e in at.sidebar.error] == [
        "Page limit: must be a whole number from 1 to 100000, got 0"]
    folded = next(e for e in at.sidebar.expander if e.label == "Page limit and stop rules")
    assert folded.proto.expanded  # the field with the error is shown


def test_a_bad_stop_option_is_named_by_its_label(at: AppTest) -> None:
    # it was "Stop rules: min_gain must be in [0, 1]", the field's name in the config
    unfold(at, "setup_limits")
    at.number_input(key="min_gain").set_value(1.5).run()
    at.button(key="start").click().run()
    assert at.session_state.session is None
    assert [e.value for e in at.sidebar.error] == [
        "Minimum gain: must be in [0, 1], got 1.5"]


def test_a_folded_setting_keeps_its_value_while_its_part_is_closed(at: AppTest) -> None:
    unfold(at, "setup_limits")
    at.number_input(key="limit").set_value(30).run()
    unfold(at, "setup_advanced")
    at.checkbox(key="stop_on_verdict").uncheck().run()
    at.session_state["setup_limits"] = False
    at.session_state["setup_advanced"] = False
    at.run()
    assert not drawn(at, "limit") and not drawn(at, "stop_on_verdict")
    at.run()  # a second run without them drawn: Streamlit drops an undrawn widget's state
    session = start(at)
    assert session.config.limit == 30 and not session.config.stop_on_verdict
    unfold(at, "setup_limits")
    assert at.number_input(key="limit").value == 30


def test_a_bad_value_keeps_the_session_that_is_open(at: AppTest) -> None:
    session = start(at)
    step(at, 2)
    at.radio(key="target").set_value("URL").run()
    at.text_input(key="url").input("not a url").run()
    at.button(key="start").click().run()
    assert at.session_state.session is session and len(session.steps) == 2
    assert not at.button(key="step").disabled  # still live, not closed
    step(at)
    assert len(session.steps) == 3
    assert at.sidebar.error[0].value.startswith("Start URL: ")


def test_changing_the_scenario_updates_the_query(at: AppTest) -> None:
    at.selectbox(key="scenario").set_value("helpdesk").run()
    assert at.text_input(key="query").value == "refund policy"
    at.radio(key="target").set_value("URL").run()
    at.radio(key="target").set_value("Demo scenario").run()
    assert at.selectbox(key="scenario").value == "helpdesk"  # kept while hidden


def test_pinning_a_queued_link_makes_the_next_step_fetch_it(at: AppTest) -> None:
    session = start(at)
    step(at)
    last = session.frontier(25)[-1]
    assert last.rank > 1
    open_view(at, "Frontier")  # a view's override widgets are drawn while it is open
    at.selectbox(key="queue_pick").set_value(last.key).run()
    at.button(key="pin").click().run()
    assert session.overrides[-1].kind is OverrideKind.PIN
    step(at)
    assert session.steps[-1].url == last.url
    open_view(at, "Decision log")
    assert any("you pinned" in m.value for m in at.markdown)


def test_forcing_the_next_links_subtree_dry_skips_it(at: AppTest) -> None:
    session = start(at)
    step(at)
    head = session.frontier(1)[0]
    open_view(at, "Subtrees")
    at.selectbox(key="subtree_pick").set_value(head.subtree).run()
    at.button(key="force_dry").click().run()
    step(at)
    record = session.steps[-1]
    assert record.subtree != head.subtree
    assert head.url in record.dropped_dry


def test_run_pauses_at_the_verdict_and_continue_anyway_goes_on(at: AppTest) -> None:
    session = start(at, "helpdesk")
    at.button(key="run").click().run()
    run_ticks(at, 30)
    assert not at.session_state.running and session.done
    assert session.stop_reason is not None and session.stop_reason.value == "coverage_reached"
    banner = at.warning[0].value  # which rule fired and why (Markdown-escaped: coverage\_reached)
    assert banner.startswith(f"**Stop verdict after step {len(session.steps)}.** coverage")
    assert "every term has enough evidence" in banner
    at.button(key="forgive").click().run()
    assert not session.done and session.overrides[-1].kind is OverrideKind.FORGIVE
    assert not at.button(key="step").disabled


def test_accepting_a_verdict_keeps_the_stop(at: AppTest) -> None:
    session = start(at, "needle")  # nothing on the query: no_relevant_pages
    at.button(key="run_to_stop").click().run()
    run_ticks(at, 30)
    assert session.stop_reason is not None and session.stop_reason.value == "no_relevant_pages"
    assert "nothing relevant was found yet" in at.warning[0].value
    at.button(key="accept").click().run()
    assert session.done and not at.warning
    assert at.info[0].value.startswith(f"Stopped after step {len(session.steps)}.")


def test_run_goes_through_self_forgiven_verdicts_by_default(at: AppTest) -> None:
    session = start(at)  # university: coverage is reached long before the answers run out
    at.button(key="run").click().run()
    run_ticks(at)
    assert session.done and session.stop_reason is not None
    assert any(v.fate.value == "auto_forgiven" for v in session.verdicts)


def test_run_pauses_at_a_verdict_the_crawler_forgave_itself_when_asked(at: AppTest) -> None:
    session = start(at)
    at.checkbox(key="pause_forgiven").check().run()
    at.button(key="run").click().run()
    run_ticks(at)
    last = session.steps[-1]
    assert not session.done and last.verdict is not None and last.forgiven
    message = at.info[0].value
    assert "The crawler forgave it itself" in message
    assert f"the Stale tile reads {last.stale} / 5" in message  # as the tile shows
    assert metric(at, "Stale") == f"{last.stale} / 5"
    assert not at.button(key="run").disabled


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.reason.value)
def test_run_to_the_lesson_ends_with_its_stop_reason(at: AppTest, lesson: Lesson) -> None:
    at.selectbox(key="scenario").set_value(lesson.scenario).run()
    assert lesson.watch[:40] in next(c.value for c in at.sidebar.caption
                                     if c.value.startswith("What to watch"))
    at.button(key="run_to_lesson").click().run()  # Start, then Run until the lesson
    assert not at.exception
    run_ticks(at, 120)
    session = at.session_state.session
    assert isinstance(session, CrawlSession) and session.done
    assert session.stop_reason is lesson.reason
    for key, value in lesson.settings.items():
        assert getattr(session.config, key) == value
    assert at.success[0].value.startswith(
        f"Lesson reached at step {lesson_step(session, lesson)}: "
        f"{md_escape(lesson.reason.value)}.")


def test_a_lessons_settings_stay_with_its_demo(at: AppTest) -> None:
    # a crawl of a real site ran with the fieldguide's page limit or the helpdesk's lead
    # forgiveness off, without a word (found by using the app)
    lesson = next(lesson for lesson in LESSONS if lesson.settings)
    defaults = form_defaults()
    at.selectbox(key="scenario").set_value(lesson.scenario).run()
    assert all(at.session_state[key] == value for key, value in lesson.settings.items())
    assert any(c.value.startswith("The lesson sets: ") for c in at.sidebar.caption)
    at.radio(key="target").set_value(TARGET_URL).run()
    assert all(at.session_state[key] == defaults[key] for key in lesson.settings)
    assert any("are back at their defaults for this target" in i.value for i in at.info)
    at.radio(key="target").set_value(TARGET_DEMO).run()
    assert all(at.session_state[key] == value for key, value in lesson.settings.items())


def test_pause_stops_the_ticks(at: AppTest) -> None:
    session = start_long_run(at)
    assert at.session_state.running and at.button(key="step").disabled
    assert len(session.steps) >= 1
    at.button(key="pause").click().run()
    taken = len(session.steps)
    at.run()
    assert not at.session_state.running and len(session.steps) == taken


def test_one_run_of_the_live_panel_steps_in_slices_and_redraws_the_tiles_after_each(
    at: AppTest, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one fragment run per span, not per slice: the tiles move after every slice (§14.3)
    monkeypatch.setattr(live, "STEP_BUDGET_S", 0.05)
    monkeypatch.setattr(live, "RUN_SPAN_S", 0.4)
    slices: list[int] = []
    tick = live._tick

    def counted(*args: Any) -> Any:
        result = tick(*args)
        slices.append(result.steps)
        return result

    monkeypatch.setattr(live, "_tick", counted)
    session = start_long_run(at)
    assert at.session_state.running and not at.exception
    # about RUN_SPAN_S / STEP_BUDGET_S slices in one run; more than one is the behaviour (a
    # loaded machine took 3 where 4 were asked for: no timing in an assertion)
    assert len(slices) >= 2
    assert int(metric(at, "Pages fetched")) == session.summary()["pages_fetched"]
    assert len([m for m in at.metric if m.label == "Pages fetched"]) == 1


def test_export_then_import_round_trips(at: AppTest) -> None:
    session = start(at)
    step(at, 3)
    data = export_json(session).encode()
    at.file_uploader(key="upload").set_value(("s.json", data, "application/json")).run()
    view = at.session_state.session
    assert isinstance(view, SessionView)
    assert view.steps == session.steps
    assert export_json(view).encode() == data
    assert at.button(key="step").disabled and len(live_charts(at)) == 4
    assert not drawn(at, "chart_whatif_stale")  # drawn only while its tab is open
    open_view(at, "What-if stops")
    assert at.get_by_key("chart_whatif_stale") is not None  # what-if on an imported view
    assert metric(at, "Pages fetched") == "3"


def test_a_broken_bundle_is_refused_with_a_message(at: AppTest) -> None:
    at.file_uploader(key="upload").set_value(("b.json", b'{"format": 1}', "application/json"))
    at.run()
    assert at.session_state.session is None
    assert "not a pagesift session bundle" in at.error[0].value


def test_reset_discards_the_session(at: AppTest) -> None:
    session = start(at)
    step(at)
    at.button(key="reset").click().run()
    assert at.session_state.session is None and at.button(key="step").disabled
    with pytest.raises(SessionDone, match="closed"):
        session.step()


def test_a_local_folder_is_served_and_crawled(at: AppTest, tmp_path: Path) -> None:
    (tmp_path / "index.html").write_text(
        "<html><head><title>Home</title></head><body><p>Welcome.</p>"
        "<a href='fees.html'>Tuition fees</a></body></html>", encoding="utf-8")
    (tmp_path / "fees.html").write_text(
        "<html><head><title>Tuition fees</title></head><body><h1>Tuition fees</h1>"
        "<p>International students pay tuition fees per year.</p></body></html>",
        encoding="utf-8")
    at.radio(key="target").set_value("Local folder").run()
    at.text_input(key="folder").input(str(tmp_path)).run()
    session = start(at)
    step(at, 2)
    assert [r.outcome for r in session.steps] == [StepOutcome.FETCHED, StepOutcome.FETCHED]
    assert session.steps[1].url.endswith("/fees.html")
    server = at.session_state.static_server
    assert server is not None and server.running
    at.button(key="reset").click().run()
    assert not server.running


def test_the_selected_view_survives_an_override_and_a_step(at: AppTest) -> None:
    session = start(at)
    step(at)
    at.session_state["view"] = "Frontier"  # what clicking the tab does (a keyed st.tabs)
    at.run()
    at.button(key="pin").click().run()
    assert session.overrides[-1].kind is OverrideKind.PIN
    assert at.session_state["view"] == "Frontier"
    step(at)
    assert at.session_state["view"] == "Frontier"
    assert [tab.label for tab in at.tabs] == ["Decision log", "Frontier", "Pages",
                                              "Page inspector", "Subtrees", "What-if stops"]
    # and a visit to another page: back on the explorer it was Decision log again
    at.session_state["goto"] = "compare"
    at.run()
    at.session_state["goto"] = "explorer"
    at.run()
    assert not at.exception and at.session_state["view"] == "Frontier"


def test_a_failed_start_shows_the_first_steps_error(at: AppTest) -> None:
    at.radio(key="target").set_value("URL").run()
    seed = shared_demo("university").seed_url + "no-such-page/"
    at.text_input(key="url").input(seed).run()
    session = start(at)
    step(at)
    assert session.done and session.stop_reason is not None
    assert session.stop_reason.value == "exhausted"
    (error,) = [e.value for e in at.main.error]
    assert error.startswith("**The crawl could not start.** ")
    assert "404" in error and "no-such-page" in error


def test_with_stop_on_verdict_off_the_first_verdict_that_stood_is_shown(at: AppTest) -> None:
    at.selectbox(key="scenario").set_value("helpdesk").run()
    unfold(at, "setup_advanced")
    at.checkbox(key="stop_on_verdict").uncheck().run()
    unfold(at, "setup_limits")
    at.number_input(key="limit").set_value(30).run()
    session = start(at)
    at.button(key="run_to_stop").click().run()
    run_ticks(at)
    assert session.done and session.first_verdict is not None
    assert session.stop_reason is not session.first_verdict
    shown = [i.value for i in at.info if "First verdict that stood" in i.value]
    assert shown and f"step {session.stop_step}" in shown[0]
    assert "Stop on verdict is off" in shown[0]
    tile = next(m for m in at.metric if m.label == "Verdict")
    assert f"at step {session.stop_step}" in (tile.proto.delta or "")


def drawn(at: AppTest, key: str) -> bool:
    try:
        at.get_by_key(key)
    except KeyError:
        return False
    return True


def open_view(at: AppTest, view: str) -> None:
    at.session_state["view"] = view  # what clicking the tab does (a keyed st.tabs)
    at.run()


def whatif_table(at: AppTest) -> Any:
    return next(d.value for d in at.dataframe if "answers found" in d.value.columns)


def test_the_what_if_panel_replays_the_stops_with_other_options(at: AppTest) -> None:
    session = start(at, "helpdesk")
    at.button(key="run_to_stop").click().run()
    run_ticks(at, 30)
    assert session.done and session.stop_step is not None
    open_view(at, "What-if stops")
    assert at.slider(key="whatif_patience").value == session.config.adaptive.patience
    table = whatif_table(at)
    actual, replayed = table.iloc[0], table.iloc[1]
    # the caption says whether the replay forgives for a pending link, as the session did
    captions = " ".join(c.value for c in at.caption)
    assert (("with no verdict forgiven for a pending link: lead forgiveness is off"
             in captions) == (not session.config.forgive_leads))
    # a rule that never fired reads "—" where it has no step, not "None"
    shown = next(d for d in at.dataframe if "answers found" in d.value.columns)
    assert shown.proto.placeholder == "—"
    # the session's own options reproduce its stop
    assert (actual["rule"], actual["step"]) == (session.first_verdict, session.stop_step)
    assert (replayed["rule"], replayed["step"]) == (actual["rule"], actual["step"])
    assert replayed["recall"] is not None and replayed["recall"].endswith("%")  # truth known
    stale = json.loads(at.get_by_key("chart_stale").proto.spec)
    assert not [t for t in stale["data"] if t.get("name", "").startswith("what-if")]

    at.slider(key="whatif_patience").set_value(2).run()
    at.slider(key="whatif_coverage_threshold").set_value(0.5).run()
    assert not at.exception
    table = whatif_table(at)
    assert table.iloc[1]["step"] <= session.stop_step  # looser rules stop no later
    stale = json.loads(at.get_by_key("chart_stale").proto.spec)
    marked = [t["x"][0] for t in stale["data"] if t.get("name", "").startswith("what-if")]
    assert table.iloc[1]["step"] in marked  # the what-if stop is marked on the live chart
    assert at.get_by_key("chart_whatif_stale") is not None
    at.button(key="whatif_reset").click().run()
    assert at.slider(key="whatif_patience").value == session.config.adaptive.patience


def what_if_marks(spec: dict[str, Any]) -> list[tuple[str, float]]:
    return [(t["name"], t["x"][0]) for t in spec["data"]
            if t.get("name", "").startswith(("what-if", "actual"))]


def test_the_what_if_sliders_and_marks_outlive_another_open_view(at: AppTest) -> None:
    session = start(at, "helpdesk")
    step(at, 6)
    open_view(at, "What-if stops")
    at.slider(key="whatif_patience").set_value(1).run()
    stale = json.loads(at.get_by_key("chart_stale").proto.spec)
    marked = what_if_marks(stale)
    assert marked  # the sliders differ from the session's options: the steps are marked
    open_view(at, "Frontier")
    at.run()  # the second run without the sliders drawn: Streamlit would have dropped them
    assert not drawn(at, "chart_whatif_stale") and not at.exception
    stale = json.loads(at.get_by_key("chart_stale").proto.spec)
    assert what_if_marks(stale) == marked  # still the sliders' options
    open_view(at, "What-if stops")
    assert at.slider(key="whatif_patience").value == 1
    assert at.slider(key="whatif_patience").value != session.config.adaptive.patience


def test_the_inspector_says_what_meaning_added_and_the_weight_is_a_setting(
    at: AppTest,
) -> None:
    unfold(at, "setup_advanced")
    at.number_input(key="meaning_weight").set_value(0.5).run()
    session = start(at)
    assert session.config.meaning_weight == 0.5
    step(at, 3)
    at.session_state["view"] = "Page inspector"
    at.run()
    assert not at.exception
    record = session.steps[-1]
    meaning = record.relevance_detail["meaning"]
    (line,) = [c.value for c in at.caption if "By meaning" in c.value]
    assert f"cosine with the query {meaning['cosine']:.3f}" in line
    assert f"against the median page read {meaning['median']:.3f}" in line
    assert line.endswith(f"= {record.relevance:.3f}")


def test_copy_learning_is_on_by_default_and_the_decision_log_names_the_pair(
    at: AppTest,
) -> None:
    session = start(at, "university")
    assert session.config.learn_copy_parameters
    session.run(max_steps=30)  # its printer-friendly copies come from step 22 on
    assert session.state.copy_params.learned() == {"print=1": 2}
    summary = session.summary()  # what a bundle's final summary and the CLI read
    assert summary["copy_parameters"] == {"print=1": 2} and summary["copies_not_fetched"] > 0
    # the count kept as the crawl goes is the one its records hold
    assert summary["copies_not_fetched"] == sum(
        sum(copy_skips(r.links).values()) for r in session.steps if r.links)
    at.run()
    open_view(at, "Decision log")
    assert not at.exception
    assert any("a query pair learned to make copies" in m.value and "?print=1" in m.value
               for m in at.markdown)


def test_copy_learning_can_be_turned_off_in_the_sidebar(at: AppTest) -> None:
    unfold(at, "setup_advanced")
    at.checkbox(key="learn_copy_parameters").uncheck().run()
    session = start(at, "university")
    assert session.config.learn_copy_parameters is False
    session.run(max_steps=30)
    assert session.state.copy_params.learned() == {}


def refused_then_started(at: AppTest, key: str, *, default: float, bad: float, good: float,
                         error: str) -> CrawlSession:
    """An Advanced number input shows ``default``; ``bad`` is refused at Start with ``error``
    under it and no session; ``good`` then starts one."""
    unfold(at, "setup_advanced")
    assert at.number_input(key=key).value == default
    at.number_input(key=key).set_value(bad).run()
    at.button(key="start").click().run()
    assert at.session_state.session is None
    assert [e.value for e in at.sidebar.error] == [error]
    at.number_input(key=key).set_value(good).run()
    return start(at)


def test_the_link_meaning_quantile_is_a_setting_and_a_bad_one_is_named_under_start(
    at: AppTest,
) -> None:
    session = refused_then_started(
        at, "link_meaning_quantile", default=0.75, bad=1.5, good=0.5,
        error="Link meaning: lifted above this share of links: must be a number from 0.0 to "
              "1.0, got 1.5")
    assert session.config.link_meaning_quantile == 0.5
    link_meaning = session.state.focus.link_meaning
    assert link_meaning is not None and link_meaning.quantile == 0.5


def test_the_link_meaning_weight_is_a_setting_and_the_decision_log_names_its_lift(
    at: AppTest,
) -> None:
    unfold(at, "setup_advanced")
    at.number_input(key="link_meaning_weight").set_value(0.3).run()
    session = start(at)
    assert session.config.link_meaning_weight == 0.3
    step(at, 6)
    lifted = [r for r in session.steps if r.link is not None
              and any(f["name"] == "meaning" for f in r.link["features"])]
    assert lifted  # the demo's anchors read by meaning: some of its links were lifted
    open_view(at, "Decision log")
    assert not at.exception
    assert any("its anchor and list title, read by meaning" in m.value for m in at.markdown)


def test_links_read_per_page_is_a_setting_and_the_decision_log_says_where_to_raise_it(
    at: AppTest,
) -> None:
    session = refused_then_started(
        at, "max_links_per_page", default=2000, bad=0, good=5,
        error="Links read per page: must be a whole number from 1 to 100000, got 0")
    assert session.config.max_links_per_page == 5
    step(at)
    seed = session.steps[0].links
    assert seed is not None and seed["found"] > 5  # the university home has more links
    assert seed["not_considered"] == seed["found"] - 5
    open_view(at, "Decision log")
    assert any(f"Links: {seed['found']} found ({seed['found'] - 5} past the first 5 not "
               "looked at: Advanced → Links read per page)" in m.value for m in at.markdown)


def test_a_bad_sitemap_url_cap_is_named_as_the_form_labels_it(at: AppTest) -> None:
    session = refused_then_started(
        at, "max_sitemap_urls", default=1000, bad=0, good=10,
        error="Sitemap URLs at most: must be a whole number from 1 to 100000, got 0")
    assert session.config.max_sitemap_urls == 10


def test_every_setup_input_is_drawn_with_the_label_its_errors_name_and_in_its_part(
    at: AppTest,
) -> None:
    """The label tables are the one place a setting is named: each input of a part carries
    its table's label, and each field a table puts in a part has its input there, so an
    error names its field as the form shows it and opens the part that holds it."""
    def drawn(where: Any) -> dict[str, str]:
        inputs = [*where.number_input, *where.checkbox, *where.radio, *where.selectbox,
                  *where.text_input]
        return {("seed_url" if w.key == "url" else w.key): w.label for w in inputs
                if w.key not in PRIOR_KEYS}

    shut: dict[str, str] = {}
    for target in TARGETS:  # the start URL and the folder are drawn for their targets only
        at.radio(key="target").set_value(target).run()
        shut |= drawn(at.sidebar)
    unfold(at, "setup_limits")
    unfold(at, "setup_advanced")
    opened = drawn(at.sidebar)
    for field, label in (shut | opened).items():
        assert FIELD_LABELS[field] == label, field
    no_input = {"config", "adaptive", "prior_weights"}  # whole-form, stop-rule, per-feature
    assert set(SETUP_LABELS) - no_input <= set(shut)
    for table in (LIMIT_LABELS, ADVANCED_LABELS):
        assert set(table) - no_input <= set(opened) - set(shut)


def test_recall_is_measured_by_the_answers_of_the_query_asked(at: AppTest) -> None:
    # the German query's crawl was measured by the English answers: "answers found 0"
    at.selectbox(key="scenario").set_value("multilingual").run()
    at.text_input(key="query").input("Wohnen für Austauschstudierende").run()
    at.button(key="start").click().run()
    truth = at.session_state.truth
    assert truth is not None and len(truth) == 9 and all("/en/" not in url for url in truth)
    at.text_input(key="query").input("mensa opening hours").run()
    at.button(key="start").click().run()
    assert at.session_state.truth is None  # its answers are not known: no recall shown


def test_a_crawl_its_budget_ended_goes_on_with_a_raised_budget(at: AppTest) -> None:
    # a crawl that spent its budget before the question was answered had to start again
    unfold(at, "setup_limits")
    at.number_input(key="limit").set_value(3).run()
    session = start(at)
    step(at, 3)
    assert session.done and session.stop_reason is not None
    assert session.stop_reason.value == "limit_reached"
    assert "Raise the budget to go on from here" in at.info[0].value
    assert at.number_input(key="raise_limit_to").value == 6
    # a budget not above is refused with the range, not replaced by the default
    at.number_input(key="raise_limit_to").set_value(2).run()
    at.button(key="raise_limit").click().run()
    assert session.done and session.limit == 3
    assert ("the page budget can only be raised: it is 3 pages, so give a number from 4 to "
            "100,000") in " ".join(e.value for e in at.error)
    at.number_input(key="raise_limit_to").set_value(5).run()
    at.button(key="raise_limit").click().run()
    assert not at.exception
    assert not session.done and session.limit == 5
    assert session.overrides[-1].kind is OverrideKind.RAISE_LIMIT
    assert not at.button(key="step").disabled
    step(at, 2)
    assert session.done and session.steps[-1].pages_scheduled == 5
    assert "· limit 5" in " ".join(c.value for c in at.caption)
