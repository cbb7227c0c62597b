"""Type checks shared by every validated boundary (bools are not numbers here)."""

from __future__ import annotations

import math
import numbers

__all__ = ["is_count", "is_number"]


def is_number(value: object) -> bool:
    """A finite int or float, not a bool."""
    return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value)


def is_count(value: object) -> bool:
    """An integer (numpy integers too), not a bool; the sign is the caller's to check."""
    return isinstance(value, numbers.Integral) and not isinstance(value, bool)
