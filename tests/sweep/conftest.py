"""A demo scenario recorded once as a snapshot, a 2 queries × 2 settings spec over it, and
that spec swept once on a LocalCluster: shared by the sweep tests of one run."""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path

import pytest

from pagesift_ui.cli.commands import main
from pagesift_ui.demo import start_demo

SCENARIO = "university"
#: Pages in the snapshot (breadth-first) and per cell: small enough for a quick test, big
#: enough that the focused crawl asks for pages the snapshot lacks.
SNAPSHOT_PAGES = 40
CELL_PAGES = 20
OTHER_QUERY = "library opening hours"


@dataclass(frozen=True)
class Sweep:
    spec: Path
    snapshot: Path
    out: Path  # swept once on a LocalCluster
    exit_code: int
    stdout: str


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="session")
def snapshot_files(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(snapshot WARC, truth file) of the demo scenario, recorded with ``pagesift-ui
    snapshot`` against its server on 127.0.0.1; the server stops before any sweep runs."""
    folder = tmp_path_factory.mktemp("snapshot")
    snapshot, truth = folder / f"{SCENARIO}.warc.gz", folder / f"{SCENARIO}.truth"
    with start_demo(SCENARIO) as server:
        server.write_truth(truth)
        code, out, err = run_cli("snapshot", server.seed_url, "--out", str(snapshot),
                                 "--limit", str(SNAPSHOT_PAGES), "--quiet")
    assert code == 0, err
    assert "snapshot:" in out
    return snapshot, truth


def write_spec(folder: Path, snapshot: Path, truth: Path) -> Path:
    spec = folder / "sweep.toml"
    spec.write_text(f"""
[[snapshots]]
name = "{SCENARIO}"
path = "{snapshot}"

[[queries]]
name = "truth"
truth = "{truth}"

[[queries]]
name = "other"
text = "{OTHER_QUERY}"

[settings]
limit = {CELL_PAGES}
stop_on_verdict = false

[grid]
strategy = ["focused", "thompson"]
""", encoding="utf-8")
    return spec


@pytest.fixture(scope="session")
def local_sweep(snapshot_files: tuple[Path, Path],
                tmp_path_factory: pytest.TempPathFactory) -> Sweep:
    folder = tmp_path_factory.mktemp("sweep")
    spec = write_spec(folder, *snapshot_files)
    out = folder / "results"
    code, stdout, _ = run_cli("sweep", str(spec), "--out", str(out), "--workers", "2",
                              "--quiet")
    return Sweep(spec, snapshot_files[0], out, code, stdout)
