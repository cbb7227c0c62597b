"""The ``needle`` scenario (Millbrook Borough Council, nothing on the query).

:mod:`.scenario` builds the site, :mod:`.words` holds the word banks.
"""

from __future__ import annotations

from .scenario import LESSON, QUERY, TOWN_HOST, WATCH, build_needle

__all__ = ["LESSON", "QUERY", "TOWN_HOST", "WATCH", "build_needle"]
