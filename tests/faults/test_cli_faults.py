"""Command-line faults (issue 12): each gives one clear line, a documented exit code, no
traceback, and loses nothing saved.

The commands run as a user runs them (``python -m pagesift_ui`` in a child process, see
``harness.cli_in_child``), so a test sees exactly what reaches the terminal; the session
store is the test's own (``PAGESIFT_DB``, tests/conftest.py). The crawls go to the loopback
fault server; a fault checked before the crawl must leave it without a single request.
Also here: the fake fetcher's and the benchmark's fetcher's leftovers of issue 12.
"""

from __future__ import annotations

import io
import json
import shlex
import socket
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from pagesift_ui.cli import main
from pagesift_ui.cli.commands import EXIT_CODES, INTERNAL_ERROR, build_parser
from pagesift_ui.errors import ConnectFailed, OutOfScope
from pagesift_ui.net.fetcher import Fetcher
from pagesift_ui.store import SessionStatus, SessionStore, default_db_path
from pagesift_ui.store.portable import load_portable
from tests.fakes import DictSource
from tests.faults.harness import CliRun, cli_in_child, config_for
from tests.faults.server import FaultServer


@pytest.fixture(scope="module")
def faults() -> Iterator[FaultServer]:
    with FaultServer(lifetime_s=300) as server:
        yield server


def crawl(faults: FaultServer, *extra: str) -> CliRun:
    return cli_in_child("crawl", faults.url("/seed?next=%2Fok", "www"), "--query", "refund",
                        "--delay", "0", "--quiet", "--limit", "3", *extra)


def one_line(run: CliRun, code: int, *words: str) -> str:
    """The run ended with ``code`` and said why in one line naming ``words``, no traceback."""
    assert "Traceback" not in run.err and "Traceback" not in run.out
    assert run.code == code, run.err
    line = next((line for line in run.err_lines if line.startswith("pagesift-ui ")), "")
    for word in words:
        assert word in line, run.err
    return line


def saved_sessions() -> int:
    with SessionStore(default_db_path()) as store:
        return len(store.list_sessions())


# -- 9. outputs checked before the crawl ----------------------------------------------------


@pytest.mark.parametrize("flag", ["--out", "--pages-csv", "--warc"])
def test_an_output_in_a_missing_folder_is_refused_before_the_crawl(
    faults: FaultServer, tmp_path: Path, flag: str
) -> None:
    before = len(faults.requests)
    run = crawl(faults, flag, str(tmp_path / "no" / "such" / "file"))
    one_line(run, 2, flag, "does not exist")
    assert len(faults.requests) == before and saved_sessions() == 0  # nothing crawled


@pytest.mark.parametrize(("target", "words"), [
    ("folder", "is a folder"), ("/proc/version", "cannot be written"),
    ("under-a-file/x.json", "is not a folder"),
], ids=["a-folder", "not-writable", "parent-is-a-file"])
def test_an_output_that_cannot_be_written_is_refused_before_the_crawl(
    faults: FaultServer, tmp_path: Path, target: str, words: str
) -> None:
    (tmp_path / "folder").mkdir()
    (tmp_path / "under-a-file").write_text("x")
    path = target if target.startswith("/") else str(tmp_path / target)
    before = len(faults.requests)
    one_line(crawl(faults, "--no-save", "--out", path), 2, "--out", words)
    assert len(faults.requests) == before


@pytest.mark.parametrize(("target", "words"), [
    ("no/such/site.warc.gz", "does not exist"), ("folder", "is a folder"),
], ids=["missing-folder", "a-folder"])
def test_a_snapshot_whose_warc_cannot_be_written_is_refused_before_the_crawl(
    faults: FaultServer, tmp_path: Path, target: str, words: str
) -> None:
    (tmp_path / "folder").mkdir()
    before = len(faults.requests)
    run = cli_in_child("snapshot", faults.url("/seed?next=%2Fok", "www"), "--delay", "0",
                       "--quiet", "--limit", "3", "--out", str(tmp_path / target))
    one_line(run, 2, "pagesift-ui snapshot: --out", words)
    assert len(faults.requests) == before  # not one request: nothing crawled to lose


