"""The adaptive stop rules and the harvests replayed over a session's step records.

A step record carries everything the stop rules observed at its step (docs/DESIGN.md §11.7,
§11.10): the page's Markdown, its relevance, whether the link taken was blind, and whether
the verdict that fired was forgiven (automatically, or by ``--no-stop``); the user's
``forgive`` overrides say where a stopped crawl was continued. Feeding them, in order, to a
fresh seed-exact ``Adaptive`` gives back the live rules' state bit for bit, and the ``fresh``
flag of every page with it, from which both harvests are rebuilt (§11.8). Nothing in the seed
code can "unobserve" a page, so a changed input means a replay from the start.

Two callers change one input:

- ``CrawlSession.relabel`` replaces the crawler's verdict on a page by the user's
  (``labelled_relevance``) and swaps in the rebuilt state (docs/DESIGN.md §12.3);
- ``session/whatif.py`` replays the rules with other ``AdaptiveOptions``.

Pure functions over records: no session, no network.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, Adaptive
from pagesift_ui.frontier.focus import markdown_language
from pagesift_ui.frontier.harvest import Harvest
from pagesift_ui.frontier.language import Language
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.stats import z_two_sided
from pagesift_ui.session.config import CrawlConfig
from pagesift_ui.session.record import Override, OverrideKind, StepRecord

__all__ = [
    "NO_STOP_WHY",
    "Replayed",
    "evidence_markdown",
    "labelled_relevance",
    "observed",
    "replay_rules",
    "rules_language",
    "rules_markdown",
    "rules_relevance",
]

#: ``forgiven_why`` of a verdict recorded and crawled past because ``stop_on_verdict`` is off.
NO_STOP_WHY = "--no-stop: verdict recorded, crawl goes on"

# A Markdown link as page/extract.py writes it: ``[label](destination)``, "[" and "]" in the
# label escaped, the destination without spaces and with balanced parentheses.
_LINK_OPEN = re.compile(r"\[((?:\\.|[^\\\[\]])*)\]\(")
_ESCAPED_BRACKET = re.compile(r"\\([\[\]])")
#: A destination up to its ")" with no "(" and no white space before it.
_PLAIN_DESTINATION = re.compile(r"[^\s()]*\)")


def evidence_markdown(markdown: str, link_blocks: bool) -> str:
    """What the stop rules count of a page's ``markdown``: every link written as its label,
    and, unless ``link_blocks``, a block with no letter outside its links written as "-".

    A link's destination is not page content: ``[Print this page](/fees/?print=1)`` must not
    be evidence for "fees". A block that is only links (a contents entry, a row of
    navigation) names pages not read yet; it is not content read, and on a long contents
    page it made a covered query find "new evidence" block after block (issue 11, mechanism
    6; docs/DECISIONS.md). ``link_blocks`` (``CrawlConfig.link_blocks_as_evidence``) counts
    them as the seed's rules read them. The blocks stay the same blocks (a label is never
    empty, "-" stands for a dropped one), so ``evidence_blocks`` indices still point into
    ``blocks(page.markdown)``.

    >>> evidence_markdown("See [the fees](https://e.edu/fees_(2025)) now", False)
    'See the fees now'
    >>> evidence_markdown("- [Fees](/fees)\\n\\nFees: see [the table](/t).", False)
    '-\\n\\nFees: see the table.'
    """
    if link_blocks or "](" not in markdown:
        return "".join(_labelled_parts(markdown))
    # block by block: a code block may hold "[](x)" or a bracket that opens in one block and
    # closes in the next, and the text as a whole would then split differently
    return "\n\n".join(map(_evidence_block, markdown.split("\n\n")))


def _evidence_block(block: str) -> str:
    """One block as the stop rules count it when blocks that are only links are not
    evidence: labelled, or "-" when no letter stands outside its links (label and
    destination both inside). One scan of the block gives both.

    A label is written without line breaks, and an empty one as a space, so no line break
    meets another where the block had none: the labelled block is one block still, however
    a code block writes "[](x)" or "[\\n](x)" (a blank line inside it, or at its end next to
    the blank line that follows, would split it)."""
    if "](" not in block:  # no link (each one's "[…](" holds it): the block as it is
        return "-" if block.strip() and not any(map(str.isalpha, block)) else block
    parts = _labelled_parts(block)
    if block.strip() and not any(map(str.isalpha, "".join(parts[::2]))):
        return "-"
    parts[1::2] = [label.replace("\n", " ") or " " for label in parts[1::2]]
    return "".join(parts)


def _labelled_parts(markdown: str) -> list[str]:
    """``markdown`` cut at its links, each link written as its label: text outside the links
    at even indices, labels at odd ones."""
    out: list[str] = []
    at = 0
    for match in _LINK_OPEN.finditer(markdown):
        if match.start() < at:
            continue  # inside a destination already skipped
        end = _destination_end(markdown, match.end())
        if end < 0:
            continue  # not a link: its text stays as it is
        out.append(markdown[at:match.start()])
        label = match.group(1)
        # an escape needs a backslash: most labels have none, and skip the regex call
        out.append(_ESCAPED_BRACKET.sub(r"\1", label) if "\\" in label else label)
        at = end + 1
    out.append(markdown[at:])
    return out


def _destination_end(text: str, start: int) -> int:
    """Index of the ")" closing a link destination starting at ``start``; -1 if none."""
    # nearly every destination has no parenthesis and no space: the regex finds its ")" in C
    # (the loop below was a tenth of a step on the Python docs, issue 15); ``\s`` is
    # str.isspace, so both agree on where a destination ends
    plain = _PLAIN_DESTINATION.match(text, start)
    if plain is not None:
        return plain.end() - 1
    depth = 0
    for index in range(start, len(text)):
        char = text[index]
        if char.isspace():
            return -1
        if char == "(":
            depth += 1
        elif char == ")":
            if depth == 0:
                return index
            depth -= 1
    return -1


def labelled_relevance(relevance: float, label: bool | None) -> float:
    """The relevance the rules and the link model take for a page the user labelled.

    ``label`` True: at least ``EVIDENCE_RELEVANCE`` (a relevant page: its blocks are
    evidence, its link a hit). False: a page the crawler counted as relevant becomes
    irrelevant (0); one below ``EVIDENCE_RELEVANCE`` keeps its relevance, the crawler already
    judged it not relevant. None (no label): unchanged. A label equal to the crawler's own
    verdict therefore changes nothing: relabelling back restores every statistic exactly.
    """
    if label is None:
        return relevance
    if label:
        return max(relevance, EVIDENCE_RELEVANCE)
    return relevance if relevance < EVIDENCE_RELEVANCE else 0.0


def observed(record: StepRecord) -> bool:
    """The page of this step went through the stop rules (fetched, not a duplicate)."""
    return record.relevance is not None


def rules_markdown(record: StepRecord, link_blocks: bool) -> str:
    """The Markdown the stop rules counted at this step; ``link_blocks`` is the session's
    ``CrawlConfig.link_blocks_as_evidence`` (true in a config recorded before it existed).

    Records without ``lead_pending`` were made before link destinations were dropped from
    the evidence (docs/SESSION_FORMAT.md): their Markdown is taken as it is.
    """
    if record.lead_pending is None:
        return record.markdown
    return evidence_markdown(record.markdown, link_blocks)


def rules_language(record: StepRecord, query: Query) -> Language:
    """The language the step read its page in (docs/DESIGN.md §1.1), found again from the
    record's ``lang`` and Markdown as the live step found it from the page's."""
    return markdown_language(record.lang, record.markdown, query.language)


def rules_relevance(record: StepRecord, labels: Mapping[str, bool]) -> float:
    """The relevance the rules take for an observed record, after the user's label."""
    if record.relevance is None:
        raise ValueError(f"step {record.step} observed no page")
    return labelled_relevance(record.relevance, labels.get(record.final_url))


