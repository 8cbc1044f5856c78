"""Record that a document of a collection changed, for keyword indexes and search caches to follow."""

from __future__ import annotations

from collections.abc import Iterable

from django.db import transaction

from apps.documents.models import Collection
from apps.retrieval.models import IndexChange


def record_change(*, collection_id: int, document_id: int, removed_chunk_ids: Iterable[int]) -> IndexChange:
    """Log that one document changed; call inside the transaction that changes its chunks."""
    return record_changes(collection_id=collection_id, changes=[(document_id, removed_chunk_ids)])[-1]


def record_changes(*, collection_id: int, changes: list[tuple[int, Iterable[int]]]) -> list[IndexChange]:
    """Log (document id, its chunk ids before the change) pairs and move the collection's `index_version`.

    The collection row is locked (FOR NO KEY UPDATE: uploads that only reference the row are not blocked) before
    the change ids are drawn, so the changes of one collection commit in the order of their ids.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("record_changes must run inside the transaction that changes the chunks")
    if not changes:
        return []
    Collection.objects.select_for_update(no_key=True).filter(pk=collection_id).values_list("pk").first()
    rows = IndexChange.objects.bulk_create(
        IndexChange(collection_id=collection_id, document_id=document_id, removed_chunk_ids=sorted(removed))
        for document_id, removed in changes
    )
    Collection.objects.filter(pk=collection_id).update(index_version=max(row.pk for row in rows))
    # robust: a snapshot is an optimisation (searches replay the change log); a broker that is away only logs.
    transaction.on_commit(lambda: _snapshot_later(collection_id), robust=True)
    return rows


def _snapshot_later(collection_id: int) -> None:
    from apps.retrieval.tasks import refresh_keyword_snapshot

    refresh_keyword_snapshot.delay(collection_id)
