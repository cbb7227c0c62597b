"""The ``helpdesk`` scenario (Hearth & Oak, a shop and its help centre).

:mod:`.scenario` builds the help centre and assembles the site, :mod:`.catalog` the large
product catalogue around it, :mod:`.words` holds the word banks.
"""

from __future__ import annotations

from .scenario import HELP_HOST, LESSON, QUERY, SETTINGS, SHOP_HOST, WATCH, build_helpdesk

__all__ = ["HELP_HOST", "LESSON", "QUERY", "SETTINGS", "SHOP_HOST", "WATCH", "build_helpdesk"]
