"""What every documentation dev set's truth files must be: well-formed on the placeholder
base, with no query word given away in a URL, listing installed pages only, and exactly what
the set's ``make_truth.py`` regenerates from the installed docs."""

from __future__ import annotations

import urllib.request
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from pagesift_ui.bench import Truth
from pagesift_ui.net.serve import StaticServer
from tests.bench.docsite_truth import (
    APACHEDOCS,
    CMAKEDOCS,
    DJANGODOCS,
    DOCSETS,
    GITDOCS,
    OCTAVEDOCS,
    PGDOCS,
    PLACEHOLDER,
    ROOT,
    DocSet,
    load_module,
)

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


@pytest.mark.parametrize("docset", DOCSETS, ids=lambda d: d.name)
def test_each_set_has_its_minimum_of_queries(docset: DocSet) -> None:
    assert len(docset.truth_files) >= docset.min_queries, docset.truth_files


@pytest.mark.parametrize(("docset", "path"), TRUTH_CASES)
def test_truth_urls_have_no_query_and_no_page_that_lists_every_part(
    docset: DocSet, path: Path
) -> None:
    text = path.read_text(encoding="utf-8")
    truth = Truth.parse(text, str(path))
    assert all("?" not in u for u in truth.urls)
    for hub in docset.hubs:
        assert PLACEHOLDER + hub not in truth.urls, f"{hub} lists every part"
    if docset.sizes is not None:
        low, high = docset.sizes
        assert low <= len(truth.urls) <= high, "a part of moderate size"
    assert "# source:" in text


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


@pytest.mark.parametrize("docset", DOCSETS, ids=lambda d: d.name)
def test_every_query_is_short_enough_to_be_read_whole(docset: DocSet) -> None:
    make_truth = docset.make_truth()
    truthmaker = load_module("truthmaker_under_test", ROOT / "benchmarks" / "truthmaker.py")
    for spec in make_truth.QUERIES:
        truthmaker.check_length(spec)


def test_a_query_of_sixteen_terms_is_refused() -> None:
    truthmaker = load_module("truthmaker_under_test", ROOT / "benchmarks" / "truthmaker.py")
    spec = truthmaker.QuerySpec("long", " ".join(f"word{i}" for i in range(16)), "x.html", "-")
    with pytest.raises(ValueError, match="16 or more terms"):
        truthmaker.check_length(spec)


@pytest.mark.parametrize("docset", [PGDOCS, APACHEDOCS, OCTAVEDOCS, GITDOCS, CMAKEDOCS,
                                    DJANGODOCS],
                         ids=lambda d: d.name)
def test_a_held_out_set_is_no_tuning_site(docset: DocSet) -> None:
    """Registered apart from the tuning sites, so no tuning script and no default run of
    run_all.py sees it, and run_all.py reports it apart when asked with --only NAME."""
    name = docset.name
    run_all = load_module("run_all_under_test", ROOT / "benchmarks" / "run_all.py")
    assert name in run_all.HELD_OUT and name not in run_all.SITES
    assert name not in run_all.PARTS  # the default run's parts
    site = run_all.HELD_OUT[name]
    assert site.truth_names() == [p.stem for p in docset.truth_files]
    assert (site.docs, site.seed_page) == (docset.docs, "index.html")
    run = run_all.Run({"pydocs": [], name: []}, {"pydocs": 60.0, name: 120.0}, {name: "memo"})
    held = run.split({name})
    assert list(run.reports) == ["pydocs"] and list(held.reports) == [name]
    assert (run.total_seconds, held.total_seconds, run.memo) == (60.0, 120.0, {})
    assert name not in run_all.summary_json(run, 200)["minutes"]


@pytest.mark.parametrize("docset", [pytest.param(d, id=d.name, marks=d.needs_docs)
                                    for d in DOCSETS])
def test_the_folder_is_served_by_the_urls_the_pages_link_to(docset: DocSet) -> None:
    """StaticServer serves the installed folder as it is: the seed and every truth page
    answer 200 at the URL the truth file names (the pages link to each other by relative
    hrefs, so these are the URLs a crawl meets)."""
    with StaticServer(docset.docs) as server:
        base = server.base_url() + "/"
        urls = {base + "index.html"}
        for path in docset.truth_files:
            urls.update(u.replace(PLACEHOLDER, base, 1) for u in Truth.load(path).urls)
        for url in sorted(urls):
            with urllib.request.urlopen(url, timeout=10) as response:  # 127.0.0.1 only
                assert response.status == 200, url
                assert response.headers.get_content_type() == "text/html", url
