"""Retrieval quality of the real search pipeline on a BEIR-format folder (corpus.jsonl, queries.jsonl, qrels/).

The corpus goes into a throwaway collection through the same parse, chunking and embedding model as an upload
(`apps.documents.services.bulk`), and every query runs through `search.service.rank`, the core that page, API
and CLI use, so the numbers describe what users get. A document's rank is the rank of its best chunk.
Latency is per query: analysis, query embedding, both retrievers, the scope check and fusion (no result cache).
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import numpy as np
from django.conf import settings

from apps.documents.models import Chunk, Collection
from apps.documents.services.bulk import TextItem, add_texts
from apps.documents.services.documents import collection_delete
from apps.evaluation.ranking import load_beir, mrr_at, ndcg_at, recall_at
from apps.retrieval.search import service
from apps.retrieval.search.types import MODES, Filters


@dataclass
class ModeResult:
    mode: str
    queries: int
    ndcg_at_10: float
    recall_at_100: float
    mrr_at_10: float
    p50_ms: float
    p95_ms: float
    degraded: list[str]

    def as_dict(self) -> dict:
        return {
            "ndcg@10": round(self.ndcg_at_10, 4),
            "recall@100": round(self.recall_at_100, 4),
            "mrr@10": round(self.mrr_at_10, 4),
            "p50_ms": round(self.p50_ms, 2),
            "p95_ms": round(self.p95_ms, 2),
            "queries": self.queries,
            "degraded": self.degraded,
        }


def _titles(folder: Path) -> dict[str, tuple[str, str]]:
    out = {}
    with open(folder / "corpus.jsonl", encoding="utf-8") as fh:
        for line in fh:
            row = json.loads(line)
            out[str(row["_id"])] = (row.get("title") or "", row.get("text") or "")
    return out


def load_collection(folder: Path, embedder, progress: Callable[[str], None]) -> tuple[Collection, dict[int, str]]:
    """A new collection holding the corpus; returns it and document id → BEIR doc id."""
    docs = _titles(folder)
    slug = f"eval-{uuid.uuid4().hex[:10]}"
    collection = Collection.objects.create(name=f"Evaluation of {folder.name} (throwaway)", slug=slug)
    # Each document as Markdown with its title as the heading: the chunker keeps a heading with the text under it,
    # as BEIR's baselines index title + text, and packs an abstract into one or two chunks. (As plain text, the
    # title would be a paragraph of its own and could become a chunk of its own.) File names are positional:
    # BEIR ids may hold characters a file name cannot.
    items = [
        TextItem(f"doc-{n}.md", title, f"# {title}\n\n{text}" if title else text)
        for n, (title, text) in enumerate(docs.values())
    ]
    cache_dir = Path(settings.PORTAL_MODELS_DIR).parent / "cache" / "beir-vectors"
    saved = add_texts(collection, items, embedder, vector_cache=cache_dir, progress=progress)
    collection.refresh_from_db()
    return collection, {document.pk: beir_id for document, beir_id in zip(saved, docs, strict=True)}


def evaluate_modes(
    collection: Collection,
    beir_ids: dict[int, str],
    queries: dict[str, str],
    qrels: dict[str, dict[str, int]],
    modes: list[str],
    embedder,
    progress: Callable[[str], None] = lambda message: None,
) -> dict[str, ModeResult]:
    document_of = dict(
        Chunk.objects.filter(document__collection=collection).values_list("id", "document_id").iterator()
    )
    results = {}
    for mode in modes:
        service.query_vector.cache_clear()  # every mode pays for its own query embeddings
        ndcg = recall = mrr = 0.0
        latencies, degraded = [], set()
        for n, (qid, text) in enumerate(queries.items(), start=1):
            started = time.perf_counter()
            retrieval = service.rank([collection], text, mode, Filters(), embedder if mode != "keyword" else None)
            latencies.append(time.perf_counter() - started)
            degraded.update(retrieval.degraded)
            ranked: list[str] = []
            for item in retrieval.ranked:
                beir_id = beir_ids[document_of[item.chunk_id]]
                if beir_id not in ranked:
                    ranked.append(beir_id)
            ndcg += ndcg_at(ranked, qrels[qid])
            recall += recall_at(ranked, qrels[qid])
            mrr += mrr_at(ranked, qrels[qid])
            if n % 500 == 0:
                progress(f"{mode}: {n}/{len(queries)} queries")
        count = max(len(queries), 1)
        p50, p95 = np.percentile(latencies, [50, 95]) * 1000.0 if latencies else (0.0, 0.0)
        results[mode] = ModeResult(
            mode, len(queries), ndcg / count, recall / count, mrr / count, float(p50), float(p95), sorted(degraded)
        )
        progress(f"{mode}: nDCG@10 {ndcg / count:.3f}")
    return results


def evaluate_beir(
    folder: Path | str,
    modes: list[str] | None = None,
    split: str = "test",
    max_queries: int | None = None,
    keep: bool = False,
    progress: Callable[[str], None] = lambda message: None,
) -> dict[str, ModeResult]:
    folder = Path(folder)
    modes = modes or list(MODES)
    _, queries, qrels = load_beir(folder, split)
    if max_queries:
        queries = dict(list(queries.items())[:max_queries])
    embedder = None
    if any(mode != "keyword" for mode in modes):
        embedder, reason = service.query_embedder()
        if embedder is None:
            progress(reason)
    collection, beir_ids = load_collection(folder, embedder, progress)
    try:
        return evaluate_modes(collection, beir_ids, queries, qrels, modes, embedder, progress)
    finally:
        if not keep:
            collection_delete(collection=collection)
