"""The app's pages, by name: a callback asks for one with ``request_page`` and ``app.py``
switches to it at the start of the next run (``st.switch_page`` cannot run in a callback)."""

from __future__ import annotations

import enum
from collections.abc import MutableMapping
from typing import Any

from components.state import StateKey

__all__ = ["Page", "request_page", "take_request"]


class Page(enum.StrEnum):
    """A page of the app; the value is its URL path."""

    EXPLORER = "explorer"
    COMPARE = "compare"
    SWEEPS = "sweeps"
    LINK_MODEL = "link-model"


def request_page(ss: MutableMapping[StateKey, Any], page: Page) -> None:
    ss["goto"] = page.value


def take_request(ss: MutableMapping[StateKey, Any]) -> Page | None:
    """The page a callback asked for (once), None if none."""
    value = ss.get("goto")
    ss["goto"] = None
    try:
        return Page(value) if value else None
    except ValueError:
        return None
