"""The command line: crawls are saved, listed, resumed, exported as WARC, and replayed."""

from __future__ import annotations

import io
import json
import re
from pathlib import Path
from typing import Any

import pytest

from pagesift_ui.cli import main
from pagesift_ui.session.bundle import load_bundle
from pagesift_ui.store import SessionStatus, SessionStore, default_db_path
from pagesift_ui.store.portable import responses_from_bundle
from tests.fixture_site import FixtureSite

from . import fetches_interrupted_after, write_foreign_warc


def run(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out, err)
    return code, out.getvalue(), err.getvalue()


def crawl(site: FixtureSite, *extra: str) -> tuple[int, str, str]:
    return run("crawl", site.url("/"), "--query", "refund policy", "--delay", "0", "--quiet",
               *extra)


@pytest.fixture(scope="module")
def exported(
    site: FixtureSite, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Path, str]:
    """A short crawl written as a bundle and a WARC, and its stdout."""
    folder = tmp_path_factory.mktemp("exported")
    bundle, warc = folder / "crawl.json", folder / "crawl.warc.gz"
    code, out, err = crawl(site, "--limit", "6", "--no-save", "--out", str(bundle),
                           "--warc", str(warc))
    assert code == 0, err
    return bundle, warc, out


def test_a_crawl_is_saved_by_default_and_listed(site: FixtureSite) -> None:
    code, out, err = crawl(site, "--limit", "4")
    assert code == 0, err
    with SessionStore(default_db_path()) as store:
        (info,) = store.list_sessions()
    assert f"session {info.session_id}: saving to {default_db_path()}" in err
    assert (info.steps, info.status, info.stop_reason) == (4, SessionStatus.DONE, "limit_reached")
    code, listing, _ = run("sessions")
    assert code == 0
    header, row = listing.splitlines()[1:]
    assert header.split()[:4] == ["ID", "UPDATED", "STEPS", "STATUS"]
    assert row.split()[0] == info.session_id and "refund policy" in row and site.url("/") in row


def test_no_save_leaves_the_store_alone(site: FixtureSite, tmp_path: Path) -> None:
    db = tmp_path / "elsewhere.sqlite3"
    code, _, err = crawl(site, "--limit", "2", "--no-save", "--db", str(db))
    assert code == 0 and "saving" not in err and not db.exists()
    code, _, err = run("sessions", "--db", str(db))
    assert code == 1 and f"there is no session store at {db}" in err and not db.exists()


def test_the_bundle_carries_its_responses(exported: tuple[Path, Path, str]) -> None:
    bundle, _, _ = exported
    view = load_bundle(bundle)  # still an ordinary bundle
    answers = responses_from_bundle(json.loads(bundle.read_text(encoding="utf-8")))
    fetched = [a.url for a in answers if type(a).__name__ == "RecordedFetch"]
    assert fetched == [s.url for s in view.steps]


@pytest.mark.parametrize("which", [0, 1], ids=["bundle", "warc"])
def test_replay_with_the_recorded_settings_reproduces_the_crawl(
    exported: tuple[Path, Path, str], site: FixtureSite, tmp_path: Path, which: int
) -> None:
    recording, summary = exported[which], exported[2]
    requests = len(site.requests)
    out_file = tmp_path / "replay.json"
    code, out, err = run("replay", str(recording), "--out", str(out_file))
    assert code == 0, err
    assert len(site.requests) == requests
    assert "0 URLs unavailable" in out
    assert out.endswith(summary)
    if which == 0:
        assert "the replay reproduces all 7 recorded steps" in out
    assert load_bundle(out_file).steps[0].url == site.url("/")


def test_replay_with_other_settings_reports_unavailable_pages(
    exported: tuple[Path, Path, str], site: FixtureSite
) -> None:
    requests = len(site.requests)
    code, out, err = run("replay", str(exported[0]), "--query", "shipping times", "--limit",
                         "30", "--no-stop", "--patience", "2")
    assert code == 0, err
    assert len(site.requests) == requests, "a replay never goes online"
    found = re.search(r"(\d+) URLs? unavailable", out)
    assert found is not None, out
    unavailable = int(found.group(1))
    assert unavailable > 0
    assert "reproduces" not in out


