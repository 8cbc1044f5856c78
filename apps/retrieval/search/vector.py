"""Vector stage: pgvector cosine distance, exact for a small scope, HNSW (partial index per dimension) above.

Why both: an exact scan is always right but costs about 5 µs per chunk here (42 ms for 7,700 chunks, measured),
while HNSW answers in about 6 ms whatever the size. HNSW filters by collection only while walking the graph: with
pgvector 0.8's iterative scan it keeps walking until enough rows pass the filter, up to `hnsw.max_scan_tuples`
(20,000) visited, so a scope that is a tiny share of the table could come back short. Hence exact up to
PORTAL_VECTOR_EXACT_LIMIT chunks, or when the scope is under 0.5% of the table (100 results / 20,000 tuples).
"""

from __future__ import annotations

import numpy as np
from django.conf import settings
from django.db import connection, transaction
from django.db.models import F, Func, IntegerField, QuerySet
from django.db.models.functions import Cast
from pgvector.django import CosineDistance, VectorField

from apps.documents.models import Chunk

# Dimensions that have an HNSW index (migration documents/0003): the default model's 384.
INDEXED_DIMENSIONS = frozenset({384})
MIN_SHARE_FOR_HNSW = 0.005


def exact_is_better(chunks_in_scope: int) -> bool:
    """Whether to scan exactly rather than walk the HNSW graph, for a scope of this many chunks."""
    if chunks_in_scope <= settings.PORTAL_VECTOR_EXACT_LIMIT:
        return True
    with connection.cursor() as cursor:  # the planner's row estimate: free, and close enough for a ratio
        cursor.execute("SELECT reltuples FROM pg_class WHERE oid = 'documents_chunk'::regclass")
        row = cursor.fetchone()
    table = row[0] if row else -1
    return table > 0 and chunks_in_scope / table < MIN_SHARE_FOR_HNSW


def vector_candidates(
    chunks: QuerySet[Chunk], query_vector: np.ndarray, model_id: str, limit: int, exact: bool
) -> tuple[list[tuple[int, float]], str]:
    """The `limit` nearest chunks of `chunks` as (chunk id, cosine distance), nearest first, and the method used.

    Only chunks embedded by `model_id` are compared: vectors of two models live in different spaces.
    """
    dim = int(query_vector.shape[0])
    candidates = (
        chunks.filter(document__embedding_model=model_id, embedding__isnull=False)
        .annotate(dims=Func(F("embedding"), function="vector_dims", output_field=IntegerField()))
        .filter(dims=dim)
    )
    vector = query_vector.astype(np.float32)
    if exact or dim not in INDEXED_DIMENSIONS:
        # No cast: the expression does not match the index, so PostgreSQL computes every distance.
        rows = candidates.annotate(distance=CosineDistance("embedding", vector)).order_by("distance", "id")
        return list(rows.values_list("id", "distance")[:limit]), "exact"
    with transaction.atomic(), connection.cursor() as cursor:
        # Per transaction only. Iterative scan keeps walking the graph until `limit` rows pass the filters; the
        # join to documents must then keep the index's order (a nested loop), or PostgreSQL sorts after a hash
        # join and the scan has to run to max_scan_tuples: measured 169 ms against 14 ms at 20,000 chunks.
        cursor.execute(
            "SELECT set_config('hnsw.ef_search', %s, true), set_config('hnsw.iterative_scan', 'relaxed_order', true),"
            " set_config('enable_sort', 'off', true), set_config('enable_hashjoin', 'off', true),"
            " set_config('enable_mergejoin', 'off', true)",
            [str(max(settings.PORTAL_HNSW_EF_SEARCH, limit))],
        )
        distance = CosineDistance(Cast("embedding", VectorField(dimensions=dim)), vector)
        rows = list(candidates.annotate(distance=distance).order_by("distance").values_list("id", "distance")[:limit])
    rows.sort(key=lambda row: (row[1], row[0]))  # relaxed order may hand rows back slightly out of order
    return rows, "hnsw"
