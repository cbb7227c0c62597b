"""Name families (``frontier/families.py``): pages a site names alike share the credit their
fetched members proved."""

from __future__ import annotations

from urllib.parse import urlsplit

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pagesift_ui.frontier import linkbatch, links
from pagesift_ui.frontier.families import FAMILY_WEIGHT, NameFamilies, family_of
from pagesift_ui.frontier.links import LinkSignal
from pagesift_ui.frontier.siblings import SIBLING_WEIGHT
from pagesift_ui.frontier.urls import clean, dedupe_key


@pytest.mark.parametrize(("url", "family"), [
    ("http://h/library/asyncio-task.html", "http://h/library/asyncio"),
    ("http://h/library/asyncio.html", "http://h/library/asyncio"),
    ("http://h/library/xml.dom.minidom.html", "http://h/library/xml"),
    ("http://h/library/xml.html", "http://h/library/xml"),
    ("http://h/lang_createtable.html", "http://h/lang"),
    ("http://h/c3ref/open.html", "http://h/c3ref/open"),
    ("http://h/library/__future__.html", "http://h/library/future"),
    ("http://h/docs/", "http://h/docs/"),
    ("http://h/", "http://h/"),
    ("https://h:8080/a/b/guide-2?page=3#x", "https://h:8080/a/b/guide"),
])
def test_a_family_is_the_directory_and_the_first_word_of_the_name(url: str, family: str) -> None:
    assert family_of(url) == family


def test_the_same_name_in_another_directory_or_host_is_another_family() -> None:
    assert family_of("http://h/a/intro-1.html") != family_of("http://h/b/intro-1.html")
    assert family_of("http://h/a/intro-1.html") != family_of("http://g/a/intro-1.html")


def test_family_of_refuses_what_is_not_text() -> None:
    with pytest.raises(ValueError, match="url must be text"):
        family_of(b"http://h/a.html")  # type: ignore[arg-type]


def test_a_family_credit_is_the_mean_of_its_fetched_members_shrunk_by_one() -> None:
    families = NameFamilies()
    for target, key in enumerate(["http://h/loop-a.html", "http://h/loop-b.html",
                                  "http://h/loop-c.html", "http://h/misc-a.html"]):
        families.target(target, key)
    assert families.credit(2) == 0.0 and not families.changed
    families.observe("http://h/loop-a.html", 0.6)
    families.observe("http://h/loop-b.html", 0.3)
    assert families.changed
    assert families.credit(2) == pytest.approx(0.9 / 3)
    assert families.credit(3) == 0.0  # another family
    assert families.credit(-1) == 0.0 and families.credit(99) == 0.0
    families.observe("http://h/loop-a.html", 0.9)  # a page is counted once
    assert families.credit(2) == pytest.approx(0.9 / 3)


def test_a_page_fetched_before_any_link_to_its_family_counts_for_it() -> None:
    families = NameFamilies()
    families.observe("http://h/loop.html", 0.5)  # the seed: never linked as a target
    families.target(0, "http://h/loop-tasks.html")
    assert families.credit(0) == pytest.approx(0.5 / 2)


def test_credits_by_target_are_the_credit_of_each_targets_family() -> None:
    families = NameFamilies()
    assert len(families.credits(3)) == 0  # nothing known: no table, as for no credits
    families.target(0, "http://h/x-1.html")
    families.target(2, "http://h/y-1.html")
    families.observe("http://h/x-2.html", 0.4)
    table = families.credits(4)
    assert table.tolist() == [families.credit(t) for t in range(4)]
    assert table[0] == pytest.approx(0.2) and table[1] == 0.0 and table[3] == 0.0


def test_target_refuses_a_bad_id() -> None:
    with pytest.raises(ValueError, match="target must be a non-negative integer"):
        NameFamilies().target(-1, "http://h/a.html")


def test_the_family_weight_is_the_sibling_weight() -> None:
    assert FAMILY_WEIGHT == SIBLING_WEIGHT


_KEYS = [f"http://h/{name}-{n}.html" for name in ("a", "b", "c") for n in range(4)]


@settings(max_examples=60, deadline=None)
@given(order=st.permutations(_KEYS), values=st.lists(st.floats(0.0, 1.0), min_size=12,
                                                     max_size=12),
       labels=st.dictionaries(st.sampled_from(_KEYS), st.floats(0.0, 1.0), max_size=6))
def test_relabelled_credits_equal_a_crawl_that_knew_the_labels_and_undo_exactly(
    order: list[str], values: list[float], labels: dict[str, float],
) -> None:
    proved = dict(zip(_KEYS, values, strict=True))
    families, knowing = NameFamilies(), NameFamilies()
    for target, key in enumerate(_KEYS):
        families.target(target, key)
        knowing.target(target, key)
    for key in order[:8]:  # the first eight fetched, in this order
        families.observe(key, proved[key])
        knowing.observe(key, labels.get(key, proved[key]))
    before = families.credits(len(_KEYS))
    families.relabel(labels)
    assert np.array_equal(families.credits(len(_KEYS)), knowing.credits(len(_KEYS)))
    families.relabel({})
    assert np.array_equal(families.credits(len(_KEYS)), before)


def test_a_batch_scores_the_family_term_as_one_link_does() -> None:
    families = NameFamilies()
    signals = [LinkSignal(url=f"http://h/g-{n}.html", depth=1, parent_relevance=0.2,
                          target=n) for n in range(3)]
    for signal in signals:
        families.target(signal.target, signal.url)
    families.observe("http://h/g-9.html", 0.7)
    table = families.credits(3)
    weights, terms = (2.0, 1.5, 1.0, 0.5, 0.5), (1.0, 1.0)
    batch = linkbatch.score_batch(signals, weights, terms, False, True, None, None, table)
    one = [links.score(s, weights, terms, False, True, None, None, table) for s in signals]
    assert batch.tolist() == one
    explained = links.explain(signals[0], weights, terms, False, True, None, None, table)
    family = next(f for f in explained.features if f.name == "family")
    assert family.value == pytest.approx(0.35) and family.contribution == FAMILY_WEIGHT * 0.35
    assert explained.score == one[0]


_SEGMENT = st.text(st.characters(codec="utf-8", exclude_characters="/?#%\\",
                                 exclude_categories=("Cc", "Cs", "Zs")), max_size=12)


@settings(max_examples=200, deadline=None)
@given(host=st.sampled_from(["h", "a.example", "b.example:8080"]),
       segments=st.lists(_SEGMENT, max_size=5),
       query=st.text(st.characters(codec="utf-8", exclude_characters="#%&=",
                                   exclude_categories=("Cc", "Cs", "Zs")), max_size=10))
def test_a_family_is_the_keys_own_directory_and_never_reads_the_query(
    host: str, segments: list[str], query: str,
) -> None:
    # keys as the crawl makes them: cleaned, canonical (percent-encoded, dot segments gone)
    key = dedupe_key(clean(f"http://{host}/" + "/".join(segments)
                           + (f"?q={query}" if query else "")))
    path = urlsplit(key).path
    family = family_of(key)
    stem = f"{urlsplit(key).scheme}://{urlsplit(key).netloc}{path.rpartition('/')[0]}/"
    assert family.startswith(stem)
    assert family == family_of(key.split("?", 1)[0])  # the query plays no part
    assert family[len(stem):] in path.rpartition("/")[2]  # a piece of the last segment
