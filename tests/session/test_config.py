"""CrawlConfig: validated once, with errors that name the field."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from pagesift_ui.errors import ConfigError
from pagesift_ui.frontier.adaptive import AdaptiveOptions
from pagesift_ui.net.policy import DEFAULT_USER_AGENT, FetchPolicy
from pagesift_ui.session import CrawlConfig, Scope
from pagesift_ui.session.config import SETTINGS, settings_mapping
from pagesift_ui.session.scope import in_scope

GOOD = {"seed_url": "http://www.uni.localhost:8000/", "query": "international fees"}


def test_defaults_live_in_the_dataclass() -> None:
    config = CrawlConfig.from_mapping(GOOD)
    assert config.limit == 200 and config.delay_s == 1.0 and config.respect_robots
    assert config.adaptive == AdaptiveOptions()
    assert config.scope is Scope.SITE and config.stop_on_verdict
    assert config.seed_host == "www.uni.localhost"


def test_to_dict_round_trips() -> None:
    config = CrawlConfig.from_mapping(
        {**GOOD, "limit": 7, "scope": "host", "adaptive": {"patience": 2}, "dispersion_cap": 4}
    )
    assert CrawlConfig.from_mapping(config.to_dict()) == config


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"seed_url": ""}, "seed_url", "enter a start URL"),
        ({"seed_url": "www.example.com"}, "seed_url", "not an http(s) URL"),
        ({"seed_url": "javascript:alert(1)"}, "seed_url", "not an http(s) URL"),
        ({"seed_url": "http:///path"}, "seed_url", "no host"),
        ({"seed_url": "http://x:99999/"}, "seed_url", "invalid port"),
        ({"seed_url": "http://a b/"}, "seed_url", "spaces"),
        ({"seed_url": "http://[::1/"}, "seed_url", "not a valid URL (Invalid IPv6 URL)"),
        ({"adaptive": "oops"}, "adaptive", "must be the stop options"),
        ({"adaptive": {"patience": "5"}}, "patience", "must be an integer"),
        ({"seed_url": "http://x.org/" + "p" * 2036}, "seed_url", "2,049 characters long"),
        ({"query": "   "}, "query", "at least one word"),
        ({"query": "the and of"}, "query", "only stop words"),
        ({"query": "?!? -- ..."}, "query", "no words (only punctuation or symbols)"),
        ({"limit": 0}, "limit", "whole number"),
        ({"limit": "ten"}, "limit", "whole number"),
        ({"delay_s": -1}, "delay_s", "number"),
        ({"delta": 0.9}, "delta", "number"),
        ({"prior_weights": [1, 2]}, "prior_weights", "5 numbers"),
        ({"prior_weights": [1, 2, 3, 4, -5]}, "prior_weights", "from 0 to 1000"),
        # scores of 300 digits and NaN in the weight chart otherwise
        ({"prior_weights": [1.7e308, 2, 3, 4, 5]}, "prior_weights", "from 0 to 1000"),
        ({"scope": "galaxy"}, "scope", "one of"),
        ({"adaptive": {"patience": 0}}, "patience", "must be an integer >= 1"),
        ({"connect_timeout_s": 0}, "connect_timeout_s", "number from 0.1 to 300"),
        ({"max_redirects": 21}, "max_redirects", "whole number from 0 to 20"),
        ({"max_redirects": 2.5}, "max_redirects", "whole number"),
        ({"user_agent": "bot\r\nX-Evil: 1"}, "user_agent", "printable ASCII"),
        ({"dispersion_cap": 0}, "dispersion_cap", "whole number from 1"),
        ({"colour": "blue"}, "colour", "unknown setting"),
        # a sweep spec's "false" is a true string: the crawl stopped on its verdict
        ({"stop_on_verdict": "false"}, "stop_on_verdict", "must be true or false"),
        ({"learn_copy_parameters": 1}, "learn_copy_parameters", "must be true or false"),
        ({"respect_robots": "no"}, "respect_robots", "must be true or false"),
    ],
)
def test_bad_settings_name_their_field(change: dict[str, Any], field: str, words: str) -> None:
    with pytest.raises(ConfigError) as caught:
        CrawlConfig.from_mapping({**GOOD, **change})
    assert caught.value.field == field
    assert words in str(caught.value)
    assert isinstance(caught.value, ValueError)


def test_scope_host_and_site() -> None:
    seed = "www.uni.localhost"
    assert in_scope("http://www.uni.localhost:1/a", seed, Scope.HOST)
    assert not in_scope("http://journals.uni.localhost:1/a", seed, Scope.HOST)
    assert in_scope("http://journals.uni.localhost:1/a", seed, Scope.SITE)
    assert not in_scope("http://www.other.localhost:1/a", seed, Scope.SITE)
    assert in_scope("https://lib.ox.ac.uk/x", "www.ox.ac.uk", Scope.SITE)
    assert not in_scope("https://www.cam.ac.uk/x", "www.ox.ac.uk", Scope.SITE)


# -- fetch settings and the settings table -------------------------------------------------


def test_fetch_settings_default_as_the_fetcher_had_them() -> None:
    config = CrawlConfig.from_mapping(GOOD)
    assert (config.user_agent, config.connect_timeout_s, config.max_redirects) == (
        DEFAULT_USER_AGENT, 5.0, 5,
    )
    assert (config.read_timeout_s, config.max_body_bytes) == (10.0, 5_000_000)


def test_fetch_policy_carries_the_configs_values() -> None:
    changed = {
        "user_agent": "probe/2.0", "delay_s": 0.25, "respect_robots": False,
        "connect_timeout_s": 1.5, "read_timeout_s": 7.0, "max_redirects": 0,
        "max_body_bytes": 123_456, "allow_private": True, "fetch_deadline_s": 12.5,
        "max_crawl_delay_s": 7.0, "max_retry_after_s": 90.0, "concurrency": 3,
        "per_host": 2,
    }
    policy = CrawlConfig.from_mapping({**GOOD, **changed}).fetch_policy()
    # the seed's origin is the one loopback or private origin the policy lets through
    assert dataclasses.asdict(policy) == {**changed, "seed_url": GOOD["seed_url"]}
    assert {f.name for f in dataclasses.fields(FetchPolicy)} == {*changed, "seed_url"}


def test_the_fetch_policy_has_no_defaults_of_its_own() -> None:
    assert all(
        f.default is dataclasses.MISSING and f.default_factory is dataclasses.MISSING
        for f in dataclasses.fields(FetchPolicy)
    )


def test_a_config_saved_before_the_fetch_settings_existed_still_loads() -> None:
    new = ("user_agent", "connect_timeout_s", "max_redirects")
    old = {k: v for k, v in CrawlConfig.from_mapping(GOOD).to_dict().items() if k not in new}
    loaded = CrawlConfig.from_mapping(old)
    assert loaded == CrawlConfig.from_mapping(GOOD)
    assert CrawlConfig.from_mapping(loaded.to_dict()).to_dict() == loaded.to_dict()


def test_every_setting_default_is_read_off_its_dataclass() -> None:
    config, adaptive = CrawlConfig.from_mapping(GOOD), AdaptiveOptions()
    for setting in SETTINGS:
        owner = adaptive if setting.adaptive else config
        assert setting.default == getattr(owner, setting.name), setting.name
        value = setting.default.value if setting.choices else setting.default
        assert settings_mapping({setting.name: value}) == (
            {"adaptive": {setting.name: value}} if setting.adaptive else {setting.name: value}
        )


@pytest.mark.parametrize("setting", [s for s in SETTINGS if s.low is not None], ids=str)
def test_a_settings_range_is_what_the_config_accepts(setting: Any) -> None:
    low, high = setting.low, setting.high
    step = 1 if setting.kind is int else (high - low) * 1e-3
    for inside in (low, high):
        CrawlConfig.from_mapping({**GOOD, setting.name: setting.kind(inside)})
    for outside in (low - step, high + step):
        with pytest.raises(ConfigError) as caught:
            CrawlConfig.from_mapping({**GOOD, setting.name: setting.kind(outside)})
        assert caught.value.field == setting.name
        assert setting.describe_range().split(" to ")[0] in caught.value.message


def test_settings_mapping_lays_flat_values_over_a_base_without_changing_it() -> None:
    base = CrawlConfig.from_mapping({**GOOD, "adaptive": {"patience": 2}}).to_dict()
    merged = settings_mapping({"min_gain": 0.2, "limit": 9, "query": "fees"}, base)
    assert merged["adaptive"] == {**base["adaptive"], "min_gain": 0.2}
    assert (merged["limit"], merged["query"], merged["seed_url"]) == (9, "fees", GOOD["seed_url"])
    assert base["adaptive"]["min_gain"] == AdaptiveOptions().min_gain and base["limit"] == 200


@pytest.mark.parametrize(("change", "field"), [
    ({"query": "the " * 30_000}, "query"),
    ({"seed_url": "http://a b/" + "x" * 100_000}, "seed_url"),
    ({"seed_url": "http://x.org/" + "x" * 100_000}, "seed_url"),
    ({"user_agent": "bot\n" * 10_000}, "user_agent"),
])
def test_a_huge_bad_value_is_named_by_its_start_not_echoed_whole(
    change: dict[str, Any], field: str
) -> None:
    with pytest.raises(ConfigError) as caught:
        CrawlConfig.from_mapping({**GOOD, **change})
    assert caught.value.field == field
    assert len(str(caught.value)) < 200 and "…" in str(caught.value)


@pytest.mark.parametrize("values", [["seed_url", "query"], "seed_url=x", None])
def test_settings_that_are_not_a_mapping_are_refused_as_such(values: Any) -> None:
    with pytest.raises(ConfigError, match="config: must be a mapping of settings"):
        CrawlConfig.from_mapping(values)


def test_a_session_needs_a_config_not_its_values() -> None:
    from pagesift_ui.session import CrawlSession

    with pytest.raises(ValueError, match="config must be a CrawlConfig .* got dict"):
        CrawlSession(GOOD)  # type: ignore[arg-type]
