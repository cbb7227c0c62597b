"""``benchmarks/bench_step.py --cold-caches`` empties every per-page cache of the package: a
cache added later and left out would let its repeats find the work of the crawl before them
done, and the benchmark would flatter the step (docs/DECISIONS.md, issue 15)."""

from __future__ import annotations

import importlib
import pkgutil

import pagesift_ui
from pagesift_ui.frontier import textpass
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
    words = " ".join(f"w{i}" for i in range(80))
    textpass._word_hashes_in_python(words)
    textpass.word_hashes(words)
    bench.clear_warm_caches()
    assert resolve._cleaned.cache_info().currsize == 0
    assert resolve._join_in_directory.cache_info().currsize == 0
    assert not textpass._word_hash_cache
    if textpass.COMPILED:
        from pagesift_ui.frontier import _ctext

        assert _ctext.cached_words() == 0


def test_timed_phases_count_each_phase_and_put_the_functions_back() -> None:
    phases = load_module("phases_under_test", ROOT / "benchmarks" / "phases.py")

    class Module:  # stands for pagesift_ui.session.crawl: the names a step calls
        pass

    module = Module()
    names = ("extract", "record_text", "enqueue_links")
    for name in names:
        setattr(module, name, lambda n=name: sum(range(200_000)) and n)
    originals = {name: getattr(module, name) for name in names}
    timed = [(module, name, f"phase {name}") for name in names]
    with phases.timed_phases(timed) as spent:
        assert module.extract() == "extract"  # the wrapper returns what the phase returns
        module.enqueue_links()
        assert spent["phase extract"] > 0 and spent["phase enqueue_links"] > 0
        assert spent["phase record_text"] == 0.0
        spent.clear()  # a step's count starts again
        assert not spent
    assert {name: getattr(module, name) for name in names} == originals


def test_bench_step_times_the_four_phases_a_session_calls() -> None:
    bench = load_module("bench_step_under_test", ROOT / "benchmarks" / "bench_step.py")
    crawl = importlib.import_module("pagesift_ui.session.crawl")
    assert bench.PHASE_LABELS == ("extract", "duplicates", "observing", "links")
    for owner, name, _ in bench.PHASES:  # each a name the session module calls
        assert owner is crawl and callable(getattr(crawl, name))


def test_phase_shares_are_of_the_step_time_summed_over_pages() -> None:
    bench = load_module("bench_step_under_test", ROOT / "benchmarks" / "bench_step.py")
    labels = bench.PHASE_LABELS

    def page(step: float, *phases: float) -> object:
        spent = {label: [value] for label, value in zip(labels, phases, strict=True)}
        return bench.PageTimes("u", 1, [step], [1.0], [1.0], spent)

    shares = bench.phase_shares([page(1.0, 0.5, 0.1, 0.1, 0.2), page(3.0, 1.5, 0.3, 0.3, 0.6)])
    assert shares == {labels[0]: 0.5, labels[1]: 0.1, labels[2]: 0.1, labels[3]: 0.2,
                      "rest": 1.0 - (0.5 + 0.1 + 0.1 + 0.2)}
    assert bench.phase_shares([bench.PageTimes("u", 1, [1.0], [1.0], [1.0])]) == {}
