"""The Apache-docs truth files (benchmarks/apachedocs/, the second held-out set): enough of
them, from several parts of the manual, read off the site map's sections, English pages only,
and served by the URLs the pages link to (the checks every dev set shares:
test_docsite_truth.py)."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType

import pytest

from tests.bench.docsite_truth import APACHEDOCS

DOCSET = APACHEDOCS  # the conftest's make_truth fixture loads its make_truth.py
TRUTH_FILES = DOCSET.truth_files








def test_a_query_with_a_url_word_is_refused(make_truth: ModuleType) -> None:
    spec = make_truth.QuerySpec("ssl", "SSL certificates", "sitemap.html#ssl", "-")
    with pytest.raises(ValueError, match="'ssl' is in the URL .*ssl_howto"):
        make_truth.render(spec, ["ssl/index.html", "ssl/ssl_howto.html"], "index.html", "test")


# A site map of a made-up manual, laid out as the Apache manual's: sections found by their
# heading's anchor id, a permalink mark in one heading, a fragment, another site, a page that
# is not installed and one that is not in English.
_SITEMAP = """<html lang="en"><body><div id="page-content">
<div class="section"><h2><a id="guide" name="guide">The Guide</a>
<a class="permalink" href="#guide">&para;</a></h2>
<ul><li><a href="guide/index.html">Overview</a></li><li><a href="guide/one.html#a">One</a></li>
<li><a href="guide/two.html">Two</a></li><li><a href="guide/one.html#b">One again</a></li>
<li><a href="https://example.org/elsewhere.html">Elsewhere</a></li>
<li><a href="#guide">here</a></li><li><a href="guide/gone.html">Gone</a></li></ul></div>
<div class="section"><h2><a id="mixed" name="mixed">Mixed</a></h2>
<ul><li><a href="guide/index.html">Overview</a></li><li><a href="guide/two.html">Two</a></li>
<li><a href="guide/dois.html">Dois</a></li></ul></div>
</div></body></html>"""


def _made_up_manual(docs: Path) -> Path:
    (docs / "guide").mkdir(parents=True)
    (docs / "sitemap.html").write_text(_SITEMAP, encoding="utf-8")
    for name in ("index", "one", "two"):
        (docs / "guide" / f"{name}.html").write_text('<html lang="en"></html>', "utf-8")
    (docs / "guide" / "dois.html").write_text('<html lang="pt-br"></html>', "utf-8")
    return docs


def test_a_section_lists_its_installed_english_pages(make_truth: ModuleType,
                                                     tmp_path: Path) -> None:
    docs = _made_up_manual(tmp_path)
    assert make_truth.section_title(docs, "sitemap.html#guide") == "The Guide"
    with pytest.raises(FileNotFoundError, match=r"guide/gone\.html"):
        make_truth.section_pages(docs, "sitemap.html#guide")
    pages = make_truth.section_pages(docs, "sitemap.html#guide", ("guide/gone.html",))
    assert pages == ["guide/index.html", "guide/one.html", "guide/two.html"]
    with pytest.raises(ValueError, match=r"declared absent are not listed"):
        make_truth.section_pages(docs, "sitemap.html#guide", ("guide/gone.html", "x.html"))
    (docs / "guide" / "gone.html").write_text('<html lang="en"></html>', "utf-8")
    with pytest.raises(ValueError, match=r"declared absent are installed"):
        make_truth.section_pages(docs, "sitemap.html#guide", ("guide/gone.html",))
    with pytest.raises(ValueError, match=r"not in English: \[\('guide/dois\.html', 'pt-br'\)"):
        make_truth.section_pages(docs, "sitemap.html#mixed")
    with pytest.raises(ValueError, match="0 sections with the id 'nowhere'"):
        make_truth.section_title(docs, "sitemap.html#nowhere")
    with pytest.raises(ValueError, match="not a section reference"):
        make_truth.section_title(docs, "sitemap.html")


@APACHEDOCS.needs_docs
def test_the_site_map_section_is_what_the_truth_lists(make_truth: ModuleType) -> None:
    docs = APACHEDOCS.docs
    assert make_truth.section_title(docs, "sitemap.html#vhosts") == (
        "Apache Virtual Host documentation")
    assert make_truth.section_pages(docs, "sitemap.html#vhosts") == [
        "vhosts/index.html", "vhosts/name-based.html", "vhosts/ip-based.html",
        "vhosts/mass.html", "vhosts/examples.html", "vhosts/details.html",
        "vhosts/fd-limits.html"]
    # the module index's links are relative to mod/; worker.html is linked twice there
    mpm = make_truth.section_pages(docs, "mod/index.html#core")
    assert mpm[:2] == ["mod/core.html", "mod/mpm_common.html"]
    assert mpm.count("mod/worker.html") == 1


@APACHEDOCS.needs_docs
def test_a_section_that_is_not_the_named_one_is_refused(
        make_truth: ModuleType, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(make_truth.TITLES, "sitemap.html#ssl", "Apache Modules")
    spec = make_truth.QuerySpec("x", "encrypting traffic", "sitemap.html#ssl", "-")
    with pytest.raises(ValueError, match="is the section 'Apache SSL/TLS Encryption'"):
        make_truth.pages_of(spec, APACHEDOCS.docs)

