"""The command line: crawl a served folder, serve, demo --truth-out."""

from __future__ import annotations

import ast
import dataclasses
import importlib
import io
import json
import os
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from warcio.archiveiterator import ArchiveIterator

import pagesift_ui.cli
from pagesift_ui.cli import build_parser, main
from pagesift_ui.cli.options import (
    CRAWL_OPTIONS,
    SUMMARY_VERDICTS,
    ProgressSink,
    config_from_args,
    progress_line,
    summary_lines,
)
from pagesift_ui.cli.sessions import replay_config
from pagesift_ui.frontier.adaptive import AdaptiveOptions, StopReason
from pagesift_ui.net.policy import DEFAULT_USER_AGENT
from pagesift_ui.net.serve import StaticServer
from pagesift_ui.session import CrawlConfig, CrawlSession, Scope, Verdict, VerdictFate
from pagesift_ui.session.bundle import bundle_json
from tests.fakes import FIXTURE_ORIGIN, fixture_source, policy_for

NAV = '<nav><a href="/index.html">Home</a> <a href="/about.html">About us</a> ' \
      '<a href="/help/index.html">Help centre</a></nav>'
PAGES = {
    "index.html": ("Northwind", "<p>Welcome to Northwind outdoor gear.</p>"
                   '<p>See <a href="/help/index.html">help and refunds</a>.</p>'),
    "about.html": ("About us", "<p>We sell tents and boots since 1990.</p>"),
    "help/index.html": ("Help centre", '<p>Read our <a href="/help/refund-policy.html">refund '
                        'policy</a> or <a href="/help/refunds.html">request a refund</a>.</p>'),
    "help/refund-policy.html": ("Refund policy", "<h2>Refund policy</h2><p>Our refund policy "
                                "gives 30 days for a full refund of unused items.</p><p>The "
                                "policy covers gift cards: refunds go back to the card.</p>"),
    "help/refunds.html": ("Request a refund", "<h2>How to request a refund</h2><p>Under the "
                          "refund policy, send the order number; refunds take 5 days.</p>"),
}


def write_site(root: Path) -> None:
    for name, (title, body) in PAGES.items():
        target = root / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(
            f"<!doctype html><html lang='en'><head><title>{title}</title></head><body>"
            f"{NAV}<main><h1>{title}</h1>{body}</main><footer>Northwind</footer></body></html>",
            encoding="utf-8",
        )


@pytest.fixture
def served(tmp_path: Path) -> Iterator[str]:
    write_site(tmp_path / "site")
    with StaticServer(tmp_path / "site") as server:
        yield server.base_url() + "/index.html"


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


def test_crawl_writes_a_bundle_with_pages_in_fetch_order(served: str, tmp_path: Path) -> None:
    bundle_path, csv_path = tmp_path / "s.json", tmp_path / "pages.csv"
    code, out, _ = run_cli(
        "crawl", served, "--query", "refund policy", "--delay", "0", "--quiet",
        "--out", str(bundle_path), "--pages-csv", str(csv_path),
    )
    assert code == 0
    bundle = json.loads(bundle_path.read_text(encoding="utf-8"))
    urls = [step["url"] for step in bundle["steps"]]
    assert urls[0] == served
    assert urls.index(served.replace("index.html", "help/index.html")) < len(urls)
    assert [s["step"] for s in bundle["steps"]] == list(range(1, len(urls) + 1))
    assert bundle["config"]["query"] == "refund policy"
    assert bundle["stop_reason"] in {
        "coverage_reached", "saturated", "no_relevant_pages", "limit_reached", "exhausted",
    }
    assert bundle["stop_step"] == len(urls)
    assert all("relevance" in s and "verdict" in s for s in bundle["steps"])
    assert bundle["steps"][-1]["verdict"] == bundle["stop_reason"]
    assert "stop reason:" in out and "refund" in out
    assert csv_path.read_text(encoding="utf-8").startswith("step,url,")
    # written in pieces as they are encoded, the file is the canonical text to the byte
    assert bundle_path.read_text(encoding="utf-8") == bundle_json(bundle)


