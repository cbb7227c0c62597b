"""Sibling credit: a group's credit is the relevance its fetched members proved, whenever
they joined it (frontier/siblings.py)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pagesift_ui.frontier.linkrules import link_contexts
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.siblings import (
    NAMED_LIST_CREDIT,
    NO_GROUP,
    SiblingCredit,
    list_blocks,
    list_blocks_titled,
    title_named,
)

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


# --------------------------------------------------------------------------- named lists


def test_each_list_block_has_the_title_its_entries_carry_in_their_context() -> None:
    # a heading, a paragraph between it and its list (a Sphinx chapter's introduction), a
    # link-less item that ends one block and titles the next, and a list with no title
    markdown = ("- [top](http://x/top)\n\nIntro text.\n\n## Features\n\nSome words.\n\n"
                "- [a](http://x/a)\n- [b](http://x/b)\n- ► Obsolete Documents\n"
                "- [c](http://x/c)\n\nA paragraph.\n\n- [d](http://x/d)\n")
    blocks, titles = list_blocks_titled(markdown)
    assert blocks == list_blocks(markdown) == {
        "http://x/top": 0, "http://x/a": 1, "http://x/b": 1, "http://x/c": 2, "http://x/d": 3}
    # a paragraph ends a list, not its title: the last block is still under the item
    assert titles == ["", "Features", "► Obsolete Documents", "► Obsolete Documents"]
    contexts = link_contexts(markdown)
    for url, block in blocks.items():
        ((_, context),) = contexts[url]
        title = titles[block]
        assert context.endswith(f" § {title}") if title else " § " not in context


def test_a_nested_list_stays_in_its_block_and_a_nested_item_without_a_link_ends_it() -> None:
    # page/extract.py indents a nested list's items; the block is still the whole run of
    # items, and a link-less item ends it and titles the next at any depth, as it did when
    # nested lists were written flat
    markdown = ("- [a](http://x/a)\n\n  - [b](http://x/b)\n\n    1. [c](http://x/c)\n\n"
                "  - ► Older\n\n  - [d](http://x/d)\n\n- [e](http://x/e)")
    flat = "\n".join(line.lstrip() for line in markdown.splitlines())
    assert list_blocks_titled(markdown) == list_blocks_titled(flat) == (
        {"http://x/a": 0, "http://x/b": 0, "http://x/c": 0, "http://x/d": 1, "http://x/e": 1},
        ["", "► Older"])


@pytest.mark.parametrize(("title", "named"), [
    ("► Features", True),  # a marker is no word
    ("Features", True),
    ("Programming Interfaces", True),  # stems: interfaces / interface
    ("The features", True),  # stop words are not content
    ("SQLite Features", False),  # a word the query does not say
    ("Data Persistence", False),
    ("3.11 Features", True),  # a number is no word either
    ("The", False),  # no content word at all
    ("", False),
])
def test_a_title_is_named_when_every_content_word_is_a_query_term(
    title: str, named: bool,
) -> None:
    query = Query("engine features: programming interface, journaling and integrity")
    assert title_named(query, title) is named


def test_a_list_the_query_names_takes_the_named_credit_over_what_its_entries_proved() -> None:
    credit = SiblingCredit()
    named = credit.group("docs", 0, "a", "► Features")
    plain = credit.group("docs", 1, "c")
    credit.group("docs", 0, "b")  # a later member names nothing: the group stays named
    credit.observe("a", 0.2)
    credit.observe("c", 0.2)
    assert credit.named(named) == "► Features" and credit.named(plain) == ""
    assert credit.credit(named) == 0.2 / 2 + NAMED_LIST_CREDIT
    assert credit.credit(plain) == 0.2 / 2
    assert credit.credits().tolist() == [credit.credit(named), credit.credit(plain)]
    assert credit.credit(NO_GROUP) == 0.0 and credit.named(NO_GROUP) == ""
    # a label moves what the entries proved, never the title's part
    credit.relabel({"a": 1.0})
    assert credit.credit(named) == 1.0 / 2 + NAMED_LIST_CREDIT


def test_naming_a_list_asks_for_a_rescore_once() -> None:
    credit = SiblingCredit()
    credit.group("docs", 0, "a")
    credit.changed = False
    credit.group("docs", 0, "b", "Features")
    assert credit.changed
    credit.changed = False
    credit.group("docs", 0, "c", "Features")
    assert not credit.changed


_LINE_KINDS = st.sampled_from(["heading", "titled item", "entry", "paragraph", "blank",
                               "continuation"])


@given(st.lists(_LINE_KINDS, max_size=40))
def test_a_blocks_title_is_the_one_link_contexts_gives_each_of_its_entries(
    kinds: list[str],
) -> None:
    # Markdown as page/extract.py writes it (nested lists are flattened, so a link-less
    # item is never indented): every entry's context ends in its block's title
    lines = []
    for n, kind in enumerate(kinds):
        lines.append({"heading": f"## Title {n}", "titled item": f"- ► Section {n}",
                      "entry": f"- [entry {n}](http://x/{n})", "paragraph": f"Words {n}.",
                      "blank": "", "continuation": f"  more words {n}"}[kind])
    markdown = "\n".join(lines)
    blocks, titles = list_blocks_titled(markdown)
    assert blocks == list_blocks(markdown)
    assert len(titles) == (max(blocks.values()) + 1 if blocks else 0)
    contexts = link_contexts(markdown)
    for url, block in blocks.items():
        ((_, context),) = contexts[url]
        assert context.endswith(f" § {titles[block]}") if titles[block] else " § " not in context
