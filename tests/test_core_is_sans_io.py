"""The frontier core and page extraction do no I/O (STYLE: sans-IO core).

pyproject.toml's import-linter contract "page and frontier do no I/O" forbids whole top-level
modules; it cannot name ``urllib.request`` (``urllib.parse`` is fine), so the source check here
covers submodules too. The runtime check catches what third-party imports drag in.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "pagesift_ui"
PURE_LAYERS = ("frontier", "page")

# Imported by name (or any submodule of it) from frontier/ or page/, each of these is I/O.
IO_MODULES = frozenset({
    "httpx", "requests", "socket", "ssl", "http", "sqlite3", "subprocess", "streamlit",
    "warcio", "urllib.request", "ftplib", "smtplib", "asyncio",
})


def _imported_names(tree: ast.AST) -> list[tuple[int, str]]:
    names: list[tuple[int, str]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.append((node.lineno, node.module))
            # `from urllib import request` imports urllib.request
            names.extend((node.lineno, f"{node.module}.{alias.name}") for alias in node.names)
    return names


def _is_io(name: str) -> bool:
    parts = name.split(".")
    return any(".".join(parts[:k]) in IO_MODULES for k in range(1, len(parts) + 1))


@pytest.mark.parametrize("layer", PURE_LAYERS)
def test_the_pure_layers_import_no_io_module(layer: str) -> None:
    found = []
    for path in sorted((PACKAGE / layer).rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += [f"{path.relative_to(PACKAGE)}:{line}: {name}"
                  for line, name in _imported_names(tree) if _is_io(name)]
    assert found == [], "I/O imports in a sans-IO layer:\n" + "\n".join(found)


@pytest.mark.parametrize("layer", PURE_LAYERS)
def test_importing_a_pure_layer_loads_neither_httpx_nor_streamlit(layer: str) -> None:
    code = (
        "import sys, pkgutil, importlib\n"
        f"pkg = importlib.import_module('pagesift_ui.{layer}')\n"
        "for m in pkgutil.iter_modules(pkg.__path__):\n"
        "    importlib.import_module(pkg.__name__ + '.' + m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in "
        "{'httpx', 'streamlit', 'sqlite3', 'requests', 'warcio'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"pagesift_ui.{layer} imported I/O modules: {out}"


def test_the_source_check_sees_submodule_imports() -> None:
    tree = ast.parse("from urllib import request\nimport http.client\nfrom urllib.parse import x")
    assert [n for _, n in _imported_names(tree) if _is_io(n)] == ["urllib.request", "http.client"]
