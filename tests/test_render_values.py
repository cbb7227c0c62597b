"""The render setting and the render report as values: no browser needed (issue 16)."""

from __future__ import annotations

import dataclasses
import json

import pytest

from components.decision_log import explain_step
from pagesift_ui.demo import build_site
from pagesift_ui.errors import BundleError, ConfigError
from pagesift_ui.net.rendered import MAX_LISTED_REFUSALS, Refusal, RenderEnd, RenderReport
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.config import RenderMode
from pagesift_ui.store.replay import first_difference
from pagesift_ui.store.validate import STEP_OPTIONAL
from tests.fakes import demo_seed, demo_source

REPORT = RenderReport(
    RenderEnd.DEADLINE, served=3, refused=7,
    refusals=tuple(Refusal(f"http://10.0.0.{i}/", "network_policy")
                   for i in range(MAX_LISTED_REFUSALS)),
    elapsed_s=10.0123,
)


def _config(**settings: object) -> CrawlConfig:
    return CrawlConfig.from_mapping({"seed_url": "http://127.0.0.1:9/", "query": "gardening",
                                     **settings})


def _first_record() -> tuple[CrawlConfig, StepRecord]:
    site = build_site("bakery", 0)
    config = CrawlConfig.from_mapping({"seed_url": demo_seed(site), "query": site.query,
                                       "delay_s": 0.0, "limit": 1})
    with CrawlSession(config, demo_source(site)) as session:
        session.run()
    return config, session.steps[0]


def test_render_is_off_by_default_and_read_from_its_words() -> None:
    assert _config().render is RenderMode.OFF
    assert _config(render="empty").render is RenderMode.EMPTY
    config = _config(render="always", render_deadline_s=3.0)
    assert CrawlConfig.from_mapping(config.to_dict()) == config
    assert config.to_dict()["render"] == "always"


@pytest.mark.parametrize(("settings", "field"), [
    ({"render": "sometimes"}, "render"),
    ({"render_deadline_s": 0.5}, "render_deadline_s"),
    ({"render_deadline_s": 121.0}, "render_deadline_s"),
])
def test_a_bad_render_setting_names_its_field(settings: dict[str, object], field: str) -> None:
    with pytest.raises(ConfigError) as caught:
        _config(**settings)
    assert caught.value.field == field


def test_a_render_report_round_trips_through_its_dict() -> None:
    data = json.loads(json.dumps(REPORT.to_dict()))
    assert data["elapsed_s"] == 10.012
    assert RenderReport.from_dict(data) == dataclasses.replace(REPORT, elapsed_s=10.012)


def test_the_note_names_the_first_refusals_and_says_there_were_more() -> None:
    note = REPORT.note
    assert note.startswith("rendered until the deadline")
    assert "3 subresource(s) served, 7 refused: http://10.0.0.0/ (network_policy)" in note
    assert note.endswith(" …")


def test_a_record_keeps_its_render_and_a_record_without_one_is_as_before() -> None:
    config, record = _first_record()
    assert "render" not in record.to_dict()  # what a crawl without render wrote before
    rendered = dataclasses.replace(record, render=REPORT.to_dict())
    data = json.loads(json.dumps(rendered.to_dict()))
    assert StepRecord.from_dict(data) == dataclasses.replace(
        rendered, render=json.loads(json.dumps(REPORT.to_dict())))
    STEP_OPTIONAL["render"](data["render"], "steps[0].render", BundleError)
    # a replay has no report: not a difference
    assert first_difference(rendered, record) is None
    assert "JavaScript: rendered until the deadline" in explain_step(rendered, config)


def test_a_bundle_with_a_malformed_render_is_refused_naming_the_field() -> None:
    bad = {**REPORT.to_dict(), "end": "exploded"}
    with pytest.raises(BundleError, match=r"steps\[0\]\.render\.end"):
        STEP_OPTIONAL["render"](bad, "steps[0].render", BundleError)
