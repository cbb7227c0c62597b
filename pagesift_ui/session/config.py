"""The one crawl configuration: built once from the UI or CLI, validated, frozen.

``CrawlConfig`` holds every setting's default (the adaptive stop options' defaults are
``AdaptiveOptions``'); ``SETTINGS`` lists the settings the command line and the app offer,
with the range ``CrawlConfig`` checks, and ``settings_mapping`` is the one translation from
their flat names to ``CrawlConfig.from_mapping``'s input.
"""

from __future__ import annotations

import dataclasses
import enum
import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields
from typing import Any
from urllib.parse import urlsplit

from pagesift_ui.errors import ConfigError, shown
from pagesift_ui.frontier.adaptive import AdaptiveOptions
from pagesift_ui.frontier.language import SUPPORTED, Language
from pagesift_ui.frontier.meaning import LINK_TEXT_QUANTILE
from pagesift_ui.frontier.model import FEATURES, PRIOR_WEIGHTS
from pagesift_ui.frontier.query import MAX_TERMS, Query
from pagesift_ui.frontier.stats import DELTA
from pagesift_ui.frontier.tokens import words
from pagesift_ui.frontier.urls import MAX_URL_LENGTH
from pagesift_ui.net.policy import DEFAULT_USER_AGENT, FetchPolicy
from pagesift_ui.net.sitemaps import MAX_FILE_NOTES, SitemapLimits

__all__ = [
    "MAX_CONCURRENCY",
    "MAX_PRIOR_WEIGHT",
    "OFFLINE_NO_OPS",
    "MAX_PER_HOST",
    "MAX_LIMIT",
    "SETTINGS",
    "CrawlConfig",
    "Language",
    "RenderMode",
    "Scope",
    "Setting",
    "Strategy",
    "setting_values",
    "settings_mapping",
]

#: The largest page budget a session accepts (a guard against typos like 1e9).
MAX_LIMIT = 100_000
#: The most fetches a session keeps in flight: each is a thread, and a focused crawl's next
#: few links are what it can usefully fetch ahead (docs/DESIGN.md §11.14).
MAX_CONCURRENCY = 32
#: The largest prior link weight. A score is a weighted sum of features of about one, so
#: only the weights' ratios rank links: 1,000 against the smallest non-zero weight a person
#: types (0.01) is a ratio of 10^5, more than any ranking can tell apart. Unbounded, 1.7e308
#: gave scores of 300 digits and NaN in the weight chart (the twenty-ninth session's probe).
MAX_PRIOR_WEIGHT = 1000.0
#: The most requests to one host at a time a session allows: a few are what a server that
#: agrees to more than one expects; more is load, not politeness.
MAX_PER_HOST = 8

_LANGUAGE_CHOICES = (
    "choose auto (detect it from the query) or one of "
    + ", ".join(f"{lang.value} ({lang.label})" for lang in SUPPORTED)
)


class Scope(enum.StrEnum):
    """Which hosts a crawl may enter."""

    HOST = "host"  # the seed's host only
    SITE = "site"  # the seed's host and its sibling sub-domains (journals.e.edu beside www.e.edu)


class Strategy(enum.StrEnum):
    """How the next link is chosen."""

    FOCUSED = "focused"  # best-first by link score, with dispersion, dry subtrees, demotion
    BFS = "bfs"  # breadth-first: every link scores the same, so discovery order decides (the
    # benchmark's baseline; the stop rules still observe every page)
    THOMPSON = "thompson"  # best-first like FOCUSED, but ranked each step with link weights
    # drawn from the link model's posterior (Chapelle & Li 2011, Alg. 3), seeded by
    # ``sampling_seed``; the model learns exactly as in FOCUSED


class RenderMode(enum.StrEnum):
    """Which fetched pages are rendered in headless Chromium before extraction (§11.3a)."""

    OFF = "off"  # none: the fetched HTML is the page
    EMPTY = "empty"  # pages whose fetched HTML has no text and no links (a script builds them)
    ALWAYS = "always"  # every HTML page


