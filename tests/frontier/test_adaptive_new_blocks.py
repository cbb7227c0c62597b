"""``Adaptive.last_new``: a page added a block not read before, whatever the crawl's
saturation (what a list's credit reads, docs/DESIGN.md §8a). Beside the seed's
``last_fresh``, which it leaves as it is."""

from __future__ import annotations

from pagesift_ui.frontier.adaptive import EVIDENCE_RELEVANCE, Adaptive, AdaptiveOptions
from pagesift_ui.frontier.query import Query


def opts() -> AdaptiveOptions:
    return AdaptiveOptions(coverage_threshold=1.0, evidence_per_term=100, patience=5,
                           min_gain=0.05)

def test_a_small_new_block_is_new_though_not_fresh() -> None:
    # last_fresh asks the new blocks to be min_gain of all collected (the crawl's saturation);
    # last_new, what a list's credit reads (DESIGN §8a), only that one was not read before
    q = Query("refund policy")
    a = Adaptive(opts(), len(q))
    big = "\n\n".join(f"Refund policy clause {i} with many words about refunds." for i in range(60))
    a.observe(q, big, 0.9, False)
    assert a.last_new and a.last_fresh
    a.observe(q, "A new refund policy note.", 0.9, False)
    assert a.last_new and not a.last_fresh  # new text, under 5% of what was collected
    a.observe(q, "A new refund policy note.", 0.9, False)
    assert not a.last_new and not a.last_fresh  # a repetition
    a.observe(q, "An unread refund policy remark.", EVIDENCE_RELEVANCE / 2, False)
    assert not a.last_new  # not read as evidence at all
