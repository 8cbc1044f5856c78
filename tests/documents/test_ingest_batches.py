"""A long ingest job in batches, driven here through the task run eagerly, with a stand-in model: a failure names
the stage it happened in, and a message delivered again after a worker died goes on from the last committed batch
instead of embedding everything again. (The real worker's side: test_long_documents.py.)"""

from __future__ import annotations

import hashlib
from collections import Counter

import pytest
from celery.exceptions import SoftTimeLimitExceeded
from django.conf import settings
from django.core.files.base import ContentFile
from django.test import override_settings

from apps.documents import tasks
from apps.documents.models import Chunk, Document, DocumentStatus, IngestJob, JobStage
from apps.documents.services import reading

pytestmark = pytest.mark.django_db

SECTIONS = 20
BATCH = 4  # passages per embedding batch: 5 batches
PER_TASK = 2  # batches per task: read + 2 batches, then 2 more, then the last one and the index


def long_markdown(sections: int, tag: str = "") -> bytes:
    """One short passage per section: `sections` passages to embed."""
    parts = [f"## Station {i}{tag}\n\nReading {i} at station {i} was {i * 7 % 101} units.\n" for i in range(sections)]
    return "\n".join(parts).encode()


class WorkerDied(BaseException):
    """Stands in for the process being killed: no handler of the service runs."""


@pytest.fixture
def sent(monkeypatch):
    """The messages the job sends to continue itself, recorded instead of published: (job_id, step)."""
    messages: list[tuple] = []
    monkeypatch.setattr(tasks.ingest_document, "delay", lambda *args: messages.append(args))
    return messages


@pytest.fixture
def job(collection):
    data = long_markdown(SECTIONS)
    document = Document(collection=collection, original_name="stations.md", doc_type="md", size=len(data))
    document.sha256 = hashlib.sha256(data).hexdigest()
    document.file.save("stations.md", ContentFile(data), save=False)
    document.save()
    return IngestJob.objects.create(document=document)


def deliver(*args) -> None:
    """One delivery of an ingest message to a worker, run here."""
    result = tasks.ingest_document.apply(args=list(args))
    if isinstance(result.result, BaseException) and not isinstance(result.result, Exception):
        raise result.result


batches = override_settings(
    PORTAL_PARSE_SANDBOX=False, PORTAL_EMBED_BATCH=BATCH, PORTAL_INGEST_BATCHES_PER_TASK=PER_TASK
)


@batches
def test_a_message_delivered_again_after_a_worker_died_does_not_embed_the_finished_batches_again(job, model, sent):
    # given: the first task read the file, embedded two batches and sent the rest of the job on
    deliver(job.pk)
    assert model.calls == PER_TASK and len(sent) == 1
    continuation = sent[0]
    # when: the first message is delivered again (its worker died before acknowledging it)
    deliver(job.pk)
    # then: it sees the job carried on by the message that was sent, and does nothing
    assert model.calls == PER_TASK and len(sent) == 1

    # given: the worker running the continuation dies in its second batch
    model.fail_on = (PER_TASK + 2, WorkerDied())
    with pytest.raises(WorkerDied):
        deliver(*continuation)
    died_in = model.texts[-BATCH:]
    # when: its message is delivered again
    model.fail_on = None
    deliver(*continuation)

    # then: the document is ready, every passage embedded once, except the batch that was never committed
    document = Document.objects.get(pk=job.document_id)
    assert document.status == DocumentStatus.READY, document.error
    embedded = Counter(model.texts)
    assert sorted(embedded.values()) == [1] * (SECTIONS - BATCH) + [2] * BATCH
    assert {text for text, times in embedded.items() if times == 2} == set(died_in)
    chunks = Chunk.objects.filter(document=document)
    assert chunks.count() == SECTIONS and not chunks.filter(embedding__isnull=True).exists()
    job.refresh_from_db()
    assert (job.stage, job.done, job.total) == (JobStage.DONE, SECTIONS, SECTIONS)
    assert job.staged_chunks.count() == 0 and job.reading is None  # nothing left behind


