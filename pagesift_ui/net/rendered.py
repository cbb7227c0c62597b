"""What rendering one page in the headless browser did (docs/DESIGN.md §11.3a).

Plain values, free of Playwright: a ``FetchResult`` carries a ``RenderReport`` when its body
is the rendered DOM, and the step record shows it, so a reader sees which requests the page's
scripts made that were refused and whether the render ran out of time.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

__all__ = ["MAX_LISTED_REFUSALS", "Refusal", "RenderEnd", "RenderReport"]

#: How many refused requests a report names (all of them are counted): enough to see what a
#: page tried, few enough that a tracker-heavy page does not bloat every record.
MAX_LISTED_REFUSALS = 5


class RenderEnd(enum.StrEnum):
    """How a render ended, and so what the body is."""

    SETTLED = "settled"  # the page loaded and its network went quiet: the DOM then
    DEADLINE = "deadline"  # the deadline came first: the DOM as it was then (scripts stopped)
    FETCHED = "fetched"  # the DOM could not be read in time: the plain fetch's body is kept


@dataclass(frozen=True, slots=True)
class Refusal:
    """One request of the page that was not let through, and why.

    ``reason`` is the ``FetchError.kind`` the same URL would get from a plain fetch
    (``network_policy``, ``robots``, ``out_of_scope`` …), or ``websocket`` / ``navigation`` /
    ``popup`` for what a plain fetch never does.
    """

    url: str
    reason: str

    def to_list(self) -> list[str]:
        return [self.url, self.reason]


@dataclass(frozen=True, slots=True)
class RenderReport:
    """One page's render: how it ended, the subresources served, the requests refused.

    ``refused`` counts every refusal; ``refusals`` names the first ``MAX_LISTED_REFUSALS``.
    ``elapsed_s`` is the render's wall time (the plain fetch before it not included).
    """

    end: RenderEnd
    served: int
    refused: int
    refusals: tuple[Refusal, ...]
    elapsed_s: float

    @property
    def note(self) -> str:
        """The report in words, for the decision log."""
        ends = {
            RenderEnd.SETTLED: "rendered",
            RenderEnd.DEADLINE: "rendered until the deadline (the DOM at that time)",
            RenderEnd.FETCHED: "render ran out of time; the plain fetch was used",
        }
        text = f"{ends[self.end]}; {self.served} subresource(s) served, {self.refused} refused"
        if self.refusals:
            named = ", ".join(f"{r.url} ({r.reason})" for r in self.refusals)
            text += f": {named}" + (" …" if self.refused > len(self.refusals) else "")
        return text

    def to_dict(self) -> dict[str, Any]:
        return {
            "end": self.end.value,
            "served": self.served,
            "refused": self.refused,
            "refusals": [refusal.to_list() for refusal in self.refusals],
            "elapsed_s": round(self.elapsed_s, 3),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> RenderReport:
        """Rebuild from ``to_dict()`` (a step record's ``render``); KeyError/ValueError on
        bad data."""
        return cls(
            end=RenderEnd(data["end"]),
            served=int(data["served"]),
            refused=int(data["refused"]),
            refusals=tuple(Refusal(str(url), str(reason)) for url, reason in data["refusals"]),
            elapsed_s=float(data["elapsed_s"]),
        )
