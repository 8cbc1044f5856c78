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
from apps.citations.services.references import extract_references, store_references
from apps.documents.models import Chunk, Document, DocumentStatus, IngestJob, JobStage
from apps.documents.parsing import ChunkDraft, ParseError, chunk_document, parse_document
from apps.retrieval.services.changes import record_change
from portal.laps import Laps

log = logging.getLogger(__name__)
_BATCH = 200
# Chunks handed to the model per call: large enough for sentence-transformers to sort them by length (less
# padding), small enough for the progress bar to move; the model itself runs batches of 32.
_EMBED_CALL = 128


def ingest_enqueue(document: Document) -> IngestJob:
    """Create a job row and send it to the worker once the surrounding transaction has committed."""
    from apps.documents.tasks import ingest_document

    job = IngestJob.objects.create(document=document)
    Document.objects.filter(pk=document.pk).update(status=DocumentStatus.PENDING, error="")
    transaction.on_commit(lambda: ingest_document.delay(job.pk))
    return job


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
    IngestJob.objects.filter(pk=job.pk).update(stage=JobStage.FAILED, error=reason, finished_at=now)
    Document.objects.filter(pk=document.pk).update(status=DocumentStatus.FAILED, error=reason)


def _no_text_reason(document: Document) -> str:
    if document.doc_type == "pdf":
        return "No text could be read from this PDF. If it is a scan, it needs OCR before it can be searched."
    return "No readable text was found in this file (text inside shapes or text boxes is not read yet)."


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
    """What the file says about itself fills only empty fields: a person's (or Zotero's) values win."""
    updates: dict = {}
    if not document.title and found.get("title"):
        updates["title"] = str(found["title"])[:500]
    if not document.authors and found.get("authors"):
        authors = found["authors"]
        updates["authors"] = [authors] if isinstance(authors, str) else list(authors)
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
        parsed = parse_document(data, document.original_name)
        clock.lap("parse")
        _progress(job, JobStage.CHUNK, 1, 1)
        drafts = chunk_document(parsed)
        if not drafts:
            raise ParseError(_no_text_reason(document))
        clock.lap("chunk")
        entries, mentions = extract_references(parsed, drafts, data)
        del data  # the largest object of a job: not kept through embedding
        clock.lap("references")
        rows = [chunk_row(document, d, parsed.page_sizes) for d in drafts]
        model_id = _embed(job, rows)
        clock.lap("embed")
        _progress(job, JobStage.INDEX, 0, len(rows))
        with transaction.atomic():
            # Readers see either the old chunks or the new ones, never half of each.
            Document.objects.select_for_update().filter(pk=document.pk).first()
            old_chunk_ids = list(Chunk.objects.filter(document=document).values_list("id", flat=True))
            Chunk.objects.filter(document=document).delete()
            for start in range(0, len(rows), _BATCH):
                Chunk.objects.bulk_create(rows[start : start + _BATCH])
                _progress(job, JobStage.INDEX, min(start + _BATCH, len(rows)), len(rows))
            store_references(document, rows, entries, mentions)
            Document.objects.filter(pk=document.pk).update(
                status=DocumentStatus.READY,
                error="",
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
        log.exception("ingest of document %s failed", document.pk)
        _fail(
            job,
            document,
            f"An unexpected error stopped ingestion ({type(exc).__name__}); "
            "the administrators can find the details in the worker log.",
        )
