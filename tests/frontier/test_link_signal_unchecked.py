"""``link_signal`` builds its signal with the internal ``LinkSignal._of_page_link`` (no
constructor checks, issue 15): it must give exactly what the public constructor gives, and
both must still refuse bad input."""

from __future__ import annotations

from dataclasses import fields

import pytest

from pagesift_ui.frontier.links import LinkSignal, LinkVia, link_signal
from pagesift_ui.frontier.query import Query

CASES = [
    ("https://uni.localhost/fees/international", "International student fees",
     "Read about international student fees here", 2, 0.7, False, 3, 5),
    ("https://uni.localhost/news/2021/05/fees", "News", "", 0, 0.0, True, -1, -1),
    ("https://uni.localhost/de/gebuehren", "Deutsch", "Gebühren fees", 1, 1, True, 0, -1),
    ("https://en.uni.localhost/", "English", "", 4, 0.25, False, -1, 7),
    ("https://uni.localhost/about", "About us", "about the university", 3, 0.5, True, 2, 2),
    ("https://other.localhost/students", "Students", "student life", 1, True, False, -1, 0),
]


@pytest.mark.parametrize("cited", [False, True])
@pytest.mark.parametrize("case", CASES)
def test_same_signal_as_the_public_constructor(
    case: tuple, cited: bool,  # type: ignore[type-arg]
) -> None:
    url, anchor, context, depth, parent, hub, group, target = case
    query = Query("international student fees")
    fast = link_signal(query, url, anchor, context, depth, parent, hub, "uni.localhost",
                       group, target, cited=cited)
    checked = LinkSignal(
        url=url, anchor=anchor, context=context, depth=depth,
        parent_relevance=float(parent), parent_is_hub=bool(hub),
        anchor_mask=fast.anchor_mask, locator_mask=fast.locator_mask,
        context_mask=fast.context_mask, furniture=fast.furniture, dated=fast.dated,
        section=fast.section, portal=fast.portal, other_language=fast.other_language,
        group=group, target=target, cited=cited,
    )
    assert fast == checked
    for f in fields(LinkSignal):
        a, b = getattr(fast, f.name), getattr(checked, f.name)
        assert a == b and type(a) is type(b), f.name
    assert fast.row == checked.row
    assert [type(v) for v in fast.row] == [type(v) for v in checked.row]
    assert fast.to_dict() == checked.to_dict()
    assert LinkSignal.from_dict(fast.to_dict()) == fast


@pytest.mark.parametrize("bad", [
    {"depth": -1}, {"depth": True}, {"depth": 1.0}, {"parent_relevance": 1.5},
    {"parent_relevance": True}, {"parent_relevance": float("nan")}, {"group": -2},
    {"target": False}, {"anchor_mask": -1}, {"locator_mask": True}, {"context_mask": 0.5},
    {"phrase": True}, {"blind": False}, {"lastmod": 3}, {"via": "ftp"}, {"cited": 1},
])
def test_the_public_constructor_still_refuses_bad_input(bad: dict) -> None:  # type: ignore[type-arg]
    with pytest.raises(ValueError):
        LinkSignal(url="https://uni.localhost/a", **bad)


@pytest.mark.parametrize("bad", [
    {"depth": -1}, {"depth": True}, {"parent_relevance": 1.5},
    {"parent_relevance": float("nan")}, {"group": -2}, {"target": False},
])
def test_link_signal_still_refuses_bad_numbers(bad: dict) -> None:  # type: ignore[type-arg]
    args = {"depth": 1, "parent_relevance": 0.5, "group": -1, "target": -1} | bad
    with pytest.raises(ValueError):
        link_signal(Query("fees"), "https://uni.localhost/a", "a", "", args["depth"],
                    args["parent_relevance"], False, "uni.localhost", args["group"],
                    args["target"])


def test_the_slot_setters_are_the_fields_in_order() -> None:
    from pagesift_ui.frontier import links

    assert [setter.__self__.__name__ for setter in links._SLOT_SETTERS] == [
        f.name for f in fields(LinkSignal)]


def test_every_field_of_a_page_link_lands_in_its_own_slot() -> None:
    query = Query("international student fees")
    fast = link_signal(query, "http://uni.localhost/fees", "Fees", "Pay the fees", 3, 0.25,
                       True, "uni.localhost", 4, 7, cited=True, parent="page-key", meaning=0.5)
    assert (fast.url, fast.anchor, fast.context, fast.depth, fast.parent_relevance,
            fast.parent_is_hub, fast.group, fast.target, fast.cited, fast.parent,
            fast.meaning, fast.lastmod, fast.via) == (
        "http://uni.localhost/fees", "Fees", "Pay the fees", 3, 0.25, True, 4, 7, True,
        "page-key", 0.5, "", LinkVia.PAGE)
    assert fast.row == LinkSignal(
        url=fast.url, anchor="Fees", context="Pay the fees", depth=3, parent_relevance=0.25,
        parent_is_hub=True, anchor_mask=fast.anchor_mask, locator_mask=fast.locator_mask,
        context_mask=fast.context_mask, furniture=fast.furniture, dated=fast.dated,
        section=fast.section, portal=fast.portal, other_language=fast.other_language,
        group=4, target=7, cited=True, meaning=0.5).row
