from django.apps import AppConfig


class RetrievalConfig(AppConfig):
    name = "apps.retrieval"
    label = "retrieval"
    verbose_name = "Retrieval"

    def ready(self) -> None:
        # Search follows the documents' changes and embeds their passages at ingest, through the seams documents
        # offers (apps/documents/signals.py, extensions.py), so documents does not depend on search.
        from apps.retrieval import receivers

        receivers.connect()
