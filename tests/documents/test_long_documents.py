"""A long document through the real worker: its progress moves batch by batch while it is embedded, and an upload
made after it is ready before it has finished (the worker takes turns instead of embedding it in one go).

The sizes follow the worker's settings (the same environment as this process): PORTAL_EMBED_BATCH passages per
batch, PORTAL_INGEST_BATCHES_PER_TASK batches per turn."""

from __future__ import annotations

import re
import time

import pytest
from django.conf import settings
from django.urls import reverse

from apps.documents.models import IngestJob, JobStage

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def long_markdown(sections: int, tag: str) -> bytes:
    """One short passage per section (so embedding is quick), `sections` passages in all."""
    parts = [f"## {tag} station {i}\n\nReading {i} at station {i} was {i * 7 % 101} units.\n" for i in range(sections)]
    return "\n".join(parts).encode()


def test_progress_moves_batch_by_batch_while_a_long_document_is_embedded(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest, personas, client
):
    batch = settings.PORTAL_EMBED_BATCH
    sections = batch * 5
    api = api_client_for("editor")
    client.force_login(personas["editor"])
    created = api_upload(api, "stations.md", long_markdown(sections, "progress"))
    detail = reverse("api-document-detail", kwargs={"document_id": created["id"]})
    row = reverse("document-status", kwargs={"document_id": created["id"]})

    counts, texts = set(), set()
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        job = api.get(detail).json()["job"]
        if job["stage"] == JobStage.EMBED:
            counts.add(job["done"])
            assert job["total"] == sections
            if not texts:  # the page too, once (every request here takes CPU from the worker)
                texts.update(re.findall(r"Embedding passages [\d,]+ / [\d,]+", client.get(row).content.decode()))
        if job["finished"]:
            break
        time.sleep(0.1)

    assert wait_for_ingest(api, created["id"])["status"] == "ready"
    moving = sorted(c for c in counts if 0 < c < sections)
    assert len(moving) >= 3, f"embedding counts seen: {sorted(counts)}"
    assert all(c % batch == 0 for c in moving), "the count moves by whole batches"
    assert any(text.endswith(f"/ {sections:,}") for text in texts), texts


def test_an_upload_after_a_long_document_is_ready_before_the_long_one_has_finished(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    per_task = settings.PORTAL_INGEST_BATCHES_PER_TASK
    assert per_task > 0, "PORTAL_INGEST_BATCHES_PER_TASK=0 runs every job in one task: nothing can go between"
    # three turns of the worker at least: the small upload's task is queued before the long one's second turn
    sections = settings.PORTAL_EMBED_BATCH * per_task * 2 + 1
    api = api_client_for("editor")
    long_one = api_upload(api, "long.md", long_markdown(sections, "long"))
    small = api_upload(api, "small.md", b"# A short note\n\nIt is read while the long document waits its turn.\n")

    assert wait_for_ingest(api, small["id"])["status"] == "ready"
    assert wait_for_ingest(api, long_one["id"], timeout=300)["status"] == "ready"
    small_job = IngestJob.objects.get(document_id=small["id"])
    long_job = IngestJob.objects.get(document_id=long_one["id"])
    assert small_job.started_at > long_job.started_at, "the long document was taken first"
    assert small_job.finished_at < long_job.finished_at, "the small upload waited behind all of the long document"
