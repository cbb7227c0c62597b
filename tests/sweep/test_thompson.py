"""Thompson sampling (Strategy.THOMPSON) and the step records' prequential predictions."""

from __future__ import annotations

import random
from functools import cache

import pytest

from pagesift_ui.demo import DemoSite, build_site
from pagesift_ui.frontier.model import PRIOR_PRECISION, PRIOR_WEIGHTS, LinkModel
from pagesift_ui.frontier.thompson import PosteriorSampler
from pagesift_ui.session import CrawlConfig, CrawlSession, StepRecord
from pagesift_ui.session.bundle import bundle_json, load_bundle, session_bundle
from tests.fakes import demo_seed, demo_source


@cache
def _site() -> DemoSite:
    return build_site("university")


def _crawl(strategy: str, sampling_seed: int = 0, limit: int = 25) -> list[StepRecord]:
    site = _site()
    config = CrawlConfig.from_mapping({
        "seed_url": demo_seed(site), "query": site.query, "limit": limit,
        "strategy": strategy, "sampling_seed": sampling_seed, "stop_on_verdict": False,
    })
    with CrawlSession(config, demo_source(site)) as session:
        return session.run()


def _comparable(records: list[StepRecord]) -> list[dict[str, object]]:
    run_only = ("elapsed_ms", "fetched_at")  # the fake source stamps fetches with the clock
    return [{k: v for k, v in r.to_dict().items() if k not in run_only} for r in records]


def test_a_draw_is_the_posterior_mean_plus_seeded_noise() -> None:
    model = LinkModel()
    noise = random.Random(3)
    se = (1 / PRIOR_PRECISION) ** 0.5  # 2 for a model that has seen nothing
    expected = tuple(max(0.0, m + noise.gauss(0.0, 1.0) * se) for m in PRIOR_WEIGHTS)
    sampler = PosteriorSampler(3)
    assert sampler.draw(model) == expected
    assert PosteriorSampler(3).draw(model) == expected  # same seed, same draw
    assert PosteriorSampler(4).draw(model) != expected
    assert sampler.draws == 1
    assert all(w >= 0 for w in sampler.draw(model))  # negative draws are taken as 0


def test_draws_narrow_as_the_model_learns() -> None:
    model = LinkModel()
    for i in range(200):  # three relevant links in four: p near ¾, so q grows steadily
        model.observe((1.0, 0.0, 0.0, 0.0, 0.0), i % 4 != 0)
    sampler = PosteriorSampler(0)
    spread = [sampler.draw(model)[0] for _ in range(500)]
    centre = model.posterior_mean[0]
    se = model.standard_error[0]
    assert se < 0.2 and centre > 6 * se  # far from the clamp at 0
    assert sum(spread) / len(spread) == pytest.approx(centre, abs=4 * se / 500 ** 0.5 + 1e-9)


def test_bad_sampling_seed_is_refused() -> None:
    with pytest.raises(ValueError, match="seed"):
        PosteriorSampler(-1)


def test_a_thompson_crawl_replays_exactly_and_differs_from_greedy() -> None:
    first, again = _crawl("thompson", 1), _crawl("thompson", 1)
    assert _comparable(first) == _comparable(again)
    greedy = [r.url for r in _crawl("focused")]
    other_seed = [r.url for r in _crawl("thompson", 2)]
    assert [r.url for r in first] != greedy
    assert [r.url for r in first] != other_seed


def test_a_thompson_step_is_explained_under_the_weights_it_was_ranked_with() -> None:
    records = _crawl("thompson", 1)
    explained = [r for r in records if r.link is not None]
    assert explained
    for record in explained:
        assert record.link is not None
        assert record.link["score"] == pytest.approx(record.score, rel=1e-12)
    # the drawn weights differ from the weights in use, so the explanations show them
    used = {tuple(f["weight"] for f in r.link["features"]) for r in explained if r.link}
    assert any(weights != PRIOR_WEIGHTS for weights in used)


def test_records_carry_the_prediction_made_before_learning() -> None:
    records = _crawl("focused")
    learned = [r for r in records if r.predicted is not None]
    assert learned and all(r.prior_predicted is not None for r in learned)
    assert all(0.0 < (r.predicted or 0.0) < 1.0 for r in learned)
    # the first link learned from meets an untaught model: mean = prior, intercept 0
    assert learned[0].predicted == learned[0].prior_predicted
    assert any(r.predicted != r.prior_predicted for r in learned[1:])
    assert records[0].predicted is None  # the seed has no link


def test_a_bundle_without_predictions_still_loads() -> None:
    site = _site()
    config = CrawlConfig.from_mapping({"seed_url": demo_seed(site), "query": site.query,
                                       "limit": 5})
    with CrawlSession(config, demo_source(site)) as session:
        session.run()
        bundle = session_bundle(session)
    for step in bundle["steps"]:
        del step["predicted"], step["prior_predicted"]
    view = load_bundle(bundle_json(bundle))
    assert [r.predicted for r in view.steps] == [None] * len(view.steps)
