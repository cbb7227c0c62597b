"""The JavaScript render (issue 16): pages built by scripts, in Debian's headless Chromium.

Every site here is a loopback server on 127.0.0.1; a script's request to another loopback
port is aimed at a second server that counts what it receives, and one to a private address
(10.0.0.1) must be refused before any connection (the network policy of ``net/policy.py``;
Chromium's own backstop proxy refuses every connection it would make past the interception).
Skips when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from collections.abc import Iterator, Mapping
from http.server import BaseHTTPRequestHandler
from pathlib import Path
from typing import Any

import pytest

from pagesift_ui.errors import RenderFailed
from pagesift_ui.net.fetcher import Fetcher
from pagesift_ui.net.loopback import BackgroundServer, LoopbackHTTPServer
from pagesift_ui.net.render import CHROMIUM, Renderer, _Browser
from pagesift_ui.net.rendered import RenderEnd
from pagesift_ui.session import CrawlConfig, CrawlSession, StepOutcome
from pagesift_ui.session.config import RenderMode
from pagesift_ui.session.rendering import RenderingSource, needs_render
from pagesift_ui.session.scope import in_scope
from pagesift_ui.session.source import default_source
from pagesift_ui.store.portable import recorded_from_dict, recorded_to_dict
from pagesift_ui.store.recording import Recorded, RecordingSource, ReplaySource
from pagesift_ui.store.replay import check_rebuilt
from pagesift_ui.warc import WarcSource, write_warc

pytestmark = pytest.mark.skipif(
    not os.path.exists(CHROMIUM), reason=f"{CHROMIUM} is missing: apt-get install -y chromium"
)

HTML = "text/html; charset=utf-8"
ROBOTS = "User-agent: *\nDisallow: /private/\n"
# The start page has no text and no links until its script has run.
EMPTY_APP = '<html><head><title>App</title></head><body><div id="root"></div>' \
            '<script src="/app.js"></script></body></html>'
BUILD_LINKS = """
for (const name of ["one", "two"]) {
  const a = document.createElement("a");
  a.href = "/" + name; a.textContent = "gardening page " + name;
  document.getElementById("root").appendChild(a);
}
"""
PAGE = "<html><body><h1>Gardening {name}</h1><p>Soil, compost and gardening tips.</p>" \
       "</body></html>"


class _Site(BackgroundServer):
    """Serves ``pages`` (path → (content type, body)); 404 otherwise. ``hits`` lists every
    path asked for, in order."""

    _what = "render-site"

    def __init__(self, pages: Mapping[str, tuple[str, str]]) -> None:
        super().__init__(0)
        self.pages = dict(pages)
        self.hits: list[str] = []
        self.origin = ""

    def _make_server(self, port: int) -> LoopbackHTTPServer:
        site = self

        class Handler(BaseHTTPRequestHandler):
            def do_GET(self) -> None:  # noqa: N802 - the http.server name
                site.hits.append(self.path)
                content_type, body = site.pages.get(self.path, ("text/plain", ""))
                data = body.encode("utf-8")
                self.send_response(200 if self.path in site.pages else 404)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, format: str, *args: Any) -> None:
                pass

        return LoopbackHTTPServer(("127.0.0.1", port), Handler)

    def start(self) -> _Site:
        super().start()
        self.origin = f"http://127.0.0.1:{self.port}"  # kept after stop, for the asserts
        return self

    def url(self, path: str = "/") -> str:
        return self.origin + path


@pytest.fixture
def counter() -> Iterator[_Site]:
    """Another loopback server: no page may ever reach it."""
    with _Site({"/x": ("text/plain", "secret")}) as site:
        yield site


def _site(extra: Mapping[str, tuple[str, str]] | None = None) -> _Site:
    pages = {
        "/": (HTML, EMPTY_APP),
        "/app.js": ("text/javascript", BUILD_LINKS),
        "/one": (HTML, PAGE.format(name="one")),
        "/two": (HTML, PAGE.format(name="two")),
        "/robots.txt": ("text/plain", ROBOTS),
    }
    return _Site({**pages, **(extra or {})})


def _config(site: _Site, render: RenderMode, **settings: Any) -> CrawlConfig:
    return CrawlConfig.from_mapping({
        "seed_url": site.url(), "query": "gardening", "delay_s": 0.0, "limit": 10,
        # a deadline no test should meet unless it means to (the machine is shared)
        "stop_on_verdict": False, "render": render.value, "render_deadline_s": 60.0,
        **settings,
    })


def _crawl(config: CrawlConfig) -> CrawlSession:
    with CrawlSession(config) as session:
        session.run()
    return session


def _renderer(config: CrawlConfig, *, everywhere: bool = False) -> tuple[Fetcher, Renderer]:
    scope = functools.partial(in_scope, seed_host=config.seed_host, scope=config.scope)
    fetcher = Fetcher(config.fetch_policy(), in_scope=scope)
    # everywhere: the scope lets every URL in, so only the network policy stands in the way
    check = (lambda url: True) if everywhere else scope
    return fetcher, Renderer(fetcher, in_scope=check, deadline_s=config.render_deadline_s)


def test_links_built_by_a_script_are_followed_when_empty_pages_are_rendered() -> None:
    with _site() as site:
        session = _crawl(_config(site, RenderMode.EMPTY))
    fetched = [record.final_url for record in session.steps]
    assert fetched == [site.url("/"), site.url("/one"), site.url("/two")]
    start = session.steps[0]
    assert start.render is not None
    assert start.render["end"] == RenderEnd.SETTLED.value
    assert start.render["served"] == 1  # app.js, fetched by our fetcher
    assert start.render["refused"] == 0
    # /one and /two have text: EMPTY leaves them as fetched
    assert [record.render for record in session.steps[1:]] == [None, None]
    assert site.hits.count("/") == 1  # the browser was handed the fetched page


def test_links_built_by_a_script_are_not_followed_without_render() -> None:
    with _site() as site:
        session = _crawl(_config(site, RenderMode.OFF))
    assert [record.final_url for record in session.steps] == [site.url("/")]
    assert session.steps[0].render is None
    assert "render" not in session.steps[0].to_dict()
    assert "/app.js" not in site.hits


def test_a_script_request_to_another_loopback_port_or_a_private_address_is_refused(
    counter: _Site,
) -> None:
    script = (f'fetch("{counter.url("/x")}").catch(() => 0);'
              'fetch("http://10.0.0.1/x").catch(() => 0);' + BUILD_LINKS)
    with _site({"/app.js": ("text/javascript", script)}) as site:
        session = _crawl(_config(site, RenderMode.EMPTY))
    render = session.steps[0].render
    assert render is not None
    refused = {url: reason for url, reason in render["refusals"]}
    # the other port is the seed's host, so in scope: the network policy refuses it;
    # 10.0.0.1 is not the seed's host, so the scope refuses it first
    assert refused == {counter.url("/x"): "network_policy", "http://10.0.0.1/x": "out_of_scope"}
    assert render["refused"] == 2
    assert counter.hits == []
    assert len(session.steps) == 3  # and the links the script built were still followed


def test_a_private_address_is_refused_by_the_network_policy_even_in_scope() -> None:
    script = 'fetch("http://10.0.0.1/x").catch(() => 0);' \
             'fetch("http://192.168.0.1/y").catch(() => 0);' + BUILD_LINKS
    with _site({"/app.js": ("text/javascript", script)}) as site:
        config = _config(site, RenderMode.ALWAYS)
        fetcher, renderer = _renderer(config, everywhere=True)
        try:
            rendered = renderer.render(fetcher.fetch(site.url()))
        finally:
            renderer.close()
            fetcher.close()
    assert rendered.render is not None
    assert {(r.url, r.reason) for r in rendered.render.refusals} == {
        ("http://10.0.0.1/x", "network_policy"), ("http://192.168.0.1/y", "network_policy"),
    }
    assert b'href="/one"' in rendered.body  # the rendered DOM, not the fetched HTML
    assert (rendered.encoding, dict(rendered.headers)["Content-Type"]) == (
        "utf-8", "text/html; charset=utf-8")


def test_a_connection_the_interception_would_miss_reaches_nothing(counter: _Site) -> None:
    # the backstop alone: a context of the render browser with no interception at all (a
    # request the route never sees, as a preconnect hint's socket would be) still reaches
    # nothing, because Chromium's only way out is a proxy that refuses every connection
    browser = _Browser(CHROMIUM, counter.url())
    try:
        context = browser._browser.new_context()
        with pytest.raises(Exception, match="ERR_PROXY_CONNECTION_FAILED"):
            context.new_page().goto(counter.url("/x"), timeout=20_000)
        context.close()
    finally:
        browser.close()
    assert counter.hits == []


def test_a_missing_subresource_is_answered_with_its_status_not_refused() -> None:
    page = '<html><body><div id="root"></div><script src="/gone.js"></script>' \
           '<script src="/app.js"></script></body></html>'
    with _site({"/": (HTML, page)}) as site:
        session = _crawl(_config(site, RenderMode.EMPTY))
    render = session.steps[0].render
    assert render is not None
    assert (render["served"], render["refused"]) == (2, 0)
    assert "/gone.js" in site.hits
    assert len(session.steps) == 3


def test_a_robots_disallowed_subresource_is_refused() -> None:
    page = '<html><body><div id="root"></div><script src="/private/app.js"></script>' \
           '<script src="/app.js"></script></body></html>'
    with _site({"/": (HTML, page), "/private/app.js": ("text/javascript", BUILD_LINKS)}) as site:
        session = _crawl(_config(site, RenderMode.EMPTY))
    render = session.steps[0].render
    assert render is not None
    assert render["refusals"] == [[site.url("/private/app.js"), "robots"]]
    assert render["served"] == 1
    assert "/private/app.js" not in site.hits


def test_a_script_that_never_ends_meets_the_deadline_and_the_crawl_goes_on() -> None:
    page = '<html><body><a href="/one">gardening one</a><script>while (true) {}</script>' \
           '</body></html>'
    with _site({"/": (HTML, page)}) as site:
        session = _crawl(_config(site, RenderMode.ALWAYS, render_deadline_s=1.0))
    start = session.steps[0]
    assert start.outcome is StepOutcome.FETCHED
    assert start.render is not None
    assert start.render["end"] == RenderEnd.DEADLINE.value
    assert [record.final_url for record in session.steps] == [site.url("/"), site.url("/one")]
    assert session.steps[1].outcome is StepOutcome.FETCHED


def test_a_browser_that_cannot_start_is_an_error_of_that_page_not_of_the_session() -> None:
    with _site() as site:
        config = _config(site, RenderMode.EMPTY)
        fetcher = Fetcher(config.fetch_policy())
        renderer = Renderer(fetcher, in_scope=lambda url: True, deadline_s=5.0,
                            executable="/nonexistent/chromium")
        with CrawlSession(config, RenderingSource(fetcher, renderer, config.render)) as session:
            session.run()
    assert len(session.steps) == 1
    assert session.steps[0].outcome is StepOutcome.ERROR
    assert session.steps[0].error_kind == RenderFailed.kind


@pytest.mark.parametrize("saved_as", ["bundle", "warc"])
def test_a_replay_of_a_saved_rendered_session_gives_the_same_steps(
    saved_as: str, tmp_path: Path
) -> None:
    answers: list[Recorded] = []
    with _site() as site:
        config = _config(site, RenderMode.EMPTY)
        with CrawlSession(config, RecordingSource(default_source(config), answers.append)) as live:
            live.run()
    # as saved: the body kept is the rendered DOM
    source: ReplaySource
    if saved_as == "bundle":
        source = ReplaySource(
            [recorded_from_dict(json.loads(json.dumps(recorded_to_dict(a)))) for a in answers])
    else:
        write_warc(tmp_path / "rendered.warc.gz", config, answers)
        source = WarcSource(tmp_path / "rendered.warc.gz")
    with CrawlSession(config, source) as replay:
        replay.run()
    check_rebuilt(live.steps, replay.steps)  # raises ReplayDiverged at a difference
    assert [r.final_url for r in replay.steps] == [site.url("/"), site.url("/one"),
                                                   site.url("/two")]
    assert live.steps[0].render is not None
    assert replay.steps[0].render is None  # a replay renders nothing: it has no report


def test_empty_renders_only_pages_with_no_text_and_no_links() -> None:
    with _site() as site:
        config = _config(site, RenderMode.EMPTY)
        with Fetcher(config.fetch_policy()) as fetcher:
            empty, full = fetcher.fetch(site.url("/")), fetcher.fetch(site.url("/one"))
    assert needs_render(RenderMode.EMPTY, empty)
    assert not needs_render(RenderMode.EMPTY, full)
    assert needs_render(RenderMode.ALWAYS, full)
    assert not needs_render(RenderMode.OFF, empty)


def test_a_crawl_without_render_never_imports_playwright() -> None:
    code = (
        "import sys\n"
        "from pagesift_ui.session import CrawlConfig, CrawlSession\n"
        "from pagesift_ui.session.source import default_source\n"
        "for mode in ('off', 'empty'):\n"
        "    config = CrawlConfig.from_mapping({'seed_url': 'http://127.0.0.1:9/', "
        "'query': 'gardening', 'render': mode})\n"
        "    default_source(config).close()\n"
        "print('playwright' in sys.modules)\n"
    )
    env = {**os.environ, "PYTHONPATH": os.getcwd()}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env=env)
    # not even a source that would render: the browser (and its import) waits for a page
    assert out.stdout.strip() == "False"
