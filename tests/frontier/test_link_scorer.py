"""``links.scorer`` (weights checked once, coverages remembered) gives ``score_with``'s
floats bit for bit; ``Focus.link_scorer`` gives ``Focus.score``'s."""

from __future__ import annotations

import random

import pytest

from pagesift_ui.frontier.focus import Focus
from pagesift_ui.frontier.links import LinkSignal, score_with, scorer
from pagesift_ui.frontier.query import Query


def _signals(rng: random.Random, n_terms: int, n: int) -> list[LinkSignal]:
    top = (1 << n_terms) - 1
    return [
        LinkSignal(
            url=f"https://site.localhost/{i}", depth=rng.randrange(6),
            parent_relevance=rng.random(), parent_is_hub=rng.random() < 0.3,
            anchor_mask=rng.randint(0, top), locator_mask=rng.randint(0, top),
            context_mask=rng.randint(0, top), furniture=rng.random() < 0.2,
            dated=rng.random() < 0.1, portal=rng.random() < 0.1,
            other_language=rng.random() < 0.2, group=rng.randrange(-1, 5),
            target=rng.randrange(-1, 5),
        )
        for i in range(n)
    ]


@pytest.mark.parametrize("seed", range(8))
def test_scorer_gives_score_with_floats(seed: int) -> None:
    rng = random.Random(seed)
    n_terms = rng.randint(1, 6)
    link_weights = [rng.uniform(-1, 3) for _ in range(5)]
    term_weights = [rng.uniform(0, 2) for _ in range(n_terms)]
    portal_open, english = rng.random() < 0.5, rng.random() < 0.5
    score_one = scorer(link_weights, term_weights, portal_open, english)
    for signal in _signals(rng, n_terms, 200):
        credit, share = rng.random(), rng.random() * rng.choice([0.0, 1.0])
        expected = score_with(signal, link_weights, term_weights, portal_open, english,
                              credit, share)
        assert score_one(signal, credit, share) == expected
        assert score_one(signal, credit, share) == expected  # remembered coverages


def test_scorer_still_checks_the_link_weights() -> None:
    with pytest.raises(ValueError):
        scorer([1.0, 2.0], [1.0], False, True)
    with pytest.raises(ValueError):
        scorer([1.0, float("nan"), 0.0, 0.0, 0.0], [1.0], False, True)


def test_focus_link_scorer_gives_focus_score() -> None:
    focus = Focus(Query("international student fees"))
    rng = random.Random(3)
    score_of = focus.link_scorer()
    for signal in _signals(rng, 3, 100):
        signal = LinkSignal(url=signal.url, depth=signal.depth, anchor_mask=signal.anchor_mask,
                            locator_mask=signal.locator_mask)  # no groups or targets yet
        assert score_of(signal) == focus.score(signal)
