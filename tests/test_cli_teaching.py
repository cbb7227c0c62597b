"""The command line tells what went wrong and counts steps and pages apart (issue 13)."""

from __future__ import annotations

import io
import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest

from pagesift_ui.cli import build_parser, main
from pagesift_ui.cli.demo import DEFAULT_BENCH_OUT
from pagesift_ui.demo import BENCH_SCENARIOS, SCENARIOS
from pagesift_ui.net.serve import StaticServer


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    code = main(list(argv), out=out, err=err)
    return code, out.getvalue(), err.getvalue()


@pytest.fixture
def folder(tmp_path: Path) -> Iterator[str]:
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(
        "<!doctype html><html lang='en'><head><title>Fees</title></head><body><main>"
        "<h1>Tuition fees</h1><p>Tuition fees are paid each term.</p>"
        "<p><a href='/fees.html'>Fees</a> and <a href='/gone.html'>old fees</a></p></main>"
        "</body></html>", encoding="utf-8")
    (site / "fees.html").write_text(
        "<!doctype html><html lang='en'><head><title>Fees table</title></head><body><main>"
        "<h1>Fees table</h1><p>The tuition fees for each programme.</p></main></body></html>",
        encoding="utf-8")
    (site / "leaflet.pdf").write_bytes(b"%PDF-1.4\n%%EOF\n")
    (site / "empty.html").write_bytes(b"")
    with StaticServer(site) as server:
        yield server.base_url()


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@pytest.mark.parametrize(("seed", "words"), [
    ("/missing.html", "404"),
    ("/leaflet.pdf", "not an HTML page"),
    # a 0-byte start page said only "exhausted"
    ("/empty.html", "empty.html was read but is empty: there is nothing to crawl from it"),
    ("/fees.html", "fees.html (“Fees table”) was read but has no link to follow"),
])
def test_a_seed_that_cannot_be_crawled_exits_1_with_the_reason(
    folder: str, seed: str, words: str
) -> None:
    code, out, err = run_cli("crawl", folder + seed, "--query", "tuition fees", "--delay", "0",
                             "--no-save", "--quiet")
    assert code == 1
    assert "the start URL could not be crawled" in err and words in err
    assert "stop reason: exhausted" in out  # the summary still says how it ended


def test_a_refused_connection_exits_1_with_the_reason() -> None:
    url = f"http://127.0.0.1:{_free_port()}/"
    code, _, err = run_cli("crawl", url, "--query", "tuition fees", "--delay", "0",
                           "--no-save", "--quiet", "--allow-private")
    assert code == 1 and "the start URL could not be crawled" in err
    assert url in err


def test_a_crawl_that_reads_its_seed_exits_0_and_counts_pages_and_steps(folder: str) -> None:
    code, out, err = run_cli("crawl", folder + "/index.html", "--query", "tuition fees",
                             "--delay", "0", "--no-save")
    assert code == 0, err
    match = re.search(r"^(\d+) pages fetched in (\d+) steps", out, re.MULTILINE)
    assert match is not None and int(match.group(1)) == 2 and int(match.group(2)) == 3
    assert re.search(r"step 3 +\[", err)  # the progress bar names the step


def test_demo_lists_its_scenarios_and_bench_defaults_outside_the_committed_results() -> None:
    parser = build_parser()
    commands = next(a for a in parser._actions if a.dest == "command")
    demo = commands.choices["demo"]  # type: ignore[index]
    text = demo.format_help()
    for name in SCENARIOS:
        assert name in text
    assert "bakery (saturated)" in " ".join(text.split())
    with pytest.raises(SystemExit):
        parser.parse_args(["demo", "--scenario", "intranet"])
    bench = parser.parse_args(["bench"])
    assert bench.out == DEFAULT_BENCH_OUT == Path("pagesift-bench")
    assert "benchmarks" not in str(bench.out)
    bench_help = commands.choices["bench"].format_help()  # type: ignore[index]
    assert ", ".join(BENCH_SCENARIOS) in " ".join(bench_help.split())
