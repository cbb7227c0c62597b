"""What a page is once read: its ``Page`` and each ``Link`` (docs/DESIGN.md §2)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Link", "Page"]


@dataclass(frozen=True, slots=True)
class Link:
    """One ``<a href>``: absolute http(s) URL without fragment, and where it sits.

    ``in_main`` is False for links in navigation, header, footer, aside or menus;
    ``nofollow`` is rel=nofollow or the page's meta robots nofollow.
    """

    url: str
    anchor: str
    in_main: bool
    nofollow: bool
    hreflang: str | None


@dataclass(frozen=True, slots=True)
class Page:
    """What a page says and where it points. ``headings`` are those of the main content."""

    url: str
    title: str
    lang: str
    headings: tuple[str, ...]
    markdown: str
    text: str
    word_count: int
    links: tuple[Link, ...]
    canonical: str | None
    noindex: bool
    nofollow: bool
    alternates: tuple[tuple[str, str], ...]
    # A page read whole has ``cut == ""``. Otherwise ``cut`` says where reading stopped, and
    # ``links_not_read`` counts the ``<a`` tags after that point (found, never parsed).
    cut: str = ""
    links_not_read: int = 0
