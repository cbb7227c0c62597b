"""Credit from siblings: links of one list whose targets proved relevant (docs/DESIGN.md §8a).

A table of contents names chapters, not query words, so its entries are blind; but once some
entries of one list have been fetched, their relevance says something about the next ones
(issue 11, mechanism 4: 6 of 6 fetched ``filesys.html`` toctree entries were relevant). A
*sibling group* is one list block of one parent page: a run of Markdown list items that hold
links, ended by anything else (a heading, a paragraph, a list item without a link such as
SQLite's "► Overview Documents"). ``list_blocks`` finds them in a page's Markdown.

The credit of a group is the mean relevance of its fetched targets, shrunk towards 0 by one
pseudo-observation: ``Σ relevance / (n + 1)``. The mean, not a count of pages above
``EVIDENCE_RELEVANCE``: on the dev sets the crawler's relevance calls only 41 of 225 fetched
truth pages relevant at 0.15, yet ranks them above the rest (AUC 0.83), so a threshold would
rarely fire while the mean separates good lists from bad ones (docs/DECISIONS.md, issue 11).
One pseudo-observation keeps a single lucky sibling from lifting a whole list.

A list read after some of its entries were fetched counts them too: ``group`` credits a
member whose relevance is already known when it joins a group. A chapter page reached through
the seed's table of contents often lists entries the crawl fetched through another page
first; without this, the chapter's list starts from nothing and its remaining entries stay
blind (docs/DECISIONS.md, issue 11: "a list read late").

A list whose title the query names in full (every content word of the nearest heading or
link-less item above it is a query term: SQLite's "► Features" under "engine features: …")
is the site's own section for what the query asks; its entries take ``NAMED_LIST_CREDIT`` on
top of what their fetched siblings proved. Their pages need not repeat the query's words
(``autoinc.html``, ``limits.html`` under "Features"), so their relevance cannot show it
(docs/DECISIONS.md, issue 11: "a list the query names").
"""

from __future__ import annotations

import re
from collections.abc import Mapping

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE
from pagesift_ui.frontier.language import Language, stop_words
from pagesift_ui.frontier.linkrules import LIST_ITEM, ListTitles
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.tokens import words

__all__ = [
    "NAMED_LIST_CREDIT",
    "NO_GROUP",
    "SIBLING_WEIGHT",
    "SiblingCredit",
    "list_blocks",
    "list_blocks_titled",
    "sibling_evidence",
    "title_named",
]

#: A link in no list block has no siblings.
NO_GROUP = -1
#: Weight of the sibling credit in a link's raw score: that of the context feature's prior
#: (1.0), the other evidence about a link that comes from around it rather than from the
#: link itself (docs/DESIGN.md §8a).
SIBLING_WEIGHT = 1.0
#: Credit a list takes when the query names its title in full, on top of what its fetched
#: entries proved: the most a fetched entry can prove (relevance 1), since the site itself
#: files every entry under the query's words (docs/DESIGN.md §8a).
NAMED_LIST_CREDIT = 1.0

# The destination of a Markdown link as page/extract.py writes it (absolute, no spaces).
_DESTINATION = re.compile(r"\]\((https?://[^\s)]*(?:\([^\s)]*\)[^\s)]*)*)\)")


def list_blocks(markdown: str) -> dict[str, int]:
    """URL → index of the first list block (0, 1, …) the URL appears in, in page order.

    Linear in the Markdown's length. A URL outside every list block is absent.

    >>> list_blocks("- [a](http://x/a)\\n\\n- [b](http://x/b)\\n\\nText\\n\\n- [c](http://x/c)")
    {'http://x/a': 0, 'http://x/b': 0, 'http://x/c': 1}
    """
    return list_blocks_titled(markdown)[0]


