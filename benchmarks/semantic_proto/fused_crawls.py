"""No-stop crawls of a dev set with a semantic similarity fused into page relevance
(``NOTES.md``; a prototype: it patches the crawler from outside, nothing in the package
knows of it).

    python3 benchmarks/semantic_proto/fused_crawls.py SITE --mode static --ranking-only

``--mode lexical`` is the crawler as it is (``run_all.py``'s focused numbers exactly);
``static``: the cosine of SIF-weighted sums of static word vectors (Arora, Liang & Ma 2017,
"A simple but tough-to-beat baseline for sentence embeddings", ICLR; the vectors from
``distill_words.py``, or with ``--table`` the shipped form from ``build_table.py``);
``minilm``: the cosine of the precomputed MiniLM embeddings.
Fusion, chosen before any run and not tuned: relevance' = 1 − (1 − lexical)(1 − s),
s = clip((cos − τ) / (1 − τ), 0, 1), τ the median cosine of the pages this crawl has
read. ``--ranking-only``: the stop rules and the lead bar read the lexical relevance,
everything that ranks links (the parent feature, sibling, family and popularity credit,
the link model's label) the fused one. ``--link-weight W``: also a per-target credit
W × s of the best anchor-and-context cosine seen for a link (through the family credit's
slot), with ``--blind-only`` for links with no query word only and ``--listed-only`` for
links in a list block only, and ``--tiebreak`` for the cosine mapped to [0, 1] instead of
the lift (with ``--link-weight 1e-6``: the meaning breaks ties only); ``--no-page``: no page
fusion. Writes
``WORK/fuse_<site>_<variant>.json``.
"""

from __future__ import annotations

import argparse
import bisect
import dataclasses
import json
import logging
import re
import statistics
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))
sys.path.insert(0, str(ROOT))

from docsites import no_stop_crawl, no_stop_run  # noqa: E402
from pagecache import shared_extraction  # noqa: E402

from pagesift_ui.frontier import adaptive as adaptive_module  # noqa: E402
from pagesift_ui.frontier import families as families_module  # noqa: E402
from pagesift_ui.frontier import focus as focus_module  # noqa: E402
from pagesift_ui.frontier import leads as leads_module  # noqa: E402

logger = logging.getLogger("fused_crawls")
SIF_A = 1e-3  # Arora et al.'s a
WORD = re.compile(r"[a-z]+")


class StaticVectors:
    """Static word vectors: a text's vector is the SIF-weighted sum of its words', the
    vocabulary's first principal component (frequency-weighted) removed, normalised."""

    def __init__(self, work: Path) -> None:
        words = json.loads((work / "words.json").read_text(encoding="utf-8"))
        self.vectors = np.load(work / "words.npy")
        frequency = np.load(work / "freq.npy")
        self.index = {w: i for i, w in enumerate(words)}
        self.weight = SIF_A / (SIF_A + frequency)
        weighted = (self.vectors * np.sqrt(frequency)[:, None])[:20_000]
        self.common = np.linalg.svd(weighted, full_matrices=False)[2][0]

    def __call__(self, text: str) -> Any:
        rows = [self.index[w] for w in WORD.findall(text.lower()) if w in self.index]
        if not rows:
            return np.zeros(self.vectors.shape[1])
        ids = np.array(rows)
        vector = (self.vectors[ids] * self.weight[ids][:, None]).sum(0)
        vector = vector - (vector @ self.common) * self.common
        norm = np.linalg.norm(vector)
        return vector / norm if norm else vector


class TableVectors:
    """The same text vectors from the shipped form of the table (``build_table.py``): int8
    codes × one scale per word, SIF weights and the common component folded in."""

    def __init__(self, path: Path) -> None:
        with np.load(path, allow_pickle=False) as table:
            words = table["words"].tobytes().decode("utf-8").split("\n")
            self.vectors = table["codes"].astype(np.float32) * table["scales"][:, None]
        self.index = {w: i for i, w in enumerate(words)}

    def __call__(self, text: str) -> Any:
        rows = [self.index[w] for w in WORD.findall(text.lower()) if w in self.index]
        if not rows:
            return np.zeros(self.vectors.shape[1])
        vector = self.vectors[np.array(rows)].sum(0)
        norm = np.linalg.norm(vector)
        return vector / norm if norm else vector


