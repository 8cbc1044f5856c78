"""The units of work of one ingest job: read the file, embed one batch of passages, index the document.

Each unit commits its result together with one more count on IngestJob.step (`advance`), conditional on the count
it started from: two runs of the same job (a redelivered message beside the one that continues it) can never both
commit the same unit, and a run that finds its unit already committed stops quietly (Superseded). Progress is
written to the job row as plain UPDATEs the document page and the API poll.
"""

from __future__ import annotations

import logging
import time

import numpy as np
from django.conf import settings
from django.db import transaction
from django.utils import timezone

from apps.documents.extensions import ingest_embedder
from apps.documents.models import Chunk, Document, DocumentStatus, IngestJob, JobStage
from apps.documents.services import staging
from apps.documents.services.reading import document_read
from apps.documents.signals import document_indexed
from portal.laps import Laps

log = logging.getLogger(__name__)
FINISHED = (JobStage.DONE, JobStage.FAILED)
_INDEX_BATCH = 200


class Superseded(Exception):
    """Another run of this job committed the unit this run was doing (or finished the job): this run stops."""


class IngestStopped(Exception):
    """The job cannot go on, for a reason the uploader is told (the message)."""


def progress(job: IngestJob, stage: str, done: int = 0, total: int = 0) -> None:
    """Write the stage and its count; also kept on `job`, so a failure names the stage it happened in."""
    # A plain UPDATE outside any long transaction, so a page polling the row sees it at once.
    IngestJob.objects.filter(pk=job.pk).update(stage=stage, done=done, total=total)
    job.stage, job.done, job.total = stage, done, total


def advance(job: IngestJob, **changes) -> None:
    """Count one more committed unit of work (call inside the unit's transaction), or raise Superseded."""
    open_job = IngestJob.objects.filter(pk=job.pk, step=job.step).exclude(stage__in=FINISHED)
    if not open_job.update(step=job.step + 1, **changes):
        raise Superseded
    job.step += 1
    for name, value in changes.items():
        setattr(job, name, value)


def read_step(job: IngestJob) -> None:
    """Read the file (bounded: services/reading.py) and stage its passages for embedding."""
    document = job.document
    IngestJob.objects.filter(pk=job.pk).update(started_at=timezone.now())
    Document.objects.filter(pk=document.pk).update(status=DocumentStatus.PROCESSING, error="")
    clock = Laps()
    progress(job, JobStage.PARSE, 0, 1)
    with document.file.open("rb") as fh:  # through the storage API: local folder or S3 alike
        data = fh.read()
    reading = document_read(document=document, data=data, on_progress=lambda *news: _reading_news(job, *news))
    del data  # the largest object of a job: not kept through embedding
    clock.lap("read")  # parse, chunk and the extras (references), plus the child process's own cost
    progress(job, JobStage.CHUNK, 1, 1)
    state = staging.reading_state(reading, model_id=ingest_embedder().model_id)
    with transaction.atomic():
        advance(job, reading=state, timings={**clock.laps, **reading.laps})
        targets = staging.stage_passages(job, reading)
        progress(job, JobStage.EMBED, 0, targets)


def _reading_news(job: IngestJob, stage: str, done: int, total: int) -> None:
    """Progress reported from inside the reading (formats/pdf_ocr.py: pages recognised by OCR) onto the job row."""
    if stage == JobStage.OCR:
        progress(job, JobStage.OCR, done, total)


def embed_step(job: IngestJob) -> bool:
    """Embed the next batch of the job's passages; False when none was left to embed."""
    batch = staging.next_batch(job, settings.PORTAL_EMBED_BATCH)
    if not batch:
        return False
    embedder = ingest_embedder()
    if embedder.model_id != job.reading["model_id"]:
        raise IngestStopped(
            "The worker's embedding model changed while this document was being embedded; read it again."
        )
    started = time.perf_counter()
    vectors = embedder.embed_passages([row.fields["text"] for row in batch])
    for row, vector in zip(batch, vectors, strict=True):
        row.embedding = vector
    timings = dict(job.timings)
    timings["embed"] = round(timings.get("embed", 0.0) + time.perf_counter() - started, 3)
    with transaction.atomic():
        advance(job, done=job.done + len(batch), timings=timings)
        staging.store_vectors(batch)
    return True


