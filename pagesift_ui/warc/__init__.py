"""WARC export of a session (at once, or streamed by a sink as it is crawled), and replay
from a WARC (warcio)."""

from __future__ import annotations

from pagesift_ui.warc.reader import WarcRecording, WarcSource, read_warc
from pagesift_ui.warc.sink import WarcSink
from pagesift_ui.warc.writer import write_warc

__all__ = ["WarcRecording", "WarcSink", "WarcSource", "read_warc", "write_warc"]