@dataclass(frozen=True, slots=True)
class CrawlConfig:
    """Everything that decides how a crawl runs. Defaults live here and nowhere else.

    ``scope`` defaults to ``SITE``: a query crawl is after a topic, and sites put topics on
    sub-domains (journals, events, help centres); ``HOST`` keeps to the seed's host.
    ``stop_on_verdict=False`` records every stop verdict but keeps crawling to the limit, as if
    "continue anyway" were chosen each time (the CLI's ``--no-stop``). ``forgive_leads``
    forgives a verdict while the next links to fetch are still a lead (docs/DESIGN.md §11.10);
    off, every verdict stands: the seed's stop rules alone, as the coverage_reached lesson shows
    them; ``forgive_thin_evidence`` (with it) forgives a ``saturated`` verdict while under
    three quarters of the query's terms have any evidence, and ``forgive_still_finding``
    (with it) any verdict while the last ``patience`` pages read as relevant at least as
    often as the crawl so far; ``lead_bar_new_evidence`` judges every verdict's lead against
    the links that brought new evidence, off a ``coverage_reached`` one only and the others
    against the links that found on-topic pages (``frontier/leads.py``).
    ``link_blocks_as_evidence`` lets a Markdown block with no letter outside its links
    (a contents entry, a row of navigation) count as stop-rule evidence, as the seed's rules
    read every block; off, such a block names pages not read, not content read
    (docs/DESIGN.md §11.7). The fetch
    settings
    (``user_agent`` … ``max_redirects``, ``fetch_deadline_s``, ``max_crawl_delay_s``,
    ``max_retry_after_s``, with ``seed_url`` and ``allow_private``) become the fetcher's
    ``FetchPolicy`` through ``fetch_policy()``. ``max_links_per_page`` bounds the work one
    page can cost: links after the first that many are counted, not looked at
    (docs/DECISIONS.md, issue 12). ``max_queued_links`` bounds the queue's memory only: the
    queue keeps every link it is offered up to that many, however many pages are left in the
    budget (issue 11, mechanism 2: a queue of ``limit − scheduled`` entries turned links away
    for good, truth pages among them). ``language`` is the language the query is read in
    (its stemmer and stop words), ``AUTO``: detected from the query; pages are read in their
    own (docs/DESIGN.md §1.1). ``use_sitemaps`` also offers the URLs of the site's
    sitemaps as candidates at the first step, at most ``max_sitemap_urls`` of them from at
    most ``max_sitemaps`` files of at most ``max_sitemap_bytes`` each (docs/DESIGN.md §11.13;
    ``sitemap_limits()``). ``concurrency`` is how many fetches may be in flight at once, to
    different hosts (one request at a time per host, its delays unchanged); the pages are
    still taken into the crawl one at a time in pop order, so for a given site and
    ``concurrency`` the crawl is the same run after run, and 1 is the crawl of one fetch at a
    time (docs/DESIGN.md §11.14); ``per_host`` lets more than one of them go to one host.
    ``render`` asks for pages to be rendered in headless Chromium (off by default: a render
    costs a browser and up to ``render_deadline_s`` per page, §11.3a). ``meaning_weight`` is
    the most a page's meaning can add to its relevance (docs/DESIGN.md §7a; English pages
    under an English query; 0: lexical relevance only); ``link_meaning_weight`` the most a
    link's anchor and list title, read by meaning, add to its raw score (§8.2; 0: links by
    their words only), and ``link_meaning_quantile`` the share of the link texts read that
    one must be nearer the query than to be lifted at all. ``learn_copy_parameters``: a query
    pair that made copies on two paths (``?print=1``) is learned, and links carrying it stand
    for the page they copy (§10, "copy parameters"; off: every copy is fetched once). The
    ranges of the numbers are ``SETTINGS``'.
    """

    seed_url: str
    query: str
    limit: int = 200
    adaptive: AdaptiveOptions = field(default_factory=AdaptiveOptions)
    delay_s: float = 1.0
    respect_robots: bool = True
    allow_private: bool = False
    scope: Scope = Scope.SITE
    delta: float = DELTA
    prior_weights: tuple[float, ...] = PRIOR_WEIGHTS
    dispersion_cap: int | None = None
    stop_on_verdict: bool = True
    forgive_leads: bool = True
    forgive_thin_evidence: bool = True
    forgive_still_finding: bool = True
    lead_bar_new_evidence: bool = True
    link_blocks_as_evidence: bool = False
    max_body_bytes: int = 5_000_000
    read_timeout_s: float = 10.0
    connect_timeout_s: float = 5.0
    max_redirects: int = 5
    user_agent: str = DEFAULT_USER_AGENT
    strategy: Strategy = Strategy.FOCUSED
    sampling_seed: int = 0
    fetch_deadline_s: float = 30.0
    max_crawl_delay_s: float = 60.0
    max_retry_after_s: float = 300.0
    max_links_per_page: int = 2_000
    max_queued_links: int = 100_000
    use_sitemaps: bool = False
    max_sitemaps: int = 10
    max_sitemap_urls: int = 1_000
    max_sitemap_bytes: int = 10_000_000
    concurrency: int = 1
    per_host: int = 1
    language: Language = Language.AUTO
    render: RenderMode = RenderMode.OFF
    render_deadline_s: float = 10.0
    # docs/DECISIONS.md "Adopted: page relevance fused with meaning": the weight swept on the
    # tuning sets (0.25, 0.5, 0.75, 1); the largest that keeps both of their met targets
    meaning_weight: float = 0.25
    # docs/DECISIONS.md "Adopted: links read by meaning": swept on the tuning sets (0.05,
    # 0.1, 0.15, 0.25); the fewest pages to 90% summed over them (976, 1,010 at 0)
    link_meaning_weight: float = 0.1
    # docs/DECISIONS.md "Adopted: a link lifted by meaning only above three in four link
    # texts": the upper quartile (frontier/meaning.py)
    link_meaning_quantile: float = LINK_TEXT_QUANTILE
    # docs/DECISIONS.md "Adopted: copy parameters learned from the copies fetched"
    learn_copy_parameters: bool = True

    def __post_init__(self) -> None:
        _check_url(self.seed_url)
        if not isinstance(self.query, str) or not self.query.strip():
            raise ConfigError("query", "enter at least one word to search for")
        if not isinstance(self.language, Language):
            raise ConfigError("language", _LANGUAGE_CHOICES)
        if not isinstance(self.adaptive, AdaptiveOptions):
            raise ConfigError("adaptive", "must be the stop options (coverage_threshold, "
                              f"evidence_per_term, patience, min_gain), got {shown(self.adaptive)}")
        if len(Query(self.query, self.language)) == 0:
            has_words = bool(words(self.query))
            raise ConfigError("query", (
                f"{shown(self.query)} has only stop words" if has_words else
                f"{shown(self.query)} has no words (only punctuation or symbols)")
                + "; add a word that names the topic")
        for setting in _RANGED:
            setting.check(getattr(self, setting.name))
        _check_prior(self.prior_weights)
        if not isinstance(self.scope, Scope):
            raise ConfigError("scope", f"must be one of {[s.value for s in Scope]}")
        # every yes/no setting, read off the fields: a hand-kept list missed stop_on_verdict
        # and learn_copy_parameters, and a sweep spec's "false" (a true string) ran a
        # crawl that stopped on its verdict (found by using the CLI)
        for name in _YES_NO:
            if not isinstance(value := getattr(self, name), bool):
                raise ConfigError(name, f"must be true or false, got {shown(value)}")
        if not isinstance(self.strategy, Strategy):
            raise ConfigError("strategy", f"must be one of {[s.value for s in Strategy]}")
        if not isinstance(self.render, RenderMode):
            raise ConfigError("render", f"must be one of {[m.value for m in RenderMode]}")
        self.fetch_policy()  # the fetcher's own checks (user_agent), naming the field

    @classmethod
    def from_mapping(cls, values: Mapping[str, Any]) -> CrawlConfig:
        """Build from plain values (UI widgets, CLI flags, a bundle's ``config``).

        Raises ``ConfigError`` naming the field for any bad or unknown value.
        """
        if not isinstance(values, Mapping):
            raise ConfigError("config", f"must be a mapping of settings, got {shown(values)}")
        known = set(cls.__dataclass_fields__)
        unknown = sorted(set(values) - known)
        if unknown:
            raise ConfigError(unknown[0], f"unknown setting; known ones are {sorted(known)}")
        kwargs = dict(values)
        if "adaptive" in kwargs and isinstance(kwargs["adaptive"], Mapping):
            try:
                kwargs["adaptive"] = AdaptiveOptions(**kwargs["adaptive"])
            except (TypeError, ValueError) as exc:
                # named by the stop option itself ("min_gain", not "adaptive"), so the app and
                # the CLI name it as their forms do (Minimum gain, --min-gain)
                name, _, rest = str(exc).partition(" ")
                if name in _ADAPTIVE_NAMES and rest:
                    raise ConfigError(name, rest) from exc
                raise ConfigError("adaptive", str(exc)) from exc
        if "scope" in kwargs and not isinstance(kwargs["scope"], Scope):
            try:
                kwargs["scope"] = Scope(kwargs["scope"])
            except ValueError as exc:
                raise ConfigError("scope", f"must be one of {[s.value for s in Scope]}") from exc
        if "strategy" in kwargs and not isinstance(kwargs["strategy"], Strategy):
            try:
                kwargs["strategy"] = Strategy(kwargs["strategy"])
            except ValueError as exc:
                raise ConfigError(
                    "strategy", f"must be one of {[s.value for s in Strategy]}"
                ) from exc
        if "language" in kwargs and not isinstance(kwargs["language"], Language):
            try:
                kwargs["language"] = Language(str(kwargs["language"]).strip().lower())
            except ValueError:
                raise ConfigError(
                    "language", f"{shown(kwargs['language'])} is not supported; {_LANGUAGE_CHOICES}"
                ) from None
        if "render" in kwargs and not isinstance(kwargs["render"], RenderMode):
            try:
                kwargs["render"] = RenderMode(kwargs["render"])
            except ValueError as exc:
                raise ConfigError(
                    "render", f"must be one of {[m.value for m in RenderMode]}"
                ) from exc
        if "prior_weights" in kwargs and isinstance(kwargs["prior_weights"], list | tuple):
            kwargs["prior_weights"] = tuple(kwargs["prior_weights"])
        try:
            return cls(**kwargs)
        except ConfigError:
            raise
        except (TypeError, ValueError) as exc:
            raise ConfigError("config", str(exc)) from exc

    @classmethod
    def from_recorded(cls, values: Mapping[str, Any]) -> CrawlConfig:
        """``from_mapping`` for a config a session recorded (a bundle, the store, a WARC).

        A recording made before ``language`` existed read its query and pages in English:
        without the key it is read in English again, not detected (docs/DESIGN.md §1.1), so
        a resume or replay of it takes the steps it took ("die casting" stays English). One
        made before ``link_blocks_as_evidence`` existed counted blocks that are only links
        as evidence, and one made before ``forgive_thin_evidence`` let a verdict on thin
        evidence stand, as one made before ``forgive_still_finding`` let a verdict stand
        while relevant pages still came, and one made before ``lead_bar_new_evidence``
        judged a verdict other than ``coverage_reached`` by the on-topic bar: without the
        keys they do so again, so their stop rules replay as they ran; one made before
        ``meaning_weight`` read relevance by words alone, and does again; one made before
        ``link_meaning_weight`` scored links by words alone, and does again; one made before
        ``link_meaning_quantile`` lifted a link text above the median one, and does again;
        one made before ``learn_copy_parameters`` fetched every copy, and does again.
        """
        if not isinstance(values, Mapping):
            raise ConfigError("config", f"must be a mapping, got {type(values).__name__}")
        as_before = {"language": Language.ENGLISH, "link_blocks_as_evidence": True,
                     "forgive_thin_evidence": False, "forgive_still_finding": False,
                     "lead_bar_new_evidence": False,
                     "meaning_weight": 0.0,
                     "link_meaning_weight": 0.0, "link_meaning_quantile": 0.5,
                     "learn_copy_parameters": False}
        return cls.from_mapping({**{k: v for k, v in as_before.items() if k not in values},
                                 **values})

    def to_dict(self) -> dict[str, Any]:
        """Plain JSON-ready values; ``from_mapping(to_dict())`` gives an equal config."""
        out = asdict(self)
        out["scope"] = self.scope.value
        out["strategy"] = self.strategy.value
        out["language"] = self.language.value
        out["render"] = self.render.value
        out["prior_weights"] = list(self.prior_weights)
        return out

    def fetch_policy(self) -> FetchPolicy:
        """What the fetcher may do in this crawl: the one place a ``FetchPolicy`` is built."""
        return FetchPolicy(
            user_agent=self.user_agent,
            delay_s=self.delay_s,
            respect_robots=self.respect_robots,
            connect_timeout_s=self.connect_timeout_s,
            read_timeout_s=self.read_timeout_s,
            fetch_deadline_s=self.fetch_deadline_s,
            max_redirects=self.max_redirects,
            max_body_bytes=self.max_body_bytes,
            allow_private=self.allow_private,
            seed_url=self.seed_url,
            max_crawl_delay_s=self.max_crawl_delay_s,
            max_retry_after_s=self.max_retry_after_s,
            concurrency=self.concurrency,
            per_host=self.per_host,
        )

    def sitemap_limits(self) -> SitemapLimits:
        """The caps of the sitemap harvest (``net/sitemaps.py``)."""
        return SitemapLimits(self.max_sitemaps, self.max_sitemap_urls, self.max_sitemap_bytes)

    @property
    def query_language(self) -> Language:
        """The language the query is read in: ``language``, or the one detected for ``AUTO``
        (docs/DESIGN.md §1.1). The same query always resolves the same way."""
        return Query(self.query, self.language).language

    def query_note(self) -> str:
        """What the crawl does not read of the query ("" when it reads it all): a query uses
        at most ``MAX_TERMS`` terms, and a user who wrote more should see which were
        left out rather than find them missing from the evidence."""
        left_out = Query(self.query, self.language).left_out
        if not left_out:
            return ""
        return (f"the query uses its first {MAX_TERMS} terms; {shown(left_out)} and the "
                f"words after it are left out")

    def describe_language(self) -> str:
        """The query's language in words, as the app shows it: "German (detected)"."""
        how = "detected" if self.language is Language.AUTO else "chosen"
        return f"{self.query_language.label} ({how})"

    @property
    def seed_host(self) -> str:
        return (urlsplit(self.seed_url).hostname or "").lower()


