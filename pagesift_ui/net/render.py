"""Rendering a fetched page in headless Chromium, every request held to the fetch rules.

docs/DESIGN.md §11.3a. The page has already been fetched by the ``Fetcher`` (network policy,
robots, scope, redirects, body cap). The browser loads it with every request intercepted
(``BrowserContext.route("**/*")``):

- the main document is answered from the fetched body, never fetched again;
- every other request (scripts, styles, XHR/fetch, frames, images) is checked for scope and
  then fetched by the same ``Fetcher`` (``fetch_resource``: scheme, the address check of
  ``net/policy.py``, robots.txt, politeness, the body cap) and answered with its body, or
  aborted; a request that is not GET, a second main-frame navigation, a popup and every
  WebSocket are refused. Each refusal is counted in the page's ``RenderReport``.

As a backstop, Chromium is started with a proxy that refuses every connection (a port this
process has bound and never listens on) and with DNS turned off, so a connection the
interception does not see (a ``preconnect`` hint) reaches nothing. Service workers and
downloads are blocked.

A render has a deadline for the whole page, counted from its first request (starting the
browser and opening the tab are not the page's time). The page has settled when it has
loaded and its network has been quiet for 500 ms (Playwright's ``networkidle``). When the
deadline passes first, the page's scripts are stopped
(CDP ``Runtime.terminateExecution``, then script execution is disabled) so that even a page
spinning in ``while (true) {}`` gives up its DOM as it is then; if that DOM cannot be read,
the plain fetch is used. The report says which happened.

Playwright's sync API is bound to the thread that started it, and the app steps a crawl
from a new thread on each rerun, so the browser lives on a worker thread of its own and
``render`` hands each page to it. Playwright is imported there, on first use: a crawl that
renders nothing never imports it. One browser serves the whole session, one fresh context
(no cookies, no storage) each page; a browser that crashes is a ``RenderFailed`` for that
page and is started again for the next.
"""

from __future__ import annotations

import concurrent.futures
import dataclasses
import logging
import socket
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from pagesift_ui.errors import FetchError, HTTPStatusError, OutOfScope, RenderFailed
from pagesift_ui.net.fetcher import Fetcher, FetchResult
from pagesift_ui.net.rendered import MAX_LISTED_REFUSALS, Refusal, RenderEnd, RenderReport

__all__ = ["CHROMIUM", "Renderer"]

logger = logging.getLogger(__name__)

_T = TypeVar("_T")

#: Debian's Chromium; Playwright drives it (never ``playwright install``: no browser download).
CHROMIUM = "/usr/bin/chromium"
_ARGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--dns-prefetch-disable", "--no-pings",
    # the backstop: no name resolves, and every connection goes to a proxy that refuses it
    # (<-loopback> sends loopback through the proxy too; Chromium bypasses it by default)
    "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-bypass-list=<-loopback>",
)
#: Time beyond the render deadline for opening the tab, stopping the scripts and reading
#: the DOM; a render still unfinished then has a hung browser, which is given up
#: (``RenderFailed``).
_GRACE_S = 15.0
#: How long starting Chromium may take (1-3 s on the CI machine, more under load).
_START_S = 60.0
#: Response headers not handed to the browser: the body is already decoded and measured,
#: and a crawl keeps no cookies.
_DROPPED_HEADERS = frozenset(
    {"content-encoding", "transfer-encoding", "content-length", "set-cookie", "connection"}
)


@dataclass(frozen=True, slots=True)
class _Answer:
    """What the browser is answered for one subresource."""

    status: int
    body: bytes
    headers: dict[str, str]


class _Tally:
    """The requests of one render: served, and refused with the first few named."""

    def __init__(self, started: float, worker: int) -> None:
        self.started = started  # when the page began to load: its deadline counts from here
        self.worker = worker  # the Renderer's worker generation the render runs on
        self.served = 0
        self.refused = 0
        self.listed: list[Refusal] = []

    def refuse(self, url: str, reason: str) -> None:
        self.refused += 1
        if len(self.listed) < MAX_LISTED_REFUSALS:
            self.listed.append(Refusal(url, reason))
        logger.info("render: refused %s (%s)", url, reason)

    def report(self, end: RenderEnd, elapsed_s: float) -> RenderReport:
        return RenderReport(end, self.served, self.refused, tuple(self.listed), elapsed_s)


