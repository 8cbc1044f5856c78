"""A scanned PDF through the real worker: its pages are recognised inside the bounded reading child, the job shows
the OCR stage with its page count, and the passages are searchable, located on their page and flagged as OCR."""

from __future__ import annotations

import pytest
from django.urls import reverse

from apps.documents.models import Chunk, Document, IngestJob, JobStage
from tests.documents.scanned_pages import ENGLISH, with_scanned_second_page

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]


def test_a_scanned_page_is_read_by_ocr_through_the_worker_and_found_by_search(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    # given a PDF whose second page is a scan (an image without a text layer)
    data, _ = with_scanned_second_page(ENGLISH, "helv")
    client = api_client_for("editor")

    # when the editor uploads it and the worker reads it
    created = api_upload(client, "river-survey.pdf", data)
    done = wait_for_ingest(client, created["id"], timeout=300)

    # then it is ready, with no page left unread, and the job went through the OCR stage, 1 page of 1
    assert done["status"] == "ready", done.get("error")
    assert done["page_count"] == 2 and Document.objects.get(pk=created["id"]).needs_ocr_pages == []
    assert "ocr" in done["seen_stages"], done["seen_stages"]
    # the scanned page's passages are located with boxes on page 2, and flagged as recognised text; their recognised
    # lines are all on page 2 (a passage may begin with the text-layer paragraph of page 1)
    scanned = Chunk.objects.filter(document_id=created["id"], page_end=2)
    assert scanned and all(c.locator.get("ocr") and c.locator_precision == "bbox" for c in scanned)
    assert all(any(r["page"] == 2 for r in c.locator["rects"]) for c in scanned)
    assert all(c.locator["ocr_lines"] and {ln["page"] for ln in c.locator["ocr_lines"]} == {2} for c in scanned)
    assert not Chunk.objects.filter(document_id=created["id"], page_end=1, locator__ocr=True).exists()

    # and a keyword search finds the recognised words, saying the hit's text was recognised
    response = api_client_for("viewer").get(
        reverse("api-search"), {"q": "mill warmer", "collection": "lab", "mode": "keyword"}
    )
    assert response.status_code == 200, response.content
    top = response.json()["results"][0]
    assert top["document_id"] == created["id"] and top["page_end"] == 2 and top["ocr"] is True
    assert top["locator_precision"] == "bbox" and not top["locator_degraded"]


def test_the_ocr_stage_reads_as_pages_recognised(collection):
    document = Document.objects.create(collection=collection, original_name="scan.pdf", doc_type="pdf")
    job = IngestJob(document=document, stage=JobStage.OCR, done=3, total=12)
    assert job.progress_text == "Recognising text (OCR) 3 / 12 pages"
    assert 0 <= job.percent <= 10
