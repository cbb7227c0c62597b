"""The ``multilingual`` scenario (Hochschule Talheim in German, English and French).

:mod:`.scenario` builds the English and French pages and assembles the site, :mod:`.german`
the German pages, :mod:`.hochschule` what the languages share (host, chromes, the table of
equivalent pages), :mod:`.words` the word banks of all three languages.
"""

from __future__ import annotations

from .scenario import GERMAN_QUERY, HOST, QUERY, build_multilingual

__all__ = ["GERMAN_QUERY", "HOST", "QUERY", "build_multilingual"]
