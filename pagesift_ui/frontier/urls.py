"""URL hygiene for the frontier (docs/DESIGN.md §10): clean, dedupe key, skip rules, template
demotion.

Pipeline for every discovered link (docs/DESIGN.md §11.11): ``clean`` → ``dedupe_key`` → scope →
``skip`` → score → offer. ``clean`` keeps what a person would recognise as the same URL (the
original parameter order and percent-encoding); ``dedupe_key`` is the stricter form used only
to tell two URLs apart, built on ``w3lib.url.canonicalize_url`` (the canonical form Scrapy uses
for request fingerprints).

Every public function raises ``ValueError`` for a URL that is not absolute http(s).
"""

from __future__ import annotations

import hashlib
import logging
import re
from functools import lru_cache
from typing import NamedTuple
from urllib.parse import SplitResult, unquote_plus, urlsplit

from w3lib.url import canonicalize_url

from pagesift_ui.frontier.textpass import fingerprint_texts

__all__ = [
    "MAX_PATH_DEPTH",
    "MAX_URL_LENGTH",
    "TEMPLATE_LONG_SEGMENT",
    "TEMPLATE_MAX_DUP_RATIO",
    "TEMPLATE_MIN_PAGES",
    "URL_CACHE_SIZE",
    "TemplateStats",
    "TextFingerprints",
    "clean",
    "dedupe_key",
    "skip",
    "template",
    "text_fingerprints",
]

logger = logging.getLogger(__name__)

#: Longer URLs are skipped (docs/DESIGN.md §10 [ours]); 2,048 is the de-facto browser/CDN limit.
MAX_URL_LENGTH = 2048
#: Deeper paths are skipped (docs/DESIGN.md §10 [ours]): real sites rarely nest past a dozen levels.
MAX_PATH_DEPTH = 20
#: A path segment repeated this many times in a row is a relative-link loop (docs/DESIGN.md §10).
MAX_SEGMENT_REPEATS = 3
#: A segment at least this long that contains a digit is an ID (hash, UUID, slug-with-id) and
#: becomes ``*`` in a template (docs/DESIGN.md §10 [ours]); shorter ones keep their letters.
TEMPLATE_LONG_SEGMENT = 12
#: A template needs this many fetched pages before it can be demoted (docs/DESIGN.md §10 [ours]).
TEMPLATE_MIN_PAGES = 3
#: Demoted while more than this share of its fetched pages are duplicates (docs/DESIGN.md §10
#: [ours]).
TEMPLATE_MAX_DUP_RATIO = 0.5

# Spec §10, names compared lower-cased.
_TRACKING_NAMES = frozenset(
    """
    fbclid gclid gclsrc dclid gbraid wbraid msclkid yclid ysclid twclid ttclid li_fat_id
    igshid igsh mc_cid mc_eid _ga _gl _hsenc _hsmi __hstc __hssc __hsfp mkt_tok srsltid spm scm
    """.split()
)
_TRACKING_PREFIXES = ("utm_", "mtm_", "itm_", "internal_", "elq", "pk_")
_SESSION_NAMES = frozenset(
    "jsessionid phpsessid sessionid session_id cfid cftoken zenid oscsid".split()
)
# `sid` is also a plain "section/site id" (`?sid=3`); only a random-looking value is a session.
_RANDOM_SID = re.compile(r"[A-Za-z0-9]{16,}")
_REPEATED_SLASHES = re.compile(r"/{2,}")
_DIGIT_RUN = re.compile(r"[0-9]+")

# We only parse HTML (docs/DESIGN.md §10): documents, media and assets are never worth a fetch.
_BINARY_EXTENSIONS = frozenset(
    """
    jpg jpeg png gif bmp webp svg ico tif tiff avif heic heif
    mp3 wav ogg oga flac aac m4a wma opus mid midi
    mp4 m4v mov avi wmv flv mkv webm mpg mpeg 3gp ogv
    zip rar 7z tar gz tgz bz2 xz zst iso dmg exe msi deb rpm apk jar bin
    woff woff2 ttf otf eot
    css js mjs wasm map
    pdf doc docx xls xlsx ppt pptx odt ods odp rtf epub ps
    """.split()
)
_DEFAULT_PORTS = {"http": 80, "https": 443}

