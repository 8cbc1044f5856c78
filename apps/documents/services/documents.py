from __future__ import annotations

from django.db import transaction

from apps.citations.services.linking import relink_enqueue
from apps.documents.models import Document


def document_delete(*, document: Document) -> None:
    """Delete the row (chunks and jobs cascade) and, once that has committed, the stored file."""
    storage, name = document.file.storage, document.file.name
    collection_id = document.collection_id
    with transaction.atomic():
        document.delete()
        transaction.on_commit(lambda: storage.delete(name))
        # References elsewhere that pointed at it are unlinked at once (SET NULL); recompute the rest.
        relink_enqueue(collection_id)
