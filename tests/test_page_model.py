"""``model.new_link`` makes the very ``Link`` the dataclass's constructor makes (issue 15:
the collector makes a page's links with it, each slot set by its own descriptor)."""

from __future__ import annotations

from dataclasses import fields

import pytest

from pagesift_ui.page import model
from pagesift_ui.page.model import Link, new_link


def test_the_link_setters_are_the_fields_in_order() -> None:
    assert [setter.__self__.__name__ for setter in model._LINK_SETTERS] == [
        field.name for field in fields(Link)]


@pytest.mark.parametrize("values", [
    ("http://x.example/a", "An anchor", True, False, None),
    ("https://x.example/b?c=d", "", False, True, "de-at"),
])
def test_a_new_link_is_the_constructors_link(values: tuple) -> None:  # type: ignore[type-arg]
    made, constructed = new_link(*values), Link(*values)
    assert made == constructed and hash(made) == hash(constructed)
    assert repr(made) == repr(constructed)
    assert [getattr(made, field.name) for field in fields(Link)] == list(values)
    with pytest.raises(AttributeError):
        made.url = "http://elsewhere.example/"  # type: ignore[misc]