def test_no_stop_keeps_the_first_verdict_step(served: str, tmp_path: Path) -> None:
    bundle_path = tmp_path / "s.json"
    code, out, _ = run_cli(
        "crawl", served, "--query", "refund policy", "--delay", "0", "--quiet", "--no-stop",
        "--patience", "1", "--evidence-per-term", "1", "--out", str(bundle_path),
    )
    assert code == 0
    bundle = json.loads(bundle_path.read_text(encoding="utf-8"))
    assert bundle["config"]["stop_on_verdict"] is False
    assert bundle["stop_step"] is not None
    assert bundle["end_reason"] in {"limit_reached", "exhausted"}
    verdict_steps = [s["step"] for s in bundle["steps"] if s["verdict"]]
    assert verdict_steps and verdict_steps[0] == bundle["stop_step"]
    # the summary lists the verdicts, at most SUMMARY_VERDICTS of them, and counts the rest
    verdicts = bundle["final"]["summary"]["verdicts"]
    listed = [line for line in out.splitlines() if line.startswith("  verdict at step")]
    assert listed[0] == (
        f"  verdict at step {verdict_steps[0]}: {verdicts[0][1]}, recorded (no-stop)")
    shown = min(len(verdicts), SUMMARY_VERDICTS)
    assert len(listed) == shown
    more = [line for line in out.splitlines() if line.startswith("  … and ")]
    assert more == ([f"  … and {len(verdicts) - shown} more verdicts (the bundle has them "
                     "all)"] if len(verdicts) > shown else [])


def test_bad_input_gives_a_clear_error_and_exit_code_2(tmp_path: Path) -> None:
    code, _, err = run_cli("crawl", "not-a-url", "--query", "fees")
    assert code == 2 and "seed_url" in err and "http" in err
    code, _, err = run_cli("crawl", "http://127.0.0.1:9/", "--query", "the")
    assert code == 2 and "stop words" in err
    code, _, err = run_cli("serve", str(tmp_path / "missing"))
    assert code == 2 and "missing" in err


