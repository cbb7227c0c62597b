"""The frontier state of one crawl: the core objects a session steps, and nothing else."""

from __future__ import annotations

import functools
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt

from pagesift_ui.frontier.adaptive import Adaptive
from pagesift_ui.frontier.copyparams import CopyParameters
from pagesift_ui.frontier.depths import ClickDepths
from pagesift_ui.frontier.focus import Focus
from pagesift_ui.frontier.harvest import Harvest, subtree
from pagesift_ui.frontier.leads import LeadBar
from pagesift_ui.frontier.linkbatch import LINK_COLUMNS, LinkColumns, PartialSums, column_row
from pagesift_ui.frontier.links import LinkExplanation, LinkSignal
from pagesift_ui.frontier.meaning import LinkMeaning, Meaning, word_vectors
from pagesift_ui.frontier.neardup import NearDuplicates
from pagesift_ui.frontier.offers import LinkOffers
from pagesift_ui.frontier.query import Query
from pagesift_ui.frontier.queue import (
    BestFirst,
    ColumnView,
    Entry,
    Packing,
    RowScores,
    default_cap,
)
from pagesift_ui.frontier.stats import z_one_sided, z_two_sided
from pagesift_ui.frontier.thompson import PosteriorSampler
from pagesift_ui.frontier.urls import TemplateStats
from pagesift_ui.net.policy import Origin
from pagesift_ui.session.config import CrawlConfig, Strategy
from pagesift_ui.session.record import PartStats, SubtreeState

__all__ = [
    "FrontierState", "SetAside", "part_state", "part_stats", "signal_of", "stored_signal",
    "wilson_rows",
]


@dataclass(frozen=True, slots=True)
class SetAside:
    """A link kept out of the queue while its subtree was dry: a queued link popped then
    (``stepping.next_entry``) or a page's link met then (``enqueue.enqueue_links``). It is
    queued again, scored under the weights of that time, once the subtree is no longer dry
    (``ahead.unpark``): no link is lost to a verdict the statistics or the user take back
    (issue 11, mechanism 2)."""

    key: str
    url: str
    depth: int
    score: float  #: its score when set aside; a link with a signal is scored again
    signal: LinkSignal | None


def part_state(
    harvest: Harvest, part: str, forced: SubtreeState | None = None
) -> SubtreeState:
    """The part's state from the Wilson comparison, after a user's ``forced`` (DRY, OPEN or
    None). Dry and proven exclude each other (docs/DESIGN.md), so the order is free."""
    if forced is SubtreeState.DRY or (forced is None and harvest.is_dry(part)):
        return SubtreeState.DRY
    return SubtreeState.PROVEN if harvest.is_proven(part) else SubtreeState.OPEN


def part_stats(harvest: Harvest, part: str, forced: SubtreeState | None = None) -> PartStats:
    """One part's counts, intervals against the rest, and state."""
    pages, hits = harvest.counts(part)
    low, high = harvest.interval(part)
    rest_low, rest_high = harvest.rest_interval(part)
    state = part_state(harvest, part, forced)
    return PartStats(part, pages, hits, low, high, rest_low, rest_high, state, forced)


def wilson_rows(
    harvest: Harvest, forced_of: Callable[[str], SubtreeState | None]
) -> list[PartStats]:
    """Every part seen, most pages first (then by name), for the Wilson table."""
    parts = sorted(harvest.parts().items(), key=lambda kv: (-kv[1][0], kv[0]))
    return [part_stats(harvest, part, forced_of(part)) for part, _ in parts]


def signal_of(entry: Entry) -> LinkSignal | None:
    """The link signal the session stored with a queued entry (None for the seed)."""
    return stored_signal(entry.key, entry.signal)


def stored_signal(key: str, signal: object | None) -> LinkSignal | None:
    """``signal_of`` of what the queue holds for ``key`` (``BestFirst.queued``), without an
    ``Entry``."""
    if signal is not None and not isinstance(signal, LinkSignal):
        raise TypeError(f"queued entry {key} holds {type(signal).__name__}, not a signal")
    return signal


