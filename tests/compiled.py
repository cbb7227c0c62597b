"""An optional compiled module made to fail its import in a test, as an install without a C
compiler (or one built against another lxml) has it: the module's Python reference must then
run (setup.py builds the compiled parts optionally)."""

from __future__ import annotations

import sys

import pytest


def refuse_import(monkeypatch: pytest.MonkeyPatch, name: str,
                  failure: type[Exception] = ImportError) -> None:
    """Until the test ends, importing the module ``name`` raises ``failure``."""

    class Refusing:
        def find_spec(self, fullname: str, *args: object) -> None:
            if fullname == name:
                raise failure("refused")

    monkeypatch.delitem(sys.modules, name, raising=False)
    package, _, attribute = name.rpartition(".")
    # ``from package import module`` reads the package's attribute before it imports
    monkeypatch.delattr(sys.modules[package], attribute, raising=False)
    monkeypatch.setattr(sys, "meta_path", [Refusing(), *sys.meta_path])
