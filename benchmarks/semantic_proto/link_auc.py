"""Offline, read-only: does a link's text, read by meaning (the package's static word
vectors), separate links to answer pages from other links, beside the query's own words?
(docs/DECISIONS.md, "Adopted: links read by meaning": the AUC table there, and the URL words
measured and not adopted.)

Walks each dev site on disk from its seed (breadth-first over same-site .html links;
meta-refresh redirect files are followed to their final page), records every same-site link
occurrence (anchor, list title, URL), and scores it per query: (a) the anchor's query words,
(c) the cosine of anchor + list title, (f) of anchor + list title + the URL's words, (g) of
the URL's words, (h) of anchor + URL words, (d) of the target's <title> (a reference), each a
mean per-query ROC AUC for "its target is an answer", on all links and on blind ones.
Writes $LINK_AUC_OUT (default /tmp/link_auc)/results.json and prints the tables (~35 s);
``--summary`` reprints them. Needs the Debian docs packages of benchmarks/docsites.py.
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
from collections import defaultdict, deque
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import lxml.html
import numpy as np
from scipy.stats import rankdata

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
from benchmarks.docsites import PLACEHOLDER, site_named  # noqa: E402
from pagesift_ui.bench.truth import url_key  # noqa: E402
from pagesift_ui.frontier.linkrules import locator_text  # noqa: E402
from pagesift_ui.frontier.meaning import word_vectors  # noqa: E402
from pagesift_ui.frontier.query import Query  # noqa: E402

OUT = Path(os.environ.get("LINK_AUC_OUT", "/tmp/link_auc"))
SITES = ["pydocs", "sqlite", "pgdocs", "apachedocs", "octavedocs", "gitdocs", "cmakedocs",
         "djangodocs"]
HEADINGS = {"h1", "h2", "h3", "h4", "h5", "h6"}
WS = re.compile(r"\s+")
REFRESH = re.compile(r"""url\s*=\s*['"]?([^'"\s>]+)""", re.I)
LOW = -2.0  # score for "no known word"
_MISS = object()
WEIGHTS = (0.25, 0.5, 1.0)


def norm(text: str) -> str:
    return WS.sub(" ", text or "").strip()


BLOCK = {"div", "ul", "ol", "dl", "table", "p", "script", "style", "pre", "form", "section",
         "nav", "br", "hr", "blockquote", "li"}
HEADING_CAP = 200


def heading_text(h) -> str:
    """A heading's own text: up to its first block-level child (a mis-closed heading, as in
    SQLite's docs.html <h2>..</h1>, otherwise swallows the rest of the page), capped."""
    parts = [h.text or ""]
    for child in h:
        if not isinstance(child.tag, str) or child.tag in BLOCK:
            if isinstance(child.tag, str):
                break
            parts.append(child.tail or "")
            continue
        parts.append(child.text_content())
        parts.append(child.tail or "")
    return norm(" ".join(parts))[:HEADING_CAP]


