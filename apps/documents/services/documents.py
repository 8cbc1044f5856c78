from __future__ import annotations

from django.core.files.storage import default_storage
from django.db import transaction

from apps.citations.services.linking import relink_enqueue
from apps.documents.models import Collection, Document
from apps.documents.rendering.store import delete_pages
from apps.retrieval.services.changes import record_change


def document_delete(*, document: Document) -> None:
    """Delete the row (chunks and jobs cascade) and, once that has committed, the stored file and pages."""
    storage, name = document.file.storage, document.file.name
    collection_id = document.collection_id
    with transaction.atomic():
        chunk_ids = list(document.chunks.values_list("id", flat=True))
        document_id = document.pk
        document.delete()
        record_change(collection_id=collection_id, document_id=document_id, removed_chunk_ids=chunk_ids)
        transaction.on_commit(lambda: storage.delete(name), robust=True)
        transaction.on_commit(lambda: delete_pages(document_id, storage=storage), robust=True)  # viewer pages
        # References elsewhere that pointed at it are unlinked at once (SET NULL); recompute the rest.
        relink_enqueue(collection_id)


def collection_delete(*, collection: Collection) -> None:
    """Delete a collection with its documents, chunks and search indexes, then its stored files."""
    from apps.retrieval.keyword import store

    files = [(d.file.storage, d.file.name) for d in collection.documents.only("file")]
    document_ids = list(collection.documents.values_list("pk", flat=True))
    collection_id = collection.pk
    with transaction.atomic():
        # Locked before Django collects what to delete with it, so a worker saving the collection's keyword
        # snapshot either finished first (and the snapshot is collected) or waits and then finds it gone.
        Collection.objects.select_for_update().filter(pk=collection_id).values_list("pk", flat=True).first()
        collection.delete()

        def delete_files() -> None:
            for storage, name in files:
                storage.delete(name)
            for document_id in document_ids:
                delete_pages(document_id, storage=default_storage)

        transaction.on_commit(delete_files, robust=True)  # the rows are gone; a stray file only logs
    store.forget(collection_id)
