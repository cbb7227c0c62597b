"""Peak memory of a 500-page crawl of the Python 3.11 docs, unsaved and saved to a store.

Run: ``python3 benchmarks/bench_memory.py`` (about 1 min per crawl; 127.0.0.1 only).

The docs (Debian ``python3.11-doc``, ``benchmarks/docsites.py``) are served by a
``StaticServer`` in this process; each crawl runs ``pagesift-ui crawl`` in a fresh subprocess
(``--limit 500 --no-stop --delay 0 --quiet``, the ``asyncio`` dev-set query), so its peak RSS
is the crawl's alone: imports, session, fetched pages and, for the saved crawl, the store and
whatever is read back from it after the crawl. The child prints the peak RSS after its imports
(``VmHWM`` of /proc) and at the end (``ru_maxrss``). Target (issue 15): ≤ 250 MB for either.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from docsites import SITES, rebase  # noqa: E402

from pagesift_ui.net.serve import StaticServer  # noqa: E402

LIMIT = 500
QUERY_NAME = "asyncio"
TARGET_MB = 250.0

#: The child: import what ``pagesift-ui crawl`` imports, note the peak, crawl, note the peak.
_CHILD = r"""
import json, resource, sys
def hwm_kb():
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1])
    return 0
from pagesift_ui.cli.commands import main
imported = hwm_kb()
rc = main(sys.argv[1:])
peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print(json.dumps({"rc": rc, "imported_kb": imported, "peak_kb": peak}))
"""


def _crawl(seed: str, query: str, extra: list[str]) -> dict[str, int]:
    argv = ["crawl", seed, "--query", query, "--limit", str(LIMIT), "--no-stop",
            "--delay", "0", "--quiet", *extra]
    done = subprocess.run([sys.executable, "-c", _CHILD, *argv], cwd=ROOT, check=False,
                          capture_output=True, text=True,
                          env={"PYTHONPATH": str(ROOT), "PATH": "/usr/bin:/bin"})
    if done.returncode != 0:
        raise RuntimeError(f"the crawl failed ({done.returncode}): {done.stderr[-2000:]}")
    result: dict[str, int] = json.loads(done.stdout.strip().splitlines()[-1])
    if result["rc"] != 0:
        raise RuntimeError(f"pagesift-ui crawl exited {result['rc']}: {done.stderr[-2000:]}")
    return result


def main() -> None:
    site = SITES["pydocs"]
    if not site.installed():
        raise SystemExit(site.missing)
    with StaticServer(site.docs) as server, tempfile.TemporaryDirectory() as scratch:
        truth = rebase(site.truth(QUERY_NAME), server.base_url() + "/")
        runs = {
            "unsaved": _crawl(truth.seed, truth.query, ["--no-save"]),
            "saved": _crawl(truth.seed, truth.query, ["--db", str(Path(scratch) / "s.db")]),
        }
    print(f"{LIMIT}-page crawl of the Python 3.11 docs ({QUERY_NAME!r}), peak RSS in MB")
    print(f"{'run':>8} {'after imports':>14} {'peak':>8}  target ≤ {TARGET_MB:.0f}")
    for name, run in runs.items():
        peak = run["peak_kb"] / 1024
        verdict = "meets" if peak <= TARGET_MB else "MISSES"
        print(f"{name:>8} {run['imported_kb'] / 1024:>14.1f} {peak:>8.1f}  {verdict}")


if __name__ == "__main__":
    main()
