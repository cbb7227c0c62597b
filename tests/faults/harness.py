"""What the fault tests share: a crawl that meets a fault, and a fetch measured in a child.

``crawl_into`` starts a saved crawl (``start_session``) whose seed page links to the fault
and to ``/ok``, runs it, and returns the session with what the store kept of it, so a test
can check the fault's step and that every step is saved. ``fetch_in_child`` runs one fetch in
a fresh Python process and reports its error and peak resident memory (``VmHWM``), which is
what a bomb must keep below ``PEAK_RSS_LIMIT_MB``. ``run_in_child`` does the same for any
snippet (opening a bundle or a WARC bomb), and ``cli_in_child`` runs ``pagesift-ui`` as a
user does, so a test sees exactly what reaches the terminal.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any
from urllib.parse import quote

import httpx

from pagesift_ui.session import CrawlConfig, CrawlSession, StepOutcome, StepRecord
from pagesift_ui.store import SessionStore, StoredSession, StoreSink, start_session
from tests.faults.server import FaultServer

__all__ = [
    "PEAK_RSS_LIMIT_MB",
    "ChildFetch",
    "ChildRun",
    "CliRun",
    "Crawled",
    "LoopbackOnly",
    "cli_in_child",
    "config_for",
    "crawl_into",
    "fetch_in_child",
    "run_in_child",
]

#: A bomb of any kind must peak below this (issue 12).
PEAK_RSS_LIMIT_MB = 300
_ROOT = Path(__file__).resolve().parents[2]


def config_for(seed: str, **changes: Any) -> CrawlConfig:
    """A polite-enough test crawl from ``seed``: no delay, every verdict recorded."""
    values = {
        "seed_url": seed, "query": "refund policy", "limit": 3, "delay_s": 0.0,
        "stop_on_verdict": False, "read_timeout_s": 5.0, **changes,
    }
    return CrawlConfig.from_mapping(values)


@dataclass(frozen=True, slots=True)
class Crawled:
    """A finished crawl that met a fault, and what its store kept."""

    session: CrawlSession
    saved: StoredSession
    fault_url: str
    ok_url: str

    @property
    def fault_step(self) -> StepRecord:
        return next(r for r in self.session.steps if r.url == self.fault_url)

    def went_on(self) -> bool:
        """The crawl fetched its other page too, and the store kept every step."""
        ok = [r for r in self.session.steps if r.url == self.ok_url]
        return (
            bool(ok) and ok[0].outcome is StepOutcome.FETCHED
            and self.saved.steps == tuple(self.session.steps)
        )


def crawl_into(
    faults: FaultServer, store: SessionStore, fault_path: str, *, host: str | None = "www",
    **changes: Any,
) -> Crawled:
    """Crawl from a seed page on ``host`` that links to ``fault_path`` and ``/ok``."""
    seed = faults.url(f"/seed?next={quote(fault_path, safe='')}", host)
    config = config_for(seed, **changes)
    with start_session(store, config) as session:
        session.run()
    sink = session.find_sink(StoreSink)
    assert sink is not None
    return Crawled(session, store.load(sink.session_id), faults.url(fault_path, host),
                   faults.url("/ok", host))


@dataclass(frozen=True, slots=True)
class ChildFetch:
    """One fetch made in a child process: its error (if any) and its peak memory."""

    error_class: str | None
    kind: str | None
    message: str
    body_bytes: int
    peak_mb: float


_CHILD = r"""
import json, resource, sys
# a child that runs away is stopped by the kernel long before it hurts the machine
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
from pagesift_ui.errors import FetchError
from pagesift_ui.session import CrawlConfig
from pagesift_ui.session.source import default_source

config = CrawlConfig.from_mapping(json.loads(sys.argv[1]))
out = {"class": None, "kind": None, "message": "", "body": 0}
fetcher = default_source(config)
try:
    out["body"] = len(fetcher.fetch(sys.argv[2]).body)
except FetchError as exc:
    out.update({"class": type(exc).__name__, "kind": exc.kind, "message": exc.message})
finally:
    fetcher.close()
with open("/proc/self/status") as status:
    out["peak_kb"] = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
print(json.dumps(out))
"""


def fetch_in_child(config: CrawlConfig, url: str, timeout_s: float = 60.0) -> ChildFetch:
    """Fetch ``url`` with ``config``'s live fetcher in a fresh interpreter."""
    env = {**os.environ, "PYTHONPATH": str(_ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, json.dumps(config.to_dict()), url],
        capture_output=True, text=True, timeout=timeout_s, cwd=_ROOT, env=env,
        check=False,
    )
    assert done.returncode == 0, f"the child failed:\n{done.stderr[-3000:]}"
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return ChildFetch(out["class"], out["kind"], out["message"], out["body"],
                      out["peak_kb"] / 1024)


class LoopbackOnly(httpx.BaseTransport):
    """A transport that refuses to dial anything but 127.0.0.1, whatever the fetcher thinks.

    Tests of addresses the policy must block use it, so that even a fetcher that got the
    policy wrong sends no packet off this machine.
    """

    def __init__(self) -> None:
        self._inner = httpx.HTTPTransport(trust_env=False)
        self.refused: list[str] = []

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        if request.url.host != "127.0.0.1":
            self.refused.append(str(request.url))
            raise httpx.ConnectError("LoopbackOnly: not dialled", request=request)
        return self._inner.handle_request(request)

    def close(self) -> None:
        self._inner.close()


# -- files and the command line (the files half) --------------------------------------------


@dataclass(frozen=True, slots=True)
class ChildRun:
    """What a snippet run in a fresh interpreter reported (its ``result``), and its peak
    resident memory."""

    result: dict[str, Any]
    peak_mb: float


_CHILD_RUN = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
result = {}
exec(sys.argv[1])
with open("/proc/self/status") as status:
    peak_kb = next(int(l.split()[1]) for l in status if l.startswith("VmHWM:"))
print(json.dumps({"result": result, "peak_kb": peak_kb}))
"""


def run_in_child(snippet: str, *argv: str, timeout_s: float = 120.0) -> ChildRun:
    """Run ``snippet`` (it fills the dict ``result``; ``sys.argv[2:]`` are ``argv``) in a
    fresh interpreter limited to 3 GiB, and report its peak memory (``VmHWM``)."""
    env = {**os.environ, "PYTHONPATH": str(_ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD_RUN, snippet, *argv], capture_output=True, text=True,
        timeout=timeout_s, cwd=_ROOT, env=env, check=False,
    )
    assert done.returncode == 0, f"the child failed:\n{done.stderr[-3000:]}"
    out = json.loads(done.stdout.strip().splitlines()[-1])
    return ChildRun(out["result"], out["peak_kb"] / 1024)


@dataclass(frozen=True, slots=True)
class CliRun:
    """``pagesift-ui ARGS`` run as a user runs it: its exit code and what it wrote."""

    code: int
    out: str
    err: str

    @property
    def err_lines(self) -> list[str]:
        return [line for line in self.err.splitlines() if line.strip()]


def cli_in_child(*argv: str, timeout_s: float = 120.0) -> CliRun:
    """Run ``python -m pagesift_ui ARGV`` in a fresh process (the session store is the
    test's own: ``PAGESIFT_DB`` is inherited)."""
    env = {**os.environ, "PYTHONPATH": str(_ROOT)}
    done = subprocess.run(
        [sys.executable, "-m", "pagesift_ui", *argv], capture_output=True, text=True,
        timeout=timeout_s, cwd=_ROOT, env=env, check=False,
    )
    return CliRun(done.returncode, done.stdout, done.stderr)
