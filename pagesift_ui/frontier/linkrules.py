"""What a link says before its page is fetched (docs/DESIGN.md §8): its line, its URL, its anchor.

The page-reading and URL-and-anchor rules of the link score: the links of a Markdown page with
their context lines, the locator text (the words of a URL), furniture (navigation and corporate
pages), dated leaves (news items), section entries, language portals and other-language paths.
All are pure functions; ``links`` combines them into a score and re-exports them.

"Same site" is decided on the registrable part of the host [ours, kept simple, no public-suffix
list]: its last two labels (``www.uni.localhost`` → ``uni.localhost``), or its last three when
the last label is a two-letter country code under a generic second level such as ``ac``,
``co``, ``edu`` or ``gov`` (``www.ox.ac.uk`` → ``ox.ac.uk``). A single-label host
(``localhost``) or an IP address is its own site.
"""

from __future__ import annotations

import ipaddress
import re
from collections.abc import Callable, Container
from functools import lru_cache
from urllib.parse import unquote, urlsplit

from pagesift_ui.frontier.query import words
from pagesift_ui.frontier.urlshape import is_language_code, is_language_name

__all__ = [
    "CONTEXT_BYTES",
    "DESCRIPTION_WORDS",
    "FURNITURE_WORDS",
    "GENERIC_HOST_LABELS",
    "LIST_ITEM",
    "LIST_TITLE_BYTES",
    "TITLE_MARK",
    "ListTitles",
    "URL_RULES_CACHE_SIZE",
    "anchor_and_title",
    "around",
    "is_dated",
    "is_described_entry",
    "is_english_section",
    "is_furniture",
    "is_language_portal",
    "is_section_entry",
    "link_contexts",
    "list_title",
    "locator_text",
    "markdown_text",
    "other_language",
    "path_segments",
    "query_furniture",
    "same_site",
    "site_of",
    "title_of",
]

#: Whole path segments or anchor head words that mark site furniture (docs/DESIGN.md §8).
#: The spec's list, then our extensions, each group with its reason.
FURNITURE_WORDS = frozenset(
    # docs/DESIGN.md §8; less the spec's "sitemap": a site map is the site's own table of
    # contents, every page under its section's title, which is what sibling credit and named
    # lists read best (docs/DECISIONS.md, issue 11: "a site map is not furniture")
    """
    news events blog press calendar tag tags category search archive feed rss about
    history leadership governance board mission strategy brand awards privacy terms cookies
    legal accessibility login
    """.split()
    # plural, singular and joined spellings of the spec's own entries
    + """
    event blogs archives categories newsroom press-releases media-releases cookie
    cookie-policy cookie-settings privacy-policy privacy-notice terms-of-use terms-of-service
    terms-and-conditions about-us aboutus who-we-are
    """.split()
    # the rest of the session machinery next to "login": never content
    + "logout log-in signin sign-in signup sign-up register my-account".split()
    # legal notices under their other names; "impressum"/"datenschutz" because German sites
    # are common seeds of English queries (the language-portal rule exists for them)
    + "disclaimer imprint impressum datenschutz copyright gdpr license licence licenses".split()
    # a software site's download and bug-report pages hang off every page of its
    # documentation, as the contact and donate pages below do off every section of a
    # university's (pydocs fetched download.html at page 2 on 9 of its 12 dev queries;
    # docs/DECISIONS.md, issue 11: "downloads, bug reports and licences are furniture")
    + "download downloads bugs".split()
    # the same contact/fundraising/share pages hang off every section of a site
    + "contact contact-us donate giving share print".split()
    # feed formats and blog/CMS machinery next to "feed"/"rss"/"tag"
    + "atom author authors wp-login wp-admin wp-json".split()
)

#: Host labels that say nothing about a page: service prefixes and generic domain labels.
GENERIC_HOST_LABELS = frozenset(
    "www www1 www2 www3 web m mobile com org net edu gov int mil info biz ac co localhost".split()
)

# Generic second levels under a country code (ox.ac.uk, unimelb.edu.au, example.co.jp).
_SECOND_LEVELS = frozenset("ac co com edu gov net org or ne go gob mil nic sch".split())

