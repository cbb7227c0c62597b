"""Shortest known click depth of every page the crawl has linked to (docs/DESIGN.md §9).

A link's depth discounts its score (``DEPTH_DECAY ** depth``), so it must be the number of
clicks from the seed along the shortest path the crawl knows, not the length of the path the
crawl happened to take (issue 11, mechanism 3: ``asyncio.html``, two clicks from the seed, was
fetched at depth 5 and gave its entries ``0.9 ** 6``). When a shorter path to a fetched page
appears later, every page below it gets shorter too: ``shorten`` walks the fetched pages'
links breadth-first and returns the links not fetched yet whose depth went down, so the
session can re-rank them.
"""

from __future__ import annotations

from collections import deque

__all__ = ["ClickDepths"]


class ClickDepths:
    """Fetched pages' depths and links, keyed by dedupe key; pure state."""

    __slots__ = ("_children", "_depth")

    def __init__(self) -> None:
        self._depth: dict[str, int] = {}
        self._children: dict[str, list[str]] = {}

    def __len__(self) -> int:
        return len(self._depth)

    def depth(self, key: str) -> int | None:
        """The shortest known depth of a fetched page, or None if it was not fetched."""
        return self._depth.get(key)

    def fetched(self, key: str, depth: int) -> None:
        """A page was fetched at ``depth`` (a shorter depth known before is kept)."""
        if depth < 0:
            raise ValueError(f"depth must be ≥ 0, got {depth}")
        known = self._depth.get(key)
        self._depth[key] = depth if known is None else min(known, depth)

    def forget(self, key: str) -> int | None:
        """A page counted as fetched was not (its fetch was called off, session/ahead.py):
        forget its depth and return it (None if unknown). Links to it are kept: they say
        how it is reached when it is queued again."""
        return self._depth.pop(key, None)

    def linked(self, parent: str, child: str) -> None:
        """The fetched page ``parent`` links to ``child``."""
        self._children.setdefault(parent, []).append(child)

    def shorten(self, key: str, depth: int) -> dict[str, int]:
        """A path of ``depth`` clicks to the fetched page ``key`` was found.

        Returns the not-yet-fetched pages whose shortest known depth this made smaller, with
        that depth (every page it reaches through fetched pages, each at most once); the
        depths of the fetched ones are lowered here. Empty when ``key`` was not fetched or the
        path is not shorter.
        """
        known = self._depth.get(key)
        if known is None or depth >= known:
            return {}
        self._depth[key] = depth
        lowered: dict[str, int] = {}
        todo = deque([key])
        while todo:
            parent = todo.popleft()
            child_depth = self._depth[parent] + 1
            for child in self._children.get(parent, ()):
                fetched_depth = self._depth.get(child)
                if fetched_depth is None:
                    if child_depth < lowered.get(child, child_depth + 1):
                        lowered[child] = child_depth
                elif child_depth < fetched_depth:
                    self._depth[child] = child_depth
                    todo.append(child)
        return lowered
