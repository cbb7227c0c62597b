"""Sibling credit: a group's credit is the relevance its fetched members proved, whenever
they joined it (frontier/siblings.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier.siblings import NO_GROUP, SiblingCredit

# one call: ("group", block, member) or ("observe", member, relevance)
_members = st.sampled_from(["a", "b", "c", "d"])
_calls = st.lists(st.one_of(
    st.tuples(st.just("group"), st.integers(0, 2), _members),
    st.tuples(st.just("observe"), _members, st.floats(0.0, 1.0)),
), max_size=30)


@given(_calls)
def test_a_groups_credit_counts_each_proven_member_once_in_any_order(
    calls: list[tuple[str, object, object]],
) -> None:
    credit = SiblingCredit()
    proven: dict[str, float] = {}
    listed: dict[int, set[str]] = {}
    for kind, first, second in calls:
        if kind == "group":
            assert isinstance(first, int) and isinstance(second, str)
            listed.setdefault(credit.group("parent", first, second), set()).add(second)
        else:
            assert isinstance(first, str) and isinstance(second, float)
            credit.observe(first, second)
            proven.setdefault(first, second)  # a page is read once: the first reading counts
    for group, members in listed.items():
        shown = [proven[m] for m in members if m in proven]
        assert credit.credit(group) == pytest.approx(sum(shown) / (len(shown) + 1))
        assert credit.credits()[group] == pytest.approx(credit.credit(group))


def test_an_entry_fetched_before_its_list_was_read_credits_the_list() -> None:
    credit = SiblingCredit()
    credit.observe("chapter-one", 0.6)
    credit.changed = False
    group = credit.group("contents", 1, "chapter-one")
    assert credit.changed  # the queue must be rescored: a credit moved
    assert credit.credit(group) == pytest.approx(0.3)
    credit.group("contents", 1, "chapter-two")
    assert credit.credit(group) == pytest.approx(0.3)  # an unfetched member adds nothing


def test_a_link_in_no_list_has_no_group_and_no_credit() -> None:
    credit = SiblingCredit()
    credit.observe("page", 0.9)
    assert credit.group("parent", NO_GROUP, "page") == NO_GROUP
    assert credit.credit(NO_GROUP) == 0.0
    assert len(credit) == 0


def test_relevance_outside_the_unit_interval_is_refused() -> None:
    with pytest.raises(ValueError, match="relevance must be in"):
        SiblingCredit().observe("page", 1.5)
