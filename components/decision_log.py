"""The decision log: one plain-language paragraph per step, built only from the step record.

``explain_step(record, config)`` and ``explain_verdict(...)`` are pure functions (tested on
synthetic records); :func:`render_decision_log` shows the newest entries first, with the
user's overrides between the steps they followed.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, MutableMapping, Sequence
from typing import Any
from urllib.parse import urlsplit

import streamlit as st

from components.labels import LINKS_READ_LABEL
from components.state import StateKey
from pagesift_ui.frontier.adaptive import (
    COLD_PATIENCE,
    EVIDENCE_RELEVANCE,
    MIN_RELEVANCE,
    MIN_SOURCES,
    covered_stale_limit,
)
from pagesift_ui.frontier.families import family_of
from pagesift_ui.frontier.siblings import NAMED_LIST_CREDIT
from pagesift_ui.net.rendered import RenderReport
from pagesift_ui.session import (
    FORGIVABLE,
    CrawlConfig,
    Override,
    OverrideKind,
    StepOutcome,
    StepRecord,
    VerdictFate,
    copy_skips,
)

__all__ = [
    "LOG_ENTRIES",
    "explain_override",
    "explain_step",
    "explain_verdict",
    "kept_log_markdown",
    "log_entries",
    "log_markdown",
    "log_pages",
    "render_decision_log",
    "md_escape",
    "short_url",
    "sitemap_text",
]

#: Entries shown (newest first); older ones are in the exported bundle.
LOG_ENTRIES = 50


_MD_SPECIAL = str.maketrans({c: "\\" + c for c in "\\`*_[]<>#|~$"})
#: A URL in text shown through Markdown, as GitHub-flavoured Markdown links one by itself
#: ("autolink literals", GFM spec §6.9) but ending before quotes and brackets: a message
#: quotes its URLs ('http://…'), and a quote GFM would take into the link.
_URL_IN_TEXT = re.compile(r"""(?:https?://|www\.)[^\s<>'"`“”‘’()\[\]{}]+""", re.IGNORECASE)
#: What GFM leaves out of the end of an autolink literal (§6.9): trailing punctuation.
_URL_TRAILING = "?!.,:;*_~"


def md_escape(text: str) -> str:
    """Text from the web shown literally by ``st.markdown`` (no emphasis, links or $math$).

    A URL in it becomes an explicit link to itself: escaped like the rest, Markdown would
    still link it by itself, with the escapes in its address (``no\\_such`` for
    ``no_such``, a link to another page)."""
    shown, start = [], 0
    for found in _URL_IN_TEXT.finditer(text):
        url = found.group().rstrip(_URL_TRAILING)
        if url.endswith("//"):
            continue  # "http://." names no host: text
        end = found.start() + len(url)
        target = url if "://" in url else f"http://{url}"
        shown.append(text[start:found.start()].translate(_MD_SPECIAL))
        shown.append(f"[{url.translate(_MD_SPECIAL)}](<{target}>)")
        start = end
    shown.append(text[start:].translate(_MD_SPECIAL))
    return "".join(shown)


def short_url(url: str, seed_url: str) -> str:
    """The path (with query) on the seed's host; the full URL elsewhere."""
    parts, seed = urlsplit(url), urlsplit(seed_url)
    if parts.netloc != seed.netloc:
        return url
    path = parts.path or "/"
    return f"{path}?{parts.query}" if parts.query else path


def explain_verdict(reason: str, record: StepRecord, config: CrawlConfig) -> str:
    """Which rule fired and why, in numbers.

    The counters are the ones the rule saw when it fired (``verdict_stale``,
    ``verdict_cold``): a forgiven verdict resets them before the record is taken, so
    ``stale``/``cold`` would read 0 there.
    """
    patience = config.adaptive.patience
    half = covered_stale_limit(patience)
    fired = record.verdict is not None and record.verdict.value == reason
    stale = record.verdict_stale if fired else record.stale
    cold = record.verdict_cold if fired else record.cold
    # a page whose new evidence is under the minimum gain counts as nothing new, though its
    # step lists the evidence it added (frontier/adaptive.py, the seed's rule)
    new_enough = (f"a page counts as new when its new evidence is at least "
                  f"{config.adaptive.min_gain:.0%} of all collected so far")
    stale_pages = "1 page" if stale == 1 else f"{stale} pages"  # "1 pages in a row"
    cold_pages = "1 page" if cold == 1 else f"{cold} pages"
    texts = {
        "saturated": (f"{stale_pages} in a row brought nothing new (patience {patience}; "
                      f"{new_enough})"),
        "coverage_reached": (
            f"every term has enough evidence (coverage {record.coverage:.0%} ≥ "
            f"{config.adaptive.coverage_threshold:.0%}, from {record.sources} pages ≥ "
            f"{MIN_SOURCES}) and {stale_pages} in a row brought nothing new "
            f"(ceil(patience/2) = {half}; {new_enough})"
        ),
        "no_relevant_pages": (
            f"nothing relevant was found yet and {cold_pages} in a row came through clue-less "
            f"links and were irrelevant ({COLD_PATIENCE} × patience = "
            f"{COLD_PATIENCE * patience})"
        ),
        # the budget then: the user may have raised it since (CrawlSession.raise_limit)
        "limit_reached": f"the page budget of {record.pages_scheduled} is spent" + (
            # "spent" beside a Pages tile of 70 read as a contradiction: failed fetches and
            # non-HTML answers use the budget and read no page (found by using the app)
            f" ({record.pages_fetched} pages read; the other "
            f"{record.pages_scheduled - record.pages_fetched} fetches failed, were not "
            "recorded or were not HTML)"
            if record.pages_scheduled > record.pages_fetched else ""),
        "exhausted": "no fetchable link is left in the queue",
        "cancelled": "the user stopped the crawl",
    }
    return f"{reason}: {texts.get(reason, 'a stop rule fired')}"


def _family_text(url: str, link: Mapping[str, Any]) -> str:
    """Which pages the family term speaks for, when it lifted the link: the name family's
    URL stem (``frontier/families.py``) and what its fetched members proved."""
    family = next((f for f in link.get("features", []) if f.get("name") == "family"), None)
    if family is None or float(family.get("contribution", 0.0)) <= 0.0:
        return ""
    stem = urlsplit(family_of(url)).path
    return (f"; its name family (pages named {stem}…) has credit "
            f"{float(family['value']):.2f} from those of its pages fetched so far")


def _meaning_text(link: Mapping[str, Any]) -> str:
    """What the link's own words meant, when that lifted it: its anchor and its list's
    title read by meaning against the query (``frontier/meaning.py``, docs/DESIGN.md §8.2)."""
    meaning = next((f for f in link.get("features", []) if f.get("name") == "meaning"), None)
    if meaning is None or float(meaning.get("contribution", 0.0)) <= 0.0:
        return ""
    return (f"; its anchor and list title, read by meaning, are nearer the query than most "
            f"links read so far (+{float(meaning['contribution']):.2f})")


def _score_text(record: StepRecord) -> str:
    """The link's score and its terms. The explanation uses the weights in force when the link
    was popped; the queue score may date from the last rescoring (term weights that drifted by
    less than RESCORE_DELTA do not rescore), so when the two differ both are given."""
    link = record.link
    if link is None:
        return f"the start URL (score {record.score:.2f})"
    parts = [
        f"{f['name']} {f['value']:.2f} × {f['weight']:.2f}"
        for f in link.get("features", [])
        if f.get("contribution", 0.0) > 0
    ]
    text = " + ".join(parts) if parts else "no feature matched the query"
    for step in link.get("steps", []):
        text += f", {step['rule']} → {step['score']:.2f}"
    notes = ("; a blind link: no query word in its anchor, URL or context, so its parent, its "
             "siblings, its popularity, its name family and its meaning scored it"
             ) if record.blind else ""
    notes += _meaning_text(link)
    if link.get("cited"):
        notes += ("; a citation: its page names it in running text, so it takes half the "
                  "page's relevance")
    if link.get("named_list"):
        notes += (f"; its list's title (\"{link['named_list']}\") is all query words, so its "
                  f"sibling credit holds {NAMED_LIST_CREDIT:.1f} for the site filing it under "
                  "the query")
    notes += _family_text(record.url, link)
    notes += sitemap_text(link)
    if abs(float(link.get("score", record.score)) - record.score) >= 0.005:
        return f"ranked with score {record.score:.2f}; with the weights when it was fetched: " \
               f"{text}{notes}"
    return f"score {record.score:.2f}: {text}{notes}"


def sitemap_text(link: Mapping[str, Any] | None) -> str:
    """"; from the sitemap (lastmod …)" for a link the sitemap offered (docs/DESIGN.md
    §11.13), "" for a page's link: its URL's words scored it, its lastmod is only shown."""
    if not link or link.get("via") != "sitemap":
        return ""
    lastmod = link.get("lastmod") or ""
    return f"; from the sitemap{f' (lastmod {lastmod})' if lastmod else ''}, not from a page"


def _sitemap_seeding_text(links: Mapping[str, Any]) -> str:
    """What the sitemap seeding of this step did, from ``links.sitemap``."""
    seeded = links.get("sitemap")
    if not isinstance(seeded, Mapping):
        return ""
    files = seeded.get("files", [])
    read = sum(1 for f in files if f.get("outcome") == "read")
    failed = [f for f in files if f.get("outcome") != "read"]
    cut = seeded.get("cut", 0)
    text = (f"Sitemaps: {read} of {len(files)} read, {seeded.get('found', 0)} URLs taken"
            f"{f' ({cut} more cut by the cap)' if cut else ''}, {seeded.get('queued', 0)} "
            "queued.")
    if failed:
        text += " " + "; ".join(f"{f.get('url')}: {f.get('detail')}" for f in failed[:3]) + "."
    return text


def _relevance_text(record: StepRecord) -> str:
    rel = record.relevance
    if rel is None:
        return ""
    if rel >= EVIDENCE_RELEVANCE:
        verdict = f"≥ {EVIDENCE_RELEVANCE}: its blocks can count as evidence"
    elif rel >= MIN_RELEVANCE:
        verdict = "too weak to count either way"
    else:
        verdict = f"< {MIN_RELEVANCE}: irrelevant"
    units = _top_units(record.relevance_detail)
    return f"Relevance {rel:.2f} ({verdict}{'; ' + units if units else ''})."


def _top_units(detail: Mapping[str, Any] | None, n: int = 3) -> str:
    if not detail:
        return ""
    units = [u for u in detail.get("units", []) if u.get("evidence", 0.0) > 0]
    units.sort(key=lambda u: -u["evidence"] * u["weight"])
    shown = []
    for unit in units[:n]:
        where = [w for w in ("about", "head") if unit.get(w)]
        place = "+".join(where) + ", " if where else ""
        shown.append(f"“{unit['unit']}” {place}tf {unit['tf']}")
    return ", ".join(shown)


def _evidence_text(record: StepRecord, config: CrawlConfig) -> str:
    """What the page added and what that did to Stale, in the stop rules' own bands
    (``Adaptive.observe``): "Nothing new" was said of pages that left Stale where it was, so a
    class counting the log's "Nothing new" did not get the Stale tile (found by teaching with
    the app)."""
    rel = record.relevance
    if rel is None:
        return ""
    added = [f"{t} +{a}" for t, a in zip(record.terms, record.evidence_added, strict=False) if a]
    if rel >= EVIDENCE_RELEVANCE and added:
        blocks = len(record.evidence_blocks)
        new = f"New evidence: {', '.join(added)} from {blocks} block{'s' * (blocks != 1)}"
        if record.fresh:
            return f"{new}: Stale back to 0."
        return (f"{new}, under {config.adaptive.min_gain:.0%} of all the evidence read: "
                "counts toward Stale.")
    if rel >= EVIDENCE_RELEVANCE:
        return "Nothing new (its blocks were read before): counts toward Stale."
    if rel >= MIN_RELEVANCE:
        return "Neither new nor stale: too weak to be read as evidence, Stale stays."
    if any(record.evidence):
        return "Nothing new (irrelevant after a find): counts toward Stale."
    return "Nothing new, and nothing found yet: not stale."


def _coverage_text(record: StepRecord, config: CrawlConfig) -> str:
    target = config.adaptive.evidence_per_term
    at_target = sum(e >= target for e in record.evidence)
    # the share is the mean of each term's min(1, evidence / target): "2/3 terms at 3 (78%)"
    # read as a sum a class could not make (found by teaching with the app)
    return (
        f"Coverage {record.coverage:.0%} (needs {config.adaptive.coverage_threshold:.0%}; the "
        f"mean over terms of evidence up to {target}; {at_target} of {len(record.terms)} "
        f"terms at {target}), sources {record.sources} (needs "
        f"{MIN_SOURCES}). Stale {record.stale}/{config.adaptive.patience}, cold {record.cold}/"
        f"{COLD_PATIENCE * config.adaptive.patience}."
    )


def _head_text(record: StepRecord, config: CrawlConfig) -> str:
    where = short_url(record.url, config.seed_url)
    if record.outcome is StepOutcome.ERROR:
        return f"Step {record.step}: {where} failed ({record.error})."
    if record.outcome is StepOutcome.SKIPPED:
        return f"Step {record.step}: skipped {where}: not HTML ({record.content_type})."
    if record.outcome is StepOutcome.DUPLICATE:
        return (f"Step {record.step}: {where} repeats "
                f"{short_url(record.duplicate_of, config.seed_url)}; not counted.")
    title = f" “{record.title}”" if record.title else ""
    return f"Step {record.step}: fetched {where}{title} ({_score_text(record)})."


def _copies_text(links: Mapping[str, Any]) -> str:
    """The links left because they are a fetched page plus a query pair learned to make
    copies (``frontier/copyparams.py``), by pair."""
    counts = copy_skips(links)
    if not counts:
        return ""
    pairs = ", ".join(f"?{pair} ({count})" for pair, count in sorted(counts.items()))
    return (f"Copies not fetched: links to fetched pages plus {pairs}, a query pair learned "
            "to make copies.")


def _tail_text(record: StepRecord, config: CrawlConfig) -> list[str]:
    out = []
    if record.dropped_dry:
        # named, and where they went: "Skipped 1 queued links" said neither (found by using
        # the app)
        dry = record.dropped_dry
        shown_urls = (", ".join(short_url(url, config.seed_url) for url in dry[:3])
                      + (" …" if len(dry) > 3 else ""))
        out.append(f"Set aside {len(dry)} queued link{'s' * (len(dry) != 1)} of dry subtrees "
                   f"first ({shown_urls}): queued again when the subtree is no longer dry "
                   "(its statistics, or you keeping it open or clearing it).")
    if record.model_changed:
        out.append("The link model switched a weight in use; the queue was rescored.")
    elif record.rescored:
        out.append("Term weights moved; the queue was rescored.")
    links = record.links or {}
    if links.get("found"):
        unseen = links.get("not_considered", 0)
        beyond = (f" ({unseen} past the first {config.max_links_per_page:,} not looked at: "
                  f"Advanced → {LINKS_READ_LABEL})" if unseen else "")
        out.append(f"Links: {links['found']} found{beyond}, {links.get('queued', 0)} queued.")
    if back := links.get("unparked", 0):
        whose = "their" if back != 1 else "its"
        out.append(f"Queued again: {back} link{'s' * (back != 1)} set aside while {whose} "
                   "subtree was dry; with this page the statistics no longer find it dry.")
    if copies := _copies_text(links):
        out.append(copies)
    if seeding := _sitemap_seeding_text(links):
        out.append(seeding)
    if record.politeness_note:
        out.append(f"Politeness: {record.politeness_note}.")
    if record.render is not None:
        out.append(f"JavaScript: {RenderReport.from_dict(record.render).note}.")
    return out


def _verdict_text(record: StepRecord, config: CrawlConfig) -> list[str]:
    """The verdict that fired at the step, if one did, and what became of it."""
    if record.verdict is None:
        return []
    out = [f"Verdict {explain_verdict(record.verdict, record, config)}."]
    if record.verdict not in FORGIVABLE:
        # the budget, an empty queue or the user ended it: a stop rule's verdict forgiven at
        # the same step ("Forgiven: --no-stop …") and the lead check ("It stood: the next 5
        # links … at least 1.1") read as reasons to go on (found by using the app)
        return [*out, "The crawl stopped here."] if record.stopped else out
    if record.forgiven:
        if record.verdict_fate is VerdictFate.AUTO_FORGIVEN:
            out.append(f"Forgiven{_QUEUE_BEFORE}: {record.forgiven_why}.")
        else:
            out.append(f"Forgiven: {record.forgiven_why}.")
        if record.verdict_fate is VerdictFate.NO_STOP and record.lead_why:
            # recorded past (--no-stop): what the pending-lead check said, with numbers
            # (a verdict the one-source grace forgave says the lead's answer in its why)
            out.append(f"It stood{_QUEUE_BEFORE}: {record.lead_why}.")
    elif record.stopped:
        stood = f" It stood{_QUEUE_BEFORE}: {record.lead_why}." if record.lead_why else ""
        out.append(f"The crawl stopped here.{stood}")
    return out


#: The pending-lead check reads the queue before the page's own links are added (asked
#: after, on the 22 tuning queries only SQLite advocacy moved, its stop from 35 to 47 pages
#: with the same answers: docs/DECISIONS.md, the thirtieth session); the words say so, or
#: "no link is queued" stood beside "Links: 54 found, 22 queued".
_QUEUE_BEFORE = ", judged on the queue before this page's links were added"


def explain_step(record: StepRecord, config: CrawlConfig, *, verdict_first: bool = False) -> str:
    """One paragraph saying what the step did and why, from the record alone. With
    ``verdict_first`` the verdict opens it: the explorer's Latest box is a box of fixed height
    that scrolls, and at its end the verdict, the point of a stop, was out of sight."""
    parts = [_head_text(record, config)]
    if record.outcome is StepOutcome.FETCHED:
        parts += [_relevance_text(record), _evidence_text(record, config),
                  _coverage_text(record, config)]
    parts += _tail_text(record, config)
    verdict = _verdict_text(record, config)
    parts = [*verdict, *parts] if verdict_first else [*parts, *verdict]
    return " ".join(p for p in parts if p)


_OVERRIDE_TEXT = {
    OverrideKind.FORGIVE: "continued past {target}",
    OverrideKind.STOP: "stopped the crawl",
    OverrideKind.FORCE_DRY: "forced subtree {target} dry: its queued links will not be fetched",
    OverrideKind.KEEP_OPEN: "kept subtree {target} open whatever its interval says",
    OverrideKind.CLEAR_SUBTREE: "let the statistics decide subtree {target} again",
    OverrideKind.PIN: "pinned {target}: pins are fetched in the order they were made",
    OverrideKind.DROP: "dropped {target} from the queue",
    OverrideKind.RAISE_LIMIT: "raised the page budget to {target} pages",
}


def explain_override(event: Override) -> str:
    """One line for an override, placed after the step it followed."""
    if event.kind is OverrideKind.RELABEL:
        # the engine's note says what changed (weights, coverage, counters, subtree:
        # before → after); an older bundle's relabel has none
        if event.note:
            return f"Override after step {event.step}: {event.target}: {event.note}."
        word = ("unlabelled" if event.value is None
                else "relevant" if event.value else "irrelevant")
        text = f"labelled {event.target} {word}"
    elif event.kind is OverrideKind.PIN and event.note.startswith("pinned"):
        text = f"pinned {event.target}: {event.note.split(': ', 1)[-1]}"
    else:
        text = _OVERRIDE_TEXT[event.kind].format(target=event.target)
        if event.kind in _NOTE_TAIL and "; " in event.note:
            # what reopening did ("13 links set aside … are queued again"): the engine's
            # note said it and the log did not (found by using the app)
            text += "; " + event.note.split("; ", 1)[1]
    return f"Override after step {event.step}: you {text}."


#: Overrides whose note says, after "; ", what else they did.
_NOTE_TAIL = frozenset({OverrideKind.KEEP_OPEN, OverrideKind.CLEAR_SUBTREE})


def _page_entries(
    steps: Sequence[StepRecord], overrides: Sequence[Override], n: int, page: int,
) -> list[tuple[str, int]]:
    """The entries of ``page`` newest first, as (kind, index into ``steps`` or
    ``overrides``). The newest ``k`` entries hold at most ``k`` steps, so they come from
    the last ``k``."""
    upto = (page + 1) * n
    first = max(len(steps) - upto, 0)
    # (position, order within it): overrides after step k sit at k + 0.5, the latest first
    entries: list[tuple[tuple[float, int], str, int]] = [
        ((steps[i].step, 0), "step", i) for i in range(first, len(steps))
    ]
    entries += [((o.step + 0.5, i), "override", i)
                for i, o in enumerate(overrides) if o.step >= first]
    entries.sort(key=lambda e: e[0], reverse=True)
    return [(kind, index) for _, kind, index in entries[page * n:upto]]


def _entry_text(kind: str, index: int, steps: Sequence[StepRecord],
                overrides: Sequence[Override], config: CrawlConfig) -> str:
    if kind == "step":
        return explain_step(steps[index], config)
    return explain_override(overrides[index])


def log_entries(
    steps: Sequence[StepRecord],
    overrides: Sequence[Override],
    config: CrawlConfig,
    n: int = LOG_ENTRIES,
    page: int = 0,
) -> list[tuple[str, str]]:
    """(kind, text) newest first: ``step`` and ``override`` entries, at most ``n``, those of
    ``page`` (0: the newest ``n``). Only the entries on that page are explained."""
    return [(kind, _entry_text(kind, index, steps, overrides, config))
            for kind, index in _page_entries(steps, overrides, n, page)]


def log_pages(steps: Sequence[StepRecord], overrides: Sequence[Override],
              n: int = LOG_ENTRIES) -> int:
    """How many pages of ``n`` entries the log has (1 while it is empty)."""
    return max(math.ceil((len(steps) + len(overrides)) / n), 1)


def _paragraph(kind: str, text: str) -> str:
    # a blank line would end the paragraph (and an override's bold) early
    safe = md_escape(" ".join(text.split()))
    return f"**{safe}**" if kind == "override" else safe


def log_markdown(entries: Sequence[tuple[str, str]]) -> str:
    """The entries as one Markdown text, a paragraph each, overrides in bold: one element
    instead of one per entry (50 ``st.markdown`` calls were ~9 ms a rerun; issue 15)."""
    return "\n\n".join(_paragraph(kind, text) for kind, text in entries)


#: ``ss["log_memo"]``: (what the entries are explained from, each explained entry's
#: paragraph by (kind, index)). Records and overrides are only ever appended and an entry's
#: text is a pure function of its record (or override) and the config, so a rerun explains
#: only the entries new since the last one (issue 15: 50 entries were ~6–10 ms a rerun).
LogMemo = tuple[tuple[int, int, int], dict[tuple[str, int], str]]
#: Paragraphs kept at most (a few pages); past it the memo starts again.
LOG_MEMO_MAX = 8 * LOG_ENTRIES


def kept_log_markdown(
    ss: MutableMapping[StateKey, Any], steps: Sequence[StepRecord],
    overrides: Sequence[Override], config: CrawlConfig, page: int = 0,
) -> str:
    """``log_markdown(log_entries(steps, overrides, config, page=page))``, each entry's
    paragraph kept in ``ss["log_memo"]`` for the session's steps and config (its serial
    tells a new session)."""
    key = (int(ss.get("session_serial", 0)), id(steps), id(config))
    memo: LogMemo | None = ss.get("log_memo")
    kept = memo[1] if memo is not None and memo[0] == key else {}
    if len(kept) > LOG_MEMO_MAX:
        kept = {}
    paragraphs = []
    for kind, index in _page_entries(steps, overrides, LOG_ENTRIES, page):
        paragraph = kept.get((kind, index))
        if paragraph is None:
            paragraph = _paragraph(kind, _entry_text(kind, index, steps, overrides, config))
            kept[(kind, index)] = paragraph
        paragraphs.append(paragraph)
    ss["log_memo"] = (key, kept)
    return "\n\n".join(paragraphs)


def render_decision_log(
    steps: Sequence[StepRecord], overrides: Sequence[Override], config: CrawlConfig
) -> None:
    if not steps:
        st.info("No steps yet: press **Step** or **Run**.")
        return
    pages = log_pages(steps, overrides)
    page = 1
    if pages > 1:
        # no max_value: a bound that grew with each step would make it another widget;
        # a page past the last shows the oldest entries
        page = min(int(st.number_input(
            f"Page of the log (1 = newest, {pages} pages of {LOG_ENTRIES})", min_value=1,
            step=1, key="log_page") or 1), pages)
    st.caption(f"Newest first; entries {(page - 1) * LOG_ENTRIES + 1}–"
               f"{min(page * LOG_ENTRIES, len(steps) + len(overrides))} of "
               f"{len(steps) + len(overrides)}. Your overrides are in bold.")
    st.markdown(kept_log_markdown(st.session_state, steps, overrides, config, page - 1))
