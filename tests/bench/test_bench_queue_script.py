"""``benchmarks/bench_queue.py``'s step runs against the frontier's API as it is now (its
timings are printed by the script, never asserted here): a renamed method once broke it
unnoticed (docs/DECISIONS.md, issue 15)."""

from __future__ import annotations

from tests.bench.docsite_truth import ROOT, load_module


def test_the_queue_benchmarks_steps_run_on_a_small_full_queue() -> None:
    bench = load_module("bench_queue_under_test", ROOT / "benchmarks" / "bench_queue.py")
    state, config, rng = bench._full_state(300)
    assert len(state.queue) == 300
    for step in range(1, 6):
        bench._step(state, config, step, 300 + step * bench.STEP_LINKS, rng)
    # each step pops one link and offers STEP_LINKS new ones into a queue kept at capacity
    assert len(state.queue) == 300
    assert state.leads.judged and state.leads.bar() is not None
