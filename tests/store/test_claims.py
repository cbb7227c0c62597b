"""One crawl at a time per saved session: the claim, and the store's step check behind it.

Found by using the CLI: `crawl --resume ID` while the crawl saving ``ID`` ran rebuilt the
session, fetched a page and failed on SQLite's "UNIQUE constraint failed".
"""

from __future__ import annotations

import io
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from pagesift_ui.cli import main
from pagesift_ui.errors import SessionBroken
from pagesift_ui.store import (
    ClaimMode,
    SessionBusy,
    SessionStore,
    StoreSink,
    resume,
    start_session,
)
from pagesift_ui.store.claims import claim_path
from tests.fixture_site import FixtureSite

from . import site_config


def _id(session: object) -> str:
    sink = session.find_sink(StoreSink)  # type: ignore[attr-defined]
    assert sink is not None
    return str(sink.session_id)


def test_a_session_being_crawled_cannot_be_resumed_until_that_crawl_closes(
    store: SessionStore, site: FixtureSite
) -> None:
    with start_session(store, site_config(site)) as first:
        first.run(max_steps=3)
        with pytest.raises(SessionBusy, match="is being crawled by another process or window"):
            resume(store, _id(first))
        with pytest.raises(SessionBusy):
            resume(store, _id(first), claim=ClaimMode.CHECK)
        # an export reads it meanwhile
        with resume(store, _id(first), claim=ClaimMode.NONE) as read:
            assert len(read.steps) == 3
    with resume(store, _id(first)) as second:  # closed: the claim went with it
        second.run(max_steps=2)
        assert len(second.steps) == 5


def test_a_crawl_that_stopped_gives_up_its_claim_and_takes_it_again_to_go_on(
    store: SessionStore, site: FixtureSite
) -> None:
    with start_session(store, site_config(site, limit=40)) as first:
        first.run()
        assert first.done
        with resume(store, _id(first), claim=ClaimMode.CHECK) as looked:  # nobody holds it
            assert looked.done
        assert first.stop_reason is not None and first.stop_reason.value == "coverage_reached"
        first.forgive()
        first.run(max_steps=1)  # saved: the claim is held again
        with pytest.raises(SessionBusy):
            resume(store, _id(first))


def test_a_tab_that_checked_holds_nothing_and_two_crawls_meet_the_step_check(
    store: SessionStore, site: FixtureSite
) -> None:
    with start_session(store, site_config(site), claim=ClaimMode.NONE) as first:
        first.run(max_steps=3)
        with resume(store, _id(first), claim=ClaimMode.CHECK) as second:
            second.run(max_steps=1)  # saves step 4
            with pytest.raises(SessionBusy,
                               match=r"step 4 was saved already \(the store holds 4 steps\)"):
                first.run(max_steps=1)
            with pytest.raises(SessionBroken):
                first.run(max_steps=1)
    assert len(store.load(_id(first)).steps) == 4  # the other crawl's steps, whole


def test_the_command_line_refuses_to_resume_a_session_another_process_crawls(
    store: SessionStore, site: FixtureSite, tmp_path: Path
) -> None:
    with start_session(store, site_config(site)) as first:
        first.run(max_steps=2)
    session_id = _id(first)
    # another process holds the claim, as a running `crawl` does
    holder = subprocess.Popen(
        [sys.executable, "-c", textwrap.dedent(f"""
            import sys, time
            from pathlib import Path
            from pagesift_ui.store.claims import Claim
            claim = Claim(Path({str(store.path)!r}), {session_id!r})
            claim.take()
            print("held", flush=True)
            sys.stdin.read()
        """)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None and holder.stdout.readline().strip() == "held"
        out, err = io.StringIO(), io.StringIO()
        code = main(["crawl", "--resume", session_id, "--db", str(store.path), "--quiet"],
                    out, err)
        assert code != 0 and "is being crawled by another process or window" in err.getvalue()
        assert "UNIQUE" not in err.getvalue() and "rebuilt" not in err.getvalue()
        assert len(store.load(session_id).steps) == 2
    finally:
        holder.communicate(timeout=30)  # its stdin closed: it ends, and its pipes close
    code = main(["crawl", "--resume", session_id, "--db", str(store.path), "--quiet"],
                io.StringIO(), io.StringIO())
    assert code == 0  # the holder is gone, and so is its claim
    assert claim_path(store.path, session_id).exists()  # a lock file; nothing to clean
