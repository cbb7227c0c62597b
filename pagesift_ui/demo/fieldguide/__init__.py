"""The ``fieldguide`` scenario (the Marshland Bird Guide, a lesson in ``limit_reached``).

:mod:`.scenario` builds the site, :mod:`.words` holds the word banks.
"""

from __future__ import annotations

from .scenario import GUIDE_HOST, LESSON, QUERY, SETTINGS, WATCH, build_fieldguide

__all__ = ["GUIDE_HOST", "LESSON", "QUERY", "SETTINGS", "WATCH", "build_fieldguide"]
