"""Hybrid search: scope → keyword (BM25) and vector (pgvector) → reciprocal-rank fusion × section weight →
optional rerank (deep) → snippets and locators. Every step that cannot run is skipped and said so in diagnostics.

`search()` is what every surface calls; `rank()` is the retrieval core without hydration, also used by
`manage.py evaluate` so that the benchmark measures the same code the users get.
"""

from __future__ import annotations

import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import lru_cache

import numpy as np
from django.conf import settings
from django.db import DatabaseError

from apps.documents.access import AnyUser
from apps.documents.models import Chunk, Collection
from apps.retrieval.keyword import analyzer, store
from apps.retrieval.search.cache import cache_get, cache_key, cache_set
from apps.retrieval.search.extras import add_deep_extras
from apps.retrieval.search.fusion import reciprocal_rank_fusion
from apps.retrieval.search.hits import make_hit
from apps.retrieval.search.match import is_weak, key_term_coverage
from apps.retrieval.search.scope import chunks_in_scope, resolve_scope, scoped_chunks
from apps.retrieval.search.types import DEPTH_PRESETS, Filters, SearchHit, SearchParams, SearchResponse
from apps.retrieval.search.vector import exact_is_better, vector_candidates
from portal.laps import Laps

log = logging.getLogger(__name__)

CANDIDATES = 100  # per retriever, for evaluation: what fusion (and Recall@100) sees
# Per retriever, for people: fusing the top 30 of each list gives the same nDCG@10 on SciFact as the top 100
# (0.695 against 0.694, measured), and the filtered HNSW walk stops three times sooner.
INTERACTIVE_CANDIDATES = 30
RERANK_POOL = 20
QUICK_HINT = "Quick search. A deep search reranks the results and adds the works they cite and related documents."


@dataclass
class Ranked:
    chunk_id: int
    score: float
    source: str  # fusion | keyword | vector | rerank
    stage_scores: dict[str, float] = field(default_factory=dict)


@dataclass
class Retrieval:
    """What `rank` found and how: candidates best first, plus what the diagnostics report."""

    ranked: list[Ranked]
    mode_used: str
    stages: list[str]
    timings: dict[str, float]
    candidates: dict[str, int]
    degraded: list[str]
    chunks_in_scope: int
    vector_search: str | None
    idf: dict[str, float]  # query term → idf (keyword stage), for snippets


# ---- the embedder, optional --------------------------------------------------------------------------------
def query_embedder():
    """(embedder, None) or (None, reason): a model that cannot be loaded makes search keyword-only, not broken."""
    try:
        from apps.retrieval.embedding.encoder import get_embedder

        return get_embedder(settings.PORTAL_EMBEDDING_MODEL), None
    except Exception as exc:  # a missing folder, a corrupt file, no torch: all mean "no vectors"
        log.warning("embedding model unavailable for search", exc_info=True)
        return None, f"vectors unavailable ({type(exc).__name__}: {exc}); keyword results only"


def warm_up() -> None:
    """Load the embedding model in a background thread (a web process calls this as it starts)."""

    def load() -> None:
        embedder, _ = query_embedder()
        if embedder is not None:
            embedder.embed_query("warm up")

    threading.Thread(target=load, name="search-warm-up", daemon=True).start()


@lru_cache(maxsize=512)
def query_vector(embedder, query: str) -> np.ndarray:
    # Keyed on the embedder too, so a model change never reuses another space's vector. The cached array is handed
    # to every thread that asks the same query: read-only, so no caller can change it under the others.
    vector = embedder.embed_query(query)
    vector.setflags(write=False)
    return vector


# ---- retrieval core ------------------------------------------------------------------------------------------
_EMBEDDING_THREADS = ThreadPoolExecutor(max_workers=2, thread_name_prefix="query-embedding")


