"""What reading pages in their language costs an English crawl (issue 16, other languages).

Run: ``python3 benchmarks/bench_language.py`` (about half a minute; needs git and the commit
before the change, 8188040). It loads ``frontier/query.py`` and ``frontier/relevance.py`` of
that commit beside today's and times, interleaved in one run, the work of one page under an
English query: ``page_signal`` of a demo page and of a 15k-word page, ``hit_mask`` of every
block of the demo page, and the language detection a page without ``<html lang>`` costs
now (a page that declares one costs none). The ratio is today's time over the old one; both
give the same numbers (tests/frontier/test_language.py checks it on random texts).
"""

from __future__ import annotations

import subprocess
import sys
import time
import types
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pagesift_ui.demo import build_site  # noqa: E402
from pagesift_ui.frontier import query as new_query  # noqa: E402
from pagesift_ui.frontier import relevance as new_relevance  # noqa: E402
from pagesift_ui.frontier.focus import markdown_language  # noqa: E402
from pagesift_ui.frontier.language import Language  # noqa: E402
from pagesift_ui.frontier.tokens import blocks  # noqa: E402
from pagesift_ui.page.extract import extract  # noqa: E402

BEFORE = "8188040"
ROUNDS = 5
INTERLEAVE = 12


def _old_module(
    name: str, path: str, replace: tuple[tuple[str, str], ...] = ()
) -> types.ModuleType:
    source = subprocess.run(["git", "show", f"{BEFORE}:{path}"], cwd=ROOT, check=True,
                            capture_output=True, text=True).stdout
    for old, new in replace:
        source = source.replace(old, new)
    module = types.ModuleType(name)
    sys.modules[name] = module
    exec(compile(source, path, "exec"), module.__dict__)  # noqa: S102 - our own old code
    return module


def _best(work: Callable[[], object], repeat: int) -> float:
    """Best of ``ROUNDS`` timings of ``repeat`` calls, in microseconds per call."""
    times = []
    for _ in range(ROUNDS):
        started = time.perf_counter()
        for _ in range(repeat):
            work()
        times.append((time.perf_counter() - started) / repeat * 1e6)
    return min(times)


def main() -> None:
    old_query = _old_module("old_query", "pagesift_ui/frontier/query.py")
    old_relevance = _old_module(
        "old_relevance", "pagesift_ui/frontier/relevance.py",
        (("from pagesift_ui.frontier.query import", "from old_query import"),),
    )
    site = build_site("university", 0)
    host, path = sorted(site.relevant)[0]
    page = extract(site.respond(host, path).body, f"http://{host}{path}")
    text = site.query
    big_body = " ".join([page.text] * max(1, 15_000 // max(len(page.text.split()), 1)))
    old_q, new_q = old_query.Query(text), new_query.Query(text)
    assert old_q.terms == new_q.terms and old_q.stems == new_q.stems
    page_blocks = blocks(page.markdown)
    cases: list[tuple[str, Callable[[], object], Callable[[], object], int]] = [
        ("page_signal, demo page", lambda: old_relevance.page_signal(
            old_q, page.url, page.title, page.headings, page.text),
         lambda: new_relevance.page_signal(
            new_q, page.url, page.title, page.headings, page.text, Language.ENGLISH), 50),
        ("page_signal, 15k-word page", lambda: old_relevance.page_signal(
            old_q, page.url, page.title, page.headings, big_body),
         lambda: new_relevance.page_signal(
            new_q, page.url, page.title, page.headings, big_body, Language.ENGLISH), 5),
        ("hit_mask of every block", lambda: [old_q.hit_mask(b) for b in page_blocks],
         lambda: [new_q.hit_mask(b, Language.ENGLISH) for b in page_blocks], 50),
    ]
    print(f"English query {text!r} on {host}{path} ({len(page.text.split())} words, "
          f"{len(page_blocks)} blocks); best of {ROUNDS}, µs per call")
    print(f"{'work':<30}{'before':>10}{'after':>10}{'ratio':>8}")
    for name, before, after, repeat in cases:
        old_us = new_us = 0.0
        for _ in range(INTERLEAVE):  # interleaved: the machine's noise hits both alike
            old_us = _best(before, repeat) if not old_us else min(old_us, _best(before, repeat))
            new_us = _best(after, repeat) if not new_us else min(new_us, _best(after, repeat))
        print(f"{name:<30}{old_us:>10.0f}{new_us:>10.0f}{new_us / old_us:>8.2f}")
    detect_demo = _best(lambda: markdown_language("", page.markdown, Language.ENGLISH), 50)
    detect_big = _best(lambda: markdown_language("", big_body, Language.ENGLISH), 5)
    declared = _best(lambda: markdown_language("en", page.markdown, Language.ENGLISH), 50)
    print(f"detection, page without <html lang>: {detect_demo:.0f} µs (demo page), "
          f"{detect_big:.0f} µs (15k words); with <html lang>: {declared:.1f} µs")


if __name__ == "__main__":
    main()