#: URLs whose ``clean`` and ``dedupe_key`` are remembered (each). A crawl meets the same URLs
#: again and again — every page repeats its site's navigation; 4,719 distinct URLs among the
#: 164,265 links of the Python docs — and a ``dedupe_key`` costs ~60 µs (issue 15). Both are
#: pure functions of the string; the caches are bounded (least recently used first out), so
#: a 100k-link crawl holds at most this many entries of each.
URL_CACHE_SIZE = 65_536


def _split_http(url: str) -> SplitResult:
    """Split an absolute http(s) URL, or raise ValueError saying what is wrong with it."""
    if not isinstance(url, str):
        raise ValueError(f"expected a URL string, got {type(url).__name__}: {url!r}")
    try:
        parts = urlsplit(url)
        parts.port  # noqa: B018 -- evaluated only to validate the port
    except ValueError as exc:
        raise ValueError(f"not a valid URL: {url!r} ({exc})") from None
    if parts.scheme not in _DEFAULT_PORTS or not parts.hostname:
        raise ValueError(f"not an absolute http(s) URL: {url!r}")
    return parts


def _is_session(name: str, value: str) -> bool:
    """A session parameter (docs/DESIGN.md §10); ``name`` is already decoded and lower-cased."""
    if name in _SESSION_NAMES:
        return True
    return name == "sid" and _RANDOM_SID.fullmatch(unquote_plus(value)) is not None


def _is_tracking(name: str) -> bool:
    return name in _TRACKING_NAMES or name.startswith(_TRACKING_PREFIXES)


def _clean_query(query: str) -> str:
    """Drop tracking and session pairs; the rest keep their order and original encoding."""
    kept = []
    for pair in query.split("&"):
        if not pair:
            continue
        raw_name, _, value = pair.partition("=")
        name = unquote_plus(raw_name).lower()
        if not (_is_tracking(name) or _is_session(name, value)):
            kept.append(pair)
    return "&".join(kept)


def _clean_segment(segment: str) -> str:
    """Drop session parameters from one path segment (``/p;jsessionid=ABC`` → ``/p``)."""
    if ";" not in segment:
        return segment
    head, *params = segment.split(";")
    kept = []
    for param in params:
        raw_name, _, value = param.partition("=")
        if not _is_session(unquote_plus(raw_name).lower(), value):
            kept.append(param)
    return ";".join([head, *kept])


def _clean_path(path: str) -> str:
    path = "/".join(_clean_segment(segment) for segment in path.split("/"))
    return _REPEATED_SLASHES.sub("/", path)


def clean(url: str) -> str:
    """The URL without fragment, tracking/session parameters and repeated ``/`` (docs/DESIGN.md
    §10).

    Parameter names are matched case-insensitively (after percent-decoding); the remaining
    parameters keep their order and encoding. The host keeps its case (``dedupe_key``
    lower-cases it). Idempotent: ``clean(clean(u)) == clean(u)``.

    >>> clean("https://a.com/p?utm_source=x&id=7&fbclid=IwAR1&utm_medium=y#top")
    'https://a.com/p?id=7'
    >>> clean("https://a.com/p/4/;jsessionid=ABC123?x=1")
    'https://a.com/p/4/?x=1'

    Raises
    ------
    ValueError
        If ``url`` is not an absolute http(s) URL.
    """
    # a URL over MAX_URL_LENGTH is never fetched (``skip``): it is cleaned without the cache,
    # which is bounded in entries, not bytes (a page of 1,900 links of 2 KB each kept a GB
    # across the caches after a few dozen such pages; docs/FAULTS.md)
    return _clean(url) if type(url) is str and len(url) <= MAX_URL_LENGTH else _cleaned(url)


@lru_cache(maxsize=URL_CACHE_SIZE)
def _clean(url: str) -> str:
    return _cleaned(url)


def _cleaned(url: str) -> str:
    parts = _split_http(url)
    query = _clean_query(parts.query)
    cleaned = f"{parts.scheme}://{parts.netloc}{_clean_path(parts.path)}"
    return f"{cleaned}?{query}" if query else cleaned