class Renderer:
    """Renders fetched HTML pages in one headless Chromium, started on first use.

    ``fetcher`` fetches the subresources (the session's own, so robots.txt, politeness and
    the address rules are shared with the plain fetches); ``in_scope`` is the crawl's scope;
    ``deadline_s`` bounds each page's render. Not thread-safe: one caller at a time, which
    waits for its page (the browser works on a thread of its own meanwhile).
    """

    def __init__(
        self,
        fetcher: Fetcher,
        *,
        in_scope: Callable[[str], bool],
        deadline_s: float,
        executable: str = CHROMIUM,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self._fetcher = fetcher
        self._in_scope = in_scope
        self._deadline_s = deadline_s
        self._executable = executable
        self._clock = clock
        self._worker: concurrent.futures.ThreadPoolExecutor | None = None
        self._browser: _Browser | None = None
        # bumped when a hung worker is given up: its late requests then fetch nothing, so
        # the fetcher is never used from two threads at once
        self._generation = 0

    def render(self, fetched: FetchResult) -> FetchResult:
        """``fetched`` with its body replaced by the rendered DOM and ``render`` set.

        Raises ``RenderFailed`` when the browser cannot be started, crashes, or hangs past
        the deadline and its grace; the next call starts a new browser.
        """
        if self._worker is None:
            self._worker = concurrent.futures.ThreadPoolExecutor(
                max_workers=1, thread_name_prefix="pagesift-render"
            )
        if self._browser is None:
            self._wait(self._worker.submit(self._start_here, fetched.url), _START_S, fetched,
                       "starting for")
        return self._wait(self._worker.submit(self._render_here, fetched),
                          self._deadline_s + _GRACE_S, fetched, "rendering")

    def _wait(
        self, future: concurrent.futures.Future[_T], seconds: float, fetched: FetchResult,
        doing: str,
    ) -> _T:
        """The worker's answer, or ``RenderFailed`` once it is ``seconds`` late."""
        try:
            return future.result(timeout=seconds)
        except concurrent.futures.TimeoutError:
            logger.error("the browser hung %s %s; it is given up", doing, fetched.final_url)
            # the hung thread keeps its browser; a new worker starts a new one
            if self._worker is not None:
                self._worker.shutdown(wait=False, cancel_futures=True)
            self._worker, self._browser = None, None
            self._generation += 1
            raise RenderFailed(
                fetched.url, f"the browser stopped answering while {doing} {fetched.final_url}"
            ) from None

    def close(self) -> None:
        """Close the browser and its thread (idempotent)."""
        if self._worker is None:
            return
        try:
            self._worker.submit(self._shutdown_here).result(timeout=_GRACE_S)
        except (concurrent.futures.TimeoutError, RenderFailed) as exc:
            logger.warning("the browser did not close cleanly: %s", exc)
        finally:
            self._worker.shutdown(wait=False, cancel_futures=True)
            self._worker = None

    # -- on the worker thread -------------------------------------------------------------

    def _start_here(self, url: str) -> None:
        if self._browser is None:
            self._browser = _Browser(self._executable, url)

    def _render_here(self, fetched: FetchResult) -> FetchResult:
        try:
            self._start_here(fetched.url)
            assert self._browser is not None  # _start_here raises or sets it
            html, report = self._browser.render(self, fetched)
        except RenderFailed:
            self._shutdown_here()
            raise
        if html is None:
            return dataclasses.replace(fetched, render=report)
        # the body is now the DOM in UTF-8: its Content-Type says so, so that a WARC of it
        # reads right in any tool (the other headers stay as received)
        headers = tuple(
            (name, f"{fetched.content_type}; charset=utf-8")
            if name.lower() == "content-type" else (name, value)
            for name, value in fetched.headers
        )
        return dataclasses.replace(fetched, body=html.encode("utf-8"),
                                   encoding="utf-8", headers=headers, render=report)

    def _shutdown_here(self) -> None:
        browser, self._browser = self._browser, None
        if browser is not None:
            browser.close()

    # -- asked by _Browser on the worker thread --------------------------------------------

    def now(self) -> float:
        return self._clock()

    @property
    def generation(self) -> int:
        return self._generation

    def time_left(self, started: float) -> float:
        return started + self._deadline_s - self._clock()

    def answer(self, url: str, method: str, tally: _Tally) -> _Answer | None:
        """A subresource fetched under the crawl's rules, or None (refused, in ``tally``).

        A 4xx/5xx is an answer, not a refusal: the browser gets the status (no body).
        """
        if tally.worker != self._generation:
            tally.refuse(url, "abandoned")  # a given-up render still running
            return None
        if method != "GET":
            tally.refuse(url, "method")  # a render must not send forms or change state
            return None
        if self.time_left(tally.started) <= 0:
            tally.refuse(url, "deadline")
            return None
        try:
            if not self._in_scope(url):
                raise OutOfScope(url, f"{url} is outside the crawl's scope")
            answer = self._fetcher.fetch_resource(url)
        except HTTPStatusError as exc:
            tally.served += 1
            return _Answer(exc.status, b"", {})
        except FetchError as exc:
            tally.refuse(url, exc.kind)
            return None
        tally.served += 1
        return _Answer(answer.status, answer.body, _headers(answer))


class _Browser:
    """One Chromium on the worker thread, and the Playwright driving it."""

    def __init__(self, executable: str, url: str) -> None:
        try:
            # here, not at the top: a crawl without render never pays for the import
            from playwright.sync_api import Error, TimeoutError, sync_playwright
        except ImportError as exc:
            raise RenderFailed(url, f"render needs the playwright package: {exc}") from exc
        self._error: type[Exception] = Error
        self._timeout: type[Exception] = TimeoutError
        # bound and never listened on: every connection to it is refused at once
        self._blackhole = socket.socket()
        self._blackhole.bind(("127.0.0.1", 0))
        proxy = f"--proxy-server=http://127.0.0.1:{self._blackhole.getsockname()[1]}"
        try:
            self._playwright = sync_playwright().start()
            self._browser = self._playwright.chromium.launch(
                executable_path=executable, headless=True, args=[*_ARGS, proxy]
            )
        except Error as exc:
            self.close()
            raise RenderFailed(
                url, f"the browser {executable} could not be started: {exc}"
            ) from exc

    def render(self, renderer: Renderer, fetched: FetchResult) -> tuple[str | None, RenderReport]:
        """The DOM (None: not readable in time) and the report of one page's render.

        The deadline and ``elapsed_s`` count from the page's first request: starting the
        browser and opening its tab are ours to pay, not the page's.
        """
        tally = _Tally(renderer.now(), renderer.generation)
        try:
            context = self._browser.new_context(
                service_workers="block", accept_downloads=False, java_script_enabled=True
            )
            try:
                html, end = self._load(context, renderer, fetched, tally)
            finally:
                context.close()
        except self._error as exc:
            raise RenderFailed(
                fetched.url, f"the browser failed rendering {fetched.final_url}: {exc}"
            ) from exc
        return html, tally.report(end, renderer.now() - tally.started)

    def _load(
        self, context: Any, renderer: Renderer, fetched: FetchResult, tally: _Tally
    ) -> tuple[str | None, RenderEnd]:
        document: list[Any] = []  # the main frame's one navigation, once it has come

        def route(route: Any) -> None:
            request = route.request
            if request.is_navigation_request() and request.frame.parent_frame is None:
                if document:
                    tally.refuse(request.url, "navigation")  # the page may not leave
                    route.abort("blockedbyclient")
                    return
                document.append(request)
                route.fulfill(status=fetched.status, body=fetched.body,
                              headers=_headers(fetched, document=True))
                return
            answer = renderer.answer(request.url, request.method, tally)
            if answer is None:
                route.abort("blockedbyclient")
            else:
                route.fulfill(status=answer.status, body=answer.body, headers=answer.headers)

        def websocket(ws: Any) -> None:
            tally.refuse(ws.url, "websocket")  # never connected to the server
            ws.close()

        def popup(page: Any) -> None:
            tally.refuse(page.url, "popup")
            page.close()

        context.route("**/*", route)
        context.route_web_socket("**/*", websocket)
        page = context.new_page()
        page.on("popup", popup)
        cdp = context.new_cdp_session(page)
        cdp.send("Runtime.enable")  # terminateExecution needs it, while scripts can run
        end = RenderEnd.SETTLED
        tally.started = renderer.now()
        try:
            page.goto(fetched.final_url, wait_until="load", timeout=_ms(renderer, tally))
            page.wait_for_load_state("networkidle", timeout=_ms(renderer, tally))
        except self._timeout:
            end = RenderEnd.DEADLINE
        if end is RenderEnd.DEADLINE:
            try:
                _stop_scripts(cdp)
            except self._error as exc:
                logger.warning("could not stop the scripts of %s: %s", fetched.final_url, exc)
                return None, RenderEnd.FETCHED
        try:
            return str(page.content()), end
        except self._error as exc:
            logger.warning("could not read the DOM of %s: %s", fetched.final_url, exc)
            return None, RenderEnd.FETCHED

    def close(self) -> None:
        try:
            if getattr(self, "_browser", None) is not None:
                self._browser.close()
            if getattr(self, "_playwright", None) is not None:
                self._playwright.stop()
        except self._error as exc:
            logger.warning("closing the browser: %s", exc)
        finally:
            self._blackhole.close()


def _stop_scripts(cdp: Any) -> None:
    """Stop the page's running script and every later one, so its DOM can be read."""
    cdp.send("Runtime.terminateExecution")
    cdp.send("Emulation.setScriptExecutionDisabled", {"value": True})
    cdp.send("Runtime.terminateExecution")  # one that started in between


def _ms(renderer: Renderer, tally: _Tally) -> float:
    """What is left of the deadline in Playwright's milliseconds (at least 1: 0 is none)."""
    return max(1.0, renderer.time_left(tally.started) * 1000.0)


def _headers(result: FetchResult, *, document: bool = False) -> dict[str, str]:
    headers = {k.lower(): v for k, v in result.headers if k.lower() not in _DROPPED_HEADERS}
    if document:
        # the body is handed over decoded, in the codec the fetcher found
        headers["content-type"] = f"{result.content_type}; charset={result.encoding}"
    return headers
