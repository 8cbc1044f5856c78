"""The seams documents offers the apps above it (apps/documents/extensions.py, signals.py): an extra read with the
file is kept on the job as JSON and stored at indexing, timed under its own name; a deletion reaches search's change
log and citations' relink; a job read before the extras existed goes on with its references (migration 0014)."""

from __future__ import annotations

import hashlib
import importlib

import pytest
from django.apps import apps as django_apps
from django.core.files.base import ContentFile
from django.test import override_settings

from apps.citations import tasks as citation_tasks
from apps.documents import extensions, tasks
from apps.documents.models import Document, DocumentStatus, IngestJob
from apps.documents.services.documents import document_delete
from apps.retrieval.models import IndexChange
from tests.documents.test_ingest_batches import deliver, long_markdown

pytestmark = pytest.mark.django_db


@pytest.fixture
def sent(monkeypatch):
    monkeypatch.setattr(tasks.ingest_document, "delay", lambda *args: None)  # one task does the whole job here


@pytest.fixture
def stamp(monkeypatch):
    """A reading extra of a test's own: counts the passages in the child, stores what it kept at indexing."""
    stored: list[tuple[int, int, dict]] = []
    extra = extensions.ReadingExtra(
        name="stamp",
        read=lambda parsed, drafts, data: {"passages": len(drafts), "bytes": len(data)},
        to_state=lambda value: {**value, "kept": True},
        store=lambda document, rows, state: stored.append((document.pk, len(rows), state)),
    )
    monkeypatch.setitem(extensions._reading_extras, extra.name, extra)
    return stored


def _job(collection, data: bytes, name: str = "stations.md") -> IngestJob:
    document = Document(collection=collection, original_name=name, doc_type="md", size=len(data))
    document.sha256 = hashlib.sha256(data).hexdigest()
    document.file.save(name, ContentFile(data), save=False)
    document.save()
    return IngestJob.objects.create(document=document)


@override_settings(PORTAL_PARSE_SANDBOX=False, PORTAL_INGEST_BATCHES_PER_TASK=100)
def test_a_registered_extra_is_read_with_the_file_and_stored_with_its_passages(collection, model, sent, stamp):
    data = long_markdown(5)
    job = _job(collection, data)
    deliver(job.pk)
    document = Document.objects.get(pk=job.document_id)
    assert document.status == DocumentStatus.READY, document.error
    assert stamp == [
        (document.pk, document.chunk_count, {"passages": document.chunk_count, "bytes": len(data), "kept": True})
    ]
    assert "stamp" in IngestJob.objects.get(pk=job.pk).timings  # its own lap, beside parse, chunk and references
    assert document.references.exists() is False  # citations' own extra ran too (a markdown file lists none)


@override_settings(PORTAL_PARSE_SANDBOX=False, PORTAL_INGEST_BATCHES_PER_TASK=100)
def test_citations_reads_the_references_through_its_extra(collection, model, sent):
    data = (
        b"# Notes\n\nWe follow Smith [1] here.\n\n## References\n\n"
        b"[1] A. Smith. Reading lists of works. J. Test. 2020.\n[2] B. Jones. Another work entirely. J. Test. 2021.\n"
    )
    job = _job(collection, data, "notes.md")
    deliver(job.pk)
    document = Document.objects.get(pk=job.document_id)
    assert document.status == DocumentStatus.READY, document.error
    assert list(document.references.order_by("index").values_list("number", flat=True)) == [1, 2]


def test_a_deletion_reaches_the_change_log_and_the_relink(document, django_capture_on_commit_callbacks, monkeypatch):
    relinked: list[int] = []
    monkeypatch.setattr(citation_tasks.relink_collection, "delay", relinked.append)
    chunk_ids = sorted(document.chunks.values_list("id", flat=True))
    document_id, collection_id = document.pk, document.collection_id
    with django_capture_on_commit_callbacks(execute=True):
        document_delete(document=document)
    change = IndexChange.objects.filter(document_id=document_id).latest("pk")
    assert change.collection_id == collection_id and change.removed_chunk_ids == chunk_ids
    assert relinked == [collection_id]


def test_a_job_read_before_the_extras_keeps_its_references(document):
    entries = [{"index": 0, "number": "1", "text": "A. Smith. A work. 2020."}]
    old = {"doc_type": "md", "page_count": 1, "entries": entries, "mentions": [], "model_id": "m"}
    job = IngestJob.objects.create(document=document, reading=old)
    migration = importlib.import_module("apps.documents.migrations.0014_ingest_state_extras")
    migration.forwards(django_apps, None)
    state = IngestJob.objects.get(pk=job.pk).reading
    assert state == {
        "doc_type": "md",
        "page_count": 1,
        "model_id": "m",
        "extras": {"references": {"entries": entries, "mentions": []}},
    }
    migration.backwards(django_apps, None)
    assert IngestJob.objects.get(pk=job.pk).reading == old
