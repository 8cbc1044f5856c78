"""Evaluate the BM25 index on a BEIR-format folder: corpus.jsonl, queries.jsonl, qrels/<split>.tsv.

Metrics follow BEIR (pytrec_eval): nDCG@10 with linear gains and the ideal ranking taken from all judged
documents, Recall@100 over documents judged relevant (score > 0), MRR@10 (reciprocal rank of the first relevant
document in the top 10, else 0). Every query with at least one relevant judgment counts, including queries that
retrieve nothing (they score 0), so a weak analyzer cannot look better by returning empty lists.
"""

from __future__ import annotations

import json
import math
import time
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np

from apps.retrieval.keyword.bm25 import BM25Index


@dataclass
class EvalResult:
    dataset: str
    k1: float
    b: float
    docs: int
    queries: int
    ndcg_at_10: float
    recall_at_100: float
    mrr_at_10: float
    build_seconds: float
    latency_p50_ms: float
    latency_p95_ms: float

    def as_dict(self) -> dict:
        return asdict(self)


def load_beir(folder: Path | str, split: str = "test") -> tuple[dict[str, str], dict[str, str], dict]:
    """(doc id → "title text", query id → text, query id → {doc id: grade}) for the queries of `split`."""
    folder = Path(folder)
    corpus: dict[str, str] = {}
    with open(folder / "corpus.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            # Title then text, as BEIR's BM25 baselines index them; the title is often the best evidence.
            corpus[str(row["_id"])] = f"{row.get('title') or ''} {row.get('text') or ''}".strip()
    qrels: dict[str, dict[str, int]] = {}
    with open(folder / "qrels" / f"{split}.tsv", encoding="utf-8") as fh:
        for n, line in enumerate(fh):
            parts = line.rstrip("\n").split("\t")
            if n == 0 and not parts[-1].lstrip("-").isdigit():
                continue  # header row
            qid, did, grade = parts[0], parts[1], int(parts[2])
            qrels.setdefault(qid, {})[did] = grade
    queries: dict[str, str] = {}
    with open(folder / "queries.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            if str(row["_id"]) in qrels:
                queries[str(row["_id"])] = row["text"]
    qrels = {qid: judged for qid, judged in qrels.items() if qid in queries}
    return corpus, queries, qrels


def ndcg_at(ranked: list[str], judged: dict[str, int], k: int = 10) -> float:
    dcg = sum(judged.get(did, 0) / math.log2(rank + 2) for rank, did in enumerate(ranked[:k]))
    ideal = sorted((g for g in judged.values() if g > 0), reverse=True)[:k]
    idcg = sum(g / math.log2(rank + 2) for rank, g in enumerate(ideal))
    return dcg / idcg if idcg else 0.0


def recall_at(ranked: list[str], judged: dict[str, int], k: int = 100) -> float:
    relevant = {did for did, g in judged.items() if g > 0}
    return len(relevant.intersection(ranked[:k])) / len(relevant) if relevant else 0.0


def mrr_at(ranked: list[str], judged: dict[str, int], k: int = 10) -> float:
    for rank, did in enumerate(ranked[:k]):
        if judged.get(did, 0) > 0:
            return 1.0 / (rank + 1)
    return 0.0


def evaluate(
    folder: Path | str,
    k1: float = 1.2,
    b: float = 0.75,
    split: str = "test",
    max_queries: int | None = None,
    loaded: tuple[dict[str, str], dict[str, str], dict] | None = None,
) -> EvalResult:
    """Index the corpus, run every judged query (or the first `max_queries`), and measure quality and speed.

    Latency is one `search(query, top_k=100)` call each, analysis included, single-threaded."""
    corpus, queries, qrels = loaded or load_beir(folder, split)
    started = time.perf_counter()
    index = BM25Index(k1=k1, b=b)
    index.add_many(corpus.items())
    index.search_terms([], 1)  # builds the length-norm cache, so the first query is not charged for it
    build = time.perf_counter() - started
    qids = [qid for qid in queries if qid in qrels][:max_queries]
    ndcg = recall = mrr = 0.0
    latencies = []
    for qid in qids:
        t0 = time.perf_counter()
        ranked = [did for did, _ in index.search(queries[qid], top_k=100)]
        latencies.append(time.perf_counter() - t0)
        ndcg += ndcg_at(ranked, qrels[qid])
        recall += recall_at(ranked, qrels[qid])
        mrr += mrr_at(ranked, qrels[qid])
    n = max(len(qids), 1)
    p50, p95 = (np.percentile(latencies, [50, 95]) * 1000.0) if latencies else (0.0, 0.0)
    return EvalResult(
        dataset=Path(folder).name if Path(folder).name != "retrieval" else Path(folder).parent.name,
        k1=k1,
        b=b,
        docs=len(index),
        queries=len(qids),
        ndcg_at_10=ndcg / n,
        recall_at_100=recall / n,
        mrr_at_10=mrr / n,
        build_seconds=build,
        latency_p50_ms=float(p50),
        latency_p95_ms=float(p95),
    )
