"""The Streamlit UI of pagesift-ui: one module per panel, each a function of plain data;
``app.py`` lays them out. Installed with the project, next to ``pagesift_ui``."""
