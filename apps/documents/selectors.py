"""Reads shared by the pages and the API."""

from __future__ import annotations

from collections.abc import Iterable

from django.db.models import Count, F, IntegerField, OuterRef, Q, QuerySet, Subquery, Value
from django.db.models.functions import Coalesce, Lower, NullIf

from apps.documents.access import AnyUser, readable_collections
from apps.documents.models import Collection, Document, DocumentStatus, IngestJob, JobStage


def collections_with_counts(user: AnyUser) -> QuerySet[Collection]:
    """The collections `user` may read, each with `document_count` and `ready_count`."""
    return readable_collections(user).annotate(
        document_count=Count("documents", distinct=True),
        ready_count=Count("documents", filter=Q(documents__status=DocumentStatus.READY), distinct=True),
    )


# ---- a collection's document list: sort, filter ---------------------------------------------------------------
# The title a person sees (display_title: the title, else the file name), compared without case.
_SHOWN_TITLE = Lower(Coalesce(NullIf(F("title"), Value("")), F("original_name")))
# A sort name, as the page and the API take it -> the ordering; "-" reverses. Ties go newest first.
DOCUMENT_SORTS: dict[str, list] = {
    "title": [_SHOWN_TITLE.asc(), "-id"],
    "-title": [_SHOWN_TITLE.desc(), "-id"],
    "year": [F("year").asc(nulls_last=True), "-id"],
    "-year": [F("year").desc(nulls_last=True), "-id"],
    "added": ["created_at", "id"],
    "-added": ["-created_at", "-id"],
    "status": ["status", "-id"],
    "-status": ["-status", "-id"],
}
DEFAULT_DOCUMENT_SORT = "-added"


def collection_documents(
    collection: Collection, *, status: str = "", doc_type: str = "", text: str = "", sort: str = DEFAULT_DOCUMENT_SORT
) -> QuerySet[Document]:
    """The documents of a collection the caller has already been given (get_collection_for_user), filtered by
    status, type and words of the title or file name, in the order `sort` names (DOCUMENT_SORTS), jobs prefetched."""
    documents = collection.documents.prefetch_related("jobs")
    if status:
        documents = documents.filter(status=status)
    if doc_type:
        documents = documents.filter(doc_type=doc_type)
    if text.strip():
        words = text.strip()
        documents = documents.filter(Q(title__icontains=words) | Q(original_name__icontains=words))
    return documents.order_by(*DOCUMENT_SORTS.get(sort, DOCUMENT_SORTS[DEFAULT_DOCUMENT_SORT]))


# ---- queue position ----------------------------------------------------------------------------------------------
class _Count(Subquery):
    template = "(SELECT count(*) FROM (%(subquery)s) _ahead)"
    output_field = IntegerField()


def attach_queue_positions(jobs: Iterable[IngestJob | None]) -> None:
    """Set `queued_ahead` on each queued job: how many queued jobs were sent before it (the worker takes them in
    order). One query for all of them, counted on the partial index of queued jobs."""
    queued = {job.pk: job for job in jobs if job is not None and job.stage == JobStage.QUEUED}
    if not queued:
        return
    waiting = IngestJob.objects.filter(stage=JobStage.QUEUED)
    ahead = waiting.filter(pk__lt=OuterRef("pk")).order_by().values("pk")
    counts = dict(waiting.filter(pk__in=queued).annotate(ahead=_Count(ahead)).values_list("pk", "ahead"))
    for pk, job in queued.items():
        # A job that left the queue meanwhile is no longer waiting: no position.
        job.queued_ahead = counts.get(pk)


def queue_position(job: IngestJob | None) -> int | None:
    """How many queued jobs are ahead of `job`; None when it is not queued."""
    if job is None or job.stage != JobStage.QUEUED:
        return None
    if not hasattr(job, "queued_ahead"):
        attach_queue_positions([job])
    return job.queued_ahead