class Site:
    def __init__(self, name: str):
        self.site = site_named(name)
        self.root = self.site.docs
        self.texts: dict[str, int] = {}
        self.text_list: list[str] = []
        self.url_ids: dict[str, int] = {}
        self.urls: list[str] = []
        self.titles: dict[int, str] = {}
        self._redirect: dict[str, str | None] = {}
        self.long_headings = 0

    def tid(self, text: str) -> int:
        i = self.texts.get(text)
        if i is None:
            i = self.texts[text] = len(self.text_list)
            self.text_list.append(text)
        return i

    def uid(self, rel: str) -> int:
        i = self.url_ids.get(rel)
        if i is None:
            i = self.url_ids[rel] = len(self.urls)
            self.urls.append(rel)
        return i

    def resolve(self, base_rel: str, href: str) -> str | None:
        """Relative path of the same-site .html page ``href`` names, or None."""
        href = href.strip()
        if not href or href.startswith(("#", "mailto:", "javascript:")):
            return None
        absu = urljoin(PLACEHOLDER + base_rel, href)
        parts = urlsplit(absu)
        if f"{parts.scheme}://{parts.netloc}/" != PLACEHOLDER:
            return None
        path = unquote(parts.path).lstrip("/")
        path = os.path.normpath(path) if path else ""
        if path.startswith(".."):
            return None
        if path in ("", "."):
            path = "index.html"
        full = self.root / path
        if full.is_dir():
            path = (path.rstrip("/") + "/index.html").lstrip("/")
            full = self.root / path
        if not path.endswith((".html", ".htm")) or not full.is_file():
            return None
        return self.follow(path)

    def follow(self, path: str, hops: int = 0) -> str | None:
        if path in self._redirect:
            return self._redirect[path]
        final = path
        try:
            head = (self.root / path).read_bytes()[:3000].decode("utf-8", "replace")
        except OSError:
            head = ""
        if hops < 5 and re.search(r'http-equiv=["\']?refresh', head, re.I):
            m = re.search(r'<meta[^>]*http-equiv=["\']?refresh[^>]*>', head, re.I)
            t = REFRESH.search(m.group(0)) if m else None
            if t:
                final = self.resolve_raw(path, t.group(1), hops + 1) or path
        self._redirect[path] = final
        return final

    def resolve_raw(self, base_rel, href, hops):
        absu = urljoin(PLACEHOLDER + base_rel, href)
        parts = urlsplit(absu)
        path = os.path.normpath(unquote(parts.path).lstrip("/"))
        if path.startswith("..") or not (self.root / path).is_file():
            return None
        return self.follow(path, hops)

    def walk(self):
        """BFS from the seed; returns occurrence arrays."""
        seed = self.follow(self.site.seed_page)
        seen = {seed}
        todo = deque([seed])
        src, tgt, anc, ttl, raw = [], [], [], [], []
        self.uid(seed)
        while todo:
            rel = todo.popleft()
            try:
                doc = lxml.html.fromstring((self.root / rel).read_bytes())
            except Exception:  # noqa: BLE001
                continue
            sid = self.uid(rel)
            t = doc.find(".//title")
            self.titles[sid] = norm(t.text_content()) if t is not None else ""
            heading = ""
            for el in doc.iter("a", *HEADINGS):
                if el.tag in HEADINGS:
                    heading = heading_text(el)
                    self.long_headings += len(norm(el.text_content())) > HEADING_CAP
                    continue
                href = el.get("href")
                if href is None:
                    continue
                target = self.resolve(rel, href)
                if target is None:
                    continue
                in_li = next(el.iterancestors("li"), None) is not None
                src.append(sid)
                tgt.append(self.uid(target))
                anc.append(self.tid(norm(el.text_content())))
                ttl.append(self.tid(heading if in_li else ""))
                raw.append(self.tid(urljoin(PLACEHOLDER + rel, href.strip()).split("#", 1)[0]))
                if target not in seen:
                    seen.add(target)
                    todo.append(target)
        self.pages = seen
        return (np.array(src), np.array(tgt), np.array(anc), np.array(ttl), np.array(raw))


def auc(score, label):
    pos = label.sum()
    neg = len(label) - pos
    if pos == 0 or neg == 0:
        return None
    r = rankdata(score)  # average ranks: ties count half
    return float((r[label].sum() - pos * (pos + 1) / 2) / (pos * neg))


def vec_matrix(vectors, texts, cache):
    """Unit vectors of ``texts`` as rows (zeros where no known word) and the known mask."""
    dim = None
    rows, known = [], np.zeros(len(texts), dtype=bool)
    for i, text in enumerate(texts):
        v = cache.get(text, _MISS)
        if v is _MISS:
            v = cache[text] = vectors.vector(text)
        rows.append(v)
        if v is not None:
            known[i] = True
            dim = len(v)
    M = np.zeros((len(texts), dim or 1))
    for i, v in enumerate(rows):
        if v is not None:
            M[i] = v
    return M, known


