"""What every documentation dev set's truth files must be: well-formed on the placeholder
base, with no query word given away in a URL, listing installed pages only, and exactly what
the set's ``make_truth.py`` regenerates from the installed docs."""

from __future__ import annotations

from pathlib import Path
from urllib.parse import urlsplit

import pytest

from pagesift_ui.bench import Truth
from tests.bench.docsite_truth import DOCSETS, PLACEHOLDER, ROOT, DocSet, load_module

TRUTH_CASES = [pytest.param(docset, path, id=f"{docset.name}-{path.stem}")
               for docset in DOCSETS for path in docset.truth_files]
INSTALLED_CASES = [pytest.param(docset, path, id=f"{docset.name}-{path.stem}",
                                marks=docset.needs_docs)
                   for docset in DOCSETS for path in docset.truth_files]


@pytest.mark.parametrize(("docset", "path"), TRUTH_CASES)
def test_truth_file_parses_with_enough_distinct_urls(docset: DocSet, path: Path) -> None:
    text = path.read_text(encoding="utf-8")
    truth = Truth.parse(text, str(path))
    assert truth.query and truth.seed == PLACEHOLDER + "index.html"
    assert len(truth.urls) >= 3
    assert len(set(truth.urls)) == len(truth.urls), "duplicate URLs"
    assert all(u.startswith(PLACEHOLDER) and "#" not in u for u in truth.urls)
    assert "# why:" in text, "each truth says where it comes from"


@pytest.mark.parametrize(("docset", "path"), TRUTH_CASES)
def test_no_query_word_is_in_a_truth_url(docset: DocSet, path: Path) -> None:
    truthcheck = load_module("truthcheck_under_test", ROOT / "benchmarks" / "truthcheck.py")
    truth = Truth.load(path)
    assert truthcheck.url_word_clashes(truth.query, truth.urls) == []


@pytest.mark.parametrize(("docset", "path"), INSTALLED_CASES)
def test_every_truth_url_is_an_installed_page(docset: DocSet, path: Path) -> None:
    for url in Truth.load(path).urls:
        assert (docset.docs / urlsplit(url).path.lstrip("/")).is_file(), url


@pytest.mark.parametrize("docset", [pytest.param(d, id=d.name, marks=d.needs_docs)
                                    for d in DOCSETS])
def test_make_truth_regenerates_the_same_files(docset: DocSet) -> None:
    make_truth = docset.make_truth()
    assert {spec.name for spec in make_truth.QUERIES} == {p.stem for p in docset.truth_files}
    for spec in make_truth.QUERIES:
        committed = (docset.truth_dir / f"{spec.name}.truth").read_text(encoding="utf-8")
        assert make_truth.SITE.render_spec(spec, docset.docs) == committed, spec.name
        assert list(Truth.parse(committed).urls) == make_truth.SITE.truth_urls(spec, docset.docs)