def test_ctrl_c_leaves_the_session_open_for_resume(
    site: FixtureSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    with fetches_interrupted_after(monkeypatch, 5):
        code, out, err = crawl(site, "--limit", "12", "--no-stop")
    assert code == 130 and "stop reason: cancelled" in out
    with SessionStore(default_db_path()) as store:
        (info,) = store.list_sessions()
    assert (info.steps, info.status) == (5, SessionStatus.OPEN)
    assert f"crawl --resume {info.session_id}` continues it" in err
    code, out, err = run("crawl", "--resume", info.session_id, "--quiet")
    assert code == 0, err
    assert "rebuilt 5 saved steps offline" in err
    assert "stop reason: limit_reached" in out
    with SessionStore(default_db_path()) as store:
        assert store.info(info.session_id).status is SessionStatus.DONE
    code, again, _ = run("crawl", "--resume", info.session_id, "--quiet")
    assert code == 0 and again == out, "resuming a finished crawl changes nothing"


def test_a_switch_recorded_on_is_switched_off_in_a_replay(
    site: FixtureSite, tmp_path: Path
) -> None:
    # a --no-stop recording could never be replayed with the stop rules: a switch left out
    # keeps its recorded value, and there was no --stop (found by using the CLI)
    bundle = tmp_path / "whole.json"
    code, out, err = crawl(site, "--limit", "30", "--no-stop", "--no-save", "--out", str(bundle))
    assert code == 0 and "stop reason: exhausted (first verdict coverage_reached" in out, err
    code, out, err = run("replay", str(bundle), "--stop", "--out", str(tmp_path / "stops.json"))
    assert code == 0, err
    assert "stop reason: coverage_reached" in out and "0 URLs unavailable" in out
    replayed = json.loads((tmp_path / "stops.json").read_text(encoding="utf-8"))
    assert replayed["config"]["stop_on_verdict"] is True
    code, out, _ = run("replay", str(bundle))
    assert code == 0 and "stop reason: exhausted" in out


def test_continue_anyway_resumes_a_crawl_past_the_verdict_that_stood(
    site: FixtureSite,
) -> None:
    # the app's Continue anyway had no command: --resume said "nothing is crawled", and
    # --no-stop with it was refused pointing at an offline replay (found by using the CLI)
    code, out, err = crawl(site, "--limit", "40")
    assert code == 0, err
    with SessionStore(default_db_path()) as store:
        (info,) = store.list_sessions()
    assert info.stop_reason in ("coverage_reached", "saturated", "no_relevant_pages"), out
    code, _, err = run("crawl", "--resume", info.session_id, "--quiet")
    assert code == 0 and "so nothing is crawled; --continue-anyway goes on past its verdict" in err
    code, out, err = run("crawl", "--resume", info.session_id, "--continue-anyway", "--quiet")
    assert code == 0, err
    assert f"continuing past its verdict {info.stop_reason} (--continue-anyway)" in err
    with SessionStore(default_db_path()) as store:
        saved = store.load(info.session_id)
    assert len(saved.steps) > info.steps
    assert [e.override.kind.value for e in saved.events if e.override is not None] == [
        "forgive"]
    code, out, _ = run("replay", info.session_id)
    assert code == 0 and f"the replay reproduces all {len(saved.steps)} recorded steps" in out
    if saved.info.stop_reason == "limit_reached":
        code, _, err = run("crawl", "--resume", info.session_id, "--continue-anyway")
        assert code == 0 and "not limit_reached" in err


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["crawl", "http://a.test/", "--query", "x", "--continue-anyway"],
         "--continue-anyway goes with --resume ID"),
        (["crawl", "--query", "x"], "give the start URL and --query"),
        (["crawl", "http://a.test/"], "give the start URL and --query"),
        (["crawl", "http://a.test/", "--resume", "abc"], "leave out the URL"),
        (["crawl", "--resume", "abc", "--no-save"], "--no-save would not update"),
        (["crawl", "--resume", "abc"], "no session abc to resume"),
    ],
)
def test_crawl_argument_mistakes_are_explained(argv: list[str], message: str) -> None:
    code, _, err = run(*argv)
    assert code in (1, 2) and message in err


def test_replaying_a_foreign_warc_needs_a_start_url_and_query(tmp_path: Path) -> None:
    warc = tmp_path / "foreign.warc.gz"
    write_foreign_warc(warc)
    code, _, err = run("replay", str(warc))
    assert code == 2 and "give --seed and --query" in err
    code, out, err = run("replay", str(warc), "--seed", "http://x.test/", "--query", "refunds")
    assert code == 0, err
    assert "replayed 1 step offline" in out and "0 URLs unavailable" in out


def test_a_replay_of_an_interrupted_session_ends_where_its_recording_ends(
    site: FixtureSite, monkeypatch: pytest.MonkeyPatch
) -> None:
    # it ran on to the limit with every later step "not recorded"
    with fetches_interrupted_after(monkeypatch, 5):
        assert crawl(site, "--limit", "12", "--no-stop")[0] == 130
    with SessionStore(default_db_path()) as store:
        (info,) = store.list_sessions()
    code, out, err = run("replay", info.session_id)
    assert code == 0, err
    assert "replayed 5 steps offline" in out and "0 URLs unavailable" in out
    assert "the replay reproduces all 5 recorded steps" in out
    assert "stop reason: cancelled" in out


