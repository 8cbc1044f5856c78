"""Ingestion through the real Celery worker and the database, as a user's upload goes."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.documents.models import Chunk, Document

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

DEMO = Path(__file__).resolve().parent.parent / "demo"


def test_a_pdf_upload_is_read_by_the_worker_with_page_locators(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    client = api_client_for("editor")
    pdf = (DEMO / "papers" / "bmc-trials-15-1-511.pdf").read_bytes()
    created = api_upload(client, "trial.pdf", pdf)
    done = wait_for_ingest(client, created["id"])
    assert done["status"] == "ready", done["error"]
    assert done["page_count"] == 9 and done["chunk_count"] > 20
    chunks = Chunk.objects.filter(document_id=created["id"])
    assert chunks.count() == done["chunk_count"]
    assert all(c.locator_precision == "bbox" and 1 <= c.page <= 9 and c.locator["rects"] for c in chunks)


def test_a_corrupt_file_fails_with_a_reason_and_the_worker_goes_on(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    client = api_client_for("editor")
    broken = api_upload(client, "broken.pdf", b"%PDF-1.7\n this is not really a PDF at all" * 10)
    failed = wait_for_ingest(client, broken["id"])
    assert failed["status"] == "failed" and failed["job"]["stage"] == "failed"
    assert "PDF" in failed["error"] and "Traceback" not in failed["error"]
    # the same worker then reads the next file, and the failed one left nothing behind
    fine = api_upload(client, "notes.md", b"# Notes\n\nThe worker is still up.\n\n## Next\n\nAnd reads this.\n")
    assert wait_for_ingest(client, fine["id"])["status"] == "ready"
    assert not Chunk.objects.filter(document_id=broken["id"]).exists()
    assert Document.objects.get(pk=fine["id"]).chunks.count() >= 1


def test_reingest_replaces_chunks_without_duplicates(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    client = api_client_for("editor")
    docx = (DEMO / "portal-guide.docx").read_bytes()
    created = api_upload(client, "guide.docx", docx)
    first = wait_for_ingest(client, created["id"])
    assert first["status"] == "ready"
    ids_before = set(Chunk.objects.filter(document_id=created["id"]).values_list("pk", flat=True))
    response = client.post(reverse("api-document-reingest", kwargs={"document_id": created["id"]}))
    assert response.status_code == 202
    again = wait_for_ingest(client, created["id"])
    chunks = Chunk.objects.filter(document_id=created["id"])
    assert again["status"] == "ready" and chunks.count() == first["chunk_count"]
    assert ids_before.isdisjoint(chunks.values_list("pk", flat=True))
    assert sorted(chunks.values_list("chunk_index", flat=True)) == list(range(first["chunk_count"]))
    assert all(c.locator_precision == "paragraph" and c.locator["para_ids"] for c in chunks)


def test_the_ingest_command_waits_for_the_worker_and_reports_bad_files(celery_worker_available, collection, tmp_path):
    from io import StringIO

    from django.core.management import CommandError, call_command

    good = tmp_path / "plan.md"
    good.write_text("# Plan\n\nRead the papers first.\n")
    bad = tmp_path / "plan.xyz"
    bad.write_text("?")
    out, err = StringIO(), StringIO()
    with pytest.raises(CommandError, match="1 file"):
        call_command("ingest", str(good), str(bad), collection="lab", wait=True, stdout=out, stderr=err)
    assert "not supported" in err.getvalue()
    assert "100%" in out.getvalue()
    assert Document.objects.get(original_name="plan.md").status == "ready"
    # the same file again is skipped without any work; --force reads it again
    call_command("ingest", str(good), collection="lab", stdout=out)
    assert "already in this collection" in out.getvalue()
    assert Document.objects.get(original_name="plan.md").jobs.count() == 1
    call_command("ingest", str(good), collection="lab", force=True, wait=True, stdout=out)
    assert Document.objects.get(original_name="plan.md").jobs.count() == 2


def test_interrupted_ingestion_is_resumed(celery_worker_available, collection, api_client_for, wait_for_ingest):
    from io import StringIO

    from django.core.management import call_command

    from apps.documents.models import IngestJob

    doc = Document(
        collection=collection, original_name="left.txt", doc_type="txt", sha256="b" * 64, status="processing"
    )
    doc.file.save("left.txt", SimpleUploadedFile("left.txt", b"Left behind by a stopped worker."), save=False)
    doc.save()
    stuck = IngestJob.objects.create(document=doc, stage="parse", total=1)
    call_command("resume_ingest", stdout=StringIO())
    stuck.refresh_from_db()
    assert stuck.stage == "failed" and "Interrupted" in stuck.error
    assert wait_for_ingest(api_client_for("viewer"), doc.pk)["status"] == "ready"
