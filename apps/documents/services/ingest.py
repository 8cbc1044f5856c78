"""Ingestion of one document, as ordered steps that write their progress to the job row.

parse (parser registry) -> chunk (locators kept) -> embed (batched; the model is loaded once per worker
process) -> index (chunks replaced atomically). The reference-list step slots in between chunk and embed.
"""

from __future__ import annotations

import logging

import numpy as np
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.db import InterfaceError, OperationalError, transaction
from django.utils import timezone

from apps.citations.services.linking import relink_enqueue
from apps.citations.services.references import store_references
from apps.documents.models import Chunk, Document, DocumentStatus, IngestJob, JobStage
from apps.documents.parsing import ChunkDraft, ParseError
from apps.documents.services.reading import document_read
from apps.retrieval.services.changes import record_change
from portal.broker import BROKER_ERRORS
from portal.laps import Laps

log = logging.getLogger(__name__)
_BATCH = 200
FINISHED = (JobStage.DONE, JobStage.FAILED)
# IngestJob.error of a job whose message never reached the broker (Redis was away when it was made).
NOT_QUEUED = "Not queued yet: the task queue could not be reached. Reading starts as soon as it is back."
# Chunks handed to the model per call: large enough for sentence-transformers to sort them by length (less
# padding), small enough for the progress bar to move; the model itself runs batches of 32.
_EMBED_CALL = 128


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


def _progress(job: IngestJob, stage: str, done: int = 0, total: int = 0) -> None:
    # A plain UPDATE outside any long transaction, so a page polling the row sees it at once.
    IngestJob.objects.filter(pk=job.pk).update(stage=stage, done=done, total=total)


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
        .update(stage=JobStage.FAILED, error=reason, finished_at=now)
    )
    if failed:
        Document.objects.filter(pk=document.pk).update(status=DocumentStatus.FAILED, error=reason)


def chunk_row(document: Document, draft: ChunkDraft, page_sizes: dict) -> Chunk:
    pages = {r.page for r in draft.rects}
    return Chunk(
        document=document,
        chunk_index=draft.chunk_index,
        text=draft.text,
        section=draft.section[:300],
        heading_path=list(draft.heading_path),
        chunk_type=draft.chunk_type,
        weight=draft.weight,
        page=draft.page,
        page_end=draft.page_end,
        para_start=draft.para_start,
        para_end=draft.para_end,
        line_start=draft.line_start,
        line_end=draft.line_end,
        locator={
            "rects": [{"page": r.page, "x0": r.x0, "y0": r.y0, "x1": r.x1, "y1": r.y1} for r in draft.rects],
            "page_sizes": {str(p): list(page_sizes[p]) for p in sorted(pages) if p in page_sizes},
            "para_ids": list(draft.para_ids),
        },
        locator_precision=draft.locator_precision,
        locator_degraded=draft.locator_degraded,
    )


def _embed(job: IngestJob, rows: list[Chunk]) -> str:
    """Give every retrievable chunk its vector; returns the identity of the model that made them."""
    from apps.retrieval.embedding.encoder import get_embedder

    embedder = get_embedder(settings.PORTAL_EMBEDDING_MODEL)
    # Weight-0 chunks (references, acknowledgements) are never retrieved: no vector, less time.
    targets = [row for row in rows if row.weight > 0]
    _progress(job, JobStage.EMBED, 0, len(targets))
    for start in range(0, len(targets), _EMBED_CALL):
        batch = targets[start : start + _EMBED_CALL]
        for row, vector in zip(batch, embedder.embed_passages([row.text for row in batch]), strict=True):
            row.embedding = vector
        _progress(job, JobStage.EMBED, start + len(batch), len(targets))
    return embedder.model_id


def centroid(rows: list[Chunk]):
    """The mean of the rows' vectors (None when none has one): what "related documents" compares."""
    vectors = [row.embedding for row in rows if row.embedding is not None]
    return np.mean(np.asarray(vectors, dtype=np.float32), axis=0) if vectors else None