def list_blocks_titled(markdown: str) -> tuple[dict[str, int], list[str]]:
    """``list_blocks`` and each block's title, by block index: the nearest heading or
    link-less list item above the block ("" for none), as ``linkrules.link_contexts`` gives
    its entries after `` § ``. One pass.

    >>> list_blocks_titled("## Tools\\n\\n- [a](http://x/a)\\n- ► More\\n- [b](http://x/b)")
    ({'http://x/a': 0, 'http://x/b': 1}, ['Tools', '► More'])
    """
    if not isinstance(markdown, str):
        raise ValueError(f"markdown must be a string, got {type(markdown).__name__}")
    blocks: dict[str, int] = {}
    titles: list[str] = []
    lines = markdown.splitlines()
    list_titles = ListTitles(lines)  # link_contexts' rule, read back when a block opens
    block, open_block = -1, False
    read_to = 0  # the lines before it are accounted for in open_block
    # Only a line with a link can open a block or add to one; the lines between two are read
    # only while a block is open, and only up to the first that closes it (issue 15: a
    # test of every line was 3% of a step on the Python docs)
    for index, line in enumerate(lines):
        if "](" not in line:
            continue
        if open_block and _closes(lines, read_to, index):
            open_block = False
        read_to = index + 1
        if LIST_ITEM.match(line) is None:
            # a paragraph with a link: it closes the block unless it continues an item
            if not line.startswith(("  ", "\t")):
                open_block = False
            continue
        if not open_block:
            block, open_block = block + 1, True
            titles.append(list_titles.before(index))
        for match in _DESTINATION.finditer(line):
            blocks.setdefault(match.group(1), block)
    return blocks, titles


def _closes(lines: list[str], start: int, end: int) -> bool:
    """True when a line of ``lines[start:end]`` (none with a link) ends the open list
    block: a heading, a paragraph or an item without a link, nested or not (a nested list's
    items are indented, page/extract.py); blank lines and indented lines that are no item
    (an item's continuation) do not (items are written one paragraph each: a blank line
    ends no list)."""
    for at in range(start, end):
        line = lines[at]
        if not line.startswith(("  ", "\t")):
            if line.strip():
                return True
        elif line.strip() and LIST_ITEM.match(line):
            return True
    return False


def title_named(query: Query, title: str, language: Language | None = None) -> bool:
    """True when every content word of a list's ``title`` (words with a letter, stop words
    of ``language`` left out; None: the query's) is a query term, and there is one: the
    site files the list under the query's own words ("► Features" for "engine features:
    write-ahead journaling, …"; "Programming Interfaces" for "programming interfaces for
    calling the database"). A title with any other word ("Data Persistence" for "saving
    objects to disk") names something the query does not.

    >>> title_named(Query("engine features: write-ahead journaling"), "► Features")
    True
    >>> title_named(Query("engine features"), "SQLite Features")
    False
    """
    stops = stop_words(query.language if language is None else language)
    content = [word for word in words(title)
               if word not in stops and any(char.isalpha() for char in word)]
    return bool(content) and all(query.word_masks(content, language))


def sibling_evidence(relevance: float, fresh: bool) -> float:
    """What a fetched page proves about the lists it is in: its relevance, unless it read as
    evidence (relevance at or above ``EVIDENCE_RELEVANCE``) and added no block the crawl had
    not read (``fresh`` False): a page that repeats what was found proves nothing about its
    siblings (a journal's issues repeating the query's words; docs/DESIGN.md §8a). A page
    below the bar is not read as evidence at all, so its freshness says nothing and its
    relevance counts. The session passes adaptive's ``last_new`` for a list (any block not
    read before) and ``last_fresh`` for a name family (the gain test as well).

    >>> sibling_evidence(0.7, fresh=False), sibling_evidence(0.7, fresh=True)
    (0.0, 0.7)
    >>> sibling_evidence(0.1, fresh=False)
    0.1
    """
    return 0.0 if relevance >= EVIDENCE_RELEVANCE and not fresh else relevance


