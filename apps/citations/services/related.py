"""Related documents: shared authors, the same journal, close content. Kept apart from citation links, which
say what a paper cites; these only say what resembles it."""

from __future__ import annotations

from functools import lru_cache

from django.db import connection

from apps.citations.services.linking import normalise, surname
from apps.documents.models import Document, DocumentStatus

# Centroid of each document's chunk vectors (kept on the document at ingest), centred on the collection's mean
# before the cosine: raw e5 vectors of unrelated texts still score 0.9+, centring removes what all share. Several
# documents at once (a deep search's hits) share one pass: the centred vectors are computed once.
_CLOSEST_SQL = """
WITH centroids AS (
    SELECT d.id AS document_id, d.centroid AS v
    FROM documents_document d
    WHERE d.collection_id = %(collection)s AND d.status = 'ready' AND d.embedding_model = %(model)s
      AND d.centroid IS NOT NULL
), mean AS (SELECT avg(v) AS m FROM centroids),
centred AS MATERIALIZED (SELECT document_id, v - mean.m AS c FROM centroids CROSS JOIN mean)
SELECT this.document_id, other.document_id, 1 - other.distance AS similarity
FROM centred this CROSS JOIN LATERAL (
    SELECT o.document_id, this.c <=> o.c AS distance FROM centred o
    WHERE o.document_id <> this.document_id ORDER BY this.c <=> o.c LIMIT %(limit)s
) other
WHERE this.document_id = ANY(%(documents)s)
"""
# Below this centred cosine, "similar content" would be noise.
MIN_SIMILARITY = 0.35


def _similarities(documents: list[Document], limit: int) -> dict[int, dict[int, float]]:
    """document id → {other document id: centred cosine} for the closest `limit` others above MIN_SIMILARITY."""
    out: dict[int, dict[int, float]] = {d.pk: {} for d in documents}
    groups: dict[tuple[int, str], list[int]] = {}
    for d in documents:
        if d.embedding_model:
            groups.setdefault((d.collection_id, d.embedding_model), []).append(d.pk)
    for (collection_id, model), ids in groups.items():
        with connection.cursor() as cursor:
            cursor.execute(
                _CLOSEST_SQL, {"collection": collection_id, "model": model, "documents": ids, "limit": limit}
            )
            for this, other, sim in cursor.fetchall():
                if sim is not None and sim >= MIN_SIMILARITY:
                    out[this][other] = float(sim)
    return out


@lru_cache(maxsize=100_000)
def _surname(author: str) -> str:
    # Libraries repeat their authors and journals a lot: normalising each spelling once keeps a pass over a
    # collection of thousands of documents to a few tens of milliseconds.
    return surname(author)


@lru_cache(maxsize=20_000)
def _journal(name: str) -> str:
    return normalise(name)


def related_documents(document: Document, limit: int = 5) -> list[dict]:
    """Up to `limit` documents of the same collection, each with the reasons it is related."""
    return related_documents_many([document], limit)[document.pk]


def related_documents_many(documents: list[Document], limit: int = 5) -> dict[int, list[dict]]:
    """`related_documents` for several documents, with one pass over each collection involved."""
    similarity = _similarities(documents, limit * 3)
    targets = [(d, {_surname(a) for a in d.authors} - {""}, _journal(d.journal)) for d in documents]
    found: dict[int, list[dict]] = {d.pk: [] for d in documents}
    for collection_id in {d.collection_id for d in documents}:
        mine = [t for t in targets if t[0].collection_id == collection_id]
        candidates = Document.objects.filter(collection_id=collection_id, status=DocumentStatus.READY)
        for pk, title, original_name, other_authors, other_journal in candidates.values_list(
            "pk", "title", "original_name", "authors", "journal"
        ):
            other_surnames = None
            for document, authors, journal in mine:
                if pk == document.pk:
                    continue
                if authors and other_surnames is None:
                    other_surnames = {_surname(a) for a in other_authors} - {""}
                shared = sorted(authors & other_surnames) if authors else []
                same_journal = bool(journal) and _journal(other_journal) == journal
                close = similarity[document.pk].get(pk)
                if shared or same_journal or close is not None:
                    item = _item(pk, title or original_name, other_journal, shared, same_journal, close)
                    found[document.pk].append(item)
    for items in found.values():
        items.sort(key=lambda item: item["score"], reverse=True)
        del items[limit:]
    return found


def _item(pk: int, title: str, journal: str, shared: list[str], same_journal: bool, close: float | None) -> dict:
    reasons = []
    if shared:
        reasons.append(f"shared author{'s' if len(shared) > 1 else ''}: {', '.join(shared)}")
    if same_journal:
        reasons.append(f"same journal: {journal}")
    if close is not None:
        reasons.append(f"similar content ({close:.2f})")
    return {
        "document_id": pk,
        "title": title,
        "score": round((close or 0.0) + 0.1 * len(shared) + 0.05 * same_journal, 4),
        "similarity": close,
        "shared_authors": shared,
        "same_journal": same_journal,
        "reasons": reasons,
    }