def cos_of(M, known, qv):
    out = np.full(len(known), LOW)
    if qv is not None:
        out[known] = M[known] @ qv
    return out


def lift_of(x):
    kn = x > LOW + 1e-9
    m = float(np.median(x[kn])) if kn.any() else 0.0
    return np.where(kn, np.clip((x - m) / (1 - m), 0, 1), 0.0), m


class Texts:
    """Unique-text interning for one derived text per occurrence."""
    def __init__(self):
        self.ids, self.list = {}, []

    def add(self, text):
        j = self.ids.get(text)
        if j is None:
            j = self.ids[text] = len(self.list)
            self.list.append(text)
        return j


W = 0.1
KEYS = ["a_lex_anchor", "c_cos_anchor_title", "f_cos_anchor_title_url", "g_cos_url",
        "h_cos_anchor_url", "comb_c", "comb_f"]


def main():
    OUT.mkdir(parents=True, exist_ok=True)
    vectors = word_vectors()
    vcache: dict[str, object] = {}
    results = {}
    for name in SITES:
        t0 = time.time()
        site = Site(name)
        src, tgt, anc, ttl, raw = site.walk()
        n = len(src)
        tl = site.text_list
        loc_of = {}
        for r in set(raw.tolist()):
            loc_of[r] = locator_text(tl[r])
        T = {k: Texts() for k in "cfgh"}
        idx = {k: np.empty(n, dtype=np.int64) for k in "cfgh"}
        loc_occ = []
        for k in range(n):
            a, h, u = tl[anc[k]], tl[ttl[k]], loc_of[raw[k]]
            loc_occ.append(u)
            idx["c"][k] = T["c"].add(" ".join(x for x in (a, h) if x))
            idx["f"][k] = T["f"].add(" ".join(x for x in (a, h, u) if x))
            idx["g"][k] = T["g"].add(u)
            idx["h"][k] = T["h"].add(" ".join(x for x in (a, u) if x))
        mats = {k: vec_matrix(vectors, T[k].list, vcache) for k in "cfgh"}
        redirected = sum(1 for k in range(n) if
                         unquote(urlsplit(tl[raw[k]]).path).lstrip("/") != site.urls[tgt[k]])
        print(f"[{name}] pages {len(site.pages)} occurrences {n} unique c/f/g/h texts "
              f"{[len(T[k].list) for k in 'cfgh']} href!=final-path {redirected} "
              f"walk+vec {time.time()-t0:.1f}s", flush=True)
        url_keys_arr = [url_key(PLACEHOLDER + u) for u in site.urls]
        site_res = {"pages": len(site.pages), "occurrences": n, "href_ne_final": redirected,
                    "unknown_g_occ": float((~mats["g"][1][idx["g"]]).mean()), "queries": {}}
        for qname in site.site.truth_names():
            truth = site.site.truth(qname)
            keys = {url_key(u) for u in truth.urls}
            tmask = np.array([k in keys for k in url_keys_arr])
            label = tmask[tgt]
            q = Query(truth.query)
            nq = len(q)
            qv = vectors.vector(truth.query)
            cov_text = np.array([q.hit_mask(t).bit_count() / nq if nq else 0.0 for t in tl])
            S = {"a_lex_anchor": cov_text[anc]}
            for k, key in zip("cfgh", KEYS[1:5], strict=True):
                S[key] = cos_of(*mats[k], qv)[idx[k]]
            lc, mc = lift_of(S["c_cos_anchor_title"])
            lf, mf = lift_of(S["f_cos_anchor_title_url"])
            S["comb_c"] = S["a_lex_anchor"] + W * lc
            S["comb_f"] = S["a_lex_anchor"] + W * lf
            blind = S["a_lex_anchor"] == 0
            qres = {"query": truth.query, "terms": nq, "truth": len(keys),
                    "positives": int(label.sum()), "blind_positives": int(label[blind].sum()),
                    "median_c": mc, "median_f": mf, "auc_all": {}, "auc_blind": {}}
            for k, sc in S.items():
                qres["auc_all"][k] = auc(sc, label)
                qres["auc_blind"][k] = auc(sc[blind], label[blind])
            # examples: percentile of c and f among the site's occurrences
            pc = rankdata(S["c_cos_anchor_title"]) / n
            pf = rankdata(S["f_cos_anchor_title_url"]) / n
            gain, wrong = {}, {}
            for k in range(n):
                d = pf[k] - pc[k]
                if label[k] and d > 0.2 or (not label[k] and pf[k] > 0.97 and d > 0.2):
                    key = (tl[anc[k]], tl[ttl[k]], tl[raw[k]])
                    box = gain if label[k] else wrong
                    if key not in box:
                        box[key] = {"anchor": key[0], "list_title": key[1], "href": key[2],
                                    "target": site.urls[tgt[k]], "locator": loc_occ[k],
                                    "cos_c": float(S["c_cos_anchor_title"][k]),
                                    "cos_f": float(S["f_cos_anchor_title_url"][k]),
                                    "lex_a": float(S["a_lex_anchor"][k]),
                                    "pct_c": float(pc[k]), "pct_f": float(pf[k])}
            qres["truth_gain_examples"] = sorted(gain.values(),
                                                 key=lambda e: e["pct_c"] - e["pct_f"])[:5]
            qres["wrong_high_examples"] = sorted(wrong.values(),
                                                 key=lambda e: -e["pct_f"])[:5]
            site_res["queries"][qname] = qres
        results[name] = site_res
        print(f"[{name}] done {time.time()-t0:.1f}s", flush=True)
        (OUT / "results.json").write_text(json.dumps(results, indent=1))
    summarise(results)


