"""Links set aside in dry subtrees (session/ahead.py ``park``/``unpark``): none is lost."""

from __future__ import annotations

from pagesift_ui.frontier.urls import dedupe_key
from pagesift_ui.session import CrawlConfig
from pagesift_ui.session.ahead import park, unpark
from pagesift_ui.session.state import FrontierState, SetAside

SEED = "http://e.example/"


def _state() -> FrontierState:
    return FrontierState.from_config(CrawlConfig.from_mapping(
        {"seed_url": SEED, "query": "refund policy", "allow_private": True}))


def _link(path: str, score: float = 0.5, depth: int = 2) -> SetAside:
    url = SEED.rstrip("/") + path
    return SetAside(dedupe_key(url), url, depth, score, None)


def test_a_subtree_the_statistics_no_longer_find_dry_gets_its_links_back() -> None:
    # the statistics, not only the user, take a dry verdict back: once the rest's rate falls,
    # a subtree's upper bound is no longer below it, and its links were lost all the same
    state = _state()
    for _ in range(10):
        state.subtrees.observe("e.example/a", False)
        state.subtrees.observe("e.example/b", True)
    assert state.is_dry("e.example/a")
    assert park(state, "e.example/a", _link("/a/x/page"), room=100)
    assert unpark(state, room=100) == 0  # still dry: still set aside
    for _ in range(40):
        state.subtrees.observe("e.example/b", False)
    assert not state.is_dry("e.example/a")
    assert unpark(state, room=100) == 1
    assert state.queue.get(dedupe_key(SEED + "a/x/page")) is not None
    assert state.parked == {} and state.parked_count == 0


def test_links_set_aside_are_bounded_by_the_queue_room_and_kept_once() -> None:
    state = _state()
    assert park(state, "e.example/a", _link("/a/1"), room=2)
    assert not park(state, "e.example/a", _link("/a/1", score=0.9, depth=1), room=2)
    assert park(state, "e.example/b", _link("/b/2"), room=2)
    assert not park(state, "e.example/b", _link("/b/3"), room=2)  # room spent
    assert state.parked_count == 2
    kept = state.parked["e.example/a"][dedupe_key(SEED + "a/1")]
    assert (kept.score, kept.depth) == (0.9, 1)  # met again better: the better is kept
