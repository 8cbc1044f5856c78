"""The permission filter of search: which collections, documents and chunks a search may look at.

Everything search returns starts from `readable_collections(user)`; no stage takes a collection id from the
request without passing through here.
"""

from __future__ import annotations

from django.db.models import Q, QuerySet, Sum

from apps.documents.access import AnyUser, readable_collections
from apps.documents.models import Chunk, Collection, Document
from apps.retrieval.search.types import CollectionNotFound, Filters


def resolve_scope(user: AnyUser, slugs: tuple[str, ...]) -> list[Collection]:
    """The readable collections named by `slugs` (all readable ones when empty), ordered by id.

    An unknown slug and a slug the user may not read raise the same CollectionNotFound."""
    readable = readable_collections(user).order_by("id")
    if not slugs:
        return list(readable)
    # A name with a NUL cannot be a stored slug, and PostgreSQL refuses it in a query: not found, like any other.
    found = list(readable.filter(slug__in={slug for slug in slugs if "\x00" not in slug}))
    if len(found) != len(set(slugs)):
        missing = sorted(set(slugs) - {c.slug for c in found})
        raise CollectionNotFound(f"No such collection: {', '.join(missing)}.")
    return found


def document_filter(filters: Filters, prefix: str = "") -> Q:
    """The document-level filters as a Q on Document (or on a relation to it, through `prefix`)."""
    q = Q()
    if filters.authors:
        q &= Q(**{f"{prefix}authors__icontains": filters.authors})
    if filters.title:
        q &= Q(**{f"{prefix}title__icontains": filters.title})
    if filters.journal:
        q &= Q(**{f"{prefix}journal__icontains": filters.journal})
    if filters.kind:
        q &= Q(**{f"{prefix}doc_type__iexact": filters.kind})
    if filters.year_from is not None:
        q &= Q(**{f"{prefix}year__gte": filters.year_from})
    if filters.year_to is not None:
        q &= Q(**{f"{prefix}year__lte": filters.year_to})
    if filters.document is not None:
        q &= Q(**{f"{prefix}pk": filters.document})
    return q


def scoped_chunks(collection_ids: list[int], filters: Filters) -> QuerySet[Chunk]:
    """Chunks that may be returned: in scope, matching the filters, never weight 0 (reference lists)."""
    q = Q(document__collection_id__in=collection_ids, weight__gt=0) & document_filter(filters, "document__")
    if filters.section:
        q &= Q(section__icontains=filters.section) | Q(section_key__icontains=filters.section)
    return Chunk.objects.filter(q)


def chunks_in_scope(collection_ids: list[int], filters: Filters) -> int:
    """How many chunks the search covers (document-level filters only): decides exact versus HNSW vector search."""
    documents = Document.objects.filter(Q(collection_id__in=collection_ids) & document_filter(filters))
    return documents.aggregate(n=Sum("chunk_count"))["n"] or 0