# Page-type extensions dropped from the last path segment of a locator.
_PAGE_EXTENSIONS = frozenset(
    "html htm shtml xhtml php php3 php5 asp aspx jsp jspx cfm cgi pl py do action xml json "
    "pdf doc docx txt rtf".split()
)

#: What a list entry's context puts before its list's title (``link_contexts``).
TITLE_MARK = " § "
#: Bytes of the Markdown line kept around a link's anchor (docs/DESIGN.md §8).
CONTEXT_BYTES = 400
#: UTF-8 bytes of a list's title kept in its entries' context (``link_contexts``): a title
#: is a heading or an item's line, and SQLite's docs.html has a "heading" of 14,510 characters.
LIST_TITLE_BYTES = 120

_YEAR_SEGMENT = re.compile(r"(?:199\d|20\d\d)")
_VERSION_LEAF = re.compile(r"\d+(?:[._]\d+)+")  # 3.11, 2.7, 3_7_1: two or more numbers
_DATE_SEGMENT = re.compile(r"(?:199\d|20\d\d)-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])(?:$|[-_.])")
_HEX = frozenset("0123456789abcdef")

# Path markers of English content: "/en/", "/en-gb/", "/english/", and ISO 639-2 "/eng/".
_ENGLISH_MARKERS = frozenset({"en", "english", "eng"})
# A portal link points at the English root, possibly spelled as its index page.
_INDEX_PAGES = frozenset({"index", "home", "default", "start"})

#: Anchors that are a link to the English version (docs/DESIGN.md §8).
_ENGLISH_ANCHORS = (["english"], ["en"])

# A short anchor is a noun phrase whose head (last word) names what it links to (ours).
_MAX_FURNITURE_ANCHOR_WORDS = 3
# Section entries have anchors of 1–4 words (docs/DESIGN.md §8).
_MAX_SECTION_ANCHOR_WORDS = 4


#: URLs (and hosts) whose URL-only readings are remembered, per function: the locator text,
#: the furniture path, the date, the language segment, the portal and section shapes. A
#: crawl reads the same navigation links on every page (4,719 distinct URLs among the
#: 164,265 links of the Python docs; issue 15); all of these are pure functions of the
#: string, and each cache is bounded (least recently used first out).
URL_RULES_CACHE_SIZE = 65_536