def _netloc_without_default_port(parts: SplitResult) -> str:
    host = parts.hostname or ""
    if ":" in host:  # IPv6 literal: urlsplit strips the brackets
        host = f"[{host}]"
    userinfo, at, _ = parts.netloc.rpartition("@")
    port = parts.port
    if port is not None and port != _DEFAULT_PORTS[parts.scheme]:
        host = f"{host}:{port}"
    return f"{userinfo}{at}{host}"


def dedupe_key(url: str) -> str:
    """The key that tells two URLs apart: the cleaned URL in canonical form (docs/DESIGN.md §10).

    On top of ``clean``: scheme and host lower-cased, default port (80/443) dropped, query
    pairs sorted. ``w3lib.url.canonicalize_url`` also normalises percent-encoding
    (``%7e`` = ``~``), IDNA hosts, dot segments, an empty path (``/``) and blank values
    (``?a`` = ``?a=``), so spellings of one resource share a key. Idempotent.

    >>> dedupe_key("HTTPS://A.com:443/a?b=1&a=2#x")
    'https://a.com/a?a=2&b=1'
    """
    # uncached over MAX_URL_LENGTH, as ``clean``
    return _dedupe_key(url) if type(url) is str and len(url) <= MAX_URL_LENGTH else _key_of(url)


@lru_cache(maxsize=URL_CACHE_SIZE)
def _dedupe_key(url: str) -> str:
    return _key_of(url)


def _key_of(url: str) -> str:
    canonical = urlsplit(canonicalize_url(clean(url)))
    # Dot-segment removal can leave "//" (`/a/../..//b`): collapse again so the key is stable.
    path = _REPEATED_SLASHES.sub("/", canonical.path)
    key = f"{canonical.scheme}://{_netloc_without_default_port(canonical)}{path}"
    return f"{key}?{canonical.query}" if canonical.query else key


def _path_segments(path: str) -> list[str]:
    return [segment for segment in path.split("/") if segment]


def _repeated_segment(segments: list[str]) -> str | None:
    run = 1
    for previous, segment in zip(segments, segments[1:], strict=False):
        run = run + 1 if segment == previous else 1
        if run >= MAX_SEGMENT_REPEATS:
            return segment
    return None


def _extension(segments: list[str]) -> str:
    if not segments:
        return ""
    name = segments[-1].split(";", 1)[0]
    stem, dot, extension = name.rpartition(".")
    return extension.lower() if dot and stem else ""


def skip(url: str) -> str | None:
    """Why a link is not worth fetching, or None to fetch it (docs/DESIGN.md §10).

    The reason is short and readable, for the UI's "dropped" column: a binary extension
    (``"binary file (.pdf)"``: we only parse HTML), a segment repeated three or more times in a
    row (a relative-link loop), a path deeper than ``MAX_PATH_DEPTH``, or a URL longer than
    ``MAX_URL_LENGTH``. The query is not inspected (``/get.php?f=a.pdf`` is fetched).
    """
    if isinstance(url, str) and len(url) > MAX_URL_LENGTH:
        return f"URL longer than {MAX_URL_LENGTH} characters"
    segments = _path_segments(_split_http(url).path)
    extension = _extension(segments)
    if extension in _BINARY_EXTENSIONS:
        return f"binary file (.{extension})"
    repeated = _repeated_segment(segments)
    if repeated is not None:
        return f"path segment {repeated!r} repeated {MAX_SEGMENT_REPEATS}+ times"
    if len(segments) > MAX_PATH_DEPTH:
        return f"path deeper than {MAX_PATH_DEPTH} segments"
    return None


def _template_segment(segment: str) -> str:
    if len(segment) >= TEMPLATE_LONG_SEGMENT and any(char.isdigit() for char in segment):
        return "*"
    return _DIGIT_RUN.sub("#", segment)


