"""What the JavaScript render costs per page (issue 16): one demo crawl, three render modes.

Run: ``nice python3 benchmarks/bench_render.py`` (about a minute; ``--rounds``, ``--limit``,
``--scenario``). The same crawl of a demo site served on 127.0.0.1 (default ``bakery``,
30 steps, no delay) with ``render`` off, empty and always, interleaved round by round so the
load of the shared machine falls on every mode alike; each crawl starts its own browser, so
``always`` includes one browser start. Prints the median ms per step of each mode and its
ratio to ``off``. The demo pages have text and links, so ``empty`` renders none of them: it
costs the extra extraction that decides it.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from pagesift_ui.demo import DemoServer, build_site  # noqa: E402
from pagesift_ui.session import CrawlConfig, CrawlSession  # noqa: E402

MODES = ("off", "empty", "always")


def _crawl(server: DemoServer, query: str, limit: int, mode: str) -> tuple[float, int]:
    config = CrawlConfig.from_mapping({
        "seed_url": server.seed_url, "query": query, "limit": limit, "delay_s": 0.0,
        "stop_on_verdict": False, "render": mode,
    })
    started = time.perf_counter()
    with CrawlSession(config) as session:
        session.run()
    return time.perf_counter() - started, len(session.steps)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--scenario", default="bakery")
    parser.add_argument("--limit", type=int, default=30)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    site = build_site(args.scenario, 0)
    per_step: dict[str, list[float]] = {mode: [] for mode in MODES}
    with DemoServer(site) as server:
        for round_no in range(args.rounds):
            for mode in MODES:
                seconds, steps = _crawl(server, site.query, args.limit, mode)
                per_step[mode].append(seconds * 1000.0 / steps)
                print(f"round {round_no + 1} {mode:>6}: {steps} steps, "
                      f"{seconds * 1000.0 / steps:.1f} ms/step", flush=True)
    off = statistics.median(per_step["off"])
    print(f"\n{args.scenario}, {args.limit} steps, median of {args.rounds} rounds:")
    for mode in MODES:
        median = statistics.median(per_step[mode])
        print(f"  {mode:>6}: {median:8.1f} ms/step  ({median / off:.1f}x off)")


if __name__ == "__main__":
    main()
