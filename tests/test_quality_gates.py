"""The gates STYLE.md sets: ruff clean everywhere, mypy --strict on the package and the UI,
the layer contracts of pyproject.toml's [tool.importlinter] kept, and one set of pins.

The tools come from requirements-dev.txt; a gate whose tool is missing skips with that hint.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALL_HINT = "pip install -r requirements-dev.txt"


def _tool(name: str) -> str:
    """The console script ``name`` of this interpreter's environment (else on PATH)."""
    beside = Path(sys.executable).with_name(name)
    found = str(beside) if beside.exists() else shutil.which(name)
    if found is None:
        pytest.skip(f"{name} is not installed ({INSTALL_HINT})")
    return found


def test_ruff_check_is_clean() -> None:
    result = subprocess.run([_tool("ruff"), "check", "."], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_mypy_strict_on_the_package_and_the_ui() -> None:
    pytest.importorskip("mypy", reason=f"mypy is not installed ({INSTALL_HINT})")
    # Exactly the gate command; the per-library settings live in pyproject.toml [tool.mypy].
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "--strict", "pagesift_ui", "components", "app.py"],
        cwd=ROOT, capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_layer_contracts_are_kept() -> None:
    # --no-cache: leave no .import_linter_cache folder in the work tree.
    result = subprocess.run([_tool("lint-imports"), "--no-cache", "--no-logo"], cwd=ROOT,
                            capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout, result.stdout


def _pinned(path: Path) -> dict[str, str]:
    """``name == version`` lines of a requirements file (``-r`` includes not followed)."""
    pins: dict[str, str] = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        name, sep, version = line.partition("==")
        assert sep, f"{path.name}: {line!r} is not pinned with =="
        pins[_canonical(name)] = version.strip()
    return pins


def _canonical(requirement: str) -> str:
    name = re.split(r"[<>=!~;\[ ]", requirement.strip(), maxsplit=1)[0]
    return re.sub(r"[-_.]+", "-", name).lower()


def test_requirements_pin_exactly_what_pyproject_declares() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    runtime = {_canonical(r) for r in project["dependencies"]}
    dev = {_canonical(r) for r in project["optional-dependencies"]["dev"]}
    assert set(_pinned(ROOT / "requirements.txt")) == runtime
    dev_file = ROOT / "requirements-dev.txt"
    assert dev_file.read_text(encoding="utf-8").count("-r requirements.txt") == 1
    assert set(_pinned(dev_file)) == dev
    assert not runtime & dev, "a package is both a runtime and a dev dependency"


def _fenced_commands(text: str) -> list[str]:
    return re.findall(r"```bash\n(.+?)\n```", text)


def test_ci_runs_the_readme_test_command_verbatim() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    test_commands = [c for c in _fenced_commands(readme) if "pytest" in c]
    assert test_commands, "the README has no test command"
    command = test_commands[0]
    assert "requirements-dev.txt" in command
    ci_lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    assert command in ci_lines, f".ci/run does not run the README's {command!r}"
