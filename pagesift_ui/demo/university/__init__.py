"""The ``university`` scenario (Northgate University).

:mod:`.scenario` assembles the site; each other module builds one section of it (admissions,
international, faculties, services, news, events, journals) or holds its tables (``data``,
``courses``) and word banks (``words``). Only the kit is imported from outside this package.
"""

from __future__ import annotations

from .scenario import JOURNALS_HOST, QUERY, UNI_HOST, build_university

__all__ = ["JOURNALS_HOST", "QUERY", "UNI_HOST", "build_university"]
