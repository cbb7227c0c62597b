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


# -- a user's label (session/relabel.py, docs/DESIGN.md §12.3) ------------------------------


@given(_calls, st.dictionaries(_members, st.floats(0.0, 1.0), max_size=4))
def test_a_relabelled_credit_is_the_credit_of_those_values_and_undoing_it_is_exact(
    calls: list[tuple[str, object, object]], labelled: dict[str, float],
) -> None:
    credit, twin = SiblingCredit(), SiblingCredit()
    proven: dict[str, float] = {}
    for kind, first, second in calls:
        if kind == "group":
            assert isinstance(first, int) and isinstance(second, str)
            credit.group("parent", first, second)
            twin.group("parent", first, second)
        else:
            assert isinstance(first, str) and isinstance(second, float)
            credit.observe(first, second)
            # the twin is read as if the labels had been known all along
            twin.observe(first, labelled.get(first, second))
            proven.setdefault(first, second)
    original = credit.credits().tolist()
    credit.relabel(labelled)
    assert credit.credits().tolist() == pytest.approx(twin.credits().tolist())
    credit.relabel(proven)  # every page its own value again: the same floats, not nearly
    assert credit.credits().tolist() == original
    credit.relabel(labelled)
    credit.relabel({})
    assert credit.credits().tolist() == original


def test_a_label_moves_the_credit_of_every_list_the_page_is_in_and_later_ones() -> None:
    credit = SiblingCredit()
    contents = credit.group("contents", 0, "chapter")
    credit.observe("chapter", 0.0)
    credit.changed = False
    assert credit.relabel({"chapter": 0.6, "never-fetched": 1.0})  # a key not read: ignored
    assert credit.changed
    assert credit.credit(contents) == pytest.approx(0.3)
    # a list read after the label counts the labelled value
    index = credit.group("index", 2, "chapter")
    assert credit.credit(index) == pytest.approx(0.3)
    credit.changed = False
    assert not credit.relabel({"chapter": 0.6})  # the same labels: nothing moved
    assert not credit.changed
    assert credit.relabel({}) and credit.credit(index) == 0.0


def test_a_labelled_value_outside_the_unit_interval_is_refused() -> None:
    credit = SiblingCredit()
    credit.observe("page", 0.5)
    with pytest.raises(ValueError, match="relevance must be in"):
        credit.relabel({"page": -0.1})
    with pytest.raises(ValueError, match="relevance must be in"):
        credit.relabel({"never-fetched": float("nan")})  # checked whether read or not


def test_intern_names_a_group_without_a_member() -> None:
    credit = SiblingCredit()
    group = credit.intern("http://h/page", 0)
    assert credit.intern("http://h/page", 0) == group and len(credit) == 1
    assert credit.groups("http://h/a") == ()  # no member joined
    assert credit.group("http://h/page", 0, "http://h/a") == group
    assert credit.groups("http://h/a") == (group,)
