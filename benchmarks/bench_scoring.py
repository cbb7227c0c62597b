"""Rescoring cost of the link score (docs/DESIGN.md §8-9: "rescoring 100k queued links must
take ms").

Prints, for 1k / 10k / 100k random link signals, the time to pack them into columns and the
time to score the packed columns, measured in one run (median of 5), and the 100k/1k ratios.
Run: python3 benchmarks/bench_scoring.py
"""

from __future__ import annotations

import random
import statistics
import time

from pagesift_ui.frontier.linkbatch import LinkColumns, score_batch
from pagesift_ui.frontier.links import LinkSignal
from pagesift_ui.frontier.model import PRIOR_WEIGHTS

TERMS = 12


def signals(n: int, rng: random.Random) -> list[LinkSignal]:
    def mask() -> int:
        return rng.randrange(1 << TERMS) if rng.random() < 0.6 else 0

    return [
        LinkSignal(f"http://e.edu/p{i}", depth=rng.randrange(12), parent_relevance=rng.random(),
                   parent_is_hub=rng.random() < 0.3, anchor_mask=mask(), locator_mask=mask(),
                   context_mask=mask(), furniture=rng.random() < 0.2, dated=rng.random() < 0.1,
                   section=rng.random() < 0.2)
        for i in range(n)
    ]


def median_ms(action: object, repeats: int = 5) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times)


def main() -> None:
    rng = random.Random(7)
    weights = [0.5] * TERMS
    rows = []
    for n in (1_000, 10_000, 100_000):
        batch = signals(n, rng)
        pack = median_ms(lambda b=batch: LinkColumns.from_signals(b))
        columns = LinkColumns.from_signals(batch)
        score = median_ms(lambda c=columns: score_batch(c, PRIOR_WEIGHTS, weights, True, True))
        rows.append((n, pack, score))
        print(f"{n:>7,} signals: pack {pack:8.2f} ms   score packed {score:7.2f} ms")
    print(f"ratio 100k/1k: pack {rows[-1][1] / rows[0][1]:.0f}x, "
          f"score {rows[-1][2] / rows[0][2]:.0f}x")


if __name__ == "__main__":
    main()
