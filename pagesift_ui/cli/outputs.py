"""The files a finished crawl or replay writes: ``--out`` and ``--pages-csv``. (``crawl
--warc`` is written during the crawl, by a ``WarcSink``.)"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import TextIO

from pagesift_ui.session import CrawlSession
from pagesift_ui.session.bundle import bundle_json, pages_csv
from pagesift_ui.store import Recorded, SessionEvent
from pagesift_ui.store.portable import bundle_with_responses

__all__ = ["write_outputs"]


def write_outputs(
    session: CrawlSession,
    responses: Sequence[Recorded],
    events: Sequence[SessionEvent],
    args: argparse.Namespace,
    err: TextIO,
) -> None:
    """Write each file the options ask for, naming it on ``err``."""
    if args.out is not None:
        bundle = bundle_with_responses(session, responses, events)
        args.out.write_text(bundle_json(bundle), encoding="utf-8")
        err.write(f"session bundle: {args.out}\n")
    if args.pages_csv is not None:
        args.pages_csv.write_text(pages_csv(session), encoding="utf-8")
        err.write(f"pages CSV: {args.pages_csv}\n")
