"""What the walk reads of HTML elements, whichever parser built them: the tag sets, the
main-content and boilerplate rules, meta robots and ``lang`` (docs/DESIGN.md §2)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from typing import Any, Protocol

__all__ = [
    "BLOCKS",
    "BOILERPLATE_ROLES",
    "BOILERPLATE_TAGS",
    "BOILERPLATE_TOKENS",
    "COLLECTED",
    "HEADINGS",
    "MAX_LANG_CHARS",
    "NORMALISE_COMPILED",
    "PRESERVE_WHITESPACE",
    "SKIPPED",
    "Attrs",
    "attr_list",
    "is_boilerplate",
    "is_main",
    "is_robots",
    "lang_of",
    "normalise",
    "robots_directives",
]

logger = logging.getLogger(__name__)

SKIPPED = frozenset(
    "script style noscript template head title meta link base iframe object embed svg math "
    "canvas select textarea button input option datalist rt rp".split()
)
BLOCKS = frozenset(
    "address article aside blockquote body caption center dd details dialog div dl dt "
    "fieldset figcaption figure footer form h1 h2 h3 h4 h5 h6 header hgroup hr legend li "
    "main menu nav ol p pre section summary table tbody tfoot thead tr ul".split()
)
HEADINGS = {f"h{level}": "#" * level + " " for level in range(1, 7)}
#: The elements ``Collector.start``/``end`` act on; for any other (span, code, em, …: most
#: of a documentation page) both do nothing, so the tree walks (``lxmltree``, ``_cwalk``)
#: do not call them.
COLLECTED = BLOCKS | {"a", "img", "br", "td", "th", "pre"}
#: The elements inside which a tree walk keeps whitespace as it is (bs4's tree does).
PRESERVE_WHITESPACE = frozenset({"pre", "textarea"})
#: The longest ``lang`` value read as a language tag: RFC 5646 §4.4.1 has implementations
#: keep tags of up to 35 characters; twice that leaves room for private-use subtags.
MAX_LANG_CHARS = 70
BOILERPLATE_TAGS = frozenset({"nav", "aside", "footer", "menu", "form"})
BOILERPLATE_ROLES = frozenset({"navigation", "complementary", "contentinfo", "search", "menu"})
BOILERPLATE_TOKENS = frozenset(
    "nav navbar navigation menu sidebar breadcrumb breadcrumbs site-header site-footer "
    "masthead skip-link cookie-banner".split()
)


class Attrs(Protocol):
    """What the walk reads of an element: a bs4 ``Tag`` or an lxml element."""

    def get(self, key: str, /) -> Any: ...


def _normalise_in_python(text: str) -> str:
    return " ".join(text.split())


def _compiled_normalise() -> Callable[[str], str] | None:
    """``_cspace.normalise``, or None when the install did not build it (``setup.py``)."""
    try:
        from pagesift_ui.page._cspace import normalise as compiled
    except ImportError as error:
        logger.debug("the compiled white-space collapse is not available (%s)", error)
        return None
    return compiled


#: A text's words with one space between them, ``" ".join(text.split())``: in one pass in
#: C where the install built it (``_cspace.pyx``: the join made a str a word, for every
#: block, heading and anchor of a page; issue 15), the join itself where it did not.
normalise: Callable[[str], str] = _compiled_normalise() or _normalise_in_python
#: True when ``normalise`` runs compiled; the CLI's ``--version`` says so.
NORMALISE_COMPILED = normalise is not _normalise_in_python


def robots_directives(contents: Iterable[object]) -> frozenset[str]:
    directives: set[str] = set()
    for content in contents:
        if isinstance(content, str):
            directives.update(content.lower().replace(",", " ").split())
    if "none" in directives:  # "none" means noindex, nofollow
        directives.update({"noindex", "nofollow"})
    return frozenset(directives)


def is_robots(name: object) -> bool:
    return isinstance(name, str) and name.strip().lower() == "robots"


def lang_of(html: Attrs | None) -> str:
    """The page's language tag, lower-cased; "" for none, or for a value too long to be one
    (RFC 5646 §4.4.1: a tag of up to 35 characters suffices; the record keeps it)."""
    if html is None:
        return ""
    lang = html.get("lang") or html.get("xml:lang")
    if not isinstance(lang, str):
        return ""
    lang = lang.strip().lower()
    return lang if len(lang) <= MAX_LANG_CHARS else ""


def attr_list(value: object) -> list[str]:
    if isinstance(value, str):
        return value.split()
    if isinstance(value, list):
        return [item for item in value if isinstance(item, str)]
    return []


def is_main(name: str, element: Attrs) -> bool:
    role = element.get("role")
    return name == "main" or (isinstance(role, str) and role.strip().lower() == "main")


def is_boilerplate(name: str, element: Attrs, whole_body: bool) -> bool:
    if name in BOILERPLATE_TAGS or (whole_body and name == "header"):
        return True
    if element.get("hidden") is not None or element.get("aria-hidden") == "true":
        return True
    role = element.get("role")
    if isinstance(role, str):
        role = role.strip().lower()
        if role in BOILERPLATE_ROLES or (whole_body and role == "banner"):
            return True
    classes = element.get("class")
    element_id = element.get("id")
    if not classes and not element_id:
        return False
    tokens = {token.lower() for token in attr_list(classes)}
    if isinstance(element_id, str):
        tokens.add(element_id.lower())
    return not tokens.isdisjoint(BOILERPLATE_TOKENS)