def template(url: str) -> str:
    """The URL's template: pages built from one pattern share it (docs/DESIGN.md §10).

    Host (lower-cased, port dropped) + cleaned path with digit runs → ``#`` and segments of at
    least ``TEMPLATE_LONG_SEGMENT`` characters containing a digit → ``*``, then ``?`` and the
    sorted distinct parameter names (lower-cased) when there is a query.

    >>> template("https://www.E.edu/news/2024/story-17?page=2&id=9")
    'www.e.edu/news/#/story-#?id&page'
    >>> template("https://e.edu/p/3f2a9c1e-77b0-4d2e/view")
    'e.edu/p/*/view'
    """
    parts = urlsplit(clean(url))
    path = "/".join(_template_segment(segment) for segment in parts.path.split("/")) or "/"
    names = sorted(
        {unquote_plus(pair.partition("=")[0]).lower() for pair in parts.query.split("&") if pair}
    )
    shape = f"{parts.hostname}{path}"
    return f"{shape}?{'&'.join(names)}" if names else shape


class TextFingerprints(NamedTuple):
    """Stable 64-bit fingerprints of a page's text (docs/DESIGN.md §10 duplicates)."""

    #: Of the whitespace-normalised text: equal means identical text.
    exact: int
    #: Of the same text with every digit removed: equal means "identical but for numbers"
    #: (dates, counters, page numbers, IDs in otherwise identical listings).
    digitless: int


def _blake2b_64(data: bytes) -> int:
    # blake2b, not hash(): str hashes are salted per process, and a resumed or replayed
    # session must call the same pages duplicates
    digest = hashlib.blake2b(data, digest_size=8).digest()
    return int.from_bytes(digest, "big")


def text_fingerprints(text: str) -> TextFingerprints:
    """The exact and digits-removed fingerprints that call a page a duplicate (docs/DESIGN.md §10).

    Whitespace runs count as one space and the ends are trimmed, so a re-wrapped page is
    still identical. A page is a duplicate when either fingerprint was already seen. The
    text is read in one pass (``textpass.fingerprint_texts``, compiled where it was built).
    """
    exact, digitless = fingerprint_texts(text)
    return TextFingerprints(_blake2b_64(exact), _blake2b_64(digitless))


class TemplateStats:
    """Fetched pages and duplicates per URL template; demotes templates of duplicates.

    A template is demoted once it has at least ``TEMPLATE_MIN_PAGES`` fetched pages and more
    than ``TEMPLATE_MAX_DUP_RATIO`` of them are duplicates; it returns as soon as its ratio
    drops back (docs/DESIGN.md §10). Demotion only orders links (the queue serves them last): a
    demoted template is never discarded.
    """

    def __init__(self) -> None:
        self._pages: dict[str, int] = {}
        self._duplicates: dict[str, int] = {}
        self._demoted: frozenset[str] = frozenset()

    def observe(self, url: str, duplicate: bool) -> None:
        """Count one fetched page of ``url``'s template; ``duplicate`` if its text was seen."""
        shape = template(url)
        self._pages[shape] = self._pages.get(shape, 0) + 1
        self._duplicates[shape] = self._duplicates.get(shape, 0) + int(bool(duplicate))
        was_demoted = shape in self._demoted
        now_demoted = self._is_demoted(shape)
        if now_demoted != was_demoted:
            self._demoted = self._demoted | {shape} if now_demoted else self._demoted - {shape}
            logger.debug("template %s %s", shape, "demoted" if now_demoted else "restored")

    def _is_demoted(self, shape: str) -> bool:
        pages = self._pages.get(shape, 0)
        duplicates = self._duplicates.get(shape, 0)
        return pages >= TEMPLATE_MIN_PAGES and duplicates > TEMPLATE_MAX_DUP_RATIO * pages

    def demoted(self, template: str) -> bool:
        """Whether links of this template (a ``template(url)`` value) are served last."""
        return template in self._demoted

    def demoted_templates(self) -> frozenset[str]:
        """All demoted templates: pass to ``BestFirst.pop_diverse(demoted_templates=...)``."""
        return self._demoted

    def stats(self) -> dict[str, tuple[int, int]]:
        """Template → (fetched pages, duplicates), a copy."""
        return {shape: (pages, self._duplicates[shape]) for shape, pages in self._pages.items()}
