"""Query terms and matching (docs/DESIGN.md §1), blocks and tokens (docs/DESIGN.md §2)."""

from __future__ import annotations

from pagesift_ui.frontier.query import MAX_TERMS, Query
from pagesift_ui.frontier.tokens import block_hash, blocks, estimate_tokens


def test_refund_policy_has_two_terms() -> None:
    q = Query("refund policy")
    assert len(q) == 2
    assert q.terms == ["refund", "policy"]


def test_terms_are_casefolded_deduplicated_and_stop_words_removed() -> None:
    q = Query("The Fees, the FEES and the tuition-fees of Students!")
    assert q.terms == ["fees", "tuition", "students"]


def test_at_most_sixteen_terms() -> None:
    q = Query(" ".join(f"word{i}" for i in range(40)))
    assert len(q) == MAX_TERMS == 16


def test_hit_mask_stems_both_sides_and_matches_whole_words() -> None:
    q = Query("international students tuition fees")
    assert q.hit_mask("A student pays a fee") == 0b1010
    assert q.hit_mask("INTERNATIONALLY") == 0b0001  # Snowball: internationally → internat
    assert q.hit_mask("studentship") == 0
    assert q.hit_mask("") == 0
    assert Query("refund policy").hit_mask("Refunds for gift cards: policy.") == 0b11


def test_cjk_terms_match_as_substrings() -> None:
    q = Query("退款 政策")
    assert q.hit_mask("我们的退款政策") == 0b11
    assert q.hit_mask("政策") == 0b10


def test_estimate_tokens_counts_cjk_per_character() -> None:
    assert estimate_tokens("") == 0
    assert estimate_tokens("   ") == 0
    assert estimate_tokens("a") == 1
    assert estimate_tokens("refund policy") == 3  # 12 non-space chars → ceil(12/4)
    assert estimate_tokens("退款政策") == 4
    assert estimate_tokens("退款 abcde") == 2 + 2


def test_blocks_split_on_blank_lines_trimmed() -> None:
    assert blocks("# Title\n\n  para one \n\n\n\npara two\nline") == [
        "# Title", "para one", "para two\nline",
    ]
    assert blocks("") == []


def test_block_identity_ignores_whitespace_and_is_stable() -> None:
    assert block_hash("a  b\nc") == block_hash("a b c")
    assert block_hash("a b") != block_hash("a c")
    # stable across processes (blake2b, not the salted hash())
    assert block_hash("refund policy") == 0xE7A92378754216E1
