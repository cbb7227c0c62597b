"""What a page is once read: its ``Page`` and each ``Link`` (docs/DESIGN.md §2)."""

from __future__ import annotations

from dataclasses import dataclass, fields

__all__ = ["Link", "Page", "new_link"]


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


def new_link(url: str, anchor: str, in_main: bool, nofollow: bool,
             hreflang: str | None) -> Link:
    """``Link(url, anchor, in_main, nofollow, hreflang)``, the same object, each slot set by
    its own descriptor: the frozen dataclass's ``__init__`` sets each field by name through
    ``object.__setattr__``, ~565 ns a link against ~320 (a page's links are made one by one
    by the collector, ~360 a page on the Python docs; issue 15)."""
    link = _new(Link)
    put_url, put_anchor, put_in_main, put_nofollow, put_hreflang = _LINK_SETTERS
    put_url(link, url)
    put_anchor(link, anchor)
    put_in_main(link, in_main)
    put_nofollow(link, nofollow)
    put_hreflang(link, hreflang)
    return link


_new = object.__new__
#: The setters of ``Link``'s slots, in the order of its fields (``new_link``).
_LINK_SETTERS = tuple(getattr(Link, field.name).__set__ for field in fields(Link))


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