@dataclass(frozen=True, slots=True)
class Setting:
    """One setting as the command line and the app's sidebar offer it.

    ``name`` is its flat key (the CLI's argparse ``dest``, the sidebar's widget key) and
    ``path`` where it goes in ``CrawlConfig.from_mapping``'s input. ``flag`` is its command-line
    option, None when it has none; a yes/no setting's flag turns it to the opposite of its
    default (``--no-robots``, ``--allow-private``). ``low``..``high`` is the range
    ``CrawlConfig`` accepts (both ends included; ``optional``: None too); the adaptive stop
    options have none here because ``AdaptiveOptions`` checks them. The default is read off
    the dataclass that holds it.
    """

    name: str
    kind: type[object]
    help: str
    flag: str | None = None
    low: float | None = None
    high: float | None = None
    optional: bool = False
    adaptive: bool = False

    @property
    def path(self) -> tuple[str, ...]:
        return ("adaptive", self.name) if self.adaptive else (self.name,)

    @property
    def default(self) -> Any:
        owner: Any = AdaptiveOptions if self.adaptive else CrawlConfig
        return next(f.default for f in dataclasses.fields(owner) if f.name == self.name)

    @property
    def choices(self) -> tuple[str, ...]:
        """The accepted words of an enum setting (empty for other kinds)."""
        if isinstance(self.kind, type) and issubclass(self.kind, enum.Enum):
            return tuple(str(member.value) for member in self.kind)
        return ()

    def describe_range(self) -> str:
        """``"1 to 100000"``, or ``""`` when no range is declared here."""
        if self.low is None or self.high is None:
            return ""
        if self.kind is int:
            return f"{int(self.low)} to {int(self.high)}"
        return f"{self.low:g} to {self.high:g}"

    def check(self, value: object) -> None:
        """Raise ``ConfigError`` naming this setting when ``value`` is outside its range."""
        if (self.optional and value is None) or self.low is None or self.high is None:
            return
        if self.kind is int:
            _check_int(self.name, value, int(self.low), int(self.high))
        else:
            _check_float(self.name, value, self.low, self.high)


