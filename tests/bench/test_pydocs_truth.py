"""The Python-docs truth files (benchmarks/pydocs/): enough of them, rebased by the bench,
and read off the chapters' toctrees (the checks every dev set shares: test_docsite_truth.py)."""

from __future__ import annotations

from types import ModuleType

import pytest

from pagesift_ui.bench import Truth
from tests.bench.docsite_truth import PYDOCS, ROOT, load_module

DOCSET = PYDOCS  # the conftest's make_truth fixture loads its make_truth.py
TRUTH_FILES = DOCSET.truth_files



def test_the_bench_rebases_the_placeholder_on_the_served_port() -> None:
    docsites = load_module("docsites_under_test", ROOT / "benchmarks" / "docsites.py")
    truth = Truth.load(TRUTH_FILES[0])
    moved = docsites.rebase(truth, "http://127.0.0.1:8123/")
    assert moved.seed == "http://127.0.0.1:8123/index.html"
    assert [u.replace(":8123/", ":0/") for u in moved.urls] == list(truth.urls)
    with pytest.raises(ValueError):
        docsites.rebase(Truth("q", "http://example.org/", ()), "http://127.0.0.1:1/")


@PYDOCS.needs_docs
def test_the_chapter_toctree_is_what_the_truth_lists(make_truth: ModuleType) -> None:
    pages = make_truth.toctree_pages(PYDOCS.docs, "library/archiving.html")
    assert pages == ["library/archiving.html", "library/zlib.html", "library/gzip.html",
                     "library/bz2.html", "library/lzma.html", "library/zipfile.html",
                     "library/tarfile.html"]


def test_a_query_with_a_url_word_is_refused(make_truth: ModuleType) -> None:
    spec = make_truth.QuerySpec("zip", "zip and tar archives", "library/archiving.html", "-")
    with pytest.raises(ValueError, match="'zip' is in the URL .*zipfile"):
        make_truth.render(spec, ["library/archiving.html", "library/zipfile.html"],
                          "index.html", "test")
