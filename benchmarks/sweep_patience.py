"""The stop rules replayed with other settings over the dev-set crawls (issue 11).

Run: ``nice -n 5 python3 benchmarks/sweep_patience.py`` (about 2 minutes; ``--held-out`` for
the held-out sets instead, about 3). Prints one table: per value and site, mean recall at the
replayed stop and median (pages at that stop ÷ pages to 90%), issue 11's two stopping
targets (≥ 0.90 and ≤ 1.5). ``--option`` sweeps another of the four ``AdaptiveOptions``
instead of ``patience`` (``--values`` its values; ``all-but-one`` for
``coverage_threshold`` is (n − 1) / n of a query of n terms).

The options are defaults of ours (``AdaptiveOptions``), not the seed's rules. Each dev query
is crawled once to its 200-page budget, every verdict recorded and crawled past (as
``replay_stops.py``'s rows), and ``session.whatif.what_if`` replays the stop rules, the
crawler's forgiveness included (the lead bar, the one-source grace, thin evidence), with each
value: the crawl's pages do not depend on the stop rules, only where it would have stopped
does, so the crawler's own values give back ``run_all.py``'s numbers. (``min_gain`` also
decides the harvest hits, which order the crawl: its rows are estimates, as ``what_if``
says.) Pages count as in ``run_all.py``. Nothing touches the network but 127.0.0.1.
"""

from __future__ import annotations

import argparse
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

from docsites import HELD_OUT, SITES, no_stop_crawl  # noqa: E402
from pagecache import shared_extraction  # noqa: E402

from pagesift_ui.bench.truth import found_keys  # noqa: E402
from pagesift_ui.frontier.adaptive import AdaptiveOptions  # noqa: E402
from pagesift_ui.net.fetcher import Fetcher  # noqa: E402
from pagesift_ui.session import CrawlSession  # noqa: E402
from pagesift_ui.session.whatif import what_if  # noqa: E402

PATIENCES = (2, 3, 4, 5, 6)
#: The options ``--option`` may sweep, each with the type of its values.
OPTIONS = {"patience": int, "evidence_per_term": int, "coverage_threshold": float,
           "min_gain": float}
#: ``coverage_threshold``'s value that depends on the query: every term's evidence but one.
ALL_BUT_ONE = "all-but-one"

#: (pages at the replayed stop, recall there, pages to 90% or None) per value, per query
Outcome = tuple[int, float, int | None]


def options_for(option: str, value: str, terms: int) -> AdaptiveOptions:
    """``AdaptiveOptions`` with ``option`` set to ``value`` for a query of ``terms`` terms."""
    if option == "coverage_threshold" and value == ALL_BUT_ONE:
        return AdaptiveOptions(coverage_threshold=(terms - 1) / terms if terms > 1 else 1.0)
    return AdaptiveOptions(**{option: OPTIONS[option](value)})


def replayed(site: str, query: str, option: str, values: Sequence[str]) -> dict[str, Outcome]:
    """One query crawled to its budget, its stop replayed with every value of ``option``."""
    with no_stop_crawl(site, query) as (truth, config), \
            CrawlSession(config, Fetcher(config.fetch_policy())) as session:
        session.run()
        found: set[str] = set()
        to_90 = None
        for record in session.steps:
            found |= found_keys(record) & truth.keys
            if to_90 is None and len(found) >= 0.9 * len(truth.keys):
                to_90 = record.pages_fetched
        outcomes: dict[str, Outcome] = {}
        terms = len(session.state.query.terms)
        for value in values:
            result = what_if(session, options_for(option, value, terms), truth=truth.urls)
            step = result.stop_step or len(session.steps)
            recall = result.found.recall if result.found is not None else None
            outcomes[value] = (session.steps[step - 1].pages_fetched, recall or 0.0, to_90)
        return outcomes


def summary(outcomes: list[Outcome]) -> str:
    ratios = [pages / to_90 for pages, _, to_90 in outcomes if to_90]
    median = f"{statistics.median(ratios):.2f}" if ratios else "–"
    return f"{statistics.mean(recall for _, recall, _ in outcomes):.3f} / {median}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--held-out", action="store_true",
                        help="the held-out sets (measured, never tuned on) instead")
    parser.add_argument("--option", choices=sorted(OPTIONS), default="patience",
                        help="the AdaptiveOptions setting to sweep (patience)")
    parser.add_argument("--values", nargs="+",
                        help=f"its values (patience: {' '.join(map(str, PATIENCES))}; "
                             f"coverage_threshold also takes {ALL_BUT_ONE})")
    args = parser.parse_args(argv)
    values = args.values or [str(p) for p in PATIENCES]
    if args.option != "patience" and not args.values:
        parser.error(f"--option {args.option} needs --values")
    for value in values:  # refused here, not after minutes of crawling
        try:
            options_for(args.option, value, 1)
        except ValueError as error:
            parser.error(f"{args.option} {value!r}: {error}")
    sites = HELD_OUT if args.held_out else SITES
    by_site: dict[str, list[dict[str, Outcome]]] = {}
    with shared_extraction():
        for site in sites:
            for query in sites[site].truth_names():
                by_site.setdefault(site, []).append(replayed(site, query, args.option, values))
                print(f"sweep_patience: {site} {query} crawled", file=sys.stderr)
    names = list(by_site)
    print(f"| {args.option} | " + " | ".join(names) + " | all |")
    print("|---" * (len(names) + 2) + "|")
    for value in values:
        cells = [summary([o[value] for o in by_site[n]]) for n in names]
        every = summary([o[value] for n in names for o in by_site[n]])
        print(f"| {value} | " + " | ".join(cells) + f" | {every} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
