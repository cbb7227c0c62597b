"""The sans-IO frontier core: pure state stepped by the caller.

No httpx, no streamlit, no file or network I/O anywhere below this package (a test checks
``sys.modules``). Modules: ``stats`` (δ, Wilson), ``query`` (terms, matching), ``tokens``
(blocks, token estimate), ``model`` (online Bayesian link weights), ``adaptive`` (stop rules),
``harvest`` (Wilson yield per subtree/cluster), ``weights`` (site IDF), ``relevance`` (facet
relevance), ``links`` (link signals and scores), ``queue`` (best-first frontier), ``urls``
(URL hygiene), ``focus`` (ties them together). Design: ``docs/DESIGN.md`` §0-§11.
"""

from __future__ import annotations
