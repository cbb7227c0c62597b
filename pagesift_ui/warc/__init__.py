"""WARC export of a session's recorded fetches, and replay from a WARC (warcio)."""

from __future__ import annotations

from pagesift_ui.warc.reader import WarcRecording, WarcSource, read_warc
from pagesift_ui.warc.writer import write_warc

__all__ = ["WarcRecording", "WarcSource", "read_warc", "write_warc"]
