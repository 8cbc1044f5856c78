"""Re-ingest the documents whose vectors came from another embedding model than the configured one (a command of
retrieval, which owns the embedding models: documents does not depend on retrieval)."""

from __future__ import annotations

from django.conf import settings
from django.core.management.base import BaseCommand

from apps.documents.models import Document, DocumentStatus
from apps.documents.services.ingest import ingest_enqueue
from apps.retrieval.embedding.encoder import get_embedder


class Command(BaseCommand):
    help = "Queue every ready document embedded by a different model than PORTAL_EMBEDDING_MODEL."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--collection", help="only this collection (slug)")

    def handle(self, *args, collection: str | None, **options) -> None:
        current = get_embedder(settings.PORTAL_EMBEDDING_MODEL).model_id
        stale = Document.objects.filter(status=DocumentStatus.READY).exclude(embedding_model=current)
        if collection:
            stale = stale.filter(collection__slug=collection)
        count = 0
        for document in stale:
            ingest_enqueue(document)
            count += 1
        self.stdout.write(f"Queued {count} document(s) for re-embedding with {current}.")
