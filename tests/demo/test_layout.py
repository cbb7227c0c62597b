"""The demo's layering: the kit knows no scenario, and a scenario knows only the kit."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

import pagesift_ui.demo as demo
from pagesift_ui.demo import SCENARIOS

DEMO = Path(demo.__file__).parent


def _demo_imports(path: Path) -> set[str]:
    """What a module of a demo subpackage imports from the demo: ``"."`` for its own package,
    else the name right below ``pagesift_ui.demo`` (``"kit"``, ``"needle"``, ``"scenarios"``)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                if parts[:2] == ["pagesift_ui", "demo"]:
                    found.add(parts[2] if len(parts) > 2 else "")
            continue
        if not isinstance(node, ast.ImportFrom):
            continue
        parts = (node.module or "").split(".")
        if node.level == 1:
            found.add(".")
        elif node.level == 2:
            found.add(parts[0])
        elif parts[:2] == ["pagesift_ui", "demo"]:
            found.add(parts[2] if len(parts) > 2 else "")
    return found


def test_every_scenario_is_a_package() -> None:
    assert {path.parent.name for path in DEMO.glob("*/scenario.py")} == set(SCENARIOS)


def test_the_kit_imports_no_scenario() -> None:
    for path in sorted((DEMO / "kit").glob("*.py")):
        assert _demo_imports(path) <= {"."}, path


@pytest.mark.parametrize("name", SCENARIOS)
def test_a_scenario_imports_only_the_kit_and_itself(name: str) -> None:
    for path in sorted((DEMO / name).glob("*.py")):
        assert _demo_imports(path) <= {".", "kit"}, path
