"""Reads shared by the pages and the API."""

from __future__ import annotations

from django.db.models import Count, Q, QuerySet

from apps.documents.access import AnyUser, readable_collections
from apps.documents.models import Collection, DocumentStatus


def collections_with_counts(user: AnyUser) -> QuerySet[Collection]:
    """The collections `user` may read, each with `document_count` and `ready_count`."""
    return readable_collections(user).annotate(
        document_count=Count("documents", distinct=True),
        ready_count=Count("documents", filter=Q(documents__status=DocumentStatus.READY), distinct=True),
    )
