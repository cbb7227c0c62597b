"""The ``allotments`` scenario (Elm Road Allotments, a lesson in ``exhausted``).

:mod:`.scenario` builds the site.
"""

from __future__ import annotations

from .scenario import LESSON, QUERY, SOCIETY_HOST, WATCH, build_allotments

__all__ = ["LESSON", "QUERY", "SOCIETY_HOST", "WATCH", "build_allotments"]