def mean(xs):
    xs = [x for x in xs if x is not None]
    return (sum(xs) / len(xs), len(xs)) if xs else (float("nan"), 0)


def summarise(results):
    short = ["a", "c", "f", "g", "h", "a+c", "a+f"]
    lines = []
    for scope, title in (("auc_all", "ALL LINKS"),
                         ("auc_blind", "BLIND LINKS (anchor coverage 0)")):
        lines.append(f"{title}: mean per-query AUC per site; f vs c by >0.02: wins/losses;"
                     f" a+x = a + {W}*lift(x)")
        lines.append(f"{'site':11} {'nq':>3} | " + " ".join(f"{k:>5}" for k in short)
                     + " | f>c  f<c")
        tot = defaultdict(list)
        tw = tl_ = 0
        for name, sr in results.items():
            qs = list(sr["queries"].values())
            row = f"{name:11} {len(qs):3} | "
            for k in KEYS:
                vals = [q[scope][k] for q in qs]
                tot[k] += vals
                row += f"{mean(vals)[0]:5.3f} "
            pairs = [(q[scope]["f_cos_anchor_title_url"], q[scope]["c_cos_anchor_title"])
                     for q in qs if q[scope]["c_cos_anchor_title"] is not None]
            w = sum(1 for f, c in pairs if f > c + 0.02)
            l_ = sum(1 for f, c in pairs if f < c - 0.02)
            tw += w
            tl_ += l_
            lines.append(row + f"| {w:3}  {l_:3}")
        row = f"{'ALL':11} {sum(len(s['queries']) for s in results.values()):3} | "
        for k in KEYS:
            row += f"{mean(tot[k])[0]:5.3f} "
        lines.append(row + f"| {tw:3}  {tl_:3}")
        lines.append("")
    lines.append("site: occurrences, href path != final page (redirect/dir), share of "
                 "occurrences whose URL has no known word")
    for name, sr in results.items():
        lines.append(f"{name:11} {sr['occurrences']:7} {sr['href_ne_final']:6} "
                     f"{sr['unknown_g_occ']:.2f}")
    text = "\n".join(lines)
    print(text)
    (OUT / "summary.txt").write_text(text + "\n")


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--summary":
        summarise(json.loads((OUT / "results.json").read_text()))
    else:
        if len(sys.argv) > 1:
            SITES[:] = sys.argv[1:]
        main()
