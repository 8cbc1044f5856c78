from __future__ import annotations

from django.core.files.storage import default_storage
from django.db import transaction

from apps.documents.models import Collection, Document
from apps.documents.rendering.store import delete_pages
from apps.documents.signals import collection_deleted, document_deleted


def document_delete(*, document: Document) -> None:
    """Delete the row (chunks and jobs cascade) and, once that has committed, the stored file and pages."""
    storage, name = document.file.storage, document.file.name
    collection_id = document.collection_id
    with transaction.atomic():
        chunk_ids = list(document.chunks.values_list("id", flat=True))
        document_id = document.pk
        document.delete()
        transaction.on_commit(lambda: storage.delete(name), robust=True)
        transaction.on_commit(lambda: delete_pages(document_id, storage=storage), robust=True)  # viewer pages
        # Search's change log; citations recompute the reference links (those that pointed here are SET NULL).
        document_deleted.send(
            Document, collection_id=collection_id, document_id=document_id, removed_chunk_ids=chunk_ids
        )


def collection_delete(*, collection: Collection) -> None:
    """Delete a collection with its documents, chunks and search indexes, then its stored files."""
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
    collection_deleted.send(Collection, collection_id=collection_id)  # search forgets its keyword index