def keyword_ranking(
    collections: list[Collection], query: str, pool: int, allowed: set[int] | None
) -> tuple[list[tuple[int, float]], dict[str, float]]:
    """BM25 over each collection's index, merged by score; and the idf of each query term (for snippets)."""
    found: list[tuple[int, float]] = []
    idf: dict[str, float] = {}
    terms = analyzer.query_terms(query)
    for collection in collections:
        entry = store.current_index(collection.id, collection.index_version)
        with entry.lock:
            found.extend(entry.index.search_terms(terms, pool, allowed))
            for term in terms:
                idf[term] = max(idf.get(term, 0.0), entry.index.idf(term))
    # Scores of two collections' indexes are on similar scales (same formula, own statistics): merged by score.
    found.sort(key=lambda item: -item[1])
    return found[:pool], idf


def rank(
    collections: list[Collection], query: str, mode: str, filters: Filters, embedder=None, pool: int = CANDIDATES
) -> Retrieval:
    """Candidates from the chosen retrievers, fused; `embedder` None with a vector mode degrades to keyword."""
    clock = Laps(scale=1000.0, digits=2)
    ids = [c.id for c in collections]
    degraded: list[str] = []
    stages: list[str] = []
    rankings: dict[str, list[int]] = {}
    stage_scores: dict[str, dict[int, float]] = {}
    counts: dict[str, int] = {}
    idf: dict[str, float] = {}
    use_keyword = mode in ("keyword", "hybrid")
    use_vector = mode in ("vector", "hybrid")
    if use_vector and embedder is None:
        _, reason = query_embedder()
        degraded.append(reason or "vectors unavailable; keyword results only")
        use_vector, use_keyword = False, True
    # The query embedding (the slowest step of a quick search) runs while the scope and keyword stages do.
    embedding = _EMBEDDING_THREADS.submit(query_vector, embedder, query) if use_vector else None
    allowed = set(scoped_chunks(ids, filters).values_list("id", flat=True)) if filters.active() else None
    in_scope = chunks_in_scope(ids, filters)
    clock.lap("scope")

    def keyword_stage() -> None:
        found, idf_found = keyword_ranking(collections, query, pool, allowed)
        idf.update(idf_found)
        rankings["keyword"] = [chunk_id for chunk_id, _ in found]
        stage_scores["keyword"] = dict(found)
        counts["keyword"] = len(found)
        stages.insert(0, "keyword")
        clock.lap("keyword")

    if use_keyword:
        keyword_stage()

    vector_search = None
    if embedding is not None:
        try:
            vector = embedding.result()
            clock.lap("embed_query")  # what was left of it once the stages above were done
            nearest, vector_search = vector_candidates(
                scoped_chunks(ids, filters), vector, embedder.model_id, pool, exact_is_better(in_scope)
            )
            rankings["vector"] = [chunk_id for chunk_id, _ in nearest]
            stage_scores["vector"] = {chunk_id: 1.0 - float(distance) for chunk_id, distance in nearest}
            counts["vector"] = len(nearest)
            stages.append("vector")
        except DatabaseError as exc:
            log.warning("vector search failed", exc_info=True)
            degraded.append(f"vector search failed ({type(exc).__name__}); keyword results only")
        except Exception as exc:  # the model failed on this query: the same fallback
            log.warning("query embedding failed", exc_info=True)
            degraded.append(f"query embedding failed ({type(exc).__name__}); keyword results only")
        clock.lap("vector")
        if "vector" not in rankings and "keyword" not in rankings:
            keyword_stage()

    # One query for the weights of every candidate; it is also the last scope check (a chunk deleted since an
    # index was loaded, or outside the filters, drops out here).
    union = {chunk_id for ranking in rankings.values() for chunk_id in ranking}
    weights = dict(scoped_chunks(ids, filters).filter(id__in=union).values_list("id", "weight")) if union else {}
    for name in rankings:
        rankings[name] = [chunk_id for chunk_id in rankings[name] if chunk_id in weights]
    if len(rankings) == 2:
        fused = reciprocal_rank_fusion(rankings, weights)
        source = "fusion"
        stages.append("fusion")
    else:
        # One retriever: its own order. The section weight belongs to fusion; times a raw score it would swamp
        # the ranking (e5's cosines sit in a narrow band around 0.8; measured on SciFact, keyword 0.684 → 0.619
        # and vector 0.649 → 0.600 nDCG@10 when single lists were fused with weights).
        source = next(iter(rankings), "keyword")
        fused = [(chunk_id, stage_scores[source][chunk_id]) for chunk_id in rankings.get(source, [])]
    ranked = [
        Ranked(chunk_id, score, source, {n: round(s[chunk_id], 6) for n, s in stage_scores.items() if chunk_id in s})
        for chunk_id, score in fused[:pool]
    ]
    counts["fused"] = len(fused)
    clock.lap("fusion")
    return Retrieval(
        ranked=ranked,
        mode_used="hybrid" if source == "fusion" else source,
        stages=stages,
        timings=clock.laps,
        candidates=counts,
        degraded=degraded,
        chunks_in_scope=in_scope,
        vector_search=vector_search,
        idf=idf,
    )