def lift(cosine: float, tau: float) -> float:
    return min(1.0, max(0.0, (cosine - tau) / (1.0 - tau)))


class Patches:
    """The crawler's seams this prototype takes over, for one query at a time."""

    def __init__(self, args: argparse.Namespace,
                 vec: StaticVectors | TableVectors | None) -> None:
        self.args, self.vec = args, vec
        self.cosine: dict[str, float] = {}  # page path → cosine to the query
        self.read: list[float] = []
        self.lexical: float | None = None  # the page's lexical relevance, this step
        self.query_vector: Any = None
        self.link_cosines: list[float] = []
        self.link_lift: dict[int, float] = {}

    @contextmanager
    def active(self) -> Iterator[None]:
        originals = {
            (focus_module.Focus, "explain_relevance"): focus_module.Focus.explain_relevance,
            (focus_module.Focus, "observe_page"): focus_module.Focus.observe_page,
            (focus_module.Focus, "link_signal"): focus_module.Focus.link_signal,
            (adaptive_module.Adaptive, "observe"): adaptive_module.Adaptive.observe,
            (leads_module.LeadBar, "found"): leads_module.LeadBar.found,
            (families_module.NameFamilies, "credit"): families_module.NameFamilies.credit,
            (families_module.NameFamilies, "credits"): families_module.NameFamilies.credits,
        }
        patches = self
        explain0, observe0, link0, adapt0, found0, credit0, credits0 = originals.values()

        def explain(self: Any, signal: Any) -> Any:
            explanation = explain0(self, signal)
            patches.lexical = explanation.relevance
            cosine = patches.cosine.get(urlsplit(signal.url).path)
            if (cosine is None or len(patches.read) < patches.args.min_read
                    or patches.args.no_page):
                return explanation
            s = patches.args.weight * lift(cosine, statistics.median(patches.read))
            return dataclasses.replace(
                explanation, relevance=1 - (1 - explanation.relevance) * (1 - s))

        def observe(self: Any, signal: Any, lang: str = "") -> Any:
            cosine = patches.cosine.get(urlsplit(signal.url).path)
            if cosine is not None:
                patches.read.append(cosine)
            return observe0(self, signal, lang)

        def adapt(self: Any, query: Any, markdown: str, relevance: float, blind: bool,
                  language: Any = None) -> Any:
            if ((patches.args.ranking_only or patches.args.lexical_rules)
                    and patches.lexical is not None):
                relevance = patches.lexical
            return adapt0(self, query, markdown, relevance, blind, language)

        def found(self: Any, score: float, relevance: float) -> Any:
            if ((patches.args.ranking_only or patches.args.lexical_leads)
                    and patches.lexical is not None):
                relevance = patches.lexical
            return found0(self, score, relevance)

        def link_signal(self: Any, url: str, anchor: str, context: str, *rest: Any,
                        **named: Any) -> Any:
            target = named.get("target", rest[5] if len(rest) > 5 else -1)
            result = link0(self, url, anchor, context, *rest, **named)
            if patches.args.blind_only and not result.blind:
                return result
            group = named.get("group", rest[4] if len(rest) > 4 else -1)
            if patches.args.listed_only and group < 0:
                return result
            if patches.args.link_weight and patches.vec is not None and target >= 0:
                cosine = float(patches.vec(anchor + " " + context) @ patches.query_vector)
                if patches.args.tiebreak:
                    value = (cosine + 1.0) / 2.0
                else:
                    bisect.insort(patches.link_cosines, cosine)
                    tau = patches.link_cosines[len(patches.link_cosines) // 2]
                    value = lift(cosine, tau)
                patches.link_lift[target] = max(patches.link_lift.get(target, 0.0), value)
            return result

        def credit(self: Any, target: int) -> float:
            weight = patches.args.link_weight
            return float(credit0(self, target)) + weight * patches.link_lift.get(target, 0.0)

        def credits(self: Any, targets: int) -> Any:
            out = credits0(self, targets)
            if patches.args.link_weight and targets > 0:
                if len(out) < targets:
                    out = np.zeros(targets)
                for target, value in patches.link_lift.items():
                    if target < targets:
                        out[target] += patches.args.link_weight * value
            return out

        replacements = (explain, observe, link_signal, adapt, found, credit, credits)
        for (owner, name), replacement in zip(originals, replacements, strict=True):
            setattr(owner, name, replacement)
        try:
            yield
        finally:
            for (owner, name), original in originals.items():
                setattr(owner, name, original)


def crawl(site: str, name: str, patches: Patches) -> dict[str, Any]:
    with patches.active(), shared_extraction(), no_stop_crawl(site, name) as (truth, config):
        run = no_stop_run(truth, config)
    return {"p90": run.pages_to_90, "stop_pages": run.stop_pages,
            "stop_recall": run.stop_recall}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("site")
    parser.add_argument("--mode", choices=("lexical", "static", "minilm"), default="static")
    parser.add_argument("--ranking-only", action="store_true")
    parser.add_argument("--link-weight", type=float, default=0.0)
    parser.add_argument("--no-page", action="store_true")
    parser.add_argument("--blind-only", action="store_true")
    parser.add_argument("--listed-only", action="store_true")
    parser.add_argument("--tiebreak", action="store_true")
    parser.add_argument("--min-read", type=int, default=1,
                        help="pages read before any lift (1: as the package)")
    parser.add_argument("--lexical-rules", action="store_true",
                        help="the stop rules alone read the lexical relevance")
    parser.add_argument("--lexical-leads", action="store_true",
                        help="the lead bar alone reads the lexical relevance")
    parser.add_argument("--weight", type=float, default=1.0,
                        help="the lift's weight in the fusion (1: as first measured)")
    parser.add_argument("--work", type=Path, default=Path("/tmp/semantic_proto"))
    parser.add_argument("--table", type=Path, help="the shipped table (build_table.py)")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    logging.getLogger("httpx").setLevel(logging.WARNING)
    site = json.loads((args.work / "sites.json").read_text(encoding="utf-8"))[args.site]
    vec: StaticVectors | TableVectors | None = None
    if args.mode == "static" or args.link_weight:
        vec = TableVectors(args.table) if args.table else StaticVectors(args.work)
    paths = [urlsplit(p["url"]).path for p in site["pages"]]
    if args.mode == "static" and vec is not None:
        pages = np.array([vec(" ".join([p["title"], p["title"], *p["headings"],
                                        p["text"][:6000]])) for p in site["pages"]])
    elif args.mode == "minilm":
        pages = np.load(args.work / f"minilm_{args.site}_pages.npy")
        queries = np.load(args.work / f"minilm_{args.site}_queries.npy")
    results = {}
    for k, (name, query) in enumerate(site["queries"].items()):
        patches = Patches(args, vec)
        if vec is not None:
            patches.query_vector = vec(query["query"])
        if args.mode != "lexical":
            query_vector = patches.query_vector if args.mode == "static" else queries[k]
            patches.cosine = dict(zip(paths, (pages @ query_vector).tolist(), strict=True))
        results[name] = crawl(args.site, name, patches)
        logger.info("%s %s %s", args.site, name, results[name])
    variant = args.mode + ("_rank" if args.ranking_only else "") + (
        "_lexleads" if args.lexical_leads else "") + (
        "_lexrules" if args.lexical_rules else "") + (
        f"_link{args.link_weight:g}" if args.link_weight else "") + (
        "_nopage" if args.no_page else "") + ("_blind" if args.blind_only else "") + (
        "_listed" if args.listed_only else "") + ("_tie" if args.tiebreak else "") + (
        "_table" if args.table else "") + (
        f"_w{args.weight:g}" if args.weight != 1.0 else "") + (
        f"_min{args.min_read}" if args.min_read != 1 else "")
    out = args.work / f"fuse_{args.site}_{variant}.json"
    out.write_text(json.dumps(results), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
