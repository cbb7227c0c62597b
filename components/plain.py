"""Plotly figures from plain dicts, built without plotly's per-property validation, and
converted for sending once.

``go.Figure(traces, layout)`` checks every property of every trace and of the layout against
plotly's schema and copies each array: ~14 ms for the stale/cold chart and ~10 ms for the
weights chart at a 500-step window, both rebuilt on every step (issue 15; docs/DECISIONS.md
"The rerun, fourth pass"). The figure builders write their traces and layouts in the form
validation would give them (``{"text": …}`` titles, nested ``marker``/``line`` dicts, no
``marker_color`` shorthands), so the figure sent is the same; ``VALIDATE`` turns validation
back on, and the tests build every figure both ways and compare their JSON.

``st.plotly_chart`` sends ``figure.to_dict()``: a deep copy of the whole figure walked for
numpy arrays, the default template (~10 KB of nested lists, the same in every figure)
included, ~2.4 ms of it even for an empty figure, four figures on every rerun, memoised
ones too. A :class:`PlainFigure` is never changed once built (the app memoises and draws
its figures as built), so its ``to_dict`` is computed once, and the template is added to it
as converted once per process instead of being copied into and walked in every figure.

``_validate`` is plotly's figure-level switch (plotly.py PR #2403), private but what the
validation-off path of ``Figure.__init__`` reads; a figure built with it still answers
``fig.data[0].y`` and ``fig.layout.shapes`` as any other.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any

import plotly.graph_objects as go
import plotly.io as pio

__all__ = ["VALIDATE", "PlainFigure", "Trace", "bar", "plain_figure", "scatter", "text"]

#: A trace as plotly's JSON has it: ``{"type": "scatter", "x": …, …}``.
Trace = dict[str, Any]
#: True: plotly's own validated figures (the tests' reference); False in the app.
VALIDATE = False


class PlainFigure(go.Figure):  # type: ignore[misc]  # plotly has no type hints
    """A figure that is not changed once built: ``to_dict`` (what ``st.plotly_chart`` and
    ``to_json`` send) is computed on first use and the same dict returned after, with the
    default template as :func:`default_template` holds it. Built by :func:`plain_figure`
    with an empty template of its own, so the template is not copied into it."""

    def to_dict(self) -> dict[str, Any]:
        sent: dict[str, Any] | None = getattr(self, "_sent", None)
        if sent is None:
            sent = super().to_dict()
            template = default_template(str(pio.templates.default))
            if template is None:
                sent["layout"].pop("template", None)
            else:
                sent["layout"]["template"] = template
            self._sent = sent
        return sent


@cache
def default_template(name: str) -> dict[str, Any] | None:
    """The layout template plotly gives a figure under the default template ``name`` (None
    for none), as ``to_dict`` writes it: converted once, shared by every figure sent
    (read only: Streamlit and ``to_json`` only read the dict)."""
    layout: dict[str, Any] = go.Figure().to_dict()["layout"]
    template: dict[str, Any] | None = layout.get("template")
    return template


def plain_figure(traces: Sequence[Trace], layout: Mapping[str, Any]) -> go.Figure:
    """The :class:`PlainFigure` of ``traces`` and ``layout``, unvalidated, its own template
    empty (the default one is added when it is sent). With ``VALIDATE``: the reference,
    plotly's own ``go.Figure(traces, layout)``, validated, the template copied in."""
    if VALIDATE:
        return go.Figure(list(traces), dict(layout))
    return PlainFigure(list(traces), {**layout, "template": {}}, _validate=False)


def scatter(**props: Any) -> Trace:
    return {"type": "scatter", **props}


def bar(**props: Any) -> Trace:
    return {"type": "bar", **props}


def text(value: str) -> dict[str, str]:
    """A title as validation writes it: a bare string becomes ``{"text": value}``."""
    return {"text": value}
