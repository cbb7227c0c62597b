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
