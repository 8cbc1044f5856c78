"""Keyword (BM25) retrieval: quality on BEIR-format sets and speed at the size of a large portal.

Run: python bench/keyword/run.py [--k1 1.2 1.5] [--scale 100000] [--json out.json]

1. Quality: nDCG@10, Recall@100, MRR@10 and query latency p50/p95 on SciFact (test, title + text) and on the
   CMRC 2018 retrieval set, for each k1 (b = 0.75).
2. Scale (--scale N, 0 to skip): the SciFact abstracts copied under new ids until there are N documents (so
   posting lists are N/5183 times longer, as for a corpus that size), then build time, serialised size and
   save/load time, query latency with and without an `allowed_ids` filter of 10% of the documents, and the cost
   of adding and removing one document in the full index.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from apps.evaluation.ranking import evaluate, load_beir
from apps.retrieval.keyword.bm25 import BM25Index

ROOT = Path(__file__).resolve().parents[2]

CORPUS = (ROOT / ".." / "shared" / "corpus").resolve()
DATASETS = {"scifact": CORPUS / "beir-scifact", "cmrc2018": CORPUS / "zh-cmrc2018" / "retrieval"}


def percentiles(seconds: list[float]) -> tuple[float, float]:
    p50, p95 = np.percentile(seconds, [50, 95]) * 1000.0
    return float(p50), float(p95)


def quality(k1s: list[float]) -> list[dict]:
    rows = []
    for name, folder in DATASETS.items():
        loaded = load_beir(folder)
        for k1 in k1s:
            row = evaluate(folder, k1=k1, loaded=loaded).as_dict()
            row["dataset"] = name
            rows.append(row)
            print(
                f"{name:9s} k1={k1:<4} nDCG@10 {row['ndcg_at_10']:.3f}  R@100 {row['recall_at_100']:.3f}  "
                f"MRR@10 {row['mrr_at_10']:.3f}  build {row['build_seconds']:.2f}s  "
                f"p50 {row['latency_p50_ms']:.2f} ms  p95 {row['latency_p95_ms']:.2f} ms  "
                f"({row['docs']} docs, {row['queries']} queries)",
                flush=True,
            )
    return rows


def scale(n_docs: int) -> dict:
    corpus, queries, _ = load_beir(DATASETS["scifact"])
    texts = list(corpus.values())
    docs = [(f"c{i}", texts[i % len(texts)]) for i in range(n_docs)]
    index = BM25Index()
    t0 = time.perf_counter()
    index.add_many(docs)
    build = time.perf_counter() - t0
    t0 = time.perf_counter()
    blob = index.to_bytes()
    save = time.perf_counter() - t0
    t0 = time.perf_counter()
    index = BM25Index.from_bytes(blob)
    load = time.perf_counter() - t0
    index.search("warm up", 10)
    qs = list(queries.values())
    allowed = {f"c{i}" for i in range(0, n_docs, 10)}
    plain, filtered = [], []
    for q in qs:
        t0 = time.perf_counter()
        index.search(q, top_k=10)
        plain.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        index.search(q, top_k=10, allowed_ids=allowed)
        filtered.append(time.perf_counter() - t0)
    add, remove, after = [], [], []
    for i in range(50):
        t0 = time.perf_counter()
        index.add(f"new{i}", texts[i])
        add.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        index.search(qs[i], top_k=10)  # reads the pending postings too
        after.append(time.perf_counter() - t0)
    for i in range(50):
        t0 = time.perf_counter()
        index.remove(f"c{i}")
        remove.append(time.perf_counter() - t0)
    row = {
        "docs": n_docs,
        "postings": len(index._docs),
        "terms": len(index._vocab),
        "build_seconds": build,
        "bytes": len(blob),
        "save_seconds": save,
        "load_seconds": load,
        "query_p50_p95_ms": percentiles(plain),
        "query_allowed10pct_p50_p95_ms": percentiles(filtered),
        "add_one_p50_p95_ms": percentiles(add),
        "query_after_adds_p50_p95_ms": percentiles(after),
        "remove_one_p50_p95_ms": percentiles(remove),
    }
    print(json.dumps(row, indent=1), flush=True)
    return row


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--k1", type=float, nargs="+", default=[1.2, 1.5])
    parser.add_argument("--scale", type=int, default=100_000, help="documents for the speed run; 0 skips it")
    parser.add_argument("--json", type=Path, help="also write the results here")
    args = parser.parse_args()
    results = {"quality": quality(args.k1)}
    if args.scale:
        results["scale"] = scale(args.scale)
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
