"""Per-operation cost of the frontier queue at 1k, 10k and 100k entries.

Run: ``python3 benchmarks/bench_queue.py`` (about 40 s). Prints two tables;
``--steps`` prints only the second.

The first: µs per offer/pop, ms per rescore/top(20), and the growth ratio cost@100k / cost@1k.
Links are spread over 50 hosts × 20 sections (1,000 clusters), scores are uniform in [0, 1)
with a seeded RNG, and two clusters are "proven" so that every dispersion rule of
``pop_diverse`` is exercised.

The second: the queue work of one realistic crawl step (issue 15) on a full queue of real
``LinkSignal``s in a session's ``FrontierState`` (``max_queued_links`` = the size): a
``pop_diverse``, learning and sibling credit, the rescore after them, the pending-lead check
and a stop verdict judged with it (``stepping.judge``), popularity counting, 50 new links made
and offered (the queue is at capacity, so each evicts or is rejected), the rescore after
popularity counting and ``has_fetchable``, in ``session/crawl.py``'s order, with the sibling
credits and popularity shares growing as in a crawl. The 50 ``LinkSignal``s are made inside
the timed step, as enqueue_links does. The three sizes are stepped in turn (one step of
each, then the next round), so the load of a shared machine falls on all of them alike, and
timed in CPU time of this process (``time.process_time``: the time other processes hold the
two cores does not count); the median of each is reported. Target: the step at 100k ≤ 2×
the step at 1k.
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

from pagesift_ui.frontier.adaptive import StopReason  # noqa: E402
from pagesift_ui.frontier.links import LinkSignal  # noqa: E402
from pagesift_ui.frontier.queue import BestFirst, cluster_key  # noqa: E402
from pagesift_ui.session.config import CrawlConfig  # noqa: E402
from pagesift_ui.session.state import FrontierState  # noqa: E402
from pagesift_ui.session.stepbuild import StepFacts  # noqa: E402
from pagesift_ui.session.stepping import has_fetchable, judge, pending_lead  # noqa: E402

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


STEP_LINKS = 50  # new links a step offers (issue 15: "a site with 50 new links per page")
STEPS = 60  # steps timed per size; the median is reported
SEED_HOST = "h0.example"


def _signal(i: int, rng: np.random.Generator, state: FrontierState) -> LinkSignal:
    """A link of page ``i // 50``: random term masks of the two-term query, a sibling group
    per page and a popularity target (in its name family) per link, as enqueue_links gives
    them."""
    parent = f"page-{i // STEP_LINKS}"
    key = _url(i)
    masks = rng.integers(0, 4, size=3).tolist()
    target = state.focus.popularity.linked(parent, key)
    state.focus.families.target(target, key)  # its name family (page-N under one directory)
    return LinkSignal(
        url=key, anchor_mask=masks[0] if rng.random() < 0.3 else 0,
        locator_mask=masks[1] if rng.random() < 0.3 else 0,
        context_mask=masks[2] if rng.random() < 0.5 else 0, depth=int(rng.integers(1, 6)),
        parent_relevance=float(rng.random()), parent_is_hub=bool(rng.random() < 0.2),
        group=state.focus.siblings.group(parent, 0, key),
        target=target,
    )


def _offer(state: FrontierState, i: int, rng: np.random.Generator, room: int) -> None:
    signal = _signal(i, rng, state)
    state.queue.offer(signal.url, signal.url, signal.depth, state.link_score(signal), signal,
                      room)


def _step(state: FrontierState, config: CrawlConfig, step: int, first: int,
          rng: np.random.Generator) -> None:
    """The queue work of one step, in session/crawl.py's order."""
    entry = state.queue.pop_diverse(
        state.scheduled_by_cluster, state.dispersion_cap(), state.clusters.is_proven,
        demoted_templates=state.demoted_templates(),
    )
    assert entry is not None
    state.scheduled_by_cluster[cluster_key(entry.url)] += 1
    relevance = float(rng.random())
    if isinstance(entry.signal, LinkSignal):
        state.focus.learn(entry.signal, relevance >= 0.5)
    state.focus.siblings.observe(entry.key, relevance)
    state.focus.families.observe(entry.key, relevance)
    _rescore_if_stale(state)  # after learning, sibling and family credit, one rescore
    state.leads.found(entry.score, relevance)
    lead = pending_lead(state, config.seed_host)
    # a stop verdict at every step, judged with the pending lead (forgiven or not, the
    # crawl goes on: stop_on_verdict is off)
    judge(state, config, StepFacts(step=step, entry=entry, dropped=()), StopReason.SATURATED,
          lead)
    state.leads.verdict_fired()
    state.focus.popularity.page_read(relevance)
    for i in range(first, first + STEP_LINKS):
        _offer(state, i, rng, config.max_queued_links)
    _rescore_if_stale(state)  # after popularity counting
    has_fetchable(state)


def _rescore_if_stale(state: FrontierState) -> None:
    if state.focus.needs_rescore():
        state.rescore()


def _full_state(size: int) -> tuple[FrontierState, CrawlConfig, np.random.Generator]:
    """A session's frontier state whose queue holds ``size`` links, its capacity."""
    rng = np.random.default_rng(size)
    config = CrawlConfig(seed_url=f"https://{SEED_HOST}/", query="refund policy", limit=10_000,
                         max_queued_links=size, stop_on_verdict=False)
    state = FrontierState.from_config(config)
    for i in range(size):
        _offer(state, i, rng, size)
    state.leads.found(0.3, 1.0)  # a bar, so the check compares the head with it
    return state, config, rng


def _step_costs() -> dict[int, float]:
    """Median CPU ms of one step's queue work on a full queue, per size, stepped in turn."""
    states = {size: _full_state(size) for size in SIZES}
    runs: dict[int, list[float]] = {size: [] for size in SIZES}
    for step in range(STEPS):
        for size, (state, config, rng) in states.items():
            started = time.process_time()
            _step(state, config, step + 1, size + step * STEP_LINKS, rng)
            runs[size].append(time.process_time() - started)
    return {size: statistics.median(times) * 1e3 for size, times in runs.items()}


def _table(by_size: dict[int, dict[str, float]]) -> list[str]:
    rows = list(by_size[SIZES[0]])
    header = ["operation", *(f"{size:,}" for size in SIZES), "100k/1k"]
    lines = [f"{header[0]:<34}" + "".join(f"{cell:>12}" for cell in header[1:])]
    for row in rows:
        costs = [by_size[size][row] for size in SIZES]
        cells = "".join(f"{cost:>12.3f}" for cost in costs)
        lines.append(f"{row:<34}{cells}{costs[-1] / costs[0]:>11.1f}×")
    return lines


def main() -> None:
    started = time.perf_counter()
    lines = [] if "--steps" in sys.argv[1:] else [*_table({s: _measure(s) for s in SIZES}), ""]
    steps = _step_costs()
    lines += [*_table({size: {"step's queue work (ms)": steps[size]} for size in SIZES})]
    lines.append(f"(total {time.perf_counter() - started:.1f} s, numpy {np.__version__})")
    sys.stdout.write("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
