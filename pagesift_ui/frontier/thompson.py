"""Exploration by posterior sampling: link weights drawn from the link model's posterior.

Thompson sampling for the link model of docs/DESIGN.md §3 (Chapelle & Li, "An Empirical
Evaluation of Thompson Sampling", NIPS 2011, Algorithm 3): before each pop the queue is ranked
with one draw w ~ N(m, diag(q)⁻¹) instead of the weights in use, so a feature whose weight is
uncertain is sometimes tried at a higher value and sometimes at a lower one. The model itself
learns exactly as before (``LinkModel.observe``); only the ranking changes.

A drawn weight below 0 is taken as 0 [ours], the same projection the model applies to the
weights in use (a link score never penalises a query term). The draws come from an injected
``random.Random`` seeded by ``CrawlConfig.sampling_seed``, so a session replays exactly.
"""

from __future__ import annotations

import random

from pagesift_ui.frontier.model import LinkModel

__all__ = ["PosteriorSampler"]


class PosteriorSampler:
    """Draws link weights from a ``LinkModel``'s diagonal Gaussian posterior.

    Parameters
    ----------
    seed : int
        Seed of the sampler's own ``random.Random``; the same seed and the same sequence of
        models give the same draws.
    """

    __slots__ = ("_rng", "draws")

    def __init__(self, seed: int) -> None:
        if isinstance(seed, bool) or not isinstance(seed, int) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        self._rng = random.Random(seed)
        self.draws = 0

    def draw(self, model: LinkModel) -> tuple[float, ...]:
        """One weight per feature: max(0, mᵢ + εᵢ/√qᵢ) with εᵢ ~ N(0, 1), in feature order."""
        self.draws += 1
        return tuple(
            # Chapelle & Li 2011, Alg. 3: wᵢ ~ N(mᵢ, qᵢ⁻¹); standard_error = √(1/qᵢ)
            max(0.0, mean + self._rng.gauss(0.0, 1.0) * se)
            for mean, se in zip(model.posterior_mean, model.standard_error, strict=True)
        )