def _meaning(query: str, weight: float) -> Meaning | None:
    """The crawl's reading by meaning (docs/DESIGN.md §7a); None at weight 0, which also
    spares loading the table."""
    return Meaning(word_vectors(), query, weight) if weight > 0 else None


def _link_meaning(query: str, weight: float, quantile: float) -> LinkMeaning | None:
    """The crawl's reading of links by meaning (docs/DESIGN.md §8.2); None at weight 0."""
    return LinkMeaning(word_vectors(), query, weight, quantile) if weight > 0 else None


def _breadth_first_score(signal: LinkSignal) -> float:
    return 1.0


@dataclass(slots=True)
class FrontierState:
    """The sans-IO core objects of one crawl, built from a config in one place."""

    query: Query
    focus: Focus
    adaptive: Adaptive
    # scores of the links that found pages, and the graces the config switches on: made
    # from the config as the stop rules are, never a default bar that forgives otherwise
    leads: LeadBar
    subtrees: Harvest
    clusters: Harvest
    templates: TemplateStats
    queue: BestFirst
    cap: int
    breadth_first: bool = False
    scheduled_by_cluster: Counter[str] = field(default_factory=Counter)
    fetched_keys: set[str] = field(default_factory=set)
    text_seen: dict[int, str] = field(default_factory=dict)  # text fingerprint → first URL
    forced_dry: set[str] = field(default_factory=set)
    kept_open: set[str] = field(default_factory=set)
    # links set aside because their subtree was dry, by subtree and key: queued again once
    # it is no longer dry (the statistics or the user reopened it), not lost
    # (session/ahead.py); at most CrawlConfig.max_queued_links in all
    parked: dict[str, dict[str, SetAside]] = field(default_factory=dict)
    parked_count: int = 0
    robots_answers: dict[str, bool] = field(default_factory=dict)  # url → allowed
    # the origins (scheme://host:port) whose robots.txt the crawl has asked for: at its
    # links' checks or by fetching one of its pages (docs/DESIGN.md §11.11)
    robots_origins: set[Origin] = field(default_factory=set)
    depths: ClickDepths = field(default_factory=ClickDepths)  # fetched pages' click depths
    near_duplicates: NearDuplicates = field(default_factory=NearDuplicates)
    copies: dict[str, str] = field(default_factory=dict)  # key → fetched page it is a copy of
    # query pairs learned to make copies (?print=1): dropped from links (frontier/copyparams.py)
    copy_params: CopyParameters = field(default_factory=CopyParameters)
    copies_left: int = 0  # links those pairs left unfetched (a summary's copies_not_fetched)
    # the thompson strategy's posterior sampler, and the weights of its latest draw
    sampler: PosteriorSampler | None = None
    ranking_weights: tuple[float, ...] | None = None
    # what the queue's partial sums were computed under (linkbatch.score_queued)
    partial_sums: PartialSums = field(default_factory=PartialSums)
    # every distinct offer of the queued links met more than once: each is ranked by the
    # best of them as they score now (frontier/offers.py)
    offers: LinkOffers = field(default_factory=LinkOffers)

    @classmethod
    def from_config(cls, config: CrawlConfig) -> FrontierState:
        query = Query(config.query, config.language)
        return cls(
            query=query,
            focus=Focus(query, prior=config.prior_weights, z=z_one_sided(config.delta),
                        meaning=_meaning(config.query, config.meaning_weight),
                        link_meaning=_link_meaning(config.query, config.link_meaning_weight,
                                                   config.link_meaning_quantile)),
            adaptive=Adaptive(config.adaptive, len(query)),
            leads=LeadBar(config.lead_bar_new_evidence, thin=config.forgive_thin_evidence,
                          finding=config.forgive_still_finding,
                          patience=config.adaptive.patience),
            subtrees=Harvest(z=z_two_sided(config.delta)),
            clusters=Harvest(z=z_two_sided(config.delta)),
            templates=TemplateStats(),
            # signals kept as columns too, so a rescore reads columns (and finds a sibling
            # group's rows by the queue's index), and each link's subtree, so the best link
            # outside dry subtrees is one masked argmax (issue 15)
            queue=BestFirst(Packing(LINK_COLUMNS, column_row, indexed=("group",)),
                            part_of=functools.partial(subtree, config.seed_host)),
            cap=config.dispersion_cap or default_cap(config.limit),
            breadth_first=config.strategy is Strategy.BFS,
            sampler=PosteriorSampler(config.sampling_seed)
            if config.strategy is Strategy.THOMPSON
            else None,
        )

    def forced(self, part: str) -> SubtreeState | None:
        """The user's override of a subtree: DRY, OPEN, or None to let the statistics say."""
        if part in self.forced_dry:
            return SubtreeState.DRY
        return SubtreeState.OPEN if part in self.kept_open else None

    def is_dry(self, part: str) -> bool:
        """Links of a dry subtree are not fetched; breadth-first fetches everything."""
        if self.breadth_first:
            return False
        return part_state(self.subtrees, part, self.forced(part)) is SubtreeState.DRY

    def is_proven(self, cluster: str) -> bool:
        """A cluster whose pages proved on-topic is popped first among near-ties (§9, rule
        2); breadth-first proves nothing: discovery order alone decides."""
        return False if self.breadth_first else self.clusters.is_proven(cluster)

    def demoted_templates(self) -> frozenset[str]:
        return frozenset() if self.breadth_first else self.templates.demoted_templates()

    def link_score(self, signal: LinkSignal) -> float:
        """The queue score of a link: its focused score, or 1 for every link when
        breadth-first (equal scores pop in discovery order, docs/DESIGN.md §9)."""
        return 1.0 if self.breadth_first else self.focus.score(signal)

    def link_scorer(self) -> Callable[[LinkSignal], float]:
        """``link_score`` for the links of one page (``Focus.link_scorer``): the weights read
        once; valid while nothing the model learns moves (a page's enqueue)."""
        return _breadth_first_score if self.breadth_first else self.focus.link_scorer()

    def take_best_offers(self) -> int:
        """Give every queued link met more than once the best of its offers as they score
        now, at its queued depth (``frontier/offers.py``); returns how many moved. The
        score given is the link's now; the rescore after a page's links (``CrawlSession``)
        brings every other link's up to date. Breadth-first ranks by discovery alone:
        nothing moves."""
        if self.breadth_first:
            return 0
        moved = 0
        queue, offers = self.queue, self.offers
        score_of = self.link_scorer()
        for key, signal in offers.best(queue.__contains__, self.focus.score_batch):
            queued = queue.queued(key)
            # the queue holds the very signal taken last time for most links (identity, not
            # the fields: ~1 µs a link)
            if queued is None or queued[2] is signal:
                continue
            depth = queued[0]
            if signal.depth != depth:
                # kept at the depth it is scored at, so the next pass finds it the same
                signal = offers.redepth(key, signal, depth)
            queue.update(key, depth, score_of(signal), signal)
            moved += 1
        return moved

    def rescore(self) -> bool:
        """Rescore every queued link under the current weights (not when breadth-first)."""
        if self.breadth_first:
            return False
        self.queue.rescore_columns(self._score_columns)
        return True

    def resample(self) -> None:
        """Thompson strategy, before each pop: rank the queue with link weights drawn from
        the model's posterior (``frontier/thompson.py``). Other strategies: nothing."""
        if self.sampler is None:
            return
        self.ranking_weights = self.sampler.draw(self.focus.model)
        self.queue.rescore_columns(self._score_columns)

    def explain(self, signal: LinkSignal) -> LinkExplanation:
        """A link's score explanation under the weights the queue is ranked with now."""
        return self.focus.explain(signal, self.ranking_weights)

    def _score_columns(self, columns: ColumnView) -> npt.NDArray[np.float64] | RowScores:
        # the columns of the LinkSignals the session offered (column_row); the thompson
        # strategy ranks with its latest draw, until the model's next rescore
        return self.focus.score_queued(LinkColumns.from_columns(columns), self.partial_sums,
                                       self.ranking_weights, columns)

    def dispersion_cap(self) -> int:
        return 2**62 if self.breadth_first else self.cap
