"""The ``pagesift-ui`` command line (also ``python -m pagesift_ui``)."""

from __future__ import annotations

from pagesift_ui.cli.main import build_parser, main

__all__ = ["build_parser", "main"]
