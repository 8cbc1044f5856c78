from __future__ import annotations

from django.db import transaction

from apps.documents.models import Document


def document_delete(*, document: Document) -> None:
    """Delete the row (chunks and jobs cascade) and, once that has committed, the stored file."""
    storage, name = document.file.storage, document.file.name
    with transaction.atomic():
        document.delete()
        transaction.on_commit(lambda: storage.delete(name))
