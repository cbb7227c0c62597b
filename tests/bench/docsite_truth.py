"""The documentation dev sets (benchmarks/pydocs/, benchmarks/sqlitedocs/ and the held-out
benchmarks/pgdocs/, benchmarks/apachedocs/, benchmarks/octavedocs/, benchmarks/gitdocs/ and
benchmarks/cmakedocs/):
where each one's truth files and installed docs are, and its ``make_truth.py`` loaded as a
module. The checks all their truth files share are in test_docsite_truth.py; each set's own,
in its test file."""

from __future__ import annotations

import importlib.util
import sys
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDER = "http://127.0.0.1:0/"


def load_module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@dataclass(frozen=True)
class DocSet:
    """One dev set: benchmarks/<name>/*.truth, made from the docs Debian installs at ``docs``
    (``probe`` is a page that is there when they are). It has at least ``min_queries``
    queries; ``hubs`` are pages that list every part of the site, so no truth holds them;
    ``sizes``, when given, bounds a truth's number of pages."""

    name: str
    docs: Path
    probe: str
    package: str
    min_queries: int = 8
    hubs: tuple[str, ...] = ()
    sizes: tuple[int, int] | None = None

    @property
    def truth_dir(self) -> Path:
        return ROOT / "benchmarks" / self.name

    @property
    def truth_files(self) -> list[Path]:
        return sorted(self.truth_dir.glob("*.truth"))

    @property
    def needs_docs(self) -> pytest.MarkDecorator:
        return pytest.mark.skipif(
            not (self.docs / self.probe).is_file(),
            reason=f"the {self.name} docs are not installed at {self.docs} "
                   f"(apt-get install {self.package})",
        )

    def make_truth(self) -> ModuleType:
        return _load_make_truth(self.name)


def write_site(docs: Path, pages: dict[str, str]) -> Path:
    """A made-up site for a truth maker's tests: each page (docs-relative path → HTML)
    written under ``docs``, folders made as needed."""
    for name, text in pages.items():
        (docs / name).parent.mkdir(parents=True, exist_ok=True)
        (docs / name).write_text(text, encoding="utf-8")
    return docs


@cache
def _load_make_truth(name: str) -> ModuleType:
    return load_module(f"{name}_make_truth", ROOT / "benchmarks" / name / "make_truth.py")


PYDOCS = DocSet("pydocs", Path("/usr/share/doc/python3.11/html"), "index.html",
                "python3.11-doc", min_queries=12)
SQLITEDOCS = DocSet("sqlitedocs", Path("/usr/share/doc/sqlite3"), "docs.html", "sqlite3-doc",
                    hubs=("docs.html",))
# held out: measured, never tuned on
PGDOCS = DocSet("pgdocs", Path("/usr/share/doc/postgresql-doc-15/html"), "index.html",
                "postgresql-doc-15", hubs=("index.html",), sizes=(5, 25))
APACHEDOCS = DocSet("apachedocs", Path("/usr/share/doc/apache2-doc/manual/en"), "sitemap.html",
                    "apache2-doc", hubs=("index.html", "sitemap.html", "mod/index.html"),
                    sizes=(5, 25))
OCTAVEDOCS = DocSet("octavedocs", Path("/usr/share/doc/octave/octave.html"), "index.html",
                    "octave-doc", hubs=("index.html",), sizes=(5, 25))
# index.html is a link to git.html, which lists every command and document by category
GITDOCS = DocSet("gitdocs", Path("/usr/share/doc/git/html"), "index.html", "git-doc",
                 hubs=("index.html", "git.html"), sizes=(5, 25))
# genindex.html links every page, and every page links it
CMAKEDOCS = DocSet("cmakedocs", Path("/usr/share/doc/cmake-data/html"), "index.html",
                   "cmake-doc", hubs=("index.html", "genindex.html"), sizes=(5, 25))
# every page links index.html, contents.html (the table of contents) and genindex.html
DJANGODOCS = DocSet("djangodocs", Path("/usr/share/doc/python-django-doc/html"), "index.html",
                    "python-django-doc", hubs=("index.html", "contents.html", "genindex.html"),
                    sizes=(5, 25))
DOCSETS = (PYDOCS, SQLITEDOCS, PGDOCS, APACHEDOCS, OCTAVEDOCS, GITDOCS, CMAKEDOCS, DJANGODOCS)
