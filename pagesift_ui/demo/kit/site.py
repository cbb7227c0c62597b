"""The in-memory model of a demo website: pre-rendered pages, redirects, robots.txt per host,
and a few pages generated on request (an endless calendar, PDF stubs).

:class:`DemoSite` answers ``respond(host, target)`` the way a real web server would: it ignores
query parameters it does not use (tracking and session parameters), strips servlet path
parameters (``;jsessionid=``), adds the trailing slash of a directory with a 301, and serves a
branded 404 page for anything else. No I/O happens here; :mod:`.server` puts it on HTTP.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TypeAlias
from urllib.parse import parse_qsl, urlencode

from .html import PORT_TOKEN, Chrome, Link, PageSpec, para, render_page

__all__ = [
    "DemoResponse", "DemoSite", "DynamicHandler", "ScenarioQuery", "SiteBuilder", "query_key",
    "split_host",
]

logger = logging.getLogger(__name__)

HTML_TYPE = "text/html; charset=utf-8"
TEXT_TYPE = "text/plain; charset=utf-8"
_PORT_BYTES = PORT_TOKEN.encode()
# Servlet containers put the session in a path parameter: /a/b;jsessionid=0A1B?x=1.
_PATH_SESSION = re.compile(r";jsessionid=[^/?#]*", re.IGNORECASE)
_HOST_PORT = re.compile(r"^(?P<name>[^:]+)(?::(?P<port>\d{1,5}))?$")
# Page titles of the areas robots.txt disallows (they exist, see SiteBuilder.register_host).
_BLOCKED_TITLES = {
    "/search": "Search", "/suche": "Suche", "/en/search": "Search", "/cart": "Your basket",
    "/checkout": "Checkout", "/requests/": "Submit a request", "/feedback": "Feedback",
    "/intern/": "Intranet", "/typo3/": "TYPO3 Login", "/intranet/": "Staff intranet",
}


@dataclass(frozen=True, slots=True)
class DemoResponse:
    """What the server sends back; a redirect has a ``Location`` header and a one-line body."""

    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


# A page made on request: gets the path and the query parameters, returns None for "not found".
DynamicHandler: TypeAlias = Callable[[str, Mapping[str, str]], DemoResponse | None]


def split_host(host_header: str) -> tuple[str, str]:
    """Split a Host header into (lower-case name, port suffix such as ``":8123"`` or ``""``)."""
    match = _HOST_PORT.match(host_header.strip())
    if match is None:
        return host_header.strip().lower(), ""
    port = match.group("port")
    return match.group("name").lower().rstrip("."), f":{port}" if port else ""


@dataclass(frozen=True, slots=True)
class _Routes:
    pages: Mapping[tuple[str, str], bytes]
    redirects: Mapping[tuple[str, str], Link]
    robots: Mapping[str, bytes]
    dynamic: tuple[tuple[str, str, DynamicHandler], ...]
    not_found: Mapping[str, bytes]
    kept_params: frozenset[str]


def query_key(query: str) -> str:
    """A query as scenarios compare them: case-folded, white space collapsed (the app finds
    a query's answer key by it, ``components/targets.demo_truth``)."""
    return " ".join(query.casefold().split())


@dataclass(frozen=True, slots=True)
class ScenarioQuery:
    """Another query a scenario answers, with its own answer key: (host, path) pairs as in
    ``DemoSite.relevant``, and the language the query is in (an ISO 639-1 code)."""

    text: str
    language: str
    relevant: frozenset[tuple[str, str]]


@dataclass(frozen=True, slots=True)
class DemoSite:
    """A scenario: its hosts, pages, default query and answer key (``relevant``).

    ``relevant`` holds (host, path) pairs of the canonical URLs of the pages that answer
    ``query``; printer-friendly copies and tracking variants of them are not listed.

    A scenario that teaches a stop reason names it in ``lesson`` (a ``StopReason`` value,
    "" for none), says in ``watch`` what to look at while it runs, and lists in
    ``settings`` the crawl settings it needs besides the defaults (``SETTINGS`` names, e.g.
    ``{"limit": 20}``): with them, a crawl of the scenario ends with that reason.
    ``more_queries`` are the other queries the site answers, each with its own answer key
    (the multilingual site's German query).
    """

    name: str
    query: str
    description: str
    seed_host: str
    seed_path: str
    hosts: tuple[str, ...]
    relevant: frozenset[tuple[str, str]]
    _routes: _Routes = field(repr=False)
    lesson: str = ""
    watch: str = ""
    settings: Mapping[str, object] = field(default_factory=lambda: MappingProxyType({}))
    more_queries: tuple[ScenarioQuery, ...] = ()

    @property
    def page_count(self) -> int:
        """Number of static pages (pages made on request, like calendar months, not counted)."""
        return len(self._routes.pages)

    def iter_pages(self) -> Iterator[tuple[str, str]]:
        """Yield (host, target) of every static page in build order; target may carry the
        query string of a page variant that the site serves (``?page=2``, ``?print=1``)."""
        yield from self._routes.pages

    def resolve(self, host: str, target: str) -> tuple[str, str] | None:
        """Return the (host, target) of the static page that ``respond`` would serve for this
        request without redirects, or None (redirect, robots.txt, dynamic page, or 404)."""
        name, _ = split_host(host)
        key = self._static_key(_clean_path(target), _query_of(target))
        return (name, key) if (name, key) in self._routes.pages else None

    def respond(self, host: str, target: str) -> DemoResponse:
        """Answer one GET for ``target`` (path plus query) on ``host`` (a Host header value;
        its port, if any, is used in links to the site's other hosts)."""
        name, port = split_host(host)
        if name not in self.hosts:
            return _unknown_host(name, self.hosts)
        path, query = _clean_path(target), _query_of(target)
        response = self._route(name, path, query)
        if _PORT_BYTES in response.body:
            response = _with_port(response, port)
        if any(PORT_TOKEN in value for _, value in response.headers):
            headers = tuple((k, v.replace(PORT_TOKEN, port)) for k, v in response.headers)
            response = DemoResponse(response.status, response.content_type, response.body, headers)
        return response

    def _route(self, host: str, path: str, query: str) -> DemoResponse:
        routes = self._routes
        if path == "/robots.txt":
            return DemoResponse(200, TEXT_TYPE, routes.robots[host])
        redirect = routes.redirects.get((host, path))
        if redirect is not None:
            return _redirect(redirect, host)
        for handler_host, prefix, handler in routes.dynamic:
            if handler_host == host and _under(path, prefix):
                response = handler(path, dict(parse_qsl(query, keep_blank_values=True)))
                if response is not None:
                    return response
        body = routes.pages.get((host, self._static_key(path, query)))
        if body is not None:
            return DemoResponse(200, HTML_TYPE, body)
        if not path.endswith("/") and (host, path + "/") in routes.pages:
            return _redirect(Link("", path + "/"), host)
        return DemoResponse(404, HTML_TYPE, routes.not_found[host])

    def _static_key(self, path: str, query: str) -> str:
        kept = [
            (name, value)
            for name, value in parse_qsl(query, keep_blank_values=True)
            if name in self._routes.kept_params
        ]
        return f"{path}?{urlencode(kept)}" if kept else path


def _under(path: str, prefix: str) -> bool:
    """``/events/calendar`` is under itself; ``/account/login`` is under ``/account/``."""
    return path == prefix or path.startswith(prefix if prefix.endswith("/") else prefix + "/")


def _clean_path(target: str) -> str:
    path = target.split("#", 1)[0].split("?", 1)[0]
    if path.startswith(("http://", "https://")):
        path = "/" + path.split("://", 1)[1].partition("/")[2]
    return _PATH_SESSION.sub("", path) or "/"


def _query_of(target: str) -> str:
    return target.split("#", 1)[0].partition("?")[2]


def _with_port(response: DemoResponse, port: str) -> DemoResponse:
    body = response.body.replace(_PORT_BYTES, port.encode())
    return DemoResponse(response.status, response.content_type, body, response.headers)


def _redirect(location: Link, host: str) -> DemoResponse:
    href = location.href(host)
    body = f"Moved permanently to {href}\n".encode()
    return DemoResponse(301, TEXT_TYPE, body, (("Location", href),))


def _unknown_host(name: str, hosts: Sequence[str]) -> DemoResponse:
    body = (
        f"404 Not Found: this demo server does not serve the host {name!r}.\n"
        f"It answers for: {', '.join(hosts)}.\n"
        "Send one of these names in the Host header (they all resolve to 127.0.0.1).\n"
    )
    return DemoResponse(404, TEXT_TYPE, body.encode())


class SiteBuilder:
    """Collects the pages of one scenario while its generators run, then freezes them."""

    def __init__(
        self,
        *,
        name: str,
        query: str,
        description: str,
        seed_host: str,
        kept_params: Sequence[str] = (),
        lesson: str = "",
        watch: str = "",
        settings: Mapping[str, object] | None = None,
    ) -> None:
        self.name = name
        self.query = query
        self.description = description
        self.seed_host = seed_host
        self.lesson = lesson
        self.watch = watch
        self.settings = MappingProxyType(dict(settings or {}))
        self._kept_params = frozenset(kept_params)
        self._pages: dict[tuple[str, str], bytes] = {}
        self._redirects: dict[tuple[str, str], Link] = {}
        self._robots: dict[str, bytes] = {}
        self._dynamic: list[tuple[str, str, DynamicHandler]] = []
        self._chrome: dict[str, tuple[str, Chrome]] = {}
        self._relevant: list[tuple[str, str]] = []
        self._queries: list[ScenarioQuery] = []

    def register_host(self, host: str, chrome: Chrome, lang: str, disallow: Sequence[str]) -> None:
        """Declare a host with its chrome (for the 404 page) and its robots.txt rules.

        The disallowed areas exist, as on real sites (a search page, a sign-in form): they
        are served on request, so only a crawler that ignores robots.txt ever sees them.
        """
        if not disallow:
            raise ValueError(f"host {host!r} needs at least one disallowed path in robots.txt")
        self._chrome[host] = (lang, chrome)
        rules = "".join(f"Disallow: {path}\n" for path in disallow)
        self._robots[host] = f"User-agent: *\n{rules}\n".encode()
        for path in disallow:
            self._dynamic.append((host, path, self._blocked_area(host, path)))

    def _blocked_area(self, host: str, path: str) -> DynamicHandler:
        lang, chrome = self._chrome[host]
        title = _BLOCKED_TITLES.get(path, "Sign in")
        text = "Bitte melden Sie sich an." if lang == "de" else "Please sign in to continue."
        spec = PageSpec(host=host, path=path, lang=lang, title=f"{title} | {chrome.site_name}",
                        h1=title, blocks=(para(text),), chrome=chrome, breadcrumbs=False)
        body = render_page(spec).encode()
        return lambda _path, _params: DemoResponse(200, HTML_TYPE, body)

    def add_page(self, spec: PageSpec, *, target: str | None = None,
                 relevant: bool = False) -> None:
        key = (spec.host, target or spec.path)
        if spec.host not in self._chrome:
            raise ValueError(f"page {key} is on a host that was not registered")
        if key in self._pages:
            raise ValueError(f"page {key} was generated twice")
        self._pages[key] = render_page(spec).encode()
        if relevant:
            self._relevant.append(key)

    def relevant_keys(self) -> tuple[tuple[str, str], ...]:
        """The (host, path) pairs marked relevant so far, in the order they were added."""
        return tuple(self._relevant)

    def add_query(self, text: str, language: str, relevant: Sequence[tuple[str, str]]) -> None:
        """Another query the site answers, with its answer key ((host, path) pairs)."""
        self._queries.append(ScenarioQuery(text, language, frozenset(relevant)))

    def add_redirect(self, host: str, path: str, location: Link) -> None:
        self._redirects[(host, path)] = location

    def add_dynamic(self, host: str, prefix: str, handler: DynamicHandler) -> None:
        self._dynamic.append((host, prefix, handler))

    def not_found_page(self, host: str) -> bytes:
        lang, chrome = self._chrome[host]
        if lang == "de":
            text, note = "Seite nicht gefunden", para(
                "Diese Seite gibt es nicht oder sie ist umgezogen. Weiter zur ",
                Link("Startseite", chrome.home_target), ".")
        else:
            text, note = "Page not found", para(
                "The page you asked for does not exist or has moved. Try the ",
                Link("home page", chrome.home_target), ".")
        spec = PageSpec(
            host=host,
            path="/404",
            lang=lang,
            title=f"{text} | {chrome.site_name}",
            h1=text,
            blocks=(note,),
            chrome=chrome,
            breadcrumbs=False,
        )
        return render_page(spec).encode()

    def build(self) -> DemoSite:
        keys = [*self._relevant, *(key for query in self._queries for key in query.relevant)]
        missing = [key for key in keys if key not in self._pages]
        if missing:
            raise ValueError(f"relevant pages were never generated: {missing}")
        hosts = tuple(self._chrome)
        routes = _Routes(
            pages=MappingProxyType(dict(self._pages)),
            redirects=MappingProxyType(dict(self._redirects)),
            robots=MappingProxyType(dict(self._robots)),
            dynamic=tuple(self._dynamic),
            not_found=MappingProxyType({host: self.not_found_page(host) for host in hosts}),
            kept_params=self._kept_params,
        )
        logger.debug("built demo site %s: %d pages", self.name, len(self._pages))
        return DemoSite(
            name=self.name,
            query=self.query,
            description=self.description,
            seed_host=self.seed_host,
            seed_path="/",
            hosts=hosts,
            relevant=frozenset(self._relevant),
            _routes=routes,
            lesson=self.lesson,
            watch=self.watch,
            settings=self.settings,
            more_queries=tuple(self._queries),
        )