def test_python_m_pagesift_ui_runs_a_crawl(served: str, tmp_path: Path) -> None:
    bundle_path = tmp_path / "s.json"
    proc = subprocess.run(
        [sys.executable, "-m", "pagesift_ui", "crawl", served, "--query", "refund policy",
         "--delay", "0", "--out", str(bundle_path)],
        capture_output=True, text=True, timeout=120, check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert " pages fetched in " in proc.stdout
    assert json.loads(bundle_path.read_text(encoding="utf-8"))["steps"]


def _wait_for(predicate: object, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if predicate():  # type: ignore[operator]
            return
        time.sleep(0.1)
    raise AssertionError("timed out waiting")


def test_demo_writes_the_ground_truth_and_serves_the_scenario(tmp_path: Path) -> None:
    truth = tmp_path / "truth.txt"
    proc = subprocess.Popen(
        [sys.executable, "-m", "pagesift_ui", "demo", "--scenario", "helpdesk",
         "--truth-out", str(truth)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        _wait_for(lambda: truth.exists() and truth.stat().st_size > 0)
        lines = truth.read_text(encoding="utf-8").splitlines()
        assert lines[0] == "# query: refund policy"
        assert lines[1].startswith("# seed: http://www.shop.localhost:")
        urls = lines[2:]
        assert urls and all(u.startswith("http://") for u in urls)
        port = lines[1].rsplit(":", 1)[1].split("/")[0]
        request = urllib.request.Request(
            f"http://127.0.0.1:{port}/", headers={"Host": f"www.shop.localhost:{port}"}
        )
        direct = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with direct.open(request, timeout=10) as response:
            assert response.status == 200
    finally:
        os.kill(proc.pid, signal.SIGTERM)
        proc.communicate(timeout=10)


CLI_DIR = Path(pagesift_ui.cli.__file__).parent
SHARED = {"options", "outputs"}  # imported by the command groups; import no group themselves


def _cli_imports(path: Path) -> set[str]:
    """The ``pagesift_ui.cli`` modules that ``path`` imports (by short name)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module == "pagesift_ui.cli":
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
            "pagesift_ui.cli."
        ):
            found.add((node.module or "").split(".")[2])
        elif isinstance(node, ast.Import):
            found.update(
                a.name.split(".")[2] for a in node.names if a.name.startswith("pagesift_ui.cli.")
            )
    return found


def test_cli_modules_import_one_way_commands_groups_shared() -> None:
    graph = {p.stem: _cli_imports(p) for p in CLI_DIR.glob("*.py") if p.stem != "__init__"}
    groups = set(graph) - SHARED - {"commands"}
    assert groups >= {"crawl", "sessions", "demo"}
    assert all(not graph[name] - SHARED for name in groups), graph
    assert all(not graph[name] - {"options"} for name in SHARED), graph
    assert "commands" not in set().union(*graph.values()), graph
    assert not graph["options"], "options is the bottom of the cli package"


# -- options, defaults and errors ----------------------------------------------------------

SEED = "http://127.0.0.1:9/"


def test_every_crawl_option_defaults_to_the_config_default() -> None:
    args = build_parser().parse_args(["crawl", SEED, "--query", "fees"])
    defaults = {f.name: f.default for f in dataclasses.fields(CrawlConfig)}
    defaults.update({f.name: f.default for f in dataclasses.fields(AdaptiveOptions)})
    for setting in CRAWL_OPTIONS:
        expected = defaults[setting.name]
        if setting.name == "limit":
            # not typed is None: with --resume a typed --limit raises the saved budget, and
            # config_from_args reads None as the default (the last line)
            assert args.limit is None
            continue
        assert getattr(args, setting.name) == getattr(expected, "value", expected), setting.flag
    assert {s.name for s in CRAWL_OPTIONS} >= {f.name for f in dataclasses.fields(AdaptiveOptions)}
    assert config_from_args(args) == CrawlConfig(seed_url=SEED, query="fees")


#: Each part an install may run compiled: its module, the name that says so, its value when
#: compiled and when not, and what ``--version`` says in each case.
COMPILED_PARTS = {
    "tree walk": ("pagesift_ui.page.lxmltree", "COMPILED_WALK", lambda *args: -1, None,
                  "tree walk compiled", "the compiled walk was not built"),
    "collector": ("pagesift_ui.page.collect", "is_compiled", lambda: True, lambda: False,
                  "collector compiled", "collector in Python"),
    "white-space collapse": ("pagesift_ui.page.markup", "NORMALISE_COMPILED", True, False,
                             "white-space collapse compiled", "white-space collapse in Python"),
    "text passes": ("pagesift_ui.frontier.textpass", "COMPILED", True, False,
                    "text passes compiled", "text passes in Python"),
    "UTF-8 check": ("pagesift_ui.page.charset", "UTF8_CHECK_COMPILED", True, False,
                    "UTF-8 check compiled", "UTF-8 check in Python"),
}


@pytest.mark.parametrize("part", COMPILED_PARTS)
@pytest.mark.parametrize("compiled", [True, False])
def test_version_says_which_parts_the_install_runs_compiled(
    part: str, compiled: bool, capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    module, name, when_compiled, when_not, says_compiled, says_not = COMPILED_PARTS[part]
    monkeypatch.setattr(importlib.import_module(module), name,
                        when_compiled if compiled else when_not)
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--version"])
    out = capsys.readouterr().out
    assert out.startswith(f"pagesift-ui {pagesift_ui.__version__} (")
    assert (says_compiled in out) is compiled
    assert (says_not in out) is not compiled


def test_crawl_help_shows_the_configs_defaults_and_ranges(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        build_parser().parse_args(["crawl", "--help"])
    text = " ".join(capsys.readouterr().out.split())
    assert "page budget (1 to 100000; default 200)" in text
    assert "(0 to 60; default 1.0)" in text and "(default 0.05)" in text


@pytest.mark.parametrize(
    ("option", "words"),
    [
        (["--limit", "0"], "--limit: must be a whole number from 1 to 100000, got 0"),
        (["--delay", "-1"], "--delay: must be a number from 0.0 to 60.0"),
        # the stop options by their flags too, not by their field in the config
        (["--patience", "0"], "--patience: must be an integer >= 1"),
        (["--coverage-threshold", "1.5"], "--coverage-threshold: must be in (0, 1]"),
    ],
)
def test_an_out_of_range_option_exits_2_naming_it(option: list[str], words: str) -> None:
    code, out, err = run_cli("crawl", SEED, "--query", "fees", "--no-save", *option)
    assert code == 2 and words in err and not out
    assert "Traceback" not in err


def test_an_option_of_the_wrong_type_exits_2_without_a_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "pagesift_ui", "crawl", SEED, "--query", "fees", "--limit", "ten"],
        capture_output=True, text=True, timeout=60, check=False,
    )
    assert proc.returncode == 2
    assert "--limit: invalid int value: 'ten'" in proc.stderr
    assert "Traceback" not in proc.stderr


@pytest.mark.parametrize(
    ("argv", "usage", "hint"),
    [
        (["crawl", SEED, "--querry", "fees"], "usage: pagesift-ui crawl",
         "--querry (did you mean --query?)"),
        (["replay", "abc", "--patiense", "2"], "usage: pagesift-ui replay",
         "--patiense (did you mean --patience?)"),
        (["sessions", "--zzz"], "usage: pagesift-ui sessions", ""),
    ],
)
def test_a_mistyped_option_names_the_command_s_usage_and_the_nearest_option(
    argv: list[str], usage: str, hint: str, capsys: pytest.CaptureFixture[str]
) -> None:
    # argparse answered with the top-level usage, which lists the commands and none of
    # their options (found by using the CLI)
    with pytest.raises(SystemExit) as exited:
        main(argv)
    err = capsys.readouterr().err
    assert exited.value.code == 2 and err.startswith(usage)
    assert f"unrecognized arguments: {' '.join(argv[-2:] if hint else argv[-1:])}" in err
    assert hint in err


def test_replay_options_left_out_keep_the_recorded_values() -> None:
    recorded = CrawlConfig.from_mapping({
        "seed_url": SEED, "query": "fees", "limit": 7, "delay_s": 0.0, "respect_robots": False,
        "adaptive": {"patience": 2}, "dispersion_cap": 4, "read_timeout_s": 3.0,
    })
    parser = build_parser()
    same = replay_config(recorded, parser.parse_args(["replay", "r.json"]))
    assert same == recorded
    changed = replay_config(recorded, parser.parse_args(["replay", "r.json", "--min-gain", "0.2",
                                                         "--scope", "host"]))
    assert changed == dataclasses.replace(
        recorded, adaptive=dataclasses.replace(recorded.adaptive, min_gain=0.2), scope=Scope.HOST
    )


def test_the_progress_bar_is_a_sink_writing_one_line_per_step() -> None:
    config = CrawlConfig.from_mapping({"seed_url": FIXTURE_ORIGIN + "/", "query": "refund policy",
                                       "limit": 6, "delay_s": 0.0})
    stream = io.StringIO()
    progress = ProgressSink(stream, rewrite=True)  # as on a terminal
    with CrawlSession(config, fixture_source(policy=policy_for(config)),
                      sinks=[progress]) as session:
        session.run()
    progress.close()  # the crawl's end already ended the line: closing adds nothing
    text = stream.getvalue()
    lines = text.split("\r")[1:]
    assert len(lines) == len(session.steps) >= 2
    assert lines[-1] == progress_line(session.steps[-1], config.limit) + "\n"
    assert all(line == progress_line(r, config.limit) for line, r in zip(lines, session.steps[:-1],
                                                                        strict=False))


def test_the_progress_bar_writes_whole_lines_to_a_stream_that_is_no_terminal() -> None:
    # redirected to a file, the bar was hundreds of \r-joined segments on one line (found by
    # using the CLI)
    config = CrawlConfig.from_mapping({"seed_url": FIXTURE_ORIGIN + "/", "query": "refund policy",
                                       "limit": 6, "delay_s": 0.0})
    stream = io.StringIO()
    progress = ProgressSink(stream)  # a StringIO is no terminal
    with CrawlSession(config, fixture_source(policy=policy_for(config)),
                      sinks=[progress]) as session:
        session.run()
    progress.close()
    assert "\r" not in stream.getvalue()
    assert stream.getvalue().splitlines() == [progress_line(r, config.limit)
                                              for r in session.steps]


def test_crawl_shows_the_progress_bar_unless_quiet(served: str) -> None:
    code, out, err = run_cli("crawl", served, "--query", "refund policy", "--delay", "0",
                             "--no-save", "--limit", "3")
    assert code == 0 and "\r" not in err  # a StringIO is no terminal: one line a step
    assert len([line for line in err.splitlines() if line.startswith("step ")]) == 3
    _, _, quiet = run_cli("crawl", served, "--query", "refund policy", "--delay", "0",
                          "--no-save", "--limit", "3", "--quiet")
    assert "\r" not in quiet and "step " not in quiet


def test_a_query_past_sixteen_terms_is_crawled_with_a_note_of_what_is_left_out(
    served: str,
) -> None:
    query = "refund policy " + " ".join(f"w{i}" for i in range(20))
    code, _, err = run_cli("crawl", served, "--query", query, "--delay", "0", "--no-save",
                           "--limit", "2", "--quiet")
    assert code == 0
    assert ("note: the query uses its first 16 terms; 'w14' and the words after it are left "
            "out\n") in err
    _, _, plain = run_cli("crawl", served, "--query", "refund policy", "--delay", "0",
                          "--no-save", "--limit", "2", "--quiet")
    assert "note:" not in plain


def test_user_agent_option_picks_the_robots_group_and_is_recorded_in_the_warc(
    tmp_path: Path,
) -> None:
    """``--user-agent``: its product token chooses the robots.txt group (RFC 9309 §2.2.1),
    and the WARC's request records carry the header that was sent."""
    site = tmp_path / "site"
    write_site(site)
    (site / "robots.txt").write_text(
        "User-agent: labbot\nDisallow: /help/refunds.html\n\nUser-agent: *\nDisallow:\n",
        encoding="utf-8",
    )
    agent = "LabBot/2.0 (+mailto:lab@example.org)"
    fetched: dict[str, list[str]] = {}
    with StaticServer(site) as server:
        seed = server.base_url() + "/index.html"
        for name, extra in (("default", []), ("labbot", ["--user-agent", agent])):
            bundle_path, warc_path = tmp_path / f"{name}.json", tmp_path / f"{name}.warc.gz"
            code, _, _ = run_cli("crawl", seed, "--query", "refund policy", "--delay", "0",
                                 "--quiet", "--no-stop", "--out", str(bundle_path),
                                 "--warc", str(warc_path), *extra)
            assert code == 0
            bundle = json.loads(bundle_path.read_text(encoding="utf-8"))
            fetched[name] = [step["url"] for step in bundle["steps"] if step["status"] == 200]
            with warc_path.open("rb") as stream:
                agents = {record.http_headers.get_header("User-Agent")
                          for record in ArchiveIterator(stream)
                          if record.rec_type == "request"}
            assert agents == {agent if extra else DEFAULT_USER_AGENT}
            assert bundle["config"]["user_agent"] == (agent if extra else DEFAULT_USER_AGENT)
    refunds = seed.replace("index.html", "help/refunds.html")
    assert refunds in fetched["default"]
    assert refunds not in fetched["labbot"]


class _Crawled:
    """What ``summary_lines`` reads of a session: its config, overrides and summary."""

    config = CrawlConfig(seed_url="http://127.0.0.1:9/", query="refund policy")
    overrides = ()  # the budget is the config's (views.page_budget)

    def __init__(self, **summary: object) -> None:
        self._summary = {"stop_reason": "limit_reached", "first_verdict": "saturated",
                         "stop_step": 4, "steps": 60, "pages_fetched": 60,
                         "relevant_pages": 3, "harvest_rate": 0.05, "fresh_rate": 0.1,
                         "coverage": 0.5,
                         "covered": False, "evidence": {"refund": 3, "polici": 0},
                         "verdicts": [], **summary}

    def summary(self) -> dict[str, object]:
        return self._summary

    @property
    def verdicts(self) -> object:
        return self._summary["verdicts"]


def test_the_summary_s_harvest_rate_is_relevant_pages_per_page_fetched() -> None:
    # "relevant pages: 7 … harvest rate: 12.0%" read as a contradiction: the rate was the
    # share of pages with new evidence
    lines = summary_lines(_Crawled())  # type: ignore[arg-type]
    assert ("harvest rate: 5.0% (relevant pages ÷ pages fetched); 10.0% of the pages brought "
            "new evidence") in lines


def test_the_summary_says_why_a_full_coverage_is_not_covered() -> None:
    # "coverage: 100%" without "(covered)" went unexplained (found by using the CLI)
    lines = summary_lines(_Crawled(coverage=1.0, covered=False))  # type: ignore[arg-type]
    assert ("coverage: 100% (not covered: the evidence must come from at least 2 pages, and "
            "so far it comes from one)") in lines
    assert "coverage: 100% (covered)" in summary_lines(
        _Crawled(coverage=1.0, covered=True))  # type: ignore[arg-type]
    assert "coverage: 50%" in summary_lines(_Crawled())  # type: ignore[arg-type]


def test_the_summary_names_the_pairs_learned_to_make_copies() -> None:
    crawled = _Crawled(copy_parameters={"print=1": 2, "sort=*": 3}, copies_not_fetched=17)
    lines = summary_lines(crawled)  # type: ignore[arg-type]
    assert ("copies not fetched: 17 links carrying ?print=1, ?sort=*, learned to make "
            "copies") in lines
    assert not any(line.startswith("copies") for line in summary_lines(
        _Crawled()))  # type: ignore[arg-type]


def test_the_summary_lists_ten_verdicts_and_counts_the_rest() -> None:
    crawled = _Crawled(verdicts=[Verdict(step, StopReason.SATURATED, VerdictFate.NO_STOP)
                                 for step in range(4, 60, 4)])
    lines = summary_lines(crawled)  # type: ignore[arg-type]
    listed = [line for line in lines if line.startswith("  verdict at step")]
    assert SUMMARY_VERDICTS == 10 and len(listed) == 10
    assert listed[0] == "  verdict at step 4: saturated, recorded (no-stop)"
    assert listed[-1] == "  verdict at step 40: saturated, recorded (no-stop)"
    assert "  … and 4 more verdicts (a bundle of this crawl, --out, lists them all)" in lines
    assert lines[0] == "stop reason: limit_reached (first verdict saturated at step 4)"


def test_the_summary_always_lists_the_verdict_that_stood_and_why() -> None:
    # after ten forgiven verdicts the one that stopped the crawl was counted among "12
    # more verdicts", and one that stood said only "stopped" (found by using the CLI)
    forgiven = [Verdict(step, StopReason.SATURATED, VerdictFate.AUTO_FORGIVEN,
                        "relevant pages still come") for step in range(28, 94, 6)]
    why = "the next 5 links score 0.08 on average, under the bar 0.31"
    stood = Verdict(108, StopReason.COVERAGE_REACHED, VerdictFate.STOPPED, why)
    lines = summary_lines(_Crawled(verdicts=[*forgiven, stood],  # type: ignore[arg-type]
                                   stop_reason="coverage_reached", first_verdict="saturated",
                                   stop_step=28))
    listed = [line for line in lines if line.startswith("  ")]
    assert listed[10] == "  … and 1 more verdict (a bundle of this crawl, --out, lists them all)"
    assert listed[11] == f"  verdict at step 108: coverage_reached, stopped: {why}"
    alone = summary_lines(_Crawled(verdicts=[stood]))  # type: ignore[arg-type]
    assert f"  verdict at step 108: coverage_reached, stopped: {why}" in alone
    assert not any("more verdict" in line for line in alone)


def test_the_summary_counts_the_links_past_the_per_page_cap_and_names_the_flag() -> None:
    crawled = _Crawled(pages_over_link_cap=2, links_not_read=11_961)
    lines = summary_lines(crawled)  # type: ignore[arg-type]
    assert ("links not read: 11961 past the first 2000 of 2 pages (--max-links reads more)"
            in lines)
    assert not any(line.startswith("links not read") for line in summary_lines(
        _Crawled(pages_over_link_cap=0, links_not_read=0)))  # type: ignore[arg-type]


def test_a_ctrl_c_while_the_commands_load_exits_130_without_a_traceback(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # loading the commands takes most of a second; a Ctrl-C then printed a traceback
    import builtins

    real_import = builtins.__import__

    def interrupted(name: str, *args: Any, **kwargs: Any) -> Any:
        if name == "pagesift_ui.cli.commands":
            raise KeyboardInterrupt
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", interrupted)
    err = io.StringIO()
    assert pagesift_ui.cli.main(["sessions"], io.StringIO(), err) == 130
    assert err.getvalue() == "pagesift-ui: interrupted while starting; nothing was done\n"


def test_a_reader_that_goes_away_is_no_error_of_the_command(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    # `pagesift-ui replay … | head -1` said "Broken pipe" and exited 1
    class GoneReader(io.StringIO):
        def write(self, text: str) -> int:
            raise BrokenPipeError(32, "Broken pipe")

    monkeypatch.setenv("PAGESIFT_DB", str(tmp_path / "none.db"))
    err = io.StringIO()
    assert main(["sessions"], GoneReader(), err) == 0  # it writes its one line to stdout
    assert err.getvalue() == ""


def test_the_snapshot_progress_line_shows_no_relevance_for_its_placeholder_query() -> None:
    from tests.app.test_components import make_record

    record = make_record(3, pages_scheduled=3, relevant_pages=2, coverage=0.5)
    assert "relevant 2" in progress_line(record, 10)
    line = progress_line(record, 10, query=False)
    assert "3/10 budget" in line and "relevant" not in line and "coverage" not in line
