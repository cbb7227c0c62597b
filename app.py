"""pagesift-ui: the Streamlit entry point. It only lays the page out and routes."""

from __future__ import annotations

import streamlit as st

st.set_page_config(page_title="pagesift-ui", layout="wide")
st.title("pagesift-ui")
st.write("A focused-crawl explorer. The crawl controls arrive with the explorer issue.")
