"""The ``needle`` scenario (Millbrook Borough Council, nothing on the query).

:mod:`.scenario` builds the site, :mod:`.words` holds the word banks.
"""

from __future__ import annotations

from .scenario import QUERY, TOWN_HOST, build_needle

__all__ = ["QUERY", "TOWN_HOST", "build_needle"]