@lru_cache(maxsize=URL_RULES_CACHE_SIZE)
def _is_ip(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def _registrable_labels(host: str) -> int:
    """How many trailing labels of ``host`` form its registrable part."""
    labels = host.split(".")
    if (
        len(labels) >= 3
        and len(labels[-1]) == 2
        and labels[-1].isalpha()
        and labels[-2] in _SECOND_LEVELS
    ):
        return 3
    return min(2, len(labels))


def site_of(host: str) -> str:
    """The registrable part of a host (see the module docstring), lower-cased."""
    host = host.lower().rstrip(".")
    if not host or _is_ip(host):
        return host
    return ".".join(host.split(".")[-_registrable_labels(host) :])


def same_site(host: str, other: str) -> bool:
    """Both hosts belong to one site (``journals.uni.localhost`` and ``www.uni.localhost``)."""
    return bool(host) and site_of(host) == site_of(other)


def _strip_extension(segment: str) -> str:
    stem, dot, extension = segment.rpartition(".")
    return stem if dot and stem and extension.lower() in _PAGE_EXTENSIONS else segment


def path_segments(url: str) -> list[str]:
    """Non-empty, percent-decoded path segments of ``url``, in order."""
    return [unquote(seg) for seg in urlsplit(url).path.split("/") if seg]


def _is_noise_token(token: str) -> bool:
    """Numbers and machine identifiers: they name an instance, never a topic."""
    if token.isdigit() or len(token) > 30:
        return True
    if len(token) >= 8 and any(char.isdigit() for char in token):
        return True  # "a1b2c3d4", "p20240517"
    return len(token) >= 12 and set(token) <= _HEX  # hex hashes without a digit run


def _host_tokens(host: str) -> list[str]:
    """Host labels minus the top level, the site's own name and generic labels."""
    if not host or _is_ip(host):
        return []
    labels = host.split(".")
    keep = _registrable_labels(host)
    # the site's own name is on every link of the site: it says nothing about one page
    meaningful = labels[:-keep] if len(labels) > 1 else labels
    return [label for label in meaningful if label not in GENERIC_HOST_LABELS]


def locator_text(url: str) -> str:
    """The words of a URL (docs/DESIGN.md §8): host labels and path segments, split on ``-_./``.

    Dropped: the top-level and generic host labels (www, com, edu, localhost…), the host's
    registrable name (for a link of the crawled site, the seed site's own name), a page-type
    extension of the last segment, numbers and long identifiers. The query string is not part
    of the locator.

    >>> locator_text("https://www.uni.localhost/admissions/international-student_fees.html")
    'admissions international student fees'
    """
    return _locator_text(url)


@lru_cache(maxsize=URL_RULES_CACHE_SIZE)
def _locator_text(url: str) -> str:
    parts = urlsplit(url)
    tokens = [tok for label in _host_tokens(parts.hostname or "") for tok in words(label)]
    segments = path_segments(url)
    if segments:
        segments[-1] = _strip_extension(segments[-1])
    tokens.extend(tok for seg in segments for tok in words(seg))
    return " ".join(tok for tok in tokens if not _is_noise_token(tok))


def _normal_segment(segment: str) -> str:
    return _strip_extension(segment).lower().replace("_", "-")


def is_furniture(url: str, anchor: str, wanted: frozenset[str] = frozenset()) -> bool:
    """The link leads to site furniture (docs/DESIGN.md §8).

    True when a whole path segment is in ``FURNITURE_WORDS`` (extension dropped, ``_`` read as
    ``-``), or the anchor is: either the whole anchor ("About us" → ``about-us``), or an anchor
    of at most three words whose last word is [ours: "Latest news", "Our history"; a longer
    anchor is a title whose words describe the page, and its last word is the noun the phrase
    is about, so "About tuition fees" is not furniture].

    ``wanted``: the furniture words the query itself names (``query_furniture``). Such a word
    marks nothing: the list says what a reader seldom wants, and a reader who asks for
    "release history" or "campus events" wants those pages [ours].

    A list entry that says what its page holds is no furniture at all, whatever this says
    (``is_described_entry``; the link's scorer asks it of a furniture link only).

    >>> is_furniture("http://x/changes.html", "Release History")
    True
    >>> is_furniture("http://x/changes.html", "Release History", frozenset({"history"}))
    False
    """
    if _furniture_path(url, wanted):
        return True
    anchor_words = words(anchor)
    if not anchor_words:
        return False
    whole = "-".join(anchor_words)
    if whole in FURNITURE_WORDS and whole not in wanted:
        return True
    last = anchor_words[-1]
    return (len(anchor_words) <= _MAX_FURNITURE_ANCHOR_WORDS and last in FURNITURE_WORDS
            and last not in wanted)


#: Words a list entry's line must hold besides its anchor (and its list's title) to say what
#: its page holds: a definition ("About SQLite → A high-level overview of …"), not a label
#: or a short mark ("new", "PDF"). A navigation list's entries are their anchors alone.
#: Measured at 1, 3 and 6 words on the dev sets: the same crawls but one page [ours].
DESCRIPTION_WORDS = 3


def is_described_entry(context: str, anchor: str) -> bool:
    """True when a list entry's ``context`` (``link_contexts``: its line, and its list's
    title after ``TITLE_MARK``) holds at least ``DESCRIPTION_WORDS`` words besides its
    ``anchor`` (its first occurrence).

    Such an entry is no furniture (``is_furniture`` notwithstanding): a contents list that
    defines "About SQLite" as "a high-level overview of what SQLite is", or Apache's MPM
    "event" as "a variant of the worker MPM", files a document, whatever its file or its
    one-word anchor is called [ours; docs/DECISIONS.md, issue 11: "a described entry is not
    furniture"].

    >>> is_described_entry("About SQLite → A high-level overview § Overview", "About SQLite")
    True
    >>> is_described_entry("About § Overview", "About")
    False
    """
    line, mark, _ = context.rpartition(TITLE_MARK)
    return len(words(around(line if mark else context, anchor))) >= DESCRIPTION_WORDS


def around(context: str, anchor: str) -> str:
    """The context without the link's own anchor (its first occurrence): the words *around*
    the link.

    >>> around("Pay the fees online", "fees")
    'Pay the   online'
    """
    if not anchor:
        return context
    at = context.find(anchor)
    if at < 0:
        return context
    return context[:at] + " " + context[at + len(anchor):]


@lru_cache(maxsize=URL_RULES_CACHE_SIZE)
def _furniture_path(url: str, wanted: frozenset[str]) -> bool:
    return any((seg := _normal_segment(part)) in FURNITURE_WORDS and seg not in wanted
               for part in path_segments(url))


def query_furniture(names: Callable[[str], bool]) -> frozenset[str]:
    """The one-word entries of ``FURNITURE_WORDS`` that ``names`` says the query names (a
    stem match: "events" names "event" and "events"). A joined entry ("privacy-policy") stays
    furniture whatever the query: "policy" in a query asks for a policy, not for the privacy
    notice on every page."""
    return frozenset(word for word in FURNITURE_WORDS if "-" not in word and names(word))


def is_dated(url: str) -> bool:
    """A dated leaf (docs/DESIGN.md §8): a year segment 1990–2099 followed by more segments, a
    segment that starts with a yyyy-mm-dd date (``/2024-05-17-fees-freeze``), or a last
    segment that is a version, two or more numbers joined by ``.`` or ``_``, page extension
    dropped (``/whatsnew/3.5.html``, ``/releaselog/3_7_1.html``)."""
    return _is_dated(url)


@lru_cache(maxsize=URL_RULES_CACHE_SIZE)
def _is_dated(url: str) -> bool:
    segments = path_segments(url)
    for index, segment in enumerate(segments):
        if _YEAR_SEGMENT.fullmatch(segment) and index < len(segments) - 1:
            return True
        if _DATE_SEGMENT.match(segment):
            return True
    # a leaf named by a version (whatsnew/3.5.html, releaselog/3_7_1.html) is one of a
    # series of per-release pages, as a dated item is one of a series of per-day pages
    return bool(segments) and _VERSION_LEAF.fullmatch(_strip_extension(segments[-1])) is not None


def _without_language(segments: list[str]) -> list[str]:
    if segments and (is_language_code(segments[0]) or is_language_name(segments[0])):
        return segments[1:]
    return segments


def is_section_entry(url: str, anchor: str, seed_host: str) -> bool:
    """The entry page of a section of the seed's site (docs/DESIGN.md §8).

    Either a URL of the same site with exactly one path segment after a leading language
    segment, no query string and an anchor of 1–4 words; or the root of another host of the
    same site (``journals.uni.localhost/``).
    """
    shape = _section_shape(url, seed_host)
    if shape is None:
        return 1 <= len(words(anchor)) <= _MAX_SECTION_ANCHOR_WORDS
    return shape


@lru_cache(maxsize=URL_RULES_CACHE_SIZE)
def _section_shape(url: str, seed_host: str) -> bool | None:
    """``is_section_entry`` as far as the URL decides it; None when the anchor decides."""
    parts = urlsplit(url)
    host = (parts.hostname or "").lower()
    if not same_site(host, seed_host) or parts.query:
        return False
    segments = _without_language(path_segments(url))
    if not segments:
        return host.removeprefix("www.") != seed_host.lower().removeprefix("www.")
    return None if len(segments) == 1 else False


def _english_marker(segment: str) -> bool:
    seg = _normal_segment(segment)
    return seg in _ENGLISH_MARKERS or (is_language_code(seg) and seg[:3] in ("en-", "en_"))


def is_language_portal(url: str, anchor: str) -> bool:
    """A link to the English version (docs/DESIGN.md §8).

    The anchor is "English" or "EN"; or the URL is an English root: ``/en/``, ``/en.html``,
    ``/english/``, ``/en-gb/``, ``/eng/``, optionally followed by an index page
    (``/en/index.html``), or the root of an ``en.`` host [ours: English sub-sites such as
    ``en.uni.de`` are as common as ``/en/``].
    """
    if words(anchor) in _ENGLISH_ANCHORS:
        return True
    return _english_root(url)


@lru_cache(maxsize=URL_RULES_CACHE_SIZE)
def _english_root(url: str) -> bool:
    segments = path_segments(url)
    if not segments:
        return (urlsplit(url).hostname or "").lower().startswith("en.")
    if not _english_marker(segments[0]):
        return False
    rest = segments[1:]
    return not rest or (len(rest) == 1 and _normal_segment(rest[0]) in _INDEX_PAGES)


def is_english_section(url: str) -> bool:
    """The URL lies under an English portal path (``/en/…``) or on an ``en.`` host."""
    segments = path_segments(url)
    if segments and _english_marker(segments[0]):
        return True
    return (urlsplit(url).hostname or "").lower().startswith("en.")


def other_language(url: str) -> bool:
    """The path starts with another language's segment: ``/de/``, ``/fr-fr/``, ``/deutsch/``.

    Only the first segment counts [ours]: deeper, two-letter segments such as ``id``, ``no`` or
    ``my`` are far more often identifiers and words than languages.
    """
    return _other_language(url)


@lru_cache(maxsize=URL_RULES_CACHE_SIZE)
def _other_language(url: str) -> bool:
    segments = path_segments(url)
    if not segments:
        return False
    first = _normal_segment(segments[0])
    if _english_marker(first):
        return False
    return is_language_code(first) or is_language_name(first)


# --------------------------------------------------------------------------- contexts

# An image becomes its alt text first, so a linked logo "[![Fees](f.png)](url)" keeps "Fees".
_IMAGE = re.compile(r"!\[([^\[\]]*)\]\((?:[^()\s]|\([^()\s]*\))*(?:\s+\"[^\"]*\")?\s*\)")
# [anchor](url "title"); one level of balanced parentheses in the URL (wiki-style URLs).
_LINK = re.compile(
    r"\[([^\[\]]*)\]\(\s*<?((?:[^()\s<>]|\([^()\s<>]*\))+)>?(?:\s+\"[^\"]*\")?\s*\)"
)
# Block markers at the start of a line: headings, bullets, quotes, numbered items.
_BLOCK_MARKER = re.compile(r"^\s*(?:(?:#{1,6}|[-*+>]|\d{1,3}[.)])\s+)+")
_SPACES = re.compile(r"\s+")
#: A Markdown list item line, as page/extract.py writes one ("- " or "N. ", indented when
#: nested); list blocks (siblings.py) and list titles (``link_contexts``) read it.
LIST_ITEM = re.compile(r"^\s*(?:[-*+]|\d{1,9}[.)])\s")
#: A ``](`` and the run of characters after it that ``_LINK``'s destination takes one by
#: one, with the character that ends the run ("" at the end of the line).
_PLAIN_RUN = re.compile(r"\]\(([^()\s<>]*)(.?)")
_ASCII_WORD_HEAD = re.compile(r"^[A-Za-z0-9]+")
_ASCII_WORD_TAIL = re.compile(r"[A-Za-z0-9]+$")


@lru_cache(maxsize=URL_RULES_CACHE_SIZE)
def _is_absolute(url: str) -> bool:
    # cached as the URL rules are: a site's navigation links every page (issue 15)
    parts = urlsplit(url)
    return parts.scheme in ("http", "https") and bool(parts.netloc)


def _is_ascii_alnum(byte: int) -> bool:
    return chr(byte).isascii() and chr(byte).isalnum()


def _windows(line: str, spans: list[tuple[int, int]]) -> list[str]:
    """For each ``(start, end)`` of ``spans`` (in increasing order), at most ``CONTEXT_BYTES``
    UTF-8 bytes of ``line`` centred on ``line[start:end]``.

    Cuts fall on character boundaries; a Latin word cut in half at an edge is dropped, so a
    context never shows "ees" for "fees". The line is encoded once and the byte offsets are
    carried from one span to the next: encoding it per link made a long line with many links
    quadratic (150,000 links on one line, minutes; issue 12).
    """
    data = line.encode("utf-8")
    if len(data) <= CONTEXT_BYTES:
        return [line.strip()] * len(spans)
    ascii_only = len(data) == len(line)  # then a character offset is a byte offset
    windows: list[str] = []
    char_at = byte_at = 0
    for start, end in spans:
        if ascii_only:
            lo, span = start, end - start
        else:
            byte_at += len(line[char_at:start].encode("utf-8"))
            char_at = start
            lo, span = byte_at, len(line[start:end].encode("utf-8"))
        windows.append(_window(data, lo, span))
    return windows


def _window(data: bytes, lo: int, span: int) -> str:
    """The window of ``_windows`` around the ``span`` bytes at ``lo`` of a long line."""
    lo = max(0, lo - max(CONTEXT_BYTES - span, 0) // 2)
    hi = min(len(data), lo + CONTEXT_BYTES)
    lo = max(0, hi - CONTEXT_BYTES)
    while lo < hi and data[lo] & 0xC0 == 0x80:  # UTF-8 continuation byte: not a start
        lo += 1
    while hi > lo and hi < len(data) and data[hi] & 0xC0 == 0x80:
        hi -= 1
    text = data[lo:hi].decode("utf-8")
    if lo > 0 and _is_ascii_alnum(data[lo - 1]):
        text = _ASCII_WORD_HEAD.sub("", text)
    if hi < len(data) and _is_ascii_alnum(data[hi]):
        text = _ASCII_WORD_TAIL.sub("", text)
    return text.strip()


def _render_line(line: str) -> tuple[str, list[tuple[str, str, int, int]]]:
    """The line as text (links as their anchors) and each link's (anchor, url, start, end)."""
    line = _BLOCK_MARKER.sub("", line)
    if "![" in line:  # every image match starts with it (most lines have none: issue 15)
        line = _IMAGE.sub(lambda m: m.group(1), line)
    pieces: list[str] = []
    found: list[tuple[str, str, int, int]] = []
    position = 0
    length = 0
    for match in _LINK.finditer(line):
        before = line[position : match.start()]
        anchor = match.group(1)
        # a printable anchor has no white space but " " (str.isprintable: Zs and the
        # controls are not printable), and without "  " no run for _SPACES to collapse
        if "  " in anchor or not anchor.isprintable():
            anchor = _SPACES.sub(" ", anchor)
        anchor = anchor.strip()
        pieces.append(before)
        length += len(before)
        found.append((anchor, match.group(2), length, length + len(anchor)))
        pieces.append(anchor)
        length += len(anchor)
        position = match.end()
    pieces.append(line[position:])
    return "".join(pieces), found


def markdown_text(markdown: str) -> str:
    """The Markdown with every link and image written as its anchor or alt text.

    Page statistics count the words a reader sees: a link target's URL words
    (``/international-student-fees``) are the locator feature of the link, not page text.
    """
    return _LINK.sub(lambda m: m.group(1), _IMAGE.sub(lambda m: m.group(1), markdown))


def link_contexts(
    markdown: str, wanted: Container[str] | None = None
) -> dict[str, list[tuple[str, str]]]:
    """Every absolute link of a Markdown page: URL → [(anchor, context line)], in page order.

    The context is the link's line with every link in it written as its anchor text (so other
    links' URLs do not leak words into it) and block markers removed, at most
    ``CONTEXT_BYTES`` bytes around the anchor (docs/DESIGN.md §8). Relative, ``mailto:`` and other
    non-HTTP links are skipped: the page's Markdown carries absolute URLs (docs/DESIGN.md §2).

    A link in a list item also has its list's title: the nearest heading or link-less list
    item above it (a table of contents' section: SQLite's "► Obsolete Documents", a Sphinx
    chapter's title above its toctree), after ``" § "``. A list's entries name its members;
    its title says what they are about (issue 11: "a list's title").

    With ``wanted``, the contexts of the links to those URLs are the same, and other links
    may be left out: a line whose links are surely to other URLs (``_may_link_to``) is not
    rendered (issue 15: 11,888 of the 20,719 link lines of bench_step's pages).

    >>> link_contexts("## Obsolete\\n\\n- [VDBE](http://x/vdbe.html)")["http://x/vdbe.html"]
    [('VDBE', 'VDBE § Obsolete')]
    """
    if not isinstance(markdown, str):
        raise ValueError(f"markdown must be a string, got {type(markdown).__name__}")
    contexts: dict[str, list[tuple[str, str]]] = {}
    lines = markdown.splitlines()
    titles = ListTitles(lines)
    for index, raw_line in enumerate(lines):
        if "](" not in raw_line:
            continue  # a title's line, or text: the titles are read back when one is asked
        if wanted is not None and not _may_link_to(raw_line, wanted):
            continue  # a line's context is its own: leaving it out changes no other
        rendered, found = _render_line(raw_line)
        absolute = [(anchor, url, start, end) for anchor, url, start, end in found
                    if _is_absolute(url)]
        windows = _windows(rendered, [(start, end) for _, _, start, end in absolute])
        title = titles.before(index) if LIST_ITEM.match(raw_line) else ""
        suffix = f"{TITLE_MARK}{title}" if title else ""
        for (anchor, url, _, _), window in zip(absolute, windows, strict=True):
            contexts.setdefault(url, []).append((anchor, window + suffix))
    return contexts


class ListTitles:
    """The list title in force before a line of ``lines``: the ``list_title`` of the last
    link-less heading or list item above it ("" before the first), asked of lines in
    increasing order (``link_contexts``' titles, and ``siblings.list_blocks_titled``'s).

    Read backwards from the line asked about, as far as the first such line or the line last
    asked about: the title is wanted only for a list entry's link, and most lines of a page
    are neither a title nor a link's (issue 15: 226,000 of bench_step's 284,000 lines; a
    forward test of each one was a fifth of ``link_contexts``)."""

    __slots__ = ("_lines", "_read_to", "_title")

    def __init__(self, lines: list[str]) -> None:
        self._lines = lines
        self._read_to = 0  # the lines before it are read: ``_title`` is theirs
        self._title = ""

    def before(self, index: int) -> str:
        lines, read_to = self._lines, self._read_to
        for at in range(index - 1, read_to - 1, -1):
            line = lines[at]
            if "](" not in line and (line.startswith("#") or LIST_ITEM.match(line)):
                self._title = list_title(line)
                break
        self._read_to = max(read_to, index)
        return self._title


def _may_link_to(line: str, wanted: Container[str]) -> bool:
    """False only when no link ``_render_line`` finds in ``line`` is to a ``wanted`` URL.

    A ``_LINK`` match begins at one of the line's ``](``; when the destination there starts
    with a character ``[^()\\s<>]`` takes and is not followed by ``(``, the match's URL is
    exactly that run (``_PLAIN_RUN``). Anything else (``<``, a space, a parenthesis, an image
    whose alt text could make a new ``](``) is kept, to be rendered.
    """
    if "![" in line:
        return True
    for run, after in _PLAIN_RUN.findall(line):
        if not run or after == "(" or run in wanted:
            return True
    return False


def title_of(context: str) -> str:
    """The list title a context carries after ``TITLE_MARK`` ("" for none)."""
    _, mark, title = context.rpartition(TITLE_MARK)
    return title if mark else ""


def anchor_and_title(anchor: str, context: str) -> str:
    """What a link says of its target in its own words: its anchor and its list's title
    (a chapter's entries are named by the chapter), read by meaning (docs/DESIGN.md §8.2)."""
    title = title_of(context)
    return f"{anchor} {title}" if title else anchor


def list_title(line: str) -> str:
    """A heading's or a list item's text, at most ``LIST_TITLE_BYTES`` UTF-8 bytes of it (a
    half-cut last word dropped)."""
    text = _SPACES.sub(" ", _BLOCK_MARKER.sub("", line)).strip()
    data = text.encode("utf-8")
    if len(data) <= LIST_TITLE_BYTES:
        return text
    cut = data[:LIST_TITLE_BYTES].decode("utf-8", "ignore")
    return cut.rsplit(" ", 1)[0] if " " in cut else cut
