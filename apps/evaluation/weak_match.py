"""The weak-match threshold, measured (docs/benchmarks.md, "Weak matches").

Real queries are the judged queries of BEIR SciFact (English) and the CMRC 2018 retrieval set (Chinese), each run
against its own corpus; weak ones are nonsense strings and out-of-domain queries (each set's queries against the
other corpus). Every query runs through `search.service.rank` in keyword mode (the ranking the signal reads its
idf from) and the signal is `match.key_term_coverage` over the top `top_k` passages, as a quick search returns.
Queries are split by a hash of their id into a calibration half, where the threshold is chosen (best F1 of
"weak"), and a held-out half, where its precision and recall are reported.
"""

from __future__ import annotations

import hashlib
import itertools
import random
import string
from collections.abc import Callable
from pathlib import Path

from apps.documents.models import Chunk, Collection
from apps.documents.services.documents import collection_delete
from apps.evaluation.ranking import load_beir
from apps.evaluation.retrieval import load_collection
from apps.retrieval.search import service
from apps.retrieval.search.match import key_term_coverage
from apps.retrieval.search.types import Filters


def nonsense_queries(count: int, seed: int = 18) -> list[str]:
    """Made-up words (one to three, 5-11 letters each), a few with a Chinese-looking run of rare characters."""
    rng = random.Random(seed)
    out = []
    for n in range(count):
        if n % 5 == 4:
            out.append("".join(chr(rng.randint(0x4E00, 0x9FA5)) for _ in range(rng.randint(3, 6))))
        else:
            count_words = rng.randint(1, 3)
            words = ["".join(rng.choices(string.ascii_lowercase, k=rng.randint(5, 11))) for _ in range(count_words)]
            out.append(" ".join(words))
    return out


def held_out(key: str) -> bool:
    return hashlib.sha256(key.encode()).digest()[0] % 2 == 1


def coverage_of(collection: Collection, query: str, top_k: int) -> tuple[float | None, float]:
    retrieval = service.rank([collection], query, "keyword", Filters(), None, pool=service.INTERACTIVE_CANDIDATES)
    ids = [item.chunk_id for item in retrieval.ranked[:top_k]]
    texts = dict(Chunk.objects.filter(pk__in=ids).values_list("pk", "text"))
    top_score = retrieval.ranked[0].score if retrieval.ranked else 0.0
    return key_term_coverage(query, retrieval.idf, [texts[i] for i in ids if i in texts]), top_score


def measure(english: Path, chinese: Path, *, per_set: int, top_k: int, progress: Callable[[str], None]) -> list[dict]:
    """One row per query: set, split, whether it should be flagged weak, the coverage and the top BM25 score."""
    _, en_queries, en_qrels = load_beir(english)
    _, zh_queries, zh_qrels = load_beir(chinese)
    en = [text for qid, text in en_queries.items() if qid in en_qrels][:per_set]
    zh = [text for qid, text in zh_queries.items() if qid in zh_qrels][:per_set]
    rows: list[dict] = []
    collections = []
    try:
        for folder in (english, chinese):
            collection, _ = load_collection(folder, None, progress)
            collections.append(collection)
        en_collection, zh_collection = collections
        plan = [
            ("scifact", en_collection, en, False),
            ("cmrc", zh_collection, zh, False),
            ("nonsense-vs-scifact", en_collection, nonsense_queries(per_set // 2, seed=1), True),
            ("nonsense-vs-cmrc", zh_collection, nonsense_queries(per_set // 2, seed=2), True),
            ("cmrc-vs-scifact", en_collection, zh[: per_set // 2], True),
            ("scifact-vs-cmrc", zh_collection, en[: per_set // 2], True),
        ]
        for name, collection, queries, weak in plan:
            for query in queries:
                coverage, top_score = coverage_of(collection, query, top_k)
                rows.append(
                    {
                        "set": name,
                        "query": query,
                        "weak": weak,
                        "held_out": held_out(f"{name}:{query}"),
                        "coverage": coverage,
                        "top_score": top_score,
                    }
                )
            progress(f"{name}: {len(queries)} queries")
    finally:
        for collection in collections:
            collection_delete(collection=collection)
    return rows


def scores(rows: list[dict], signal: str, threshold: float) -> dict:
    """Precision and recall of "weak" (signal below threshold) against the rows' truth."""
    flagged = [row for row in rows if row[signal] is not None and row[signal] < threshold]
    true_weak = sum(row["weak"] for row in rows)
    hits = sum(row["weak"] for row in flagged)
    precision = hits / len(flagged) if flagged else 1.0
    recall = hits / true_weak if true_weak else 1.0
    f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
    return {
        "threshold": threshold,
        "precision": round(precision, 4),
        "recall": round(recall, 4),
        "f1": round(f1, 4),
        "flagged": len(flagged),
        "weak": true_weak,
        "queries": len(rows),
    }


def choose(rows: list[dict], signal: str) -> dict:
    """The threshold with the best F1 on `rows` (candidates: midpoints between observed values)."""
    values = sorted({row[signal] for row in rows if row[signal] is not None})
    candidates = [(a + b) / 2 for a, b in itertools.pairwise(values)] or values
    return max((scores(rows, signal, round(t, 4)) for t in candidates), key=lambda s: (s["f1"], -s["threshold"]))
