"""The Python-docs truth files (benchmarks/pydocs/): well-formed, and reproducible from the docs."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType
from urllib.parse import urlsplit

import pytest

from pagesift_ui.bench import Truth

ROOT = Path(__file__).resolve().parents[2]
TRUTH_DIR = ROOT / "benchmarks" / "pydocs"
DOCS = Path("/usr/share/doc/python3.11/html")
PLACEHOLDER = "http://127.0.0.1:0/"
TRUTH_FILES = sorted(TRUTH_DIR.glob("*.truth"))
needs_docs = pytest.mark.skipif(
    not (DOCS / "index.html").is_file(),
    reason=f"the Python 3.11 docs are not installed at {DOCS} (apt-get install python3.11-doc)",
)


def load_module(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module  # dataclasses look their module up while the class is built
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def make_truth() -> ModuleType:
    return load_module("pydocs_make_truth", TRUTH_DIR / "make_truth.py")


@pytest.fixture(scope="module")
def truthcheck() -> ModuleType:
    return load_module("truthcheck_under_test", ROOT / "benchmarks" / "truthcheck.py")


def test_there_are_at_least_twelve_queries() -> None:
    assert len(TRUTH_FILES) >= 12, TRUTH_FILES


@pytest.mark.parametrize("path", TRUTH_FILES, ids=lambda p: p.stem)
def test_truth_file_parses_with_enough_distinct_urls(path: Path) -> None:
    truth = Truth.parse(path.read_text(encoding="utf-8"), str(path))
    assert truth.query and truth.seed == PLACEHOLDER + "index.html"
    assert len(truth.urls) >= 3
    assert len(set(truth.urls)) == len(truth.urls), "duplicate URLs"
    assert all(u.startswith(PLACEHOLDER) and "#" not in u for u in truth.urls)
    assert "# why:" in path.read_text(encoding="utf-8"), "each truth says where it comes from"


@pytest.mark.parametrize("path", TRUTH_FILES, ids=lambda p: p.stem)
def test_no_query_word_is_in_a_truth_url(path: Path, truthcheck: ModuleType) -> None:
    truth = Truth.load(path)
    assert truthcheck.url_word_clashes(truth.query, truth.urls) == []


def test_the_bench_rebases_the_placeholder_on_the_served_port() -> None:
    docsites = load_module("docsites_under_test", ROOT / "benchmarks" / "docsites.py")
    truth = Truth.load(TRUTH_FILES[0])
    moved = docsites.rebase(truth, "http://127.0.0.1:8123/")
    assert moved.seed == "http://127.0.0.1:8123/index.html"
    assert [u.replace(":8123/", ":0/") for u in moved.urls] == list(truth.urls)
    with pytest.raises(ValueError):
        docsites.rebase(Truth("q", "http://example.org/", ()), "http://127.0.0.1:1/")


@needs_docs
@pytest.mark.parametrize("path", TRUTH_FILES, ids=lambda p: p.stem)
def test_every_truth_url_is_an_installed_page(path: Path) -> None:
    for url in Truth.load(path).urls:
        assert (DOCS / urlsplit(url).path.lstrip("/")).is_file(), url


@needs_docs
def test_make_truth_regenerates_the_same_files(make_truth: ModuleType) -> None:
    names = {spec.name for spec in make_truth.QUERIES}
    assert names == {p.stem for p in TRUTH_FILES}
    for spec in make_truth.QUERIES:
        committed = (TRUTH_DIR / f"{spec.name}.truth").read_text(encoding="utf-8")
        assert make_truth.render_spec(spec, DOCS) == committed, spec.name
        assert list(Truth.parse(committed).urls) == make_truth.truth_urls(spec, DOCS)


@needs_docs
def test_the_chapter_toctree_is_what_the_truth_lists(make_truth: ModuleType) -> None:
    pages = make_truth.toctree_pages(DOCS, "library/archiving.html")
    assert pages == ["library/archiving.html", "library/zlib.html", "library/gzip.html",
                     "library/bz2.html", "library/lzma.html", "library/zipfile.html",
                     "library/tarfile.html"]


def test_a_query_with_a_url_word_is_refused(make_truth: ModuleType) -> None:
    spec = make_truth.QuerySpec("zip", "zip and tar archives", "library/archiving.html", "-")
    with pytest.raises(ValueError, match="'zip' is in the URL .*zipfile"):
        make_truth.render(spec, ["library/archiving.html", "library/zipfile.html"],
                          "index.html", "test")
