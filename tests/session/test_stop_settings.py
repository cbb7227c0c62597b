"""The stop-rule settings of the twentieth session, at the boundary: on by default, off by
their CLI flag, and off for a config recorded before they existed, so a recorded session's
verdicts replay as they were judged (``CrawlConfig.from_recorded``)."""

from __future__ import annotations

import pytest

from pagesift_ui.cli.commands import build_parser
from pagesift_ui.cli.options import config_from_args
from pagesift_ui.session import CrawlConfig

SEED, QUERY = "http://127.0.0.1:8000/", "graduate admissions"

# (setting, the CLI flag that turns it off)
SETTINGS = [("forgive_still_finding", "--no-still-finding-forgiveness"),
            ("lead_bar_new_evidence", "--on-topic-lead-bar")]


@pytest.mark.parametrize(("name", "flag"), SETTINGS)
def test_on_by_default_and_off_by_its_flag(name: str, flag: str) -> None:
    parser = build_parser()
    on = parser.parse_args(["crawl", SEED, "--query", QUERY])
    off = parser.parse_args(["crawl", SEED, "--query", QUERY, flag])
    assert getattr(config_from_args(on), name) is True
    assert getattr(config_from_args(off), name) is False


@pytest.mark.parametrize(("name", "flag"), SETTINGS)
def test_a_config_recorded_before_the_setting_reads_it_as_off(name: str, flag: str) -> None:
    recorded = CrawlConfig.from_mapping({"seed_url": SEED, "query": QUERY}).to_dict()
    assert recorded[name] is True
    del recorded[name]
    assert getattr(CrawlConfig.from_recorded(recorded), name) is False
    assert getattr(CrawlConfig.from_recorded({**recorded, name: True}), name) is True


@pytest.mark.parametrize(("name", "flag"), SETTINGS)
def test_a_setting_that_is_not_a_bool_is_refused_by_name(name: str, flag: str) -> None:
    with pytest.raises(ValueError, match=name):
        CrawlConfig.from_mapping({"seed_url": SEED, "query": QUERY, name: "yes"})
