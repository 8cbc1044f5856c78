"""Search follows the documents' changes (apps/documents/signals.py): every change of a collection's passages is
logged, so keyword indexes and cached results catch up (services/changes.py); connected in RetrievalConfig.ready()."""

from __future__ import annotations

from django.conf import settings

from apps.documents import signals
from apps.documents.extensions import register_ingest_embedder
from apps.retrieval.embedding import encoder
from apps.retrieval.keyword import store
from apps.retrieval.services.changes import record_change, record_changes


def _indexed(sender, *, document, removed_chunk_ids, **kwargs) -> None:
    record_change(collection_id=document.collection_id, document_id=document.pk, removed_chunk_ids=removed_chunk_ids)


def _added(sender, *, collection_id, document_ids, **kwargs) -> None:
    record_changes(collection_id=collection_id, changes=[(document_id, []) for document_id in document_ids])


def _deleted(sender, *, collection_id, document_id, removed_chunk_ids, **kwargs) -> None:
    record_change(collection_id=collection_id, document_id=document_id, removed_chunk_ids=removed_chunk_ids)


def _collection_deleted(sender, *, collection_id, **kwargs) -> None:
    store.forget(collection_id)


def ingest_embedder() -> encoder.Embedder:
    # Looked up at each call (not bound at registration), so the configured model and a test's stand-in both hold.
    return encoder.get_embedder(settings.PORTAL_EMBEDDING_MODEL)


def connect() -> None:
    signals.document_indexed.connect(_indexed, dispatch_uid="retrieval.indexed")
    signals.documents_added.connect(_added, dispatch_uid="retrieval.added")
    signals.document_deleted.connect(_deleted, dispatch_uid="retrieval.deleted")
    signals.collection_deleted.connect(_collection_deleted, dispatch_uid="retrieval.collection_deleted")
    register_ingest_embedder(ingest_embedder)