class SiblingCredit:
    """The sibling groups of a crawl and the relevance their fetched targets proved.

    Groups are interned as ``(parent key, block)`` → id in order of first sight, so a replay
    gives the same ids. ``credits`` is an array indexed by group id for ``score_batch``.

    A user's label replaces what a page proved (``relabel``): every credit is summed again
    from the credits given so far, in the order they were given, so removing the label gives
    back the same floats (docs/DESIGN.md §12.3).
    """

    __slots__ = ("_counts", "_credited", "_ids", "_labelled", "_members", "_named", "_proven",
                 "_sums", "changed")

    def __init__(self) -> None:
        self._ids: dict[tuple[str, int], int] = {}
        self._sums: list[float] = []
        self._counts: list[int] = []
        self._named: dict[int, str] = {}  # group → its title, for a list the query names
        self._members: dict[str, list[int]] = {}  # link key → the groups it is listed in
        self._proven: dict[str, float] = {}  # fetched key → the relevance its page proved
        # fetched key → what it proves under the user's labels, where that differs
        self._labelled: dict[str, float] = {}
        # (group, fetched key) of every credit given, in order: what ``relabel`` sums again
        self._credited: list[tuple[int, str]] = []
        #: True after an observation moved a credit; the queue must be rescored.
        self.changed = False

    def __len__(self) -> int:
        return len(self._ids)

    def group(self, parent_key: str, block: int, member_key: str, named: str = "") -> int:
        """The id of ``parent_key``'s list block ``block``, with ``member_key`` in it;
        ``named``: the block's title, when the query names it in full (``title_named``).

        A member already fetched brings its relevance to a group it joins late."""
        if block < 0:
            return NO_GROUP
        group = self.intern(parent_key, block)
        if named and group not in self._named:
            self._named[group] = named
            self.changed = True
        groups = self._members.setdefault(member_key, [])
        if group not in groups:
            groups.append(group)
            if member_key in self._proven:
                self._credit(group, member_key)
        return group

    def intern(self, parent_key: str, block: int) -> int:
        """The id of ``parent_key``'s list block ``block`` (≥ 0), made if new, without a
        member: for a caller that knows each link's group without a list of members
        (``families.NameFamilies``: a page's family follows from its URL)."""
        group = self._ids.get((parent_key, block))
        if group is None:
            group = self._ids[(parent_key, block)] = len(self._sums)
            self._sums.append(0.0)
            self._counts.append(0)
        return group

    def groups(self, member_key: str) -> tuple[int, ...]:
        """The ids of the groups a link is listed in, in the order it joined them."""
        return tuple(self._members.get(member_key, ()))

    def observe(self, member_key: str, relevance: float) -> None:
        """A fetched page's relevance, credited to every list it was listed in."""
        if not 0.0 <= relevance <= 1.0:
            raise ValueError(f"relevance must be in [0, 1], got {relevance!r}")
        if member_key in self._proven:
            return  # a page is read once; a second observation would count it twice
        self._proven[member_key] = relevance
        for group in self._members.get(member_key, ()):
            self._credit(group, member_key)

    def _value(self, member_key: str) -> float:
        """What a fetched page proves: its own relevance, or the one its label gives."""
        labelled = self._labelled.get(member_key)
        return self._proven[member_key] if labelled is None else labelled

    def _credit(self, group: int, member_key: str) -> None:
        self._sums[group] += self._value(member_key)
        self._counts[group] += 1
        self._credited.append((group, member_key))
        self.changed = True

    def relabel(self, proven: Mapping[str, float]) -> bool:
        """What fetched pages prove under the user's labels (fetched key → relevance; a key
        left out proves what it did when observed), replacing any earlier call's. Every
        credit is summed again in the order it was given, so a call that gives each page
        its observed value restores the credits exactly. True when a credit moved (and
        ``changed`` is set: the queue must be rescored)."""
        labelled: dict[str, float] = {}
        for key, relevance in proven.items():
            if not 0.0 <= relevance <= 1.0:
                raise ValueError(f"relevance must be in [0, 1], got {relevance!r}")
            if key not in self._proven:
                continue  # not observed yet (a step still to come): nothing to replace
            if relevance != self._proven[key]:
                labelled[key] = relevance
        self._labelled = labelled
        sums = [0.0] * len(self._sums)
        for group, key in self._credited:
            sums[group] += self._value(key)
        moved = sums != self._sums
        self._sums = sums
        self.changed = self.changed or moved
        return moved

    def named(self, group: int) -> str:
        """The title of a group whose title the query names in full, else ""."""
        return self._named.get(group, "")

    def credit(self, group: int) -> float:
        """``Σ relevance / (n + 1)`` of the group's fetched targets, plus
        ``NAMED_LIST_CREDIT`` for a list the query names; 0 for ``NO_GROUP``."""
        if group < 0:
            return 0.0
        credit = self._sums[group] / (self._counts[group] + 1)
        return credit + NAMED_LIST_CREDIT if group in self._named else credit

    def credits(self) -> npt.NDArray[np.float64]:
        """Every group's credit, by id (the numbers ``credit`` gives)."""
        sums = np.asarray(self._sums, dtype=np.float64)
        credits = sums / (np.asarray(self._counts, dtype=np.float64) + 1.0)
        if self._named:
            named = np.fromiter(self._named, dtype=np.int64, count=len(self._named))
            credits[named] += NAMED_LIST_CREDIT
        return credits
