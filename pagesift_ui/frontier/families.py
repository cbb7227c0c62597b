"""Siblings by name: pages a site names alike, and the relevance their fetched members proved
(docs/DESIGN.md §8a).

A site names the pages of one topic with a common stem: a Python package's modules
(``xml.dom.html``, ``xml.dom.minidom.html``), a chapter and its parts (``asyncio.html``,
``asyncio-task.html``, ``asyncio-queue.html``), a reference's entries (SQLite's
``lang_select.html``, ``lang_insert.html``). That is the structure a list block gives
(``siblings.py``), told by the URL instead of by the page that lists them: once members of
a family proved relevant, its unfetched members are worth more than a blind link, and once
they proved off-topic, less. A list only helps the links read in it; a family reaches every
link to a member, from whatever page (issue 11: the asyncio chapter's last entries, blind
links listed only in the chapter's toctree, sat at ranks 25–241 while their family's pages
were being read as relevant).

A *family* is the URL's directory and the first word of its last segment: the segment with
its extension dropped, leading separators dropped, cut at the first ``-``, ``_`` or ``.``
(``family_of``). Its credit is that of a sibling group (``SiblingCredit``): the mean of what
its fetched members proved (``sibling_evidence``), shrunk towards 0 by one
pseudo-observation, ``Σ value / (n + 1)``; a user's label replaces what a page proved as it
does for the lists (docs/DESIGN.md §12.3).
"""

from __future__ import annotations

import re
from array import array
from collections.abc import Mapping
from urllib.parse import urlsplit

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier.siblings import NO_GROUP, SIBLING_WEIGHT, SiblingCredit

__all__ = ["FAMILY_WEIGHT", "NameFamilies", "family_of"]

#: Weight of the family credit in a link's raw score: the sibling credit's, as it is the same
#: evidence (fetched members of one set of pages) told by the URL instead of by a list.
FAMILY_WEIGHT = SIBLING_WEIGHT

_SEPARATOR = re.compile(r"[-_.]")


def family_of(url: str) -> str:
    """The family of a URL (a dedupe key): scheme, host, directory and the first word of the
    last path segment. Query and fragment play no part. Not cached: ``NameFamilies`` asks
    once per target and once per fetched page.

    >>> family_of("http://h/library/asyncio-task.html"), family_of("http://h/library/asyncio.html")
    ('http://h/library/asyncio', 'http://h/library/asyncio')
    >>> family_of("http://h/library/xml.dom.minidom.html"), family_of("http://h/lang_select.html")
    ('http://h/library/xml', 'http://h/lang')
    >>> family_of("http://h/library/__main__.html"), family_of("http://h/docs/")
    ('http://h/library/main', 'http://h/docs/')
    """
    if not isinstance(url, str):
        raise ValueError(f"url must be text, got {type(url).__name__}")
    parts = urlsplit(url)
    directory, _, last = parts.path.rpartition("/")
    stem = last.rsplit(".", 1)[0] if "." in last else last
    word = _SEPARATOR.split(stem.lstrip("-_."), 1)[0]
    return f"{parts.scheme}://{parts.netloc}{directory}/{word}"


class NameFamilies:
    """The name families of a crawl's links, and their credit.

    Each target of ``popularity.Popularity`` (a link's ``target`` id) is given its family when
    it is first linked (``target``); each fetched page joins its family and proves a value
    for it (``observe``). ``credits`` gives the credit of every target's family by target id, for
    ``linkbatch``; ``credit`` one target's.
    """

    __slots__ = ("_groups", "_of_target")

    def __init__(self) -> None:
        # a family is a sibling group whose "parent" is the family's name (block 0): the
        # same credit and the same relabelling. Only fetched pages join it as members (a
        # member list per link target cost ~340 bytes a target); a target's family is
        # known from its URL, so it needs none
        self._groups = SiblingCredit()
        # target id → family group (NO_GROUP: not joined). An array of machine ints: read
        # per link offered (issue 15: a numpy scalar read costs several times a list's) and
        # handed to numpy without a copy
        self._of_target = array("q")

    @property
    def changed(self) -> bool:
        """True after a credit moved; the queue must be rescored."""
        return self._groups.changed

    @changed.setter
    def changed(self, value: bool) -> None:
        self._groups.changed = value

    def target(self, target: int, key: str) -> None:
        """Target id ``target`` (``Popularity.linked``) is the page ``key``: its family's id
        is kept for it (once), without making it a member."""
        of_target = self._of_target
        if type(target) is int and 0 <= target < len(of_target) and of_target[target] >= 0:
            return  # the common case: a target met again
        if isinstance(target, bool) or not isinstance(target, int) or target < 0:
            raise ValueError(f"target must be a non-negative integer, got {target!r}")
        if target >= len(of_target):
            of_target.extend([NO_GROUP] * (target + 1 - len(of_target)))
        of_target[target] = self._groups.intern(family_of(key), 0)

    def observe(self, key: str, value: float) -> None:
        """The fetched page ``key`` proved ``value`` (``siblings.sibling_evidence``) for its
        family; a page is counted once."""
        self._groups.group(family_of(key), 0, key)
        self._groups.observe(key, value)

    def relabel(self, proven: Mapping[str, float]) -> bool:
        """``SiblingCredit.relabel`` of the families: what fetched pages prove under the
        user's labels; True when a credit moved."""
        return self._groups.relabel(proven)

    def credit(self, target: int) -> float:
        """The credit of the target's family; 0 for -1 or a target never seen."""
        if target < 0 or target >= len(self._of_target):
            return 0.0
        return self._groups.credit(self._of_target[target])

    def credits(self, targets: int) -> npt.NDArray[np.float64]:
        """The credit of each of the first ``targets`` target ids' family (0 for a target
        that joined none): ``credit``'s numbers, as an array."""
        if targets <= 0 or not len(self._groups):
            return np.zeros(0, dtype=np.float64)
        known = min(targets, len(self._of_target))
        table = np.append(self._groups.credits(), 0.0)  # -1 reads the 0.0 at the end
        out = np.zeros(targets, dtype=np.float64)
        # a view of the array's buffer, gone before the array may grow again
        out[:known] = table[np.frombuffer(self._of_target, dtype=np.int64, count=known)]
        return out