#: The settings offered outside code, in the order the CLI's ``--help`` lists them. The start
#: URL, the query and the prior weights are ``CrawlConfig`` fields of their own shape.
SETTINGS: tuple[Setting, ...] = (
    Setting("limit", int, "page budget", "--limit", 1, MAX_LIMIT),
    Setting("coverage_threshold", float, "share of the query terms that must have enough "
            "evidence for 'covered'", "--coverage-threshold", adaptive=True),
    Setting("evidence_per_term", int, "evidence a query term needs to count as covered",
            "--evidence-per-term", adaptive=True),
    Setting("patience", int, "pages in a row with nothing new before 'saturated'",
            "--patience", adaptive=True),
    Setting("min_gain", float, "least share of new on-topic content for a page to count as "
            "new", "--min-gain", adaptive=True),
    Setting("delay_s", float, "seconds between requests to one host (loopback hosts: 0)",
            "--delay", 0.0, 60.0),
    Setting("respect_robots", bool, "ignore robots.txt", "--no-robots"),
    Setting("scope", Scope, "host: the seed's host only; site: also its sub-domains",
            "--scope"),
    Setting("allow_private", bool, "allow loopback and private addresses other than the "
            "seed's own server (refused by default; link-local never)", "--allow-private"),
    Setting("stop_on_verdict", bool, "record every stop verdict but crawl on to the limit, "
            "as if 'continue anyway' were chosen each time", "--no-stop"),
    Setting("forgive_leads", bool, "let every stop verdict stand: no forgiveness while the "
            "next links to fetch are still a lead (the seed's stop rules alone)",
            "--no-lead-forgiveness"),
    Setting("forgive_thin_evidence", bool, "let a 'saturated' verdict stand however few of "
            "the query's terms have evidence (with lead forgiveness on, one on under three "
            "quarters of them is forgiven)", "--no-thin-evidence-forgiveness"),
    Setting("forgive_still_finding", bool, "let a verdict stand while relevant pages still "
            "come (with lead forgiveness on, one is forgiven while the last 'patience' pages "
            "read as relevant at least as often as the crawl so far)",
            "--no-still-finding-forgiveness"),
    Setting("lead_bar_new_evidence", bool, "judge a verdict other than 'coverage_reached' "
            "by the links that found on-topic pages (relevant ones once a verdict has "
            "fired), not by those that brought new evidence: the rule before",
            "--on-topic-lead-bar"),
    Setting("link_blocks_as_evidence", bool, "count a block that is only links (a contents "
            "entry, a row of navigation) as stop-rule evidence, as the seed's rules read "
            "every block", "--link-blocks-as-evidence"),
    Setting("delta", float, "error rate δ of the Wilson intervals and the link model",
            low=1e-6, high=0.5),
    Setting("dispersion_cap", int, "pages per cluster before the crawl spreads out (None: "
            "max(3, ceil(limit/4)))", low=1, high=MAX_LIMIT, optional=True),
    Setting("max_body_bytes", int, "largest decoded page body", low=1_000, high=1_000_000_000),
    Setting("read_timeout_s", float, "seconds to wait for a response", low=0.1, high=300.0),
    Setting("connect_timeout_s", float, "seconds to wait for a connection", low=0.1,
            high=300.0),
    Setting("fetch_deadline_s", float, "most seconds one page's fetch may take, headers and "
            "body, its redirects and robots.txt files together, however slowly the servers "
            "send", "--fetch-deadline", 1.0, 600.0),
    Setting("max_crawl_delay_s", float, "longest robots.txt Crawl-delay honoured; a longer one "
            "is waited this long", "--max-crawl-delay", 0.0, 3600.0),
    Setting("max_retry_after_s", float, "longest Retry-After of a 429/503 honoured; a longer "
            "one is waited this long", "--max-retry-after", 0.0, 86_400.0),
    Setting("max_links_per_page", int, "links of one page considered for the queue; the rest "
            "are counted, not looked at", "--max-links", 1, MAX_LIMIT),
    Setting("max_queued_links", int, "links the queue keeps; beyond it a new link replaces "
            "the worst queued one only if it scores higher", "--max-queued", 1, 10_000_000),
    Setting("use_sitemaps", bool, "also offer the URLs of the site's sitemaps (robots.txt "
            "Sitemap: lines, else /sitemap.xml) as candidates when the crawl starts",
            "--sitemaps"),
    Setting("max_sitemaps", int, "sitemap files read at most, those a sitemap index lists "
            "included", "--max-sitemaps", 1, MAX_FILE_NOTES),
    Setting("max_sitemap_urls", int, "page URLs taken from the sitemaps at most; the rest are "
            "counted, not offered", "--max-sitemap-urls", 1, MAX_LIMIT),
    # sitemaps.org caps a sitemap at 50 MB uncompressed; 10 MB holds ~50,000 short URLs
    Setting("max_sitemap_bytes", int, "largest sitemap file, after un-gzipping", low=1_000,
            high=100_000_000),
    Setting("concurrency", int, "fetches in flight at once, to different hosts (one request "
            "at a time per host); pages are still taken in pop order, so a crawl repeats",
            "--concurrency", 1, MAX_CONCURRENCY),
    Setting("per_host", int, "requests to one host at a time, when fetches are in flight (1: "
            "one, the polite default; more only where the site's owner agrees)", "--per-host",
            1, MAX_PER_HOST),
    # httpx's own cap is 20 (DEFAULT_MAX_REDIRECTS); browsers also stop at 20
    Setting("max_redirects", int, "redirects followed per page", low=0, high=20),
    Setting("user_agent", str, "the User-Agent header; its product token (before the first "
            "'/') picks the robots.txt group (RFC 9309 §2.2.1)", "--user-agent"),
    Setting("strategy", Strategy, "focused: best-first by link score; bfs: breadth-first; "
            "thompson: best-first with link weights drawn from the model's posterior",
            "--strategy"),
    Setting("language", Language, "the query's language (its stemmer and stop words): auto "
            "detects it from the query; pages are read in their own", "--language"),
    Setting("render", RenderMode, "render pages in headless Chromium before reading them: "
            "off; empty: pages whose HTML has no text and no links; always: every page",
            "--render"),
    Setting("render_deadline_s", float, "most seconds one page's render may take; then the "
            "page as it is (or the plain fetch) is read", "--render-deadline", 1.0, 120.0),
    Setting("meaning_weight", float, "most a page's meaning (static word vectors, English "
            "only) adds to its relevance; 0: the query's words alone", "--meaning-weight",
            0.0, 1.0),
    Setting("link_meaning_weight", float, "most a link's anchor and list title read by "
            "meaning (English only) add to its raw score; 0: the query's words alone",
            "--link-meaning-weight", 0.0, 1.0),
    Setting("link_meaning_quantile", float, "share of the link texts read that a link's "
            "anchor and list title must be nearer the query than before meaning lifts it "
            "(0.5: above the median one)", "--link-meaning-quantile", 0.0, 1.0),
    Setting("learn_copy_parameters", bool, "fetch every copy once: learn no query pair that "
            "makes copies (by default one that made copies on two paths, ?print=1, is learned "
            "and links carrying it are not fetched)", "--no-copy-learning"),
    Setting("sampling_seed", int, "seed of the thompson strategy's posterior draws (same "
            "seed, same crawl)", low=0, high=2**32 - 1),
)

