"""Page templates for the demo web: values that describe a page, and one renderer.

Pages are described as frozen values (links, blocks, site chrome) and rendered to real HTML:
a header with a ``<nav>``, breadcrumbs, ``<main>`` with headings, paragraphs, lists and tables,
an optional ``<aside>`` and a ``<footer>`` full of links, as real CMS templates produce them.

Links to another host carry :data:`PORT_TOKEN` after the host name. Pages are rendered once,
before the server knows its port; the site replaces the token with ``":PORT"`` per response.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from html import escape
from typing import TypeAlias

__all__ = [
    "PORT_TOKEN",
    "Block",
    "Chrome",
    "Heading",
    "Inline",
    "ItemList",
    "Link",
    "PageSpec",
    "Paragraph",
    "Table",
    "bullets",
    "para",
    "render_page",
    "social_links",
]

PORT_TOKEN = "{{demo-port}}"


@dataclass(frozen=True, slots=True)
class Link:
    """An anchor: its text and where it points (``host=None``: the page's own host)."""

    text: str
    target: str
    host: str | None = None

    def href(self, page_host: str) -> str:
        if self.target.startswith(("mailto:", "tel:", "#")):
            return self.target
        if self.host is None or self.host == page_host:
            return self.target
        return f"http://{self.host}{PORT_TOKEN}{self.target}"


Inline: TypeAlias = str | Link


@dataclass(frozen=True, slots=True)
class Heading:
    text: str
    level: int = 2


@dataclass(frozen=True, slots=True)
class Paragraph:
    parts: tuple[Inline, ...]


@dataclass(frozen=True, slots=True)
class ItemList:
    items: tuple[tuple[Inline, ...], ...]
    ordered: bool = False


@dataclass(frozen=True, slots=True)
class Table:
    caption: str
    header: tuple[str, ...]
    rows: tuple[tuple[Inline, ...], ...]


Block: TypeAlias = Heading | Paragraph | ItemList | Table


@dataclass(frozen=True, slots=True)
class Chrome:
    """Everything a site repeats on every page: header, navigation and footer."""

    site_name: str
    nav: tuple[Link, ...]
    utility: tuple[Link, ...] = ()
    footer_columns: tuple[tuple[str, tuple[Link, ...]], ...] = ()
    footer_note: tuple[Inline, ...] = ()
    copyright: str = ""
    home_label: str = "Home"
    home_target: str = "/"
    nav_label: str = "Main navigation"
    skip_label: str = "Skip to main content"


@dataclass(frozen=True, slots=True)
class PageSpec:
    """One HTML page. ``crumbs`` are the ancestors (home excluded); ``printable`` renders the
    printer-friendly variant: same main content, no navigation, canonical to ``canonical``."""

    host: str
    path: str
    lang: str
    title: str
    h1: str
    blocks: tuple[Block, ...]
    chrome: Chrome
    crumbs: tuple[Link, ...] = ()
    aside_title: str = ""
    aside: tuple[Link, ...] = ()
    alternates: tuple[tuple[str, Link], ...] = ()
    description: str = ""
    canonical: Link | None = None
    printable: bool = False
    breadcrumbs: bool = True


def para(*parts: Inline) -> Paragraph:
    return Paragraph(tuple(parts))


def social_links(handle: str, *networks: str) -> tuple[Link, ...]:
    """Footer links to ``/handle`` on each network's ``*.localhost`` name: the demo serves none
    of these hosts, so they are realistic dead ends that can never leave the machine."""
    return tuple(Link(network, f"/{handle}", f"{network.lower()}.localhost")
                 for network in networks)


def bullets(*items: Inline | tuple[Inline, ...], ordered: bool = False) -> ItemList:
    return ItemList(tuple(item if isinstance(item, tuple) else (item,) for item in items), ordered)


def _anchor(link: Link, host: str) -> str:
    return f'<a href="{escape(link.href(host))}">{escape(link.text)}</a>'


def _inline(parts: Sequence[Inline], host: str) -> str:
    return "".join(_anchor(p, host) if isinstance(p, Link) else escape(p) for p in parts)


def _link_items(links: Sequence[Link], host: str) -> str:
    return "".join(f"<li>{_anchor(link, host)}</li>" for link in links)


def _block(block: Block, host: str) -> str:
    if isinstance(block, Heading):
        return f"<h{block.level}>{escape(block.text)}</h{block.level}>"
    if isinstance(block, Paragraph):
        return f"<p>{_inline(block.parts, host)}</p>"
    if isinstance(block, ItemList):
        tag = "ol" if block.ordered else "ul"
        items = "".join(f"<li>{_inline(item, host)}</li>" for item in block.items)
        return f"<{tag}>{items}</{tag}>"
    head = "".join(f'<th scope="col">{escape(cell)}</th>' for cell in block.header)
    rows = "".join(
        "<tr>" + "".join(f"<td>{_inline((cell,), host)}</td>" for cell in row) + "</tr>"
        for row in block.rows
    )
    return (
        f"<table><caption>{escape(block.caption)}</caption>"
        f"<thead><tr>{head}</tr></thead><tbody>{rows}</tbody></table>"
    )


def _head(spec: PageSpec) -> list[str]:
    lines = [
        '<meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(spec.title)}</title>",
    ]
    if spec.description:
        lines.append(f'<meta name="description" content="{escape(spec.description)}">')
    if spec.printable:
        lines.append('<meta name="robots" content="noindex, follow">')
    if spec.canonical is not None:
        lines.append(f'<link rel="canonical" href="{escape(spec.canonical.href(spec.host))}">')
    for lang, link in spec.alternates:
        href = escape(link.href(spec.host))
        lines.append(f'<link rel="alternate" hreflang="{escape(lang)}" href="{href}">')
    return lines


def _header(spec: PageSpec) -> list[str]:
    chrome, host = spec.chrome, spec.host
    lines = [f'<a class="skip-link" href="#main">{escape(chrome.skip_label)}</a>', "<header>"]
    if chrome.utility:
        lines.append(f'<ul class="utility">{_link_items(chrome.utility, host)}</ul>')
    logo = escape(chrome.home_target)
    lines.append(f'<a class="logo" href="{logo}">{escape(chrome.site_name)}</a>')
    lines.append(f'<nav aria-label="{escape(chrome.nav_label)}"><ul>')
    lines.append(_link_items(chrome.nav, host))
    lines.append("</ul></nav>")
    lines.append("</header>")
    return lines


def _breadcrumbs(spec: PageSpec) -> list[str]:
    if not spec.breadcrumbs:
        return []
    home = Link(spec.chrome.home_label, spec.chrome.home_target)
    items = [f"<li>{_anchor(link, spec.host)}</li>" for link in (home, *spec.crumbs)]
    items.append(f'<li aria-current="page">{escape(spec.h1)}</li>')
    return [f'<nav aria-label="Breadcrumb" class="breadcrumbs"><ol>{"".join(items)}</ol></nav>']


def _footer(spec: PageSpec) -> list[str]:
    chrome, host = spec.chrome, spec.host
    lines = ["<footer>"]
    for title, links in chrome.footer_columns:
        items = _link_items(links, host)
        lines.append(f"<section><h2>{escape(title)}</h2><ul>{items}</ul></section>")
    if chrome.footer_note:
        lines.append(f'<p class="footer-note">{_inline(chrome.footer_note, host)}</p>')
    if chrome.copyright:
        lines.append(f'<p class="copyright">{escape(chrome.copyright)}</p>')
    lines.append("</footer>")
    return lines


def render_page(spec: PageSpec) -> str:
    """Return the whole HTML document of ``spec``; pure, so the same spec gives the same text."""
    lines = ["<!doctype html>", f'<html lang="{escape(spec.lang)}">', "<head>", *_head(spec)]
    lines.append("</head>")
    lines.append('<body class="print">' if spec.printable else "<body>")
    if spec.printable:
        lines.append(f'<p class="print-site">{escape(spec.chrome.site_name)}</p>')
    else:
        lines.extend(_header(spec))
        lines.extend(_breadcrumbs(spec))
    lines.append('<main id="main">')
    lines.append(f"<h1>{escape(spec.h1)}</h1>")
    lines.extend(_block(block, spec.host) for block in spec.blocks)
    lines.append("</main>")
    if spec.aside and not spec.printable:
        title = f"<h2>{escape(spec.aside_title)}</h2>" if spec.aside_title else ""
        lines.append(f"<aside>{title}<ul>{_link_items(spec.aside, spec.host)}</ul></aside>")
    if not spec.printable:
        lines.extend(_footer(spec))
    lines.append("</body>")
    lines.append("</html>")
    return "\n".join(lines) + "\n"
