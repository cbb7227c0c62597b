"""The static word-vector table as the package would ship it (``NOTES.md``): the distilled
vectors (``distill_words.py``) with the SIF weights folded in and the vocabulary's common
component removed, reduced to ``--dims`` dimensions by PCA and stored as int8 with one scale
per word.

    python3 benchmarks/semantic_proto/build_table.py [--work /tmp/semantic_proto] [--dims 128]

Writes ``WORK/table.npz``: ``words`` (the vocabulary, UTF-8, newline-separated, as uint8),
``codes`` (int8, words × dims) and ``scales`` (float32, one per word); a text's vector is
Σ codes[w] × scales[w] over its words, normalised (``TableVectors`` in ``fused_crawls.py``).
The folding is exact: the SIF weight and the removal of the common component are linear, so
they commute with the sum over a text's words.
"""

from __future__ import annotations

import argparse
import json
import logging
from pathlib import Path

import numpy as np

logger = logging.getLogger("build_table")
SIF_A = 1e-3  # as fused_crawls.StaticVectors
COMMON_FROM = 20_000  # the most frequent words the common component is taken from


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--work", type=Path, default=Path("/tmp/semantic_proto"))
    parser.add_argument("--dims", type=int, default=128)
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(message)s")
    words = json.loads((args.work / "words.json").read_text(encoding="utf-8"))
    vectors = np.load(args.work / "words.npy").astype(np.float64)
    frequency = np.load(args.work / "freq.npy")
    weighted = (vectors * np.sqrt(frequency)[:, None])[:COMMON_FROM]
    common = np.linalg.svd(weighted, full_matrices=False)[2][0]
    vectors = vectors - np.outer(vectors @ common, common)
    # PCA of the words' vectors, centred: the text vectors are compared by cosine after the
    # sum, and a constant offset per word would add (number of words) × mean to every text
    mean = vectors.mean(0)
    basis = np.linalg.svd(vectors - mean, full_matrices=False)[2][: args.dims]
    reduced = (vectors - mean) @ basis.T
    reduced *= (SIF_A / (SIF_A + frequency))[:, None]
    scales = np.abs(reduced).max(1) / 127.0
    scales[scales == 0] = 1.0
    codes = np.round(reduced / scales[:, None]).astype(np.int8)
    blob = np.frombuffer("\n".join(words).encode("utf-8"), dtype=np.uint8)
    out = args.work / "table.npz"
    np.savez_compressed(out, words=blob, codes=codes, scales=scales.astype(np.float32))
    logger.info("%s: %d words × %d dims, %.1f MB", out, len(words), args.dims,
                out.stat().st_size / 1e6)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