def centroid(rows: list[Chunk]):
    """The mean of the rows' vectors (None when none has one): what "related documents" compares."""
    vectors = [row.embedding for row in rows if row.embedding is not None]
    return np.mean(np.asarray(vectors, dtype=np.float32), axis=0) if vectors else None


def metadata_updates(document: Document, found: dict) -> dict:
    """What the file says about itself fills only empty fields: a person's (or Zotero's) values win. Title and
    authors read off the first page (the parser's `title_guessed`, `authors_guessed`) are marked as guessed, and a
    guess nobody corrected is guessed again on every reading: a re-read after a parser fix must not keep the old
    parser's wrong title."""
    updates: dict = {}
    guessed = set(document.guessed)
    if (not document.title or "title" in guessed) and found.get("title"):
        updates["title"] = str(found["title"])[:500]
        guessed = guessed - {"title"} | ({"title"} if found.get("title_guessed") else set())
    if (not document.authors or "authors" in guessed) and found.get("authors"):
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
    # How a text file was decoded: set on every reading, since the same file may be read differently after an upgrade.
    updates["text_encoding"] = str(found.get("text_encoding") or "")[:40]
    updates["text_encoding_source"] = str(found.get("text_encoding_source") or "")[:10]
    return updates


def index_step(job: IngestJob) -> None:
    """Replace the document's chunks with the staged ones, in one transaction, and finish the job."""
    document = job.document
    started = time.perf_counter()
    rows = staging.chunk_rows(job, document)
    state = job.reading
    progress(job, JobStage.INDEX, 0, len(rows))
    with transaction.atomic():
        # Readers see either the old chunks or the new ones, never half of each. The row is read again under its
        # lock: metadata set while the file was being read (an import's curated title) is what the file's own
        # metadata may only fill in, not the copy this job loaded when it started.
        current = Document.objects.select_for_update().filter(pk=document.pk).first()
        document = current if current is not None else document
        if not IngestJob.objects.select_for_update().filter(pk=job.pk, step=job.step).exclude(stage__in=FINISHED):
            raise Superseded  # a redelivered copy of this job's message finished it meanwhile: write nothing twice
        old_chunk_ids = list(Chunk.objects.filter(document=document).values_list("id", flat=True))
        Chunk.objects.filter(document=document).delete()
        for start in range(0, len(rows), _INDEX_BATCH):
            Chunk.objects.bulk_create(rows[start : start + _INDEX_BATCH])
            progress(job, JobStage.INDEX, min(start + _INDEX_BATCH, len(rows)), len(rows))
        staging.store_extras(state, document, rows)  # citations: the references
        Document.objects.filter(pk=document.pk).update(
            status=DocumentStatus.READY,
            error="",
            # The content decides the type (a PDF named .docx is read, shown and served as the PDF it is).
            doc_type=state["doc_type"] or document.doc_type,
            chunk_count=len(rows),
            page_count=state["page_count"],
            embedding_model=state["model_id"],
            centroid=centroid(rows),
            needs_ocr_pages=state["needs_ocr_pages"],
            **metadata_updates(document, state["metadata"]),
        )
        staging.discard(job)
        timings = dict(job.timings, index=round(time.perf_counter() - started, 3))
        advance(job, stage=JobStage.DONE, done=len(rows), total=len(rows), finished_at=timezone.now(), timings=timings)
        IngestJob.objects.filter(pk=job.pk).update(reading=None)
        # Search's change log (keyword indexes, cached results) and citations' reference links follow from here.
        document_indexed.send(Document, document=document, removed_chunk_ids=old_chunk_ids)