_RANGED = tuple(s for s in SETTINGS if not s.adaptive and s.low is not None)
#: Settings that shape only how pages are fetched live (politeness, timeouts, the User-Agent
#: and the robots group it picks, the render): a replay, and a sweep's cell on its snapshot,
#: serve the recorded answers whatever they say.
OFFLINE_NO_OPS = frozenset({"delay_s", "user_agent", "render", "render_deadline_s",
                            "fetch_deadline_s", "max_retry_after_s", "max_crawl_delay_s"})
#: The yes/no fields of ``CrawlConfig`` (annotations are strings here: ``from __future__``).
_YES_NO = tuple(f.name for f in fields(CrawlConfig) if f.type in ("bool", bool))
#: The stop options' names (``AdaptiveOptions``), each a field an error may name.
_ADAPTIVE_NAMES = frozenset(f.name for f in fields(AdaptiveOptions))
_PATHS = {s.name: s.path for s in SETTINGS}


def setting_values(config: CrawlConfig) -> dict[str, Any]:
    """Every ``SETTINGS`` value of ``config`` by its flat name, as plain JSON values: what
    ``settings_mapping`` turns back into the config (with its start URL, query and prior).
    A sweep's columns, Compare's table of differences and the app's form read these."""
    values = config.to_dict()
    return {setting.name: values["adaptive"][setting.name] if setting.adaptive
            else values[setting.name] for setting in SETTINGS}


