"""pagesift-ui: the Streamlit entry point. It only lays the page out and routes to components.

``components`` is installed with the project (``pip install -e .``), so this file imports it
like any other package, wherever Streamlit or AppTest runs it from.
"""

from __future__ import annotations

import streamlit as st

from components.compare import render_compare
from components.compare_set import init_compare_state
from components.explorer import VIEW_PICKS, explorer
from components.linkquality import render_link_quality
from components.pages import Page, take_request
from components.sidebar import init_state
from components.state import keep_values, one_run_at_a_time
from components.sweepview import render_sweeps

#: The pages in the navigation, in its order; the explorer is the landing page.
PAGES = (
    (Page.EXPLORER, explorer, "Explorer"),
    (Page.COMPARE, render_compare, "Compare"),
    (Page.SWEEPS, render_sweeps, "Sweeps"),
    (Page.LINK_MODEL, render_link_quality, "Link model"),
)


def run() -> None:
    st.set_page_config(page_title="pagesift-ui", layout="wide")
    with one_run_at_a_time(st.session_state):
        _run()


def _run() -> None:
    ss = st.session_state
    init_state(ss)
    init_compare_state(ss)
    pages = {page: st.Page(draw, title=title, url_path=page.value,
                           default=page is Page.EXPLORER)
             for page, draw, title in PAGES}
    # At the top, not in the sidebar: the explorer's setup keeps its first screen.
    current = st.navigation(list(pages.values()), position="top")
    # the explorer's open view and its pickers, while another page is shown (Streamlit drops
    # the state of a widget no run draws: back on the explorer, the view was Decision log)
    keep_values(ss, ("view", *VIEW_PICKS))
    requested = take_request(ss)  # a callback's "open it there" (a sweep cell, …)
    if requested is not None and current.url_path != requested.value:
        st.switch_page(pages[requested])
    current.run()


run()
