"""``BestFirst.queued`` gives the (depth, score, signal) that ``get``'s ``Entry`` holds."""

from __future__ import annotations

from pagesift_ui.frontier.queue import BestFirst


def test_queued_holds_what_get_holds() -> None:
    queue = BestFirst()
    for i, (score, signal) in enumerate([(0.5, {"a": 1}), (float("inf"), None), (0.25, "x")]):
        url = f"https://site.localhost/p{i}"
        queue.offer(url, url, i + 1, score, signal, 100)
    queue.update("https://site.localhost/p0", 0, 0.75, {"b": 2})
    queue.drop("https://site.localhost/p2")
    for i in range(4):
        key = f"https://site.localhost/p{i}"
        entry, fields = queue.get(key), queue.queued(key)
        if entry is None:
            assert fields is None
            continue
        assert fields == (entry.depth, entry.score, entry.signal)
        assert fields is not None and fields[2] is entry.signal
        assert type(fields[0]) is int and type(fields[1]) is float