# ---- rerank ----------------------------------------------------------------------------------------------------
def _rerank(query: str, ranked: list[Ranked], texts: dict[int, str], reranker, diagnostics: dict) -> list[Ranked]:
    from apps.retrieval.rerank import RerankUnavailable

    info = diagnostics["reranker"]
    if not reranker.configured:
        diagnostics["degraded"].append("no reranker configured: results in fused order")
        return ranked
    ok, reason = reranker.available()
    info["available"] = ok
    if not ok:
        info["reason"] = reason
        diagnostics["degraded"].append(f"reranker unavailable ({reason}): results in fused order")
        return ranked
    pool = ranked[:RERANK_POOL]
    try:
        scores = reranker.scores(query, [texts[r.chunk_id] for r in pool])
    except RerankUnavailable as exc:
        info["available"], info["reason"] = False, str(exc)
        diagnostics["degraded"].append(f"reranker failed ({exc}): results in fused order")
        return ranked
    info["used"] = True
    for item, score in zip(pool, scores, strict=True):
        item.stage_scores["rerank"] = round(float(score), 6)
        item.stage_scores.setdefault(item.source, round(item.score, 6))
        item.score, item.source = float(score), "rerank"
    pool.sort(key=lambda r: -r.score)  # stable: equal rerank scores keep the fused order
    return pool + ranked[RERANK_POOL:]