def _metadata_updates(document: Document, found: dict) -> dict:
    """What the file says about itself fills only empty fields: a person's (or Zotero's) values win. Title and
    authors read off the first page (the parser's `title_guessed`, `authors_guessed`) are marked as guessed."""
    updates: dict = {}
    guessed = set(document.guessed)
    if not document.title and found.get("title"):
        updates["title"] = str(found["title"])[:500]
        guessed = guessed - {"title"} | ({"title"} if found.get("title_guessed") else set())
    if not document.authors and found.get("authors"):
        authors = found["authors"]
        updates["authors"] = [authors] if isinstance(authors, str) else list(authors)
        guessed = guessed - {"authors"} | ({"authors"} if found.get("authors_guessed") else set())
    if guessed != set(document.guessed):
        updates["guessed"] = sorted(guessed)
    if document.year is None and str(found.get("year") or "").isdigit():
        updates["year"] = int(found["year"])
    for name, limit in (("journal", 300), ("doi", 200)):
        if not getattr(document, name) and found.get(name):
            updates[name] = str(found[name])[:limit]
    return updates


def document_ingest(*, job_id: int) -> None:
    job = IngestJob.objects.select_related("document").filter(pk=job_id).first()
    if job is None or job.finished:
        log.info("ingest job %s is gone or finished; nothing to do", job_id)
        return
    document = job.document
    IngestJob.objects.filter(pk=job.pk).update(started_at=timezone.now())
    Document.objects.filter(pk=document.pk).update(status=DocumentStatus.PROCESSING, error="")
    try:
        clock = Laps()
        _progress(job, JobStage.PARSE, 0, 1)
        with document.file.open("rb") as fh:  # through the storage API: local folder or S3 alike
            data = fh.read()
        reading = document_read(document=document, data=data)  # bounded: see services/reading.py
        del data  # the largest object of a job: not kept through embedding
        clock.lap("read")  # parse, chunk and references, plus the child process's own cost
        clock.laps.update(reading.laps)
        parsed, drafts, entries, mentions = reading.parsed, reading.drafts, reading.entries, reading.mentions
        _progress(job, JobStage.CHUNK, 1, 1)
        rows = [chunk_row(document, d, parsed.page_sizes) for d in drafts]
        model_id = _embed(job, rows)
        clock.lap("embed")
        _progress(job, JobStage.INDEX, 0, len(rows))
        with transaction.atomic():
            # Readers see either the old chunks or the new ones, never half of each.
            Document.objects.select_for_update().filter(pk=document.pk).first()
            if not IngestJob.objects.select_for_update().filter(pk=job.pk).exclude(stage__in=FINISHED).exists():
                # A redelivered copy of this job's message finished it meanwhile: write nothing twice.
                log.info("ingest job %s was finished by another run; its result is kept", job.pk)
                return
            old_chunk_ids = list(Chunk.objects.filter(document=document).values_list("id", flat=True))
            Chunk.objects.filter(document=document).delete()
            for start in range(0, len(rows), _BATCH):
                Chunk.objects.bulk_create(rows[start : start + _BATCH])
                _progress(job, JobStage.INDEX, min(start + _BATCH, len(rows)), len(rows))
            store_references(document, rows, entries, mentions)
            Document.objects.filter(pk=document.pk).update(
                status=DocumentStatus.READY,
                error="",
                # The content decides the type (a PDF named .docx is read, shown and served as the PDF it is).
                doc_type=parsed.doc_type or document.doc_type,
                chunk_count=len(rows),
                page_count=parsed.page_count,
                embedding_model=model_id,
                centroid=centroid(rows),
                needs_ocr_pages=list(parsed.needs_ocr_pages),
                **_metadata_updates(document, parsed.metadata),
            )
            clock.lap("index")
            IngestJob.objects.filter(pk=job.pk).update(
                stage=JobStage.DONE, done=len(rows), total=len(rows), finished_at=timezone.now(), timings=clock.laps
            )
            # Search (keyword indexes, cached results) follows from here.
            record_change(
                collection_id=document.collection_id, document_id=document.pk, removed_chunk_ids=old_chunk_ids
            )
            # A paper added today may be what yesterday's references cite, and the other way round.
            relink_enqueue(document.collection_id)
    except (OperationalError, InterfaceError):
        raise  # the database went away for a moment: the task retries the whole job
    except ParseError as exc:
        _fail(job, document, str(exc))
    except SoftTimeLimitExceeded:
        _fail(job, document, "Reading this file took longer than the time limit; it may be very large.")
    except Exception as exc:
        # A failure inside the reading process arrives as ChildFailed, carrying the child's traceback in its text.
        log.exception("ingest of document %s failed", document.pk)
        _fail(
            job,
            document,
            f"An unexpected error stopped ingestion ({getattr(exc, 'type_name', type(exc).__name__)}); "
            "the administrators can find the details in the worker log.",
        )
