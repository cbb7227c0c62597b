"""Cost of one step's rerun of the app with 50, 500 and 2,000 steps of history.

Run: ``python3 benchmarks/bench_ui.py`` (about 40 s; everything talks to 127.0.0.1 only).

Histories come from real crawls of the bundled ``university`` demo (limit 2,000,
``stop_on_verdict=False``). That site is exhausted after about 1,600 steps, so the 2,000-step
history is topped up with copies of its own records, renumbered. For each size the app runs
in ``AppTest`` with the session injected; each timed rerun first appends one record (a copy of
the last real one, renumbered), which is exactly what a Step click hands the UI, so the
chart memo misses and every figure and table is rebuilt. The engine's own step time (the
fetch and the frontier core) is reported apart: it does not grow with history.
Targets: ≤ 200 ms per rerun at 2,000 steps; the ratio 2000/50 shows how the UI scales.
"""

from __future__ import annotations

import dataclasses
import logging
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from streamlit.testing.v1 import AppTest  # noqa: E402

from components.decision_log import log_entries  # noqa: E402
from components.live import build_figures  # noqa: E402
from components.tables import frontier_frame, pages_frame  # noqa: E402
from pagesift_ui.demo import shared_demo  # noqa: E402
from pagesift_ui.session import CrawlConfig, CrawlSession, SessionDone  # noqa: E402

logger = logging.getLogger(__name__)

ROOT = Path(__file__).resolve().parents[1]
SIZES = (50, 500, 2_000)
RERUNS = 9  # timed reruns per size; the median is reported
DIRECT_REPEATS = 5


def _crawl(steps: int) -> CrawlSession:
    """A live session on the university demo with ``steps`` records (topped up if needed)."""
    server = shared_demo("university")
    config = CrawlConfig.from_mapping({"seed_url": server.seed_url, "query": server.site.query,
                                       "limit": 2_000, "stop_on_verdict": False})
    session = CrawlSession(config)
    while len(session.steps) < steps:
        try:
            session.step()
        except SessionDone:
            break
    real = len(session.steps)
    while len(session.steps) < steps:
        _append_copy(session, session.steps[len(session.steps) % real])
    return session


def _append_copy(session: CrawlSession, record: object) -> None:
    copy = dataclasses.replace(record, step=len(session.steps) + 1)  # type: ignore[type-var]
    session.steps.append(copy)


def _median_ms(action: Callable[[], object], repeats: int) -> float:
    times = []
    for _ in range(repeats):
        started = time.perf_counter()
        action()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _rerun_ms(session: CrawlSession) -> float:
    """Median AppTest rerun after one new record, with the chart memo missing each time."""
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.run()
    at.session_state["session"] = session
    at.session_state["session_serial"] = 1
    at.run()  # warm: imports, first figures
    if at.exception:
        raise RuntimeError(at.exception[0].message)
    last = session.steps[-1]
    times = []
    for _ in range(RERUNS):
        _append_copy(session, last)
        started = time.perf_counter()
        at.run()
        times.append((time.perf_counter() - started) * 1000)
    return statistics.median(times)


def _direct_ms(session: CrawlSession) -> dict[str, float]:
    """The render functions' pure parts, timed directly."""
    config, steps, overrides = session.config, session.steps, session.overrides
    return {
        "figures": _median_ms(lambda: build_figures(session, 500, "anchor", "pages"),
                              DIRECT_REPEATS),
        "pages table": _median_ms(lambda: pages_frame(session.pages()), DIRECT_REPEATS),
        "frontier": _median_ms(lambda: frontier_frame(session.frontier(25)), DIRECT_REPEATS),
        "decision log": _median_ms(lambda: log_entries(steps, overrides, config),
                                   DIRECT_REPEATS),
    }


def main() -> None:
    logging.basicConfig(level=logging.WARNING)
    results: dict[int, tuple[float, dict[str, float], float]] = {}
    for size in SIZES:
        session = _crawl(size)
        engine = statistics.median(r.elapsed_ms for r in session.steps)
        results[size] = (_rerun_ms(session), _direct_ms(session), engine)
        session.close()
    names = list(results[SIZES[0]][1])
    print(f"{'steps':>6} {'rerun ms':>9} " + " ".join(f"{n:>13}" for n in names)
          + f" {'engine step ms':>15}")
    for size, (rerun, direct, engine) in results.items():
        print(f"{size:>6} {rerun:>9.1f} " + " ".join(f"{direct[n]:>13.1f}" for n in names)
              + f" {engine:>15.1f}")
    first, last = results[SIZES[0]][0], results[SIZES[-1]][0]
    verdict = "meets" if last <= 200 else "MISSES"
    print(f"rerun ratio {SIZES[-1]}/{SIZES[0]}: {last / first:.2f}; "
          f"{SIZES[-1]} steps: {last:.0f} ms ({verdict} the 200 ms target)")


if __name__ == "__main__":
    main()