# ---- the entry point ---------------------------------------------------------------------------------------------
def search(user: AnyUser, params: SearchParams) -> SearchResponse:
    """Search what `user` may read. Raises InvalidSearch (bad parameters) or CollectionNotFound."""
    started = time.perf_counter()
    p = params.resolved()
    preset = DEPTH_PRESETS[p.depth]
    collections = resolve_scope(user, p.collections)
    from apps.retrieval.rerank import NoReranker, get_reranker

    reranker = get_reranker() if p.rerank else NoReranker()
    embedder, _ = query_embedder() if p.mode != "keyword" else (None, None)
    public_params = {
        "collections": [c.slug for c in collections],
        "filters": p.filters.as_dict(),
        "mode": p.mode,
        "depth": p.depth,
        "top_k": p.top_k,
        "snippet": p.snippet_chars,
        "rerank": p.rerank,
        "offset": p.offset,
    }
    key = cache_key(
        scope=[(c.id, c.index_version) for c in collections],
        params={"query": p.query, **public_params},
        reranker=reranker.name,
        embedding_model=embedder.model_id if embedder else "",
    )
    if p.use_cache and (payload := cache_get(key)) is not None:
        response = _from_payload(payload)
        response.cached = True
        response.diagnostics["timings_ms"] = {"cache": round((time.perf_counter() - started) * 1000.0, 2)}
        return response

    top_k = preset.top_k if p.top_k is None else p.top_k  # resolved() filled it in
    end = p.offset + top_k
    # The pool does not grow with the offset: every page is a slice of the same ranking, so "more results" neither
    # repeats nor skips a passage (fusing longer lists would reorder the deeper candidates).
    pool = max(INTERACTIVE_CANDIDATES, top_k, RERANK_POOL if p.rerank else 0)
    retrieval = rank(collections, p.query, p.mode, p.filters, embedder, pool=pool)
    diagnostics = {
        "mode": p.mode,
        "mode_used": retrieval.mode_used,
        "depth": p.depth,
        "stages": list(retrieval.stages),
        "reranker": {"name": reranker.name, "available": False, "used": False, "reason": ""},
        "timings_ms": dict(retrieval.timings),
        "candidates": dict(retrieval.candidates),
        "degraded": list(retrieval.degraded),
        "collections": [c.slug for c in collections],
        "chunks_in_scope": retrieval.chunks_in_scope,
        "vector_search": retrieval.vector_search,
    }
    if not p.rerank:
        diagnostics["reranker"]["reason"] = "not requested (quick search)" if p.depth == "quick" else "not requested"
    clock = Laps(scale=1000.0, digits=2)
    ranked = retrieval.ranked
    wanted = ranked[: max(end, RERANK_POOL if p.rerank else 0)]
    chunks = {
        c.pk: c
        for c in Chunk.objects.filter(pk__in=[r.chunk_id for r in wanted])
        .select_related("document__collection")
        .defer("embedding")
    }
    wanted = [r for r in wanted if r.chunk_id in chunks]
    clock.lap("hydrate")
    if p.rerank:
        wanted = _rerank(p.query, wanted, {k: c.text for k, c in chunks.items()}, reranker, diagnostics)
        if diagnostics["reranker"]["used"]:
            diagnostics["stages"].append("rerank")
            diagnostics["candidates"]["reranked"] = min(len(wanted), RERANK_POOL)
        clock.lap("rerank")
    hits = [make_hit(chunks[r.chunk_id], r, p.query, retrieval.idf, p.snippet_chars) for r in wanted[p.offset : end]]
    # Weighed on the first page whatever page this is, so that every page of one search says the same.
    coverage = key_term_coverage(p.query, retrieval.idf, [chunks[r.chunk_id].text for r in wanted[:top_k]])
    diagnostics["stages"].append("snippet")
    clock.lap("snippet")
    if preset.chain or preset.related:
        add_deep_extras(hits, {c.document_id: c.document for c in chunks.values()})
        diagnostics["stages"] += ["chain", "related"]
        clock.lap("chain_related")
    diagnostics["candidates"]["returned"] = len(hits)
    diagnostics["timings_ms"].update(clock.laps)
    diagnostics["timings_ms"]["total"] = round((time.perf_counter() - started) * 1000.0, 2)
    response = SearchResponse(
        query=p.query,
        params=public_params,
        hits=hits,
        diagnostics=diagnostics,
        hint=QUICK_HINT if p.depth == "quick" else "",
        key_term_coverage=coverage,
        weak_match=is_weak(coverage),
        offset=p.offset,
        next_offset=end if len(ranked) > end else None,
    )
    if p.use_cache and _cacheable(diagnostics):
        cache_set(key, response.as_dict())
    return response


def _cacheable(diagnostics: dict) -> bool:
    # A fault that may clear (model, database, reranker endpoint) is not kept; "no reranker configured" is the
    # steady state of an install, so results without one are.
    return all(note.startswith("no reranker configured") for note in diagnostics["degraded"])


def _from_payload(payload: dict) -> SearchResponse:
    return SearchResponse(
        query=payload["query"],
        params=payload["params"],
        hits=[SearchHit(**hit) for hit in payload["results"]],
        diagnostics=payload["diagnostics"],
        hint=payload["hint"],
        key_term_coverage=payload.get("key_term_coverage"),
        weak_match=payload.get("weak_match", False),
        offset=payload.get("offset", 0),
        next_offset=payload.get("next_offset"),
    )
