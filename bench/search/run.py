"""Search latency at the size of a large collection: ~20,000 and ~100,000 chunks, quick and deep, service and API.

Run (needs PostgreSQL with pgvector and Redis; use a database of its own, the bench drops and rebuilds the HNSW
index of that database's chunk table):

    DATABASE_URL=postgresql://postgres@127.0.0.1:5432/portal_bench REDIS_URL=redis://127.0.0.1:6379/3 \\
    SECRET_KEY=... ALLOWED_HOSTS=127.0.0.1 PORTAL_HTTPS=false python bench/search/run.py [--sizes 20000 100000]

How the collections are made: the SciFact corpus (5,183 abstracts, ../shared/corpus/beir-scifact) goes through the
real chunking and embedding model once (`evaluation.load_collection`; vectors cached under var/cache), then its
chunks are copied until the collection holds N chunks, 20 chunks to a document (a realistic document size; it
matters for the deep stage's related documents). Each copy's vector gets a small random perturbation (σ = 0.01 per
dimension, then renormalised), so the HNSW graph is not full of identical points. Documents get authors, a journal
and a year from small pools, as a real library has.

What is timed: `search()` with the result cache off and the query-vector memo cleared before every query (so each
query pays for its embedding), and `GET /api/v1/search` against a real gunicorn on loopback (one worker, two
threads; the cache is on there, with a key prefix of this run's own, and every query is distinct: quick and deep
use disjoint halves of the query set), then each of those API queries once more (cache hits). Three warm-up
queries first.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import time
import urllib.parse
import urllib.request
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "portal.settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection, transaction  # noqa: E402
from rest_framework.authtoken.models import Token  # noqa: E402

from apps.documents.models import Chunk, Collection, Document, DocumentStatus  # noqa: E402
from apps.evaluation.ranking import load_beir  # noqa: E402
from apps.evaluation.retrieval import load_collection  # noqa: E402
from apps.retrieval.keyword import store  # noqa: E402
from apps.retrieval.search import service  # noqa: E402
from apps.retrieval.search.types import SearchParams  # noqa: E402
from apps.retrieval.services.changes import record_changes  # noqa: E402

SCIFACT = (ROOT / ".." / "shared" / "corpus" / "beir-scifact").resolve()
CHUNKS_PER_DOCUMENT = 20
SURNAMES = ["Smith", "Chen", "Garcia", "Müller", "Okafor", "Tanaka", "Silva", "Novak", "Haddad", "Kowalski"]
JOURNALS = ["Nature", "Cell", "PLoS One", "Science", "eLife", "BMJ", "Lancet", "JAMA"]


def say(message: str) -> None:
    print(message, file=sys.stderr, flush=True)


def seed_collection(embedder) -> Collection:
    seed = Collection.objects.filter(slug="bench-seed").first()
    if seed is None:
        seed, _ = load_collection(SCIFACT, embedder, say)
        Collection.objects.filter(pk=seed.pk).update(slug="bench-seed", name="bench seed (SciFact)")
        seed.refresh_from_db()
    return seed


def build(size: int, seed: Collection, model_id: str) -> Collection:
    slug = f"bench-{size // 1000}k"
    existing = Collection.objects.filter(slug=slug).first()
    if existing is not None and Chunk.objects.filter(document__collection=existing).count() == size:
        return existing
    if existing is not None:
        existing.delete()
    started = time.perf_counter()
    rows = list(
        Chunk.objects.filter(document__collection=seed, weight__gt=0)
        .order_by("id")
        .values_list("text", "section", "embedding")
    )
    rng = np.random.default_rng(size)
    pick = random.Random(size)
    collection = Collection.objects.create(slug=slug, name=f"bench {size} chunks")
    with connection.cursor() as cursor:  # one index build after the load is far faster than 100k inserts into it
        cursor.execute("DROP INDEX IF EXISTS chunk_embedding_hnsw_384")
    documents = []
    for d in range(size // CHUNKS_PER_DOCUMENT):
        authors = [f"{pick.choice('ABCDEFGHJKLMN')}. {pick.choice(SURNAMES)}" for _ in range(pick.randint(1, 4))]
        documents.append(
            Document(
                collection=collection,
                title=f"{rows[(d * CHUNKS_PER_DOCUMENT) % len(rows)][0][:80]} (bench {d})",
                authors=authors,
                year=pick.randint(1990, 2025),
                journal=pick.choice(JOURNALS),
                original_name=f"bench-{d}.txt",
                file=f"bench/{slug}/{d}.txt",
                doc_type="txt",
                sha256=hashlib.sha256(f"{slug}:{d}".encode()).hexdigest(),
                status=DocumentStatus.READY,
                chunk_count=CHUNKS_PER_DOCUMENT,
                embedding_model=model_id,
            )
        )
    Document.objects.bulk_create(documents, batch_size=2000)
    chunks = []
    for n in range(size):
        text, section, vector = rows[n % len(rows)]
        noisy = np.asarray(vector, dtype=np.float32) + rng.normal(0, 0.01, len(vector)).astype(np.float32)
        noisy /= np.linalg.norm(noisy)
        document = documents[n // CHUNKS_PER_DOCUMENT]
        chunks.append(
            Chunk(
                document=document,
                chunk_index=n % CHUNKS_PER_DOCUMENT,
                text=text,
                section=section,
                embedding=noisy,
                locator_precision="paragraph",
                para_start=n % CHUNKS_PER_DOCUMENT,
                para_end=n % CHUNKS_PER_DOCUMENT,
            )
        )
        if len(chunks) == 5000:
            Chunk.objects.bulk_create(chunks)
            chunks = []
            say(f"{slug}: {n + 1} chunks")
    Chunk.objects.bulk_create(chunks)
    with connection.cursor() as cursor:
        cursor.execute(
            "UPDATE documents_document d SET centroid = s.v FROM (SELECT document_id, avg(embedding) AS v "
            "FROM documents_chunk c JOIN documents_document dd ON dd.id = c.document_id "
            "WHERE dd.collection_id = %s GROUP BY document_id) s WHERE s.document_id = d.id",
            [collection.pk],
        )
        say("building the HNSW index")
        cursor.execute("SET maintenance_work_mem = '1GB'")
        cursor.execute(
            "CREATE INDEX chunk_embedding_hnsw_384 ON documents_chunk USING hnsw ((embedding::vector(384)) "
            "vector_cosine_ops) WHERE embedding IS NOT NULL AND vector_dims(embedding) = 384"
        )
        cursor.execute("ANALYZE documents_chunk")
        cursor.execute("ANALYZE documents_document")
    with transaction.atomic():
        record_changes(collection_id=collection.pk, changes=[(d.pk, []) for d in documents])
    store.refresh_snapshot(collection.pk, force=True)
    collection.refresh_from_db()
    say(f"{slug}: built in {time.perf_counter() - started:.0f} s")
    return collection


def percentiles(values: list[float]) -> dict:
    p50, p95 = np.percentile(values, [50, 95])
    return {"p50_ms": round(float(p50), 1), "p95_ms": round(float(p95), 1), "n": len(values)}


def time_service(user, collection: Collection, queries: list[str], depth: str) -> dict:
    for query in queries[:3]:
        service.search(user, SearchParams(query=query, collections=(collection.slug,), depth=depth, use_cache=False))
    latencies, stages = [], {}
    for query in queries:
        service.query_vector.cache_clear()
        started = time.perf_counter()
        response = service.search(
            user, SearchParams(query=query, collections=(collection.slug,), depth=depth, use_cache=False)
        )
        latencies.append((time.perf_counter() - started) * 1000.0)
        for stage, ms in response.diagnostics["timings_ms"].items():
            stages.setdefault(stage, []).append(ms)
    out = percentiles(latencies)
    out["stage_median_ms"] = {stage: round(statistics.median(v), 1) for stage, v in stages.items()}
    out["vector_search"] = response.diagnostics["vector_search"]
    return out


def hnsw_recall(collection: Collection, queries: list[str], embedder) -> list[dict]:
    """HNSW against exact search on the same collection: recall@10 and time of the vector stage per ef_search."""
    from django.conf import settings

    from apps.retrieval.search.scope import scoped_chunks
    from apps.retrieval.search.types import Filters
    from apps.retrieval.search.vector import vector_candidates

    vectors = [embedder.embed_query(q) for q in queries]
    chunks = scoped_chunks([collection.pk], Filters())
    exact, exact_ms = [], []
    for vector in vectors:
        started = time.perf_counter()
        exact.append({c for c, _ in vector_candidates(chunks, vector, embedder.model_id, 10, True)[0]})
        exact_ms.append((time.perf_counter() - started) * 1000.0)
    rows = [{"ef_search": "exact", "recall@10": 1.0, **percentiles(exact_ms)}]
    saved = settings.PORTAL_HNSW_EF_SEARCH
    try:
        for ef in (40, 100, 200, 400):
            settings.PORTAL_HNSW_EF_SEARCH = ef
            found, ms = 0, []
            for vector, truth in zip(vectors, exact, strict=True):
                started = time.perf_counter()
                got = {c for c, _ in vector_candidates(chunks, vector, embedder.model_id, 10, False)[0]}
                ms.append((time.perf_counter() - started) * 1000.0)
                found += len(got & truth)
            rows.append({"ef_search": ef, "recall@10": round(found / (10 * len(vectors)), 3), **percentiles(ms)})
    finally:
        settings.PORTAL_HNSW_EF_SEARCH = saved
    return rows


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def time_api(token: str, collection: Collection, queries: list[str], depth: str, port: int) -> dict:
    def get(query: str) -> None:
        url = f"http://127.0.0.1:{port}/api/v1/search?" + urllib.parse.urlencode(
            {"q": query, "collection": collection.slug, "depth": depth}
        )
        request = urllib.request.Request(url, headers={"Authorization": f"Token {token}"})
        with urllib.request.urlopen(request, timeout=60) as response:
            assert response.status == 200
            json.loads(response.read())

    for query in queries[:3]:
        get(query + " warm")
    rounds = []
    for _ in ("search", "repeat"):
        latencies = []
        for query in queries:
            started = time.perf_counter()
            get(query)
            latencies.append((time.perf_counter() - started) * 1000.0)
        rounds.append(percentiles(latencies))
    return {**rounds[0], "repeat_cached": rounds[1]}


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--sizes", type=int, nargs="+", default=[20000, 100000])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()

    embedder, problem = service.query_embedder()
    if embedder is None:
        sys.exit(problem)
    _, queries, _ = load_beir(SCIFACT)
    texts = list(queries.values())[: args.queries]
    user, _ = get_user_model().objects.get_or_create(username="bench", defaults={"is_superuser": True})
    token, _ = Token.objects.get_or_create(user=user)
    seed = seed_collection(embedder)
    collections = [build(size, seed, embedder.model_id) for size in args.sizes]

    port = free_port()
    server = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "portal.wsgi", "-b", f"127.0.0.1:{port}", "-w", "1", "--threads", "2"],
        cwd=ROOT,
        # A cache prefix of this run's own: an earlier run's cached answers must not be timed as searches.
        env=dict(os.environ, PORTAL_CACHE_PREFIX=f"bench-{os.getpid()}-{time.time_ns()}"),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        for _ in range(100):
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/accounts/login/", timeout=1)
                break
            except OSError:
                time.sleep(0.3)
        results = []
        for collection in collections:
            chunks = Chunk.objects.filter(document__collection=collection).count()
            for depth in ("quick", "deep"):
                row = {"collection": collection.slug, "chunks": chunks, "depth": depth}
                row["service"] = time_service(user, collection, texts, depth)
                half = texts[0::2] if depth == "quick" else texts[1::2]
                row["api"] = time_api(token.key, collection, half, depth, port)
                results.append(row)
                say(json.dumps(row))
    finally:
        server.terminate()
        server.wait(timeout=30)
    recall = {c.slug: hnsw_recall(c, texts[:50], embedder) for c in collections}
    say(json.dumps(recall))
    output = {"latency": results, "hnsw_recall": recall}
    if args.json:
        args.json.write_text(json.dumps(output, indent=2))
    print(json.dumps(output, indent=2))


if __name__ == "__main__":
    main()
