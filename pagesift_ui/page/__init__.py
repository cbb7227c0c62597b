"""Bytes → ``Page``: charset decoding and HTML extraction, pure functions with no I/O."""
