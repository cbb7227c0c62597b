"""CrawlConfig: validated once, with errors that name the field."""

from __future__ import annotations

from typing import Any

import pytest

from pagesift_ui.errors import ConfigError
from pagesift_ui.frontier.adaptive import AdaptiveOptions
from pagesift_ui.session import CrawlConfig, Scope
from pagesift_ui.session.scope import in_scope

GOOD = {"seed_url": "http://www.uni.localhost:8000/", "query": "international fees"}


def test_defaults_live_in_the_dataclass() -> None:
    config = CrawlConfig.from_mapping(GOOD)
    assert config.limit == 100 and config.delay_s == 1.0 and config.respect_robots
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
        ({"query": "   "}, "query", "at least one word"),
        ({"query": "the and of"}, "query", "only stop words"),
        ({"limit": 0}, "limit", "whole number"),
        ({"limit": "ten"}, "limit", "whole number"),
        ({"delay_s": -1}, "delay_s", "number"),
        ({"delta": 0.9}, "delta", "number"),
        ({"prior_weights": [1, 2]}, "prior_weights", "5 numbers"),
        ({"prior_weights": [1, 2, 3, 4, -5]}, "prior_weights", ">= 0"),
        ({"scope": "galaxy"}, "scope", "one of"),
        ({"adaptive": {"patience": 0}}, "adaptive", "patience"),
        ({"colour": "blue"}, "colour", "unknown setting"),
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
