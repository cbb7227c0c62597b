"""CPU seconds by phase of a crawl step, for the benchmarks that say where a step goes
(``bench_bigpage.py``, issue 12; ``bench_step.py --phases``, issue 15).

A phase is a function a step calls by name, on a module or a class: while the block runs it is
wrapped to add its CPU time (``time.process_time``) to its label's count, and put back after.
"""

from __future__ import annotations

import time
from collections import defaultdict
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any

#: (module or class, function name, label): one phase.
Phase = tuple[Any, str, str]


@contextmanager
def timed_phases(phases: Sequence[Phase]) -> Iterator[dict[str, float]]:
    """CPU seconds spent in each of ``phases`` while the block runs, by label (0.0 for a
    phase not run). The dict counts on: ``clear()`` it to start a step's count."""
    spent: dict[str, float] = defaultdict(float)
    originals = [(owner, name, getattr(owner, name)) for owner, name, _ in phases]

    def timing(function: Callable[..., Any], label: str) -> Callable[..., Any]:
        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.process_time()
            try:
                return function(*args, **kwargs)
            finally:
                spent[label] += time.process_time() - started
        return timed

    for (owner, name, label), (_, _, function) in zip(phases, originals, strict=True):
        setattr(owner, name, timing(function, label))
    try:
        yield spent
    finally:
        for owner, name, function in originals:
            setattr(owner, name, function)
