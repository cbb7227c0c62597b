"""Harvest per part (seed ``harvest.rs``, docs/DESIGN.md §5): the seed tests ported with the same
numbers."""

from __future__ import annotations

import math

import pytest

from pagesift_ui.frontier.harvest import Harvest, subtree
from pagesift_ui.frontier.stats import wilson


def test_a_part_that_never_pays_off_is_dropped_once_the_evidence_is_clear() -> None:
    h = Harvest()
    # the library's real pages: half of them pay off
    for i in range(10):
        h.observe("lib", i % 2 == 0)
    # the journal system: nothing, ever. After a few pages it is too early to say...
    for _ in range(3):
        h.observe("journals", False)
    assert not h.is_dry("journals")
    # ...after more it is clear
    for _ in range(12):
        h.observe("journals", False)
    assert h.is_dry("journals")
    assert not h.is_dry("lib")
    assert h.is_proven("lib")
    assert not h.is_proven("journals")
    # a part yielding about as much as the rest is not dry
    h = Harvest()
    for i in range(40):
        h.observe("study", i % 5 == 0)
        h.observe("other", i % 4 == 0)
    assert not h.is_dry("study") and not h.is_dry("other")


def _old_wilson(h: float, n: float) -> tuple[float, float]:
    z = 1.96
    p = h / n
    z2 = z * z
    c = (p + z2 / (2.0 * n)) / (1.0 + z2 / n)
    half = z * math.sqrt(p * (1.0 - p) / n + z2 / (4.0 * n * n)) / (1.0 + z2 / n)
    return max(c - half, 0.0), min(c + half, 1.0)


def test_wilson_uses_two_sided_delta() -> None:
    """At δ = 0.05 the interval equals the old z = 1.96 one within 1e-4; (0, 1) with no data."""
    for h, n in [(0, 1), (3, 4), (5, 40), (40, 40)]:
        a, b = wilson(h, n)
        c, d = _old_wilson(h, n)
        assert abs(a - c) < 1e-4 and abs(b - d) < 1e-4, f"{h}/{n}"
    assert wilson(0, 0) == (0.0, 1.0)


def test_subtrees_follow_parent_directories() -> None:
    seed = "e.edu"
    assert subtree(seed, "https://journals.e.edu/j1/issue/current") == "journals.e.edu"
    assert subtree(seed, "https://www.e.edu/en/research-highlight/story-1") == (
        "e.edu/research-highlight"
    )
    assert subtree(seed, "https://e.edu/en/education/programmes/x/y") == (
        "e.edu/education/programmes"
    )
    assert subtree(seed, "https://e.edu/about") == "e.edu/"


def test_subtree_ignores_port_and_normalises_the_seed_host() -> None:
    assert subtree("www.Uni.localhost", "http://www.uni.localhost:8123/news/2024/x") == (
        "uni.localhost/news/2024"
    )
    assert subtree("uni.localhost", "http://journals.uni.localhost:8123/j/1") == (
        "journals.uni.localhost"
    )


def test_intervals_parts_and_rest() -> None:
    h = Harvest()
    for hit in (True, False, False, True):
        h.observe("a", hit)
    h.observe("b", False)
    assert h.parts() == {"a": (4, 2), "b": (1, 0)}
    assert h.interval("a") == wilson(2, 4)
    assert h.rest_interval("a") == wilson(0, 1)
    assert h.interval("unseen") == (0.0, 1.0)
    assert not h.is_dry("unseen") and not h.is_proven("unseen")
    assert h.total == (5, 2)


@pytest.mark.parametrize("part", ["a", "b"])
def test_parts_returns_a_copy(part: str) -> None:
    h = Harvest()
    h.observe(part, True)
    h.parts()[part] = (99, 99)
    assert h.parts()[part] == (1, 1)


def test_counts_of_one_part_without_copying() -> None:
    h = Harvest()
    h.observe("a", True)
    h.observe("a", False)
    assert h.counts("a") == (2, 1)
    assert h.counts("never") == (0, 0)