def settings_mapping(
    values: Mapping[str, Any], base: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """``CrawlConfig.from_mapping``'s input from flat setting values, laid over ``base``.

    ``values`` is keyed by ``SETTINGS`` names (and by other ``CrawlConfig`` field names such
    as ``seed_url``, ``query``, ``prior_weights``, which go in as they are); a name left out
    keeps ``base``'s value, or the default without a base. ``base`` is a config mapping such
    as a recorded ``CrawlConfig.to_dict()``; it is not changed. Nothing is validated here.
    """
    out = {key: dict(value) if isinstance(value, Mapping) else value
           for key, value in (base or {}).items()}
    for name, value in values.items():
        *parents, leaf = _PATHS.get(name, (name,))
        target = out
        for key in parents:
            target = target.setdefault(key, {})
        target[leaf] = value
    return out


def _check_url(url: object) -> None:
    if not isinstance(url, str) or not url.strip():
        raise ConfigError("seed_url", "enter a start URL such as https://www.example.edu/")
    try:
        parts = urlsplit(url.strip())
    except ValueError as exc:  # an unclosed IPv6 bracket: "http://[::1"
        raise ConfigError("seed_url", f"{shown(url)} is not a valid URL ({exc})") from exc
    if parts.scheme not in ("http", "https"):
        raise ConfigError(
            "seed_url", f"{shown(url)} is not an http(s) URL; it must start with http:// or https://"
        )
    if not parts.hostname:
        raise ConfigError("seed_url", f"{shown(url)} has no host name")
    try:
        _ = parts.port
    except ValueError as exc:
        raise ConfigError("seed_url", f"{shown(url)} has an invalid port") from exc
    if url != url.strip() or any(c.isspace() for c in url):
        raise ConfigError("seed_url", f"{shown(url)} contains spaces")
    if len(url) > MAX_URL_LENGTH:  # the crawl skips longer links too (docs/DESIGN.md §10)
        raise ConfigError("seed_url", f"{shown(url)} is {len(url):,} characters long; a start "
                          f"URL has at most {MAX_URL_LENGTH:,}")


def _check_int(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ConfigError(name, f"must be a whole number from {low} to {high}, got {shown(value)}")


def _check_float(name: str, value: object, low: float, high: float) -> None:
    ok = (
        isinstance(value, int | float)
        and not isinstance(value, bool)
        and math.isfinite(value)
        and low <= value <= high
    )
    if not ok:
        raise ConfigError(name, f"must be a number from {low} to {high}, got {shown(value)}")


def _check_prior(weights: object) -> None:
    if not isinstance(weights, tuple) or len(weights) != FEATURES:
        raise ConfigError("prior_weights", f"needs {FEATURES} numbers, got {shown(weights)}")
    for w in weights:
        if (isinstance(w, bool) or not isinstance(w, int | float) or not math.isfinite(w)
                or not 0 <= w <= MAX_PRIOR_WEIGHT):
            raise ConfigError("prior_weights", f"each weight must be a number from 0 to "
                                               f"{MAX_PRIOR_WEIGHT:g}, got {shown(w)}")
