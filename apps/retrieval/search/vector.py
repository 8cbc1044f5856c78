"""Vector stage: pgvector cosine distance, exact for a small scope, HNSW (partial index per dimension) above.

Why both: HNSW filters by collection only after walking the graph, so a small collection inside a large table gets
few or no neighbours back (pgvector 0.8's iterative scan helps, but is still approximate); an exact scan of a
few thousand vectors costs a few milliseconds and is always right. Above PORTAL_VECTOR_EXACT_LIMIT chunks the index
pays off.
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
        # Per transaction only. Iterative scan keeps walking the graph until `limit` rows pass the filters.
        cursor.execute(
            "SELECT set_config('hnsw.ef_search', %s, true), set_config('hnsw.iterative_scan', 'relaxed_order', true)",
            [str(max(settings.PORTAL_HNSW_EF_SEARCH, limit))],
        )
        distance = CosineDistance(Cast("embedding", VectorField(dimensions=dim)), vector)
        rows = list(candidates.annotate(distance=distance).order_by("distance").values_list("id", "distance")[:limit])
    rows.sort(key=lambda row: (row[1], row[0]))  # relaxed order may hand rows back slightly out of order
    return rows, "hnsw"
