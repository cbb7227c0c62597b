"""The page inspector: a fetched page's blocks with query hits highlighted and evidence marked,
and how its relevance was computed. ``highlight_blocks`` and ``relevance_rows`` are pure."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

import pandas as pd
import streamlit as st

from components.decision_log import md_escape
from components.state import AnySession, is_live
from pagesift_ui.frontier.language import Language
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.tokens import blocks, is_cjk_char
from pagesift_ui.session import StepOutcome, StepRecord
from pagesift_ui.session.rules import rules_language

__all__ = ["MAX_BLOCKS", "highlight_blocks", "relevance_rows", "render_inspector"]

MAX_BLOCKS = 300
_WORD = re.compile(r"[^\W_]+")
_EVIDENCE_STYLE = "border-left:4px solid #2ca02c;background:#f0fff0"
_PLAIN_STYLE = "border-left:4px solid #ddd"


def _mark_hits(block: str, query: Query, language: Language | None) -> str:
    """Escape ``block`` and wrap every word that matches a query term in <mark>: matched as
    the crawl matched it, in the page's ``language`` (``Query.word_masks``)."""
    cjk_terms = [t for t in query.terms if any(is_cjk_char(c) for c in t)]
    found = list(_WORD.finditer(block))
    masks = query.word_masks([match.group().casefold() for match in found], language)
    out, last = [], 0
    for match, mask in zip(found, masks, strict=True):
        word = match.group()
        folded = word.casefold()
        hit = bool(mask) or any(term in folded for term in cjk_terms)
        if hit:
            out.append(html.escape(block[last:match.start()]))
            out.append(f"<mark>{html.escape(word)}</mark>")
            last = match.end()
    out.append(html.escape(block[last:]))
    return "".join(out)


def highlight_blocks(
    markdown: str, query: Query, evidence_blocks: Sequence[int], language: Language | None = None
) -> str:
    """HTML of the page's blocks (split as the stop rules split them), hits marked as read in
    ``language`` (None: the query's), evidence blocks outlined in green. All page text is
    escaped."""
    counted = set(evidence_blocks)
    parts = []
    page_blocks = blocks(markdown)
    for index, block in enumerate(page_blocks[:MAX_BLOCKS]):
        style = _EVIDENCE_STYLE if index in counted else _PLAIN_STYLE
        tag = " <b>evidence</b>" if index in counted else ""
        parts.append(
            f'<div style="{style};padding:4px 8px;margin:4px 0;white-space:pre-wrap;'
            f'font-size:0.9em"><small style="color:#888">block {index}{tag}</small><br>'
            f"{_mark_hits(block, query, language)}</div>"
        )
    if len(page_blocks) > MAX_BLOCKS:
        parts.append(f"<p><i>{len(page_blocks) - MAX_BLOCKS} more blocks not shown</i></p>")
    return "".join(parts)


def relevance_rows(detail: Mapping[str, Any] | None) -> tuple[pd.DataFrame, str]:
    """Per unit: about, head, tf, evidence, weight and weight × evidence; and the sum line,
    with what the page's meaning added when it was read by meaning (docs/DESIGN.md §7a)."""
    columns = ["unit", "about", "head", "tf", "evidence", "weight", "weight × evidence"]
    meaning = (detail or {}).get("meaning")
    if not detail or not detail.get("units"):
        line = "No active unit: relevance by the query's words 0."
        return pd.DataFrame(columns=columns), line + _meaning_line(meaning, detail)
    rows = [{**{k: u[k] for k in columns[:-1]}, "weight × evidence": u["weight"] * u["evidence"]}
            for u in detail["units"]]
    numerator = sum(r["weight × evidence"] for r in rows)
    denominator = sum(r["weight"] for r in rows)
    words = meaning["lexical"] if meaning else detail.get("relevance", 0.0)
    line = (f"relevance{' by the words' if meaning else ''} = Σ weight·evidence / Σ weight = "
            f"{numerator:.3f} / {denominator:.3f} = {words:.3f}  (evidence = (about + head + "
            f"tf / (tf + 1 + len/avg_len)) / 3, avg_len {detail.get('avg_len', 0.0):.0f} words "
            f"over {detail.get('pages', 0)} pages)")
    return pd.DataFrame(rows, columns=columns), line + _meaning_line(meaning, detail)


def _meaning_line(meaning: Mapping[str, float] | None, detail: Mapping[str, Any] | None) -> str:
    if not meaning or not detail:
        return ""
    return (f". By meaning: cosine with the query {meaning['cosine']:.3f} against the median "
            f"page read {meaning['median']:.3f}, lift {meaning['lift']:.3f}; relevance = 1 − "
            f"(1 − {meaning['lexical']:.3f})(1 − {meaning['lift']:.3f}) = "
            f"{detail.get('relevance', 0.0):.3f}")


#: The inspector's first choice: always the newest fetched page.
LATEST = 0


def _pick(steps: Sequence[StepRecord]) -> StepRecord | None:
    fetched = {r.step: r for r in steps if r.outcome is StepOutcome.FETCHED}
    if not fetched:
        st.info("No page fetched yet.")
        return None
    options = [LATEST, *sorted(fetched, reverse=True)]
    labels = {step: f"step {step} · {fetched[step].final_url}" for step in options[1:]}
    labels[LATEST] = f"the latest fetched page (now {labels[options[1]]})"
    choice = st.selectbox("Page", options, key="inspect_pick",
                          format_func=lambda s: labels.get(s, str(s)))
    if choice == LATEST or choice is None:
        return fetched[options[1]]
    return fetched.get(choice)


def render_inspector(session: AnySession) -> None:
    record = _pick(session.steps)
    if record is None:
        return
    query = Query(session.config.query, session.config.language)
    language = rules_language(record, query)
    st.markdown(f"**{md_escape(record.title or record.final_url)}** — relevance "
                f"{record.relevance or 0.0:.3f}, {len(record.evidence_blocks)} evidence blocks, "
                f"subtree {md_escape(record.subtree)}, read in {language.label}")
    frame, line = relevance_rows(record.relevance_detail)
    st.caption("How the relevance was computed at this step:")
    st.dataframe(frame, key="relevance_table", hide_index=True, width="stretch")
    st.caption(line)
    if is_live(session):
        now = session.current_relevance(record.final_url)
        if now is not None:
            st.caption(f"Under today's site statistics it would be {now['relevance']:.3f}.")
    st.caption("The page's Markdown blocks: query hits highlighted, blocks that counted as new "
               "evidence outlined in green.")
    st.html(highlight_blocks(record.markdown, query, record.evidence_blocks, language))
