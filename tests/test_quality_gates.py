"""The gates STYLE.md sets: ruff clean everywhere, mypy --strict on the package."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def test_ruff_check_is_clean() -> None:
    ruff = shutil.which("ruff")
    if ruff is None:
        pytest.skip("ruff is not installed (pip install -r requirements.txt)")
    result = subprocess.run([ruff, "check", "."], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_package() -> None:
    pytest.importorskip("mypy", reason="mypy is not installed (pip install -r requirements.txt)")
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "--ignore-missing-imports", "pagesift_ui"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr
