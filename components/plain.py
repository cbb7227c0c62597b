"""Plotly figures from plain dicts, built without plotly's per-property validation.

``go.Figure(traces, layout)`` checks every property of every trace and of the layout against
plotly's schema and copies each array: ~14 ms for the stale/cold chart and ~10 ms for the
weights chart at a 500-step window, both rebuilt on every step (issue 15; docs/DECISIONS.md
"The rerun, fourth pass"). The figure builders write their traces and layouts in the form
validation would give them (``{"text": …}`` titles, nested ``marker``/``line`` dicts, no
``marker_color`` shorthands), so the figure sent is the same; ``VALIDATE`` turns validation
back on, and the tests build every figure both ways and compare their JSON.

``_validate`` is plotly's figure-level switch (plotly.py PR #2403), private but what the
validation-off path of ``Figure.__init__`` reads; a figure built with it still answers
``fig.data[0].y`` and ``fig.layout.shapes`` as any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import plotly.graph_objects as go

__all__ = ["VALIDATE", "Trace", "bar", "plain_figure", "scatter", "text"]

#: A trace as plotly's JSON has it: ``{"type": "scatter", "x": …, …}``.
Trace = dict[str, Any]
#: True: build with plotly's validation (the tests' reference); False in the app.
VALIDATE = False


def plain_figure(traces: Sequence[Trace], layout: Mapping[str, Any]) -> go.Figure:
    """The figure of ``traces`` and ``layout``, unvalidated unless ``VALIDATE``."""
    return go.Figure(list(traces), dict(layout), _validate=VALIDATE)


def scatter(**props: Any) -> Trace:
    return {"type": "scatter", **props}


def bar(**props: Any) -> Trace:
    return {"type": "bar", **props}


def text(value: str) -> dict[str, str]:
    """A title as validation writes it: a bare string becomes ``{"text": value}``."""
    return {"text": value}