def test_a_replay_says_which_options_change_nothing_offline(
    exported: tuple[Path, Path, str],
) -> None:
    # --delay, --user-agent, --render were taken without a word
    bundle, _, _ = exported
    code, _, err = run("replay", str(bundle), "--delay", "5", "--user-agent", "OtherBot/1.0")
    assert code == 0
    assert ("note: --delay, --user-agent change nothing offline: the recorded answers are "
            "replayed as they came") in err


def test_a_file_named_as_a_warc_that_is_none_is_named_so(tmp_path: Path) -> None:
    bad = tmp_path / "crawl.warc.gz"
    bad.write_bytes(b"{not a WARC}")
    code, _, err = run("replay", str(bad), "--query", "x")
    assert code == 1 and "crawl.warc.gz is not a WARC file" in err  # was "not valid JSON"


def test_a_ctrl_c_in_a_snapshot_keeps_the_pages_read_and_in_a_crawl_the_files(
    site: FixtureSite, monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # a snapshot kept its answers in memory until the end and lost them all on Ctrl-C; a
    # crawl's Ctrl-C just after its last step skipped the pages CSV and the summary
    import signal

    from pagesift_ui.net.fetcher import Fetcher
    from pagesift_ui.warc import read_warc

    real_fetch, calls = Fetcher.fetch, []

    def ctrl_c_at_the_fifth(self: Fetcher, url: str) -> object:
        calls.append(url)
        if len(calls) == 5:
            signal.raise_signal(signal.SIGINT)  # as the terminal sends it, in this thread
        return real_fetch(self, url)

    monkeypatch.setattr(Fetcher, "fetch", ctrl_c_at_the_fifth)
    warc = tmp_path / "s.warc.gz"
    code, out, err = run("snapshot", site.url("/"), "--out", str(warc), "--limit", "30",
                         "--delay", "0", "--quiet")
    assert code == 130 and "Ctrl-C: stopping after this step" in err, err
    assert "stopped by Ctrl-C" in out and warc.exists()
    fetched = [a for a in read_warc(warc).responses if type(a).__name__ == "RecordedFetch"]
    assert 5 <= len(fetched) < 30
    calls.clear()
    csv, bundle = tmp_path / "p.csv", tmp_path / "b.json"
    code, out, err = crawl(site, "--limit", "6", "--no-save", "--no-stop", "--out",
                           str(bundle), "--pages-csv", str(csv))
    assert code == 130 and csv.exists() and bundle.exists() and "pages fetched" in out
    # a Ctrl-C while the files are written waits for them and the summary
    import pagesift_ui.cli.crawl as crawl_command

    real_write = crawl_command.write_outputs

    def ctrl_c_then_write(*args: Any, **kwargs: Any) -> Any:
        signal.raise_signal(signal.SIGINT)
        return real_write(*args, **kwargs)

    monkeypatch.setattr(crawl_command, "write_outputs", ctrl_c_then_write)
    csv.unlink()
    code, out, err = crawl(site, "--limit", "3", "--no-save", "--pages-csv", str(csv))
    assert code == 0 and csv.exists() and "pages fetched" in out
    assert "Ctrl-C: writing the files first" in err


def test_limit_raises_the_budget_of_a_resumed_crawl_that_spent_it(site: FixtureSite) -> None:
    # a crawl that spent its budget before its question was answered had to start again:
    # --limit with --resume was refused ("settings shape a crawl from its first step")
    code, _, err = crawl(site, "--limit", "3")
    assert code == 0, err
    with SessionStore(default_db_path()) as store:
        (info,) = store.list_sessions()
    assert info.stop_reason == "limit_reached"
    code, _, err = run("crawl", "--resume", info.session_id, "--quiet")
    assert code == 0 and "--limit N (above 3) raises the page budget" in err
    code, _, err = run("crawl", "--resume", info.session_id, "--limit", "2")
    assert code == 2
    assert "--limit: the page budget can only be raised: it is 3 pages" in err
    code, out, err = run("crawl", "--resume", info.session_id, "--limit", "6", "--quiet")
    assert code == 0, err
    assert "of the budget of 6 used" in out and "; page budget raised to 6 (--limit)" in err
    code, _, err = run("crawl", "--resume", info.session_id, "--limit", "6", "--quiet")
    assert code == 0 and "its page budget is 6 already (--limit)" in err
    with SessionStore(default_db_path()) as store:
        saved = store.load(info.session_id)
    assert [r.pages_scheduled for r in saved.steps][-1] == 6
    assert [(e.override.kind.value, e.override.target, e.after_step) for e in saved.events
            if e.override is not None] == [("raise_limit", "6", 3)]
    code, out, _ = run("replay", info.session_id)
    assert code == 0 and f"the replay reproduces all {len(saved.steps)} recorded steps" in out
    # with other options the overrides are not applied, and the replay says so
    code, out, err = run("replay", info.session_id, "--patience", "3")
    assert code == 0 and "of the budget of 3 used" in out
    assert ("note: the 1 recorded override (raise_limit ×1) is not applied: it was made on "
            "the recorded crawl, which the options given change") in err