@batches
def test_progress_is_written_after_every_batch(job, model, sent, monkeypatch):
    seen = []
    real = model.embed_passages

    def watch(texts, batch_size=32):
        row = IngestJob.objects.get(pk=job.pk)
        seen.append((row.stage, row.done, row.total, row.progress_text))
        return real(texts, batch_size)

    monkeypatch.setattr(model, "embed_passages", watch)
    deliver(job.pk)
    deliver(*sent[0])
    deliver(*sent[1])
    assert [done for _stage, done, _total, _text in seen] == list(range(0, SECTIONS, BATCH))
    assert {(stage, total) for stage, _done, total, _text in seen} == {(JobStage.EMBED, SECTIONS)}
    assert seen[2][3] == f"Embedding passages 8 / {SECTIONS}"
    assert Document.objects.get(pk=job.document_id).status == DocumentStatus.READY


@batches
def test_a_time_limit_while_embedding_names_the_embedding_and_how_far_it_got(job, model, sent):
    model.fail_on = (2, SoftTimeLimitExceeded())
    deliver(job.pk)
    document = Document.objects.get(pk=job.document_id)
    assert document.status == DocumentStatus.FAILED
    limit = settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert document.error.startswith(
        f"Embedding the passages took longer than the time limit ({limit:,} s), after {BATCH} of {SECTIONS};"
    )
    assert "Reading" not in document.error
    job.refresh_from_db()
    assert job.stage == JobStage.FAILED and job.staged_chunks.count() == 0


@batches
def test_a_time_limit_while_reading_still_says_reading(job, model, monkeypatch):
    def slow(*_args):
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(reading, "read_file", slow)
    deliver(job.pk)
    document = Document.objects.get(pk=job.document_id)
    limit = settings.CELERY_TASK_SOFT_TIME_LIMIT
    assert document.error.startswith(f"Reading this file took longer than the time limit ({limit:,} s);")
    assert model.calls == 0


@batches
def test_an_unexpected_error_while_embedding_says_it_was_embedding(job, model, sent):
    model.fail_on = (1, RuntimeError("the model broke"))
    deliver(job.pk)
    document = Document.objects.get(pk=job.document_id)
    assert document.error == (
        "An unexpected error stopped ingestion (RuntimeError) while embedding the passages; "
        "the administrators can find the details in the worker log."
    )


@override_settings(PORTAL_PARSE_SANDBOX=False, PORTAL_EMBED_BATCH=BATCH, PORTAL_INGEST_BATCHES_PER_TASK=0)
def test_with_batches_per_task_at_zero_the_whole_job_runs_in_one_task(job, model, sent):
    deliver(job.pk)
    assert sent == [] and model.calls == SECTIONS // BATCH
    assert Document.objects.get(pk=job.document_id).status == DocumentStatus.READY


@batches
def test_resume_ingest_goes_on_from_the_last_embedded_batch(job, model, sent):
    # given: a job read and partly embedded whose continuation was lost with the broker (the embedded Redis keeps no
    # queue on disk, so the launcher runs resume_ingest when it restarts it, or the worker)
    from io import StringIO

    from django.core.management import call_command

    deliver(job.pk)
    assert model.calls == PER_TASK and len(sent) == 1
    sent.clear()
    # when
    out = StringIO()
    call_command("resume_ingest", stdout=out)
    # then: the same job is sent on from its step, and finishing it embeds no passage twice
    job.refresh_from_db()
    assert sent == [(job.pk, job.step)] and "Resumed 1" in out.getvalue()
    assert IngestJob.objects.filter(document_id=job.document_id).count() == 1
    while sent:
        deliver(*sent.pop(0))
    document = Document.objects.get(pk=job.document_id)
    assert document.status == DocumentStatus.READY, document.error
    assert sorted(Counter(model.texts).values()) == [1] * SECTIONS
