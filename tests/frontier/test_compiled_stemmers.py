"""PyStemmer, the Snowball stemmers compiled, stems as snowballstemmer's pure-Python ones do
(docs/DECISIONS.md, "PyStemmer, measured again with cold caches": a crawl's first meeting
with each word costs ~1.3 raw parses a step less with it).

snowballstemmer hands every stemmer over to PyStemmer when it is installed (requirements.txt
pins it), so the crawler's stems come from C; its own Python stemmers are the reference.
A stem that differed would change relevance, evidence and every record after it.
"""

from __future__ import annotations

import importlib
from functools import cache
from pathlib import Path
from typing import Any

import pytest
import snowballstemmer

from pagesift_ui.demo import SCENARIOS, build_site
from pagesift_ui.frontier.language import SUPPORTED, Language, stem_function
from pagesift_ui.frontier.tokens import words
from pagesift_ui.page.extract import extract

Stemmer = pytest.importorskip("Stemmer")
PYDOCS = Path("/usr/share/doc/python3.11/html")


def _python_stemmer(language: Language) -> Any:
    name = language.name.lower()
    module = importlib.import_module(f"snowballstemmer.{name}_stemmer")
    return getattr(module, f"{name.title()}Stemmer")()


@cache
def _sample_words() -> tuple[str, ...]:
    """The words of every demo page (the multilingual scenario's languages among them) and of
    every twentieth Python docs page, with a few forms each stemmer treats apart."""
    found: set[str] = {"running", "généralement", "Häuser", "ﬁnancial", "İstanbul", "ǅemal",
                       "ﬂowers", "στόματα", "управлении", "کتاب‌ها", "2024", "x86_64"}
    for scenario in SCENARIOS:
        site = build_site(scenario, 0)
        for host, target in site.iter_pages():
            response = site.respond(host, target)
            if response.status == 200 and "html" in response.content_type:
                found.update(words(extract(response.body, f"http://{host}{target}").text))
    for path in sorted(PYDOCS.rglob("*.html"))[::20] if PYDOCS.is_dir() else []:
        found.update(words(extract(path.read_bytes(), "http://127.0.0.1/x.html").text))
    return tuple(sorted(found))


def test_snowballstemmer_stems_with_pystemmer() -> None:
    assert isinstance(snowballstemmer.stemmer("english"), Stemmer.Stemmer)


@pytest.mark.parametrize("language", SUPPORTED, ids=[lang.name for lang in SUPPORTED])
def test_pystemmer_stems_as_the_python_stemmers(language: Language) -> None:
    sample = _sample_words()
    assert len(sample) > 2_000
    reference = _python_stemmer(language)
    crawler = stem_function(language)
    differ = [(word, crawler(word), reference.stemWord(word))
              for word in sample if crawler(word) != reference.stemWord(word)]
    assert not differ, f"{len(differ)} of {len(sample)} words: {differ[:5]}"
