"""Per-operation cost of the frontier queue at 1k, 10k and 100k entries.

Run: ``python3 benchmarks/bench_queue.py`` (about 10 s). Prints one table: µs per offer/pop,
ms per rescore/top(20), and the growth ratio cost@100k / cost@1k. Links are spread over
50 hosts × 20 sections (1,000 clusters), scores are uniform in [0, 1) with a seeded RNG, and
two clusters are "proven" so that every dispersion rule of ``pop_diverse`` is exercised.
"""

from __future__ import annotations

import logging
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from pagesift_ui.frontier.queue import BestFirst, cluster_key  # noqa: E402

logger = logging.getLogger(__name__)

SIZES = (1_000, 10_000, 100_000)
SAMPLES = 200  # offers/pops timed per size
REPEATS = 5  # rescore/top runs per size; the median is reported
FEATURES = 5
PROVEN = frozenset({"h1.example/s1", "h2.example/s2"})


@dataclass(frozen=True, slots=True)
class FeatureSignal:
    """Stands in for a LinkSignal: the scorer reads its feature tuple."""

    features: tuple[float, ...]


def _url(i: int) -> str:
    return f"https://h{i % 50}.example/s{i % 20}/page-{i}"


def _filled(size: int, rng: np.random.Generator) -> BestFirst:
    queue = BestFirst()
    scores = rng.random(size)
    for i in range(size):
        url = _url(i)
        queue.offer(url, url, 1, float(scores[i]), i, room=size + SAMPLES)
    return queue


def _per_call(action: Callable[[int], object], calls: int) -> float:
    """Mean seconds per call of ``action(i)`` over ``calls`` calls."""
    start = time.perf_counter()
    for i in range(calls):
        action(i)
    return (time.perf_counter() - start) / calls


def _median(action: Callable[[], object]) -> float:
    runs = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        action()
        runs.append(time.perf_counter() - start)
    return statistics.median(runs)


def _measure(size: int) -> dict[str, float]:
    rng = np.random.default_rng(size)
    queue = _filled(size, rng)
    weights = rng.random(FEATURES)
    by_id = rng.random((size + 2 * SAMPLES, FEATURES))

    def rescore_ids(signals: list[object]) -> np.ndarray:
        ids = np.fromiter(signals, dtype=np.int64, count=len(signals))
        return by_id[ids] @ weights

    def rescore_objects(signals: list[object]) -> np.ndarray:
        rows = [signal.features for signal in signals]  # type: ignore[attr-defined]
        return np.asarray(rows, dtype=np.float64) @ weights

    results = {
        "offer, new key (µs)": _per_call(
            lambda i: queue.offer(f"n{i}", _url(size + i), 1, 0.5, size + i, size + SAMPLES),
            SAMPLES,
        )
        * 1e6,
        "offer, full: evicts (µs)": _per_call(
            lambda i: queue.offer(f"e{i}", _url(i), 1, 2.0, size + SAMPLES + i, len(queue)),
            SAMPLES,
        )
        * 1e6,
        "rescore, id signals (ms)": _median(lambda: queue.rescore(rescore_ids)) * 1e3,
        "top(20) (ms)": _median(lambda: queue.top(20)) * 1e3,
    }
    scheduled = {cluster_key(_url(i)): 5 for i in range(1_000)}
    results["pop_diverse (µs)"] = (
        _per_call(lambda i: queue.pop_diverse(scheduled, 3, PROVEN.__contains__), SAMPLES) * 1e6
    )
    signals = [FeatureSignal(tuple(row)) for row in by_id[:size].tolist()]
    objects = BestFirst()
    for i, signal in enumerate(signals):
        objects.offer(f"o{i}", _url(i), 1, 0.0, signal, size)
    results["rescore, dataclass signals (ms)"] = (
        _median(lambda: objects.rescore(rescore_objects)) * 1e3
    )
    return results


def main() -> None:
    started = time.perf_counter()
    by_size = {size: _measure(size) for size in SIZES}
    rows = list(by_size[SIZES[0]])
    header = ["operation", *(f"{size:,}" for size in SIZES), "100k/1k"]
    lines = [f"{header[0]:<34}" + "".join(f"{cell:>12}" for cell in header[1:])]
    for row in rows:
        costs = [by_size[size][row] for size in SIZES]
        cells = "".join(f"{cost:>12.3f}" for cost in costs)
        lines.append(f"{row:<34}{cells}{costs[-1] / costs[0]:>11.1f}×")
    lines.append(f"(total {time.perf_counter() - started:.1f} s, numpy {np.__version__})")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
