"""Related documents: shared authors, the same journal, close content. Kept apart from citation links, which
say what a paper cites; these only say what resembles it."""

from __future__ import annotations

from django.db import connection

from apps.citations.services.linking import normalise, surname
from apps.documents.models import Document, DocumentStatus

# Centroid of each document's chunk vectors (kept on the document at ingest), centred on the collection's mean
# before the cosine: raw e5 vectors of unrelated texts still score 0.9+, centring removes what all share.
_CLOSEST_SQL = """
WITH centroids AS (
    SELECT d.id AS document_id, d.centroid AS v
    FROM documents_document d
    WHERE d.collection_id = %(collection)s AND d.status = 'ready' AND d.embedding_model = %(model)s
      AND d.centroid IS NOT NULL
), mean AS (SELECT avg(v) AS m FROM centroids)
SELECT other.document_id, 1 - ((this.v - mean.m) <=> (other.v - mean.m)) AS similarity
FROM centroids this JOIN centroids other ON other.document_id <> this.document_id CROSS JOIN mean
WHERE this.document_id = %(document)s
ORDER BY (this.v - mean.m) <=> (other.v - mean.m)
LIMIT %(limit)s
"""
# Below this centred cosine, "similar content" would be noise.
MIN_SIMILARITY = 0.35


def _similarities(document: Document, limit: int) -> dict[int, float]:
    if not document.embedding_model:
        return {}
    with connection.cursor() as cursor:
        cursor.execute(
            _CLOSEST_SQL,
            {
                "collection": document.collection_id,
                "model": document.embedding_model,
                "document": document.pk,
                "limit": limit,
            },
        )
        rows = cursor.fetchall()
    return {doc_id: float(sim) for doc_id, sim in rows if sim is not None and sim >= MIN_SIMILARITY}


def related_documents(document: Document, limit: int = 5) -> list[dict]:
    """Up to `limit` documents of the same collection, each with the reasons it is related."""
    similarity = _similarities(document, limit * 3)
    authors = {surname(a) for a in document.authors} - {""}
    journal = normalise(document.journal)
    candidates = Document.objects.filter(collection_id=document.collection_id, status=DocumentStatus.READY).exclude(
        pk=document.pk
    )
    items = []
    for other in candidates.only("pk", "title", "original_name", "authors", "journal"):
        shared = sorted(authors & {surname(a) for a in other.authors} - {""})
        same_journal = bool(journal) and normalise(other.journal) == journal
        close = similarity.get(other.pk)
        if not shared and not same_journal and close is None:
            continue
        reasons = []
        if shared:
            reasons.append(f"shared author{'s' if len(shared) > 1 else ''}: {', '.join(shared)}")
        if same_journal:
            reasons.append(f"same journal: {other.journal}")
        if close is not None:
            reasons.append(f"similar content ({close:.2f})")
        score = (close or 0.0) + 0.1 * len(shared) + 0.05 * same_journal
        items.append(
            {
                "document_id": other.pk,
                "title": other.display_title,
                "score": round(score, 4),
                "similarity": close,
                "shared_authors": shared,
                "same_journal": same_journal,
                "reasons": reasons,
            }
        )
    items.sort(key=lambda item: item["score"], reverse=True)
    return items[:limit]
