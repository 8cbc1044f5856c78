"""Ingestion of one document, as ordered steps that write their progress to the job row.

parse (parser registry) -> chunk (locators kept) -> embed (batched; the model is loaded once per worker
process) -> index (chunks replaced atomically). The reference-list step slots in between chunk and embed. A long
job runs as several tasks, each a slice of its batches (document_ingest); the steps are in ingest_steps.py and the
state kept between the tasks in staging.py.
"""

from __future__ import annotations

import logging

from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from apps.documents.models import Chunk, Document, DocumentStatus, IngestJob, JobStage
from apps.documents.parsing import ChunkDraft, ParseError
from apps.documents.services import ingest_reasons as reasons
from apps.documents.services import ingest_steps, staging
from apps.documents.services.ingest_steps import FINISHED, IngestStopped, Superseded, centroid
from portal.broker import BROKER_ERRORS

__all__ = [
    "FINISHED",
    "NOT_QUEUED",
    "centroid",
    "chunk_row",
    "document_ingest",
    "ingest_enqueue",
    "ingest_give_up",
    "ingest_publish",
    "ingest_queued",
    "ingest_requeue_unsent",
]

log = logging.getLogger(__name__)
# IngestJob.error of a job whose message never reached the broker (Redis was away when it was made).
# Marked for translation, translated where a person sees it (views.documents); plain str for the API and logs.
NOT_QUEUED = gettext_noop("Not queued yet: the task queue could not be reached. Reading starts as soon as it is back.")


def ingest_enqueue(document: Document) -> IngestJob:
    """Create a job row and send it to the worker once the surrounding transaction has committed."""
    job = IngestJob.objects.create(document=document)
    Document.objects.filter(pk=document.pk).update(status=DocumentStatus.PENDING, error="")
    transaction.on_commit(lambda: ingest_publish(job.pk))
    return job


def ingest_publish(job_id: int) -> bool:
    """Send a job to the worker. When the broker cannot be reached the job is marked NOT_QUEUED instead of
    failing the request that made it (the document is stored and stays pending); `ingest_requeue_unsent` sends
    it once the broker is back. Returns whether the message went out."""
    from apps.documents.tasks import ingest_document

    try:
        ingest_document.delay(job_id)
    except BROKER_ERRORS:
        log.warning("ingest job %s could not be queued: the broker is unreachable", job_id, exc_info=True)
        IngestJob.objects.filter(pk=job_id, stage=JobStage.QUEUED).update(error=NOT_QUEUED)
        return False
    return True


def ingest_queued(job: IngestJob) -> bool:
    """Whether the job's message reached the broker (False: it waits for `ingest_requeue_unsent`)."""
    return not IngestJob.objects.filter(pk=job.pk, error=NOT_QUEUED).exists()


def ingest_requeue_unsent() -> int:
    """Send the jobs whose publish failed; returns how many went out. Safe to run from several workers at once:
    each job is claimed by one conditional UPDATE before it is sent, so none is sent twice."""
    sent = 0
    unsent = IngestJob.objects.filter(stage=JobStage.QUEUED, error=NOT_QUEUED).order_by("pk")
    for job_id in unsent.values_list("pk", flat=True):
        claimed = IngestJob.objects.filter(pk=job_id, stage=JobStage.QUEUED, error=NOT_QUEUED).update(error="")
        if claimed and ingest_publish(job_id):
            sent += 1
    return sent


def ingest_give_up(*, job_id: int, reason: str) -> None:
    """Mark a job failed after its retries ran out (the database stayed unreachable)."""
    job = IngestJob.objects.select_related("document").filter(pk=job_id).first()
    if job is not None and not job.finished:
        _fail(job, job.document, reason)


def _fail(job: IngestJob, document: Document, reason: str) -> None:
    now = timezone.now()
    # Only a job still open: an error after the final commit (a follow-up task that could not be queued) must not
    # turn a document that is ready into a failed one.
    failed = (
        IngestJob.objects.filter(pk=job.pk)
        .exclude(stage__in=FINISHED)
        .update(stage=JobStage.FAILED, error=reason, finished_at=now, reading=None)
    )
    if failed:
        Document.objects.filter(pk=document.pk).update(status=DocumentStatus.FAILED, error=reason)
        staging.discard(job)  # the passages of a failed job are never indexed


def chunk_row(document: Document, draft: ChunkDraft, page_sizes: dict) -> Chunk:
    return Chunk(document=document, **staging.chunk_fields(draft, page_sizes))


def document_ingest(*, job_id: int, step: int = 0) -> None:
    """Carry job `job_id` on from where it stands; `step` is the job's step count the message was sent for.

    A job is read, embedded batch by batch and indexed (services/ingest_steps.py). After
    PORTAL_INGEST_BATCHES_PER_TASK batches a task sends the rest of the job to the back of the queue and returns:
    the uploads queued meanwhile go first, and a worker that dies loses one batch at most, since a redelivered
    message goes on from the last committed batch."""
    job = IngestJob.objects.select_related("document").filter(pk=job_id).first()
    if job is None or job.finished:
        log.info("ingest job %s is gone or finished; nothing to do", job_id)
        return
    if step < job.step and job.sent_step >= job.step:
        # A redelivered message whose work was committed, and the message that continues the job is out.
        log.info("ingest job %s: the message for step %s is stale (the job is at %s)", job_id, step, job.step)
        return
    try:
        _carry_on(job)
    except (OperationalError, InterfaceError):
        raise  # the database went away for a moment: the task retries, from the last committed step
    except Superseded:
        log.info("ingest job %s was carried on by another run; its result is kept", job_id)
    except (ParseError, IngestStopped) as exc:
        _fail(job, job.document, str(exc))
    except SoftTimeLimitExceeded:
        _fail(job, job.document, reasons.time_limit(job, settings.CELERY_TASK_SOFT_TIME_LIMIT))
    except Exception as exc:
        # A failure inside the reading process arrives as ChildFailed, carrying the child's traceback in its text.
        log.exception("ingest of document %s failed while %s", job.document_id, reasons.doing(job.stage))
        _fail(job, job.document, reasons.unexpected(job, getattr(exc, "type_name", type(exc).__name__)))


def _carry_on(job: IngestJob) -> None:
    if job.reading is None:
        ingest_steps.read_step(job)
    budget = settings.PORTAL_INGEST_BATCHES_PER_TASK
    batches = 0
    while True:
        if budget and batches >= budget and staging.waiting_count(job):
            if ingest_continue(job):
                return
            batches = 0  # the broker is away: go on here, and try again after another `budget` batches
        if not ingest_steps.embed_step(job):
            break
        batches += 1
    ingest_steps.index_step(job)


def ingest_continue(job: IngestJob) -> bool:
    """Queue the rest of the job behind what others queued meanwhile; False (go on here) when the broker is away.

    Also how a job whose worker stopped is resumed (`manage.py resume_ingest`): from its last committed batch."""
    from apps.documents.tasks import ingest_document

    try:
        ingest_document.delay(job.pk, job.step)
    except BROKER_ERRORS:
        log.warning("ingest job %s could not be queued again: going on without a break", job.pk, exc_info=True)
        return False
    IngestJob.objects.filter(pk=job.pk, step=job.step).update(sent_step=job.step)
    return True
