"""The frontier core imports no I/O framework (STYLE: sans-IO core)."""

from __future__ import annotations

import subprocess
import sys


def test_importing_the_frontier_core_loads_neither_httpx_nor_streamlit() -> None:
    code = (
        "import sys, pkgutil, importlib, pagesift_ui.frontier as f\n"
        "for m in pkgutil.iter_modules(f.__path__):\n"
        "    importlib.import_module('pagesift_ui.frontier.' + m.name)\n"
        "bad = sorted(n for n in sys.modules if n.split('.')[0] in "
        "{'httpx', 'streamlit', 'sqlite3', 'requests', 'warcio'})\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert out == "", f"the frontier core imported I/O modules: {out}"
