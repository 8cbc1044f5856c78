"""A worker killed in the middle of an ingest: the job is done again by a worker that lives, exactly once.

The real case is the whole worker dying (SIGKILL, out of memory, the machine lost): its message was never
acknowledged (acks_late), so Redis still holds it as "unacked", and a worker restores it once it is older than the
broker's visibility timeout. When only the pool child dies, the worker's main process rejects the message back to
the queue (reject_on_worker_lost) and runs it again. Either way the result must be the same as a clean ingest: the
same chunks, no duplicates, no orphans, one final write.
"""

from __future__ import annotations

import io
import json
import signal
import time

import pytest

from apps.citations.models import ChunkCitation, Reference
from apps.citations.services.references import extract_references
from apps.documents.models import Chunk, Document, DocumentStatus, IngestJob, JobStage
from apps.documents.parsing import chunk_document, parse_document
from apps.documents.services.uploads import document_add
from apps.retrieval.models import IndexChange
from tests.faults.conftest import VISIBILITY_TIMEOUT, wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

# 22 pages, about 135 passages to embed: several seconds of work in which to kill the worker.
PAPER = "sci-pdf-jats/papers/PMC4417228/paper.pdf"


def clean_ingest_of(data: bytes, name: str) -> dict:
    """What a clean ingest of `data` stores, computed directly: the passages in order and the reference rows."""
    parsed = parse_document(data, name)
    drafts = chunk_document(parsed)
    entries, mentions = extract_references(parsed, drafts, data)
    indices = {d.chunk_index for d in drafts}
    entry_indices = {e.index for e in entries}
    citations = sum(1 for m in mentions if m.chunk_index in indices for i in m.entry_indices if i in entry_indices)
    return {
        "chunks": [(d.chunk_index, d.text) for d in drafts],
        "embedded": sum(1 for d in drafts if d.weight > 0),
        "references": len(entries),
        "citations": citations,
    }


def upload(collection, user, data: bytes, name: str) -> tuple[Document, IngestJob]:
    result = document_add(collection=collection, name=name, fileobj=io.BytesIO(data), user=user)
    assert result.outcome == "added" and result.queued
    return result.document, result.document.latest_job()


def wait_until_embedding(job: IngestJob) -> str:
    return wait_for(
        lambda: (
            IngestJob.objects.filter(pk=job.pk, stage__in=[JobStage.EMBED, JobStage.INDEX]).exists()
            and IngestJob.objects.get(pk=job.pk).stage
        ),
        f"job {job.pk} to reach the embed stage",
        timeout=180,
        every=0.05,
    )


def unacked_messages_of(queue: str) -> dict[str, float]:
    """Delivery tag → delivery time of the messages Redis holds as delivered but not acknowledged, for `queue`."""
    from portal.celery import app

    with app.connection_for_write() as connection:
        client = connection.default_channel.client
        held = {}
        for tag, payload in client.hgetall("unacked").items():
            _message, _exchange, routing_key = json.loads(payload)
            if routing_key == queue:
                score = client.zscore("unacked_index", tag)
                held[tag.decode()] = score
        return held


def wait_until_finished(document: Document) -> Document:
    wait_for(
        lambda: Document.objects.filter(
            pk=document.pk, status__in=[DocumentStatus.READY, DocumentStatus.FAILED]
        ).exists(),
        f"document {document.pk} to be ready again",
        timeout=300,
    )
    return Document.objects.get(pk=document.pk)


def assert_stored_exactly_once(document: Document, expected: dict) -> None:
    assert document.status == DocumentStatus.READY, document.error
    chunks = list(Chunk.objects.filter(document=document).order_by("chunk_index"))
    # the same passages, in the same order, as a clean ingest; no chunk_index twice
    assert [(c.chunk_index, c.text) for c in chunks] == expected["chunks"]
    assert len({c.chunk_index for c in chunks}) == len(chunks) == document.chunk_count
    # every retrievable passage has its vector, once
    assert sum(1 for c in chunks if c.embedding is not None) == expected["embedded"]
    assert not any(c.embedding is None for c in chunks if c.weight > 0)
    # the reference rows are one set, tied to this set of chunks
    assert Reference.objects.filter(document=document).count() == expected["references"]
    mentions = ChunkCitation.objects.filter(reference__document=document)
    assert mentions.count() == expected["citations"]
    assert not mentions.exclude(chunk__in=chunks).exists()
    # nothing left behind by the killed run: no chunk or citation of a document that is gone
    assert not Chunk.objects.exclude(document__in=Document.objects.all()).exists()
    assert not ChunkCitation.objects.exclude(chunk__document=document).exists()
    # one job, finished once, and one final write (each write of the chunks logs one change for search)
    jobs = list(IngestJob.objects.filter(document=document))
    assert [(j.stage, j.done, j.total) for j in jobs] == [(JobStage.DONE, len(chunks), len(chunks))]
    assert jobs[0].finished_at is not None
    assert IndexChange.objects.filter(document_id=document.pk).count() == 1


def test_a_worker_killed_whole_mid_ingest_leaves_the_job_to_the_next_worker(
    workers, fault_queue, collection, personas, shared_corpus
):
    data = (shared_corpus / PAPER).read_bytes()
    expected = clean_ingest_of(data, "paper.pdf")
    first = workers("first")
    document, job = upload(collection, personas["editor"], data, "paper.pdf")
    wait_until_embedding(job)

    held = unacked_messages_of(fault_queue)
    assert len(held) == 1, "the running job's message is held by Redis as delivered, not acknowledged"
    first.kill_everything()  # main process and pool child together, SIGKILL: nothing gets to clean up
    assert not first.alive() and not first.descendants()
    document.refresh_from_db()
    assert document.status == DocumentStatus.PROCESSING
    assert not Chunk.objects.filter(document=document).exists()

    # Redis hands the message out again once it is older than the visibility timeout: a worker starting after
    # that restores it at once (kombu's restore_visible on its first poll).
    (delivered,) = held.values()
    time.sleep(max(0.0, delivered + VISIBILITY_TIMEOUT + 1 - time.time()))
    second = workers("second")
    finished = wait_until_finished(document)

    assert_stored_exactly_once(finished, expected)
    (tag,) = held
    assert tag not in unacked_messages_of(fault_queue), "the restored message was acknowledged once the job was done"
    assert "ingest_document" in second.log_text() and "succeeded" in second.log_text()


def test_a_killed_pool_child_makes_the_same_worker_run_the_job_again(
    workers, fault_queue, collection, personas, shared_corpus
):
    data = (shared_corpus / PAPER).read_bytes()
    expected = clean_ingest_of(data, "paper.pdf")
    worker = workers("survivor")
    document, job = upload(collection, personas["editor"], data, "paper.pdf")
    wait_until_embedding(job)

    children = worker.descendants()
    assert children, "the pool child is running the job"
    for child in children:
        child.send_signal(signal.SIGKILL)
    finished = wait_until_finished(document)

    assert worker.alive(), "the worker's main process survives its child"
    assert "WorkerLostError" in worker.log_text()  # it saw the job's process die, and requeued the message
    assert_stored_exactly_once(finished, expected)