@dataclass(frozen=True, slots=True)
class Replayed:
    """The stop rules' state and both harvests after replaying a session's records.

    ``fresh`` maps each observed step to whether its page brought new on-topic content (the
    harvest hit) in the replay; ``new`` to whether it added any block not read before
    (``Adaptive.last_new``, what its lists' credit reads).
    """

    adaptive: Adaptive
    fresh: Mapping[int, bool]
    subtrees: Harvest
    clusters: Harvest
    new: Mapping[int, bool]


def replay_rules(
    config: CrawlConfig,
    steps: Sequence[StepRecord],
    overrides: Sequence[Override],
    labels: Mapping[str, bool],
) -> Replayed:
    """The rules and harvests after ``steps`` as if ``labels`` had been known all along.

    Forgiveness is replayed as recorded: after a step whose verdict was forgiven, ``forgive``
    (and ``reset_cold`` for ``--no-stop``); after each user ``forgive`` override, both. With
    no labels the result equals the live session's state exactly.
    """
    query = Query(config.query, config.language)
    adaptive = Adaptive(config.adaptive, len(query))
    z = z_two_sided(config.delta)
    subtrees, clusters = Harvest(z=z), Harvest(z=z)
    user_forgives = Counter(o.step for o in overrides if o.kind is OverrideKind.FORGIVE)
    fresh: dict[int, bool] = {}
    new: dict[int, bool] = {}
    for record in steps:
        if observed(record):
            adaptive.observe(query, rules_markdown(record, config.link_blocks_as_evidence),
                             rules_relevance(record, labels),
                             record.blind, rules_language(record, query))
            hit = adaptive.last_fresh
            fresh[record.step] = hit
            new[record.step] = adaptive.last_new
            subtrees.observe(record.subtree, hit)
            clusters.observe(record.cluster, hit)
        if record.forgiven:
            adaptive.forgive()
            if record.forgiven_why == NO_STOP_WHY:
                adaptive.reset_cold()
        for _ in range(user_forgives[record.step]):
            adaptive.forgive()
            adaptive.reset_cold()
    return Replayed(adaptive, fresh, subtrees, clusters, new)
