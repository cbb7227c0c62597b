"""The compiled text passes (``_ctext.pyx``), loaded for the modules that read text with
them: ``textpass`` (the duplicate check's), ``tokens`` (the word classes) and ``meaning``
(the reading by meaning). One optional import, so the three fall back together (issue 15).

``setup.py`` builds the module where Cython and a C compiler are there; where it did not,
``load`` answers None and each reader runs its Python reference, with the same results.
"""

from __future__ import annotations

import logging
from types import ModuleType

__all__ = ["load"]

logger = logging.getLogger(__name__)


def load(reader: str) -> ModuleType | None:
    """``_ctext``, or None when the install did not build it; ``reader`` names what would
    have used it, for the log. Imported at each call, so a test that refuses the import
    sees the fallback."""
    try:
        from pagesift_ui.frontier import _ctext
    except ImportError as error:
        logger.debug("the compiled %s is not available (%s): Python", reader, error)
        return None
    return _ctext
