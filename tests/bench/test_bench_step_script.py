"""``benchmarks/bench_step.py --cold-caches`` empties every per-page cache of the package: a
cache added later and left out would let its repeats find the work of the crawl before them
done, and the benchmark would flatter the step (docs/DECISIONS.md, issue 15)."""

from __future__ import annotations

import importlib
import pkgutil

import pagesift_ui
from pagesift_ui.frontier import neardup
from tests.bench.docsite_truth import ROOT, load_module


def _package_caches() -> dict[str, object]:
    caches = {}
    for module_info in pkgutil.walk_packages(pagesift_ui.__path__, "pagesift_ui."):
        if module_info.name.endswith(("._cwalk", ".__main__")):  # compiled; runs the CLI
            continue
        module = importlib.import_module(module_info.name)
        for name, value in vars(module).items():
            defined_here = getattr(value, "__module__", "") == module.__name__
            if hasattr(value, "cache_clear") and defined_here:
                caches[f"{module.__name__}.{name}"] = value
    return caches


def test_cold_caches_empty_every_per_page_cache_of_the_package() -> None:
    bench = load_module("bench_step_under_test", ROOT / "benchmarks" / "bench_step.py")
    caches = _package_caches()
    assert len(caches) >= 20
    left_out = {name for name, cache in caches.items()
                if cache not in bench.WARM_CACHES
                and name.rsplit(".", 1)[1] not in bench.LOADED_ONCE}
    assert not left_out, f"add these to WARM_CACHES or LOADED_ONCE: {sorted(left_out)}"
    resolve = importlib.import_module("pagesift_ui.page.resolve")
    resolve.resolve("http://h.example/a/b.html", "c.html")
    neardup.minhash(" ".join(f"w{i}" for i in range(80)))
    bench.clear_warm_caches()
    assert resolve.resolve.cache_info().currsize == 0
    assert not neardup._word_hashes


def test_the_phase_clock_times_each_phase_and_puts_the_functions_back() -> None:
    bench = load_module("bench_step_under_test", ROOT / "benchmarks" / "bench_step.py")

    class Module:  # stands for pagesift_ui.session.crawl: the names a step calls
        pass

    module = Module()
    for _, name in bench.PHASES:
        setattr(module, name, lambda n=name: sum(range(200_000)) and n)
    originals = {name: getattr(module, name) for _, name in bench.PHASES}
    with bench.PhaseClock(module) as clock:
        assert module.extract() == "extract"  # the wrapper returns what the phase returns
        module.enqueue_links()
        assert clock.spent["extract"] > 0 and clock.spent["links"] > 0
        assert clock.spent["duplicates"] == clock.spent["observing"] == 0.0
        clock.reset()
        assert set(clock.spent.values()) == {0.0}
    assert {name: getattr(module, name) for _, name in bench.PHASES} == originals


def test_phase_shares_are_of_the_step_time_summed_over_pages() -> None:
    bench = load_module("bench_step_under_test", ROOT / "benchmarks" / "bench_step.py")
    labels = [label for label, _ in bench.PHASES]

    def page(step: float, *phases: float) -> object:
        spent = {label: [value] for label, value in zip(labels, phases, strict=True)}
        return bench.PageTimes("u", 1, [step], [1.0], [1.0], spent)

    shares = bench.phase_shares([page(1.0, 0.5, 0.1, 0.1, 0.2), page(3.0, 1.5, 0.3, 0.3, 0.6)])
    assert shares == {labels[0]: 0.5, labels[1]: 0.1, labels[2]: 0.1, labels[3]: 0.2,
                      "rest": 1.0 - (0.5 + 0.1 + 0.1 + 0.2)}
    assert bench.phase_shares([bench.PageTimes("u", 1, [1.0], [1.0], [1.0])]) == {}
