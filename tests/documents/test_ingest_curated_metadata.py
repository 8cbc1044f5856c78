"""Metadata a person or an import sets while the file is being read wins over the file's own (found by CI on a
busy machine: `import_zotero` writes Zotero's title right after queueing the document, and the worker, indexing
with the copy of the row it had loaded before, replaced "A core outcome set … low back pain" by the PDF's longer
title). The index step reads the row again under its lock and only fills what is still empty."""

from __future__ import annotations

import io

import pymupdf
import pytest

from apps.documents.models import Document, IngestJob
from apps.documents.services import ingest_steps
from apps.documents.services.uploads import document_add


def _pdf() -> bytes:
    doc = pymupdf.open()
    page = doc.new_page()
    page.insert_text((72, 90), "Reading documents with care", fontsize=16, fontname="hebo")
    for k in range(8):
        page.insert_text((72, 130 + 14 * k), f"Line {k} of a passage about careful reading of documents.")
    doc.set_metadata({"title": "Reading documents with care", "author": "Ada Writer"})
    return doc.tobytes()


@pytest.mark.django_db
def test_a_title_set_while_the_file_is_read_is_kept_and_empty_fields_are_filled(collection):
    document = document_add(collection=collection, name="careful.pdf", fileobj=io.BytesIO(_pdf())).document
    job = IngestJob.objects.filter(document=document).latest("pk")
    ingest_steps.read_step(job)
    while ingest_steps.embed_step(job):
        pass
    # The import's update lands after the job loaded its document, before it indexes.
    Document.objects.filter(pk=document.pk).update(title="A curated title")
    assert job.document.title == ""  # the job's own copy is the stale one
    ingest_steps.index_step(job)
    document.refresh_from_db()
    assert document.status == "ready"
    assert document.title == "A curated title"
    assert document.authors == ["Ada Writer"]  # what was still empty is filled from the file
