"""The ``bakery`` scenario (Hillside Bakery, a lesson in ``saturated``).

:mod:`.scenario` builds the site, :mod:`.words` holds the word banks.
"""

from __future__ import annotations

from .scenario import BAKERY_HOST, LESSON, QUERY, WATCH, build_bakery

__all__ = ["BAKERY_HOST", "LESSON", "QUERY", "WATCH", "build_bakery"]
