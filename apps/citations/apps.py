from django.apps import AppConfig


class CitationsConfig(AppConfig):
    name = "apps.citations"
    label = "citations"
    verbose_name = "Answers, conversations and citations"

    def ready(self) -> None:
        # Deep search shows what each hit cites and what relates to its document: citations adds that to search
        # through the seam search offers, so search does not depend on citations.
        from apps.citations import receivers
        from apps.citations.services.hit_extras import cited_and_related
        from apps.retrieval.search.extras import register_hit_extras

        register_hit_extras(cited_and_related)
        # The references read and stored with each document, and its links recomputed on every change: plugged
        # into documents' ingest and deletion, so documents does not depend on citations.
        receivers.connect()