@pytest.mark.parametrize("command", [["demo"], ["serve", "."]], ids=["demo", "serve"])
@pytest.mark.parametrize("port", ["99999", "-5", "http"])
def test_a_port_that_is_no_port_is_named_as_the_options_error(command: list[str],
                                                              port: str) -> None:
    run = cli_in_child(*command, "--port", port)
    assert run.code == 2 and "Traceback" not in run.err
    assert (f"argument --port: must be a whole number from 0 to 65535 (0: any free port), "
            f"got '{port}'") in run.err


@pytest.mark.parametrize("command", [["demo"], ["serve", "."]], ids=["demo", "serve"])
def test_a_port_in_use_says_so_and_what_to_do(command: list[str]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        run = cli_in_child(*command, "--port", str(port), timeout_s=30)
    one_line(run, 2, f"cannot listen on 127.0.0.1:{port}", "choose another --port")


def test_two_outputs_naming_one_file_are_refused(faults: FaultServer, tmp_path: Path) -> None:
    same = str(tmp_path / "x")
    one_line(crawl(faults, "--out", same, "--pages-csv", same), 2, "name the same file")


def test_an_output_over_a_file_the_command_reads_is_refused_and_the_file_kept(
    faults: FaultServer, tmp_path: Path
) -> None:
    # the session store (named or the default one) and a replayed recording: an export
    # over its own store turned it into JSON, and every session in it was gone
    store = tmp_path / "store.db"
    assert crawl(faults, "--db", str(store)).code == 0
    before = store.read_bytes()
    with SessionStore(store) as opened:
        (info,) = opened.list_sessions()
    one_line(cli_in_child("export", info.session_id, "--db", str(store), "--out", str(store)),
             2, f"--out {store} is the session store this command reads")
    one_line(crawl(faults, "--db", str(store), "--pages-csv", str(store)), 2,
             "--pages-csv", "is the session store")
    one_line(crawl(faults, "--out", str(default_db_path())), 2, "is the session store")
    bundle = tmp_path / "b.json"
    assert cli_in_child("export", info.session_id, "--db", str(store), "--out",
                        str(bundle)).code == 0
    recorded = bundle.read_bytes()
    one_line(cli_in_child("replay", str(bundle), "--pages-csv", str(bundle)), 2,
             f"--pages-csv {bundle} is the recording this command reads")
    assert store.read_bytes() == before and bundle.read_bytes() == recorded


# -- 9. a write that fails after the crawl ------------------------------------------------


def test_a_failed_write_after_the_crawl_keeps_the_session_and_says_how_to_export(
    faults: FaultServer, tmp_path: Path
) -> None:
    run = crawl(faults, "--out", "/dev/full")
    one_line(run, 3, "--out /dev/full could not be written", "The crawl is saved as session")
    assert "No space left on device" in run.err
    command = run.err_lines[-1].strip()
    assert command.startswith("pagesift-ui export ") and "--out /dev/full" in command
    with SessionStore(default_db_path()) as store:
        (info,) = store.list_sessions()
        saved = store.load(info.session_id)
    assert info.steps == len(saved.steps) >= 2  # every step kept (it stops with coverage)
    # the printed command, with a path that can be written, writes the bundle
    argv = shlex.split(command)[1:]
    argv[argv.index("/dev/full")] = str(tmp_path / "again.json")
    again = cli_in_child(*argv)
    assert again.code == 0 and "Traceback" not in again.err, again.err
    assert load_portable(tmp_path / "again.json").view.steps == list(saved.steps)


def test_a_failed_write_with_no_save_says_the_results_are_lost(
    faults: FaultServer, tmp_path: Path
) -> None:
    run = crawl(faults, "--no-save", "--out", "/dev/full", "--pages-csv",
                str(tmp_path / "p.csv"))
    one_line(run, 3, "not saved (--no-save)", "lost")
    assert (tmp_path / "p.csv").read_text().startswith("step,")  # what could be written was
    assert saved_sessions() == 0


def test_a_warc_that_cannot_be_written_stops_before_the_crawl(faults: FaultServer) -> None:
    before, saved = len(faults.requests), saved_sessions()
    # an output that cannot be written: exit 2, naming it; it left an empty open session
    one_line(crawl(faults, "--warc", "/dev/full"), 2,
             "--warc /dev/full could not be written (No space left on device)",
             "nothing was crawled")
    assert len(faults.requests) == before and saved_sessions() == saved


def test_a_reading_command_never_makes_a_store_where_it_names_none(tmp_path: Path) -> None:
    typo = tmp_path / "typo.db"
    one_line(cli_in_child("sessions", "--db", str(typo)), 1,
             f"there is no session store at {typo}")
    one_line(cli_in_child("export", "abc123", "--db", str(typo), "--out",
                          str(tmp_path / "x.json")), 1, "no session abc123")
    one_line(cli_in_child("crawl", "--resume", "abc123", "--db", str(typo)), 1,
             "no session abc123 to resume")
    one_line(cli_in_child("replay", "abc123", "--db", str(typo)), 1,
             "there is no session store at")
    assert not typo.exists()


def test_outputs_and_options_a_command_cannot_use_exit_2_naming_them(tmp_path: Path) -> None:
    spec = tmp_path / "s.toml"
    spec.write_text("[[snapshots]]\npath = 'x.warc.gz'\n", encoding="utf-8")
    afile = tmp_path / "afile"
    afile.write_text("", encoding="utf-8")
    one_line(cli_in_child("sweep", str(spec), "--out", str(afile)), 2,
             f"--out {afile} is a file; name a folder")
    one_line(cli_in_child("sweep", str(spec), "--out", str(tmp_path / "r"), "--workers", "1",
                          "--scheduler", "tcp://127.0.0.1:1"), 2,
             "--workers sizes the local cluster")
    run = cli_in_child("sweep", str(spec), "--out", str(tmp_path / "r"), "--workers", "0")
    assert run.code == 2 and "argument --workers: must be a whole number of at least 1" in run.err
    one_line(cli_in_child("demo", "--truth-out", str(tmp_path / "missing" / "t.txt")), 2,
             "--truth-out", "does not exist")


def test_a_snapshot_that_cannot_be_written_says_which_file(
    faults: FaultServer,
) -> None:
    one_line(cli_in_child("snapshot", faults.url("/seed?next=%2Fok", "www"), "--limit", "2",
                          "--delay", "0", "--out", "/dev/full", "--quiet"), 3,
             "--out /dev/full could not be written (No space left on device)")


# -- 9. replay: a bundle, a WARC file or a session id -------------------------------------


@pytest.fixture(scope="module")
def bundle(faults: FaultServer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("replay") / "crawl.json"
    code = main(["crawl", faults.url("/seed?next=%2Fok", "www"), "--query", "refund",
                 "--delay", "0", "--quiet", "--limit", "3", "--no-save", "--out", str(path)],
                io.StringIO(), io.StringIO())
    assert code == 0
    return path


@pytest.mark.parametrize(("name", "words"), [
    ("missing.json", "no such file"),
    ("folder", "is a folder"),
    ("deadbeef", "deadbeef: no such file, and"),  # no saved session, or no store
], ids=["missing-file", "a-folder", "unknown-id"])
def test_replay_of_nothing_usable_is_one_clear_line(
    tmp_path: Path, name: str, words: str
) -> None:
    (tmp_path / "folder").mkdir()
    target = name if name == "deadbeef" else str(tmp_path / name)
    one_line(cli_in_child("replay", target), 1, words)


def test_replay_from_a_start_url_the_recording_never_fetched_fails(
    bundle: Path, faults: FaultServer
) -> None:
    # "0 pages fetched in 1 steps" with exit 0; crawl and the sweep call it a failure
    seed = faults.url("/nope.html", "www")
    run = cli_in_child("replay", str(bundle), "--seed", seed)
    assert run.code == 1
    assert run.err.strip().splitlines()[-1].startswith(
        f"pagesift-ui replay: the start URL could not be replayed: {seed}")


def test_replay_takes_a_saved_session_id(faults: FaultServer) -> None:
    assert crawl(faults).code == 0
    with SessionStore(default_db_path()) as store:
        (info,) = store.list_sessions()
    run = cli_in_child("replay", info.session_id)
    assert run.code == 0, run.err
    assert f"the replay reproduces all {info.steps} recorded steps" in run.out


@pytest.mark.parametrize(("change", "words"), [
    (lambda text: text.replace('"depth": 1', '"depth": ' + "9" * 5000, 1),
     "].depth: an integer of 5,000 digits"),
    (lambda text: text[: len(text) // 2], "is not valid JSON"),
    (lambda text: json.dumps({k: v for k, v in json.loads(text).items() if k != "responses"}),
     "has no recorded responses"),
], ids=["5000-digit-int", "cut-file", "no-responses"])
def test_replay_of_a_bad_bundle_is_one_clear_line(
    bundle: Path, tmp_path: Path, change: object, words: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_text(change(bundle.read_text()))  # type: ignore[operator]
    one_line(cli_in_child("replay", str(path)), 1, words)


def test_replay_of_a_broken_warc_is_one_clear_line(tmp_path: Path) -> None:
    path = tmp_path / "x.warc"
    path.write_bytes(b"WARC/1.0\r\nWARC-Type: response\r\nContent-Length: 4\r\n\r\nHTTP\r\n\r\n")
    one_line(cli_in_child("replay", str(path)), 1, "without WARC-Target-URI")


# -- 9. sessions with rows this version does not know ---------------------------------------


def test_sessions_lists_a_row_with_an_unknown_status_and_a_damaged_time(
    faults: FaultServer,
) -> None:
    assert crawl(faults).code == 0
    with sqlite3.connect(default_db_path()) as db:
        db.execute("UPDATE sessions SET status = 'archived-by-v9', updated_at = 1e300")
    db.close()
    run = cli_in_child("sessions")
    assert run.code == 0 and "Traceback" not in run.err, run.err
    row = run.out.splitlines()[-1].split()
    assert row[1] == "?" and row[3] == "unknown"
    with SessionStore(default_db_path()) as store:
        assert store.list_sessions()[0].status is SessionStatus.UNKNOWN


# -- exit codes ------------------------------------------------------------------------------


def test_the_exit_codes_are_documented_in_help() -> None:
    text = build_parser().format_help()
    assert "exit codes:" in text
    for code, words in EXIT_CODES.items():
        assert f"  {code:<5}{words.split()[0]}" in text
    assert set(EXIT_CODES) == {0, 1, 2, 3, INTERNAL_ERROR, 130}


def test_usage_errors_exit_2(faults: FaultServer) -> None:
    assert cli_in_child("crawl").code == 2  # argparse: no URL, no --query
    one_line(cli_in_child("export", "abc"), 2, "give --out")
    one_line(crawl(faults, "--limit", "0"), 2, "--limit")


def test_a_bug_is_one_line_and_exit_70(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(*args: object) -> int:
        raise RuntimeError("boom")

    # register() reads the handler when main() builds the parser
    monkeypatch.setattr("pagesift_ui.cli.sessions.run_sessions", broken)
    err = io.StringIO()
    code = main(["sessions"], io.StringIO(), err)
    assert code == INTERNAL_ERROR
    assert err.getvalue().count("\n") == 1 and "internal error (RuntimeError: boom)" in \
        err.getvalue()


def test_an_os_error_is_one_line_and_exit_1(tmp_path: Path) -> None:
    db = tmp_path / "db-is-a-folder"
    db.mkdir()
    run = cli_in_child("sessions", "--db", str(db))
    one_line(run, 1, "sessions")


# -- 9. smaller: the fake fetcher's words, the benchmark's scope ---------------------------


def test_the_fake_fetcher_reports_a_refused_robots_txt_as_the_fetcher_does(
    faults: FaultServer,
) -> None:
    import socket

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    url = f"http://127.0.0.1:{port}/page"
    refused = ConnectFailed(f"http://127.0.0.1:{port}/robots.txt", "connection refused")
    refused.__cause__ = ConnectionRefusedError()
    fake = DictSource({f"http://127.0.0.1:{port}/robots.txt": refused})
    with pytest.raises(ConnectFailed) as from_fake:
        fake.fetch(url)
    config = config_for(url)
    with Fetcher(config.fetch_policy()) as real, pytest.raises(ConnectFailed) as from_real:
        real.fetch(url)
    assert from_fake.value.message == from_real.value.message  # was "disallowed by robots"
    assert "connection refused, on asking first for" in from_fake.value.message


def test_the_benchmark_fetcher_keeps_redirects_in_the_crawl_scope(faults: FaultServer) -> None:
    from pagesift_ui.bench.report import _fetcher

    config = config_for(faults.url("/", "www"), scope="host")
    with _fetcher(config) as fetcher, pytest.raises(OutOfScope):
        fetcher.fetch(faults.url(f"/redirect?to={faults.url('/ok', 'elsewhere')}", "www"))
    assert faults.paths("elsewhere") == []


# -- a site that does not answer: snapshot and bench say so, as crawl does ------------------


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def test_a_snapshot_of_a_site_that_does_not_answer_fails_and_writes_nothing(
    tmp_path: Path,
) -> None:
    seed = f"http://127.0.0.1:{_closed_port()}/"
    warc = tmp_path / "s.warc.gz"
    one_line(cli_in_child("snapshot", seed, "--out", str(warc), "--quiet"), 1,
             "the start URL could not be crawled", "connection refused",
             f"nothing was written to {warc}")
    assert not warc.exists()  # was an empty WARC, exit 0


def test_a_bench_of_a_site_that_does_not_answer_fails_instead_of_reporting_zeros(
    tmp_path: Path,
) -> None:
    seed = f"http://127.0.0.1:{_closed_port()}/"
    truth = tmp_path / "t.truth"
    truth.write_text(f"# query: refund\n# seed: {seed}\n{seed}refunds\n", encoding="utf-8")
    one_line(cli_in_child("bench", "--site", seed, "--truth", str(truth), "--no-png", "--out",
                          str(tmp_path / "out")), 1, "the start URL could not be crawled",
             "connection refused")
    assert not (tmp_path / "out" / "results.md").exists()


@pytest.mark.parametrize(("options", "words"), [
    # --out was found only after every crawl ("File exists", the results lost)
    (["--out", "FILE"], ("--out", "is a file; name a folder")),
    (["--out", "/proc/pagesift-bench"], ("--out /proc/pagesift-bench cannot be made",)),
    # "limit: …" and "seed_url: …" with exit 1, not naming the option
    (["--limit", "0"], ("--limit: must be a whole number from 1",)),
    (["--site", "notaurl", "--truth", "TRUTH"], ("--site: 'notaurl' is not an http(s) URL",)),
    (["--label", "mine"], ("--label names the --site run",)),
], ids=["out-file", "out-unmakeable", "limit-0", "site-not-url", "label-alone"])
def test_bench_options_are_checked_before_any_crawl(
    tmp_path: Path, options: list[str], words: tuple[str, ...]
) -> None:
    taken = tmp_path / "c1.csv"
    taken.write_text("kept\n", encoding="utf-8")
    truth = tmp_path / "t.truth"
    truth.write_text("# query: refund\n", encoding="utf-8")
    named = [str(taken) if o == "FILE" else str(truth) if o == "TRUTH" else o for o in options]
    out = ["--out", str(tmp_path / "out")] if "--out" not in named else []
    one_line(cli_in_child("bench", "--scenario", "university", "--no-png", *out, *named), 2,
             *words)
    assert taken.read_text(encoding="utf-8") == "kept\n"
    assert not (tmp_path / "out").exists()


def test_resume_with_settings_that_it_would_ignore_is_refused(
    faults: FaultServer, tmp_path: Path
) -> None:
    # --limit and --patience were dropped without a word: the crawl ran to its saved limit.
    # --limit now raises the budget; --patience is refused, and the words say both
    store = tmp_path / "store.db"
    assert crawl(faults, "--db", str(store)).code == 0
    with SessionStore(store) as opened:
        (info,) = opened.list_sessions()
    line = one_line(cli_in_child("crawl", "--resume", info.session_id, "--db", str(store),
                                 "--limit", "80", "--patience", "2"), 2,
                    "--patience 2 cannot change them", "--limit N raises its page budget",
                    "--continue-anyway", f"pagesift-ui replay {info.session_id} --patience 2")
    assert "--resume continues the saved crawl with its own settings" in line
    done = cli_in_child("crawl", "--resume", info.session_id, "--db", str(store), "--quiet")
    assert done.code == 0 and "it had stopped" in done.err and "continuing" not in done.err
