"""Every file of the hostile corpus goes through the real upload API and the real worker (its reading bounded by
the sandbox), and ends as its case says: refused at upload, failed with a reason, or read safely. Afterwards the
worker still reads a normal file, and what was in the collection before is exactly as it was."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from django.conf import settings
from django.test import override_settings
from django.urls import reverse

from apps.documents.models import Chunk, Document
from tests.hostile.builders import multipart_body
from tests.hostile.corpus import HostileCase, cases

pytestmark = [pytest.mark.worker, pytest.mark.django_db(transaction=True)]

BEFORE = b"# Field notes\n\nThe glacier retreated four metres this summer; the moraine is exposed.\n"
AFTER = b"# Later notes\n\nThe worker still reads ordinary files after the hostile ones.\n"


def _post(client, case: HostileCase):
    body, content_type = multipart_body({"collection": "lab"}, case.upload_name, case.data)
    with override_settings(**case.settings):
        return client.generic("POST", reverse("api-document-list"), body, content_type=content_type)


def _chunks(document_id: int) -> list[tuple[int, str]]:
    return list(Chunk.objects.filter(document_id=document_id).order_by("chunk_index").values_list("id", "text"))


def _check_ready(case: HostileCase, result: dict) -> list[str]:
    problems = []
    if result["original_name"] != case.name:
        problems.append(f"name {result['original_name']!r}, expected {case.name!r}")
    text = "\n".join(t for _, t in _chunks(result["id"]))
    problems += [f"text {want!r} missing from the chunks" for want in case.text if want not in text]
    if case.doc_type and result["doc_type"] != case.doc_type:
        problems.append(f"doc_type {result['doc_type']!r}, expected {case.doc_type!r}")
    stored = Path(Document.objects.get(pk=result["id"]).file.path).resolve()
    if not stored.is_relative_to(Path(settings.MEDIA_ROOT).resolve()) or not stored.name.isascii():
        problems.append(f"stored at {stored}")
    if len(stored.name.encode()) > 120:
        problems.append(f"stored name of {len(stored.name.encode())} bytes")
    return problems


def test_every_hostile_file_ends_as_its_case_says_and_harms_nothing_else(
    celery_worker_available, api_client_for, api_upload, wait_for_ingest
):
    client = api_client_for("editor")
    media = Path(settings.MEDIA_ROOT).resolve()
    files_before = {p for p in media.rglob("*") if p.is_file()}  # earlier tests' files stay in the run's folder
    # given a collection with a document already read
    before = wait_for_ingest(client, api_upload(client, "field-notes.md", BEFORE)["id"])
    assert before["status"] == "ready", before["error"]
    chunks_before = _chunks(before["id"])
    assert chunks_before

    # when every hostile file is uploaded through the API
    corpus = cases()
    assert len(corpus) >= 30 and len({c.key for c in corpus}) == len(corpus)
    problems: dict[str, list[str]] = {}
    accepted: dict[str, tuple[HostileCase, int]] = {}
    for case in corpus:
        response = _post(client, case)
        body = response.content.decode()
        if case.outcome == "rejected":
            if response.status_code != 400:
                problems[case.key] = [f"status {response.status_code}, expected 400: {body[:300]}"]
            else:
                missing = [w for w in case.words if w not in body]
                if missing:
                    problems[case.key] = [f"reason {body[:300]!r} lacks {missing}"]
            continue
        if response.status_code != 201:
            problems[case.key] = [f"upload status {response.status_code}: {body[:300]}"]
            continue
        accepted[case.key] = (case, response.json()["id"])

    # then each one ends as its case says
    results = {key: wait_for_ingest(client, doc_id, timeout=600) for key, (_, doc_id) in accepted.items()}
    for key, (case, _) in accepted.items():
        result = results[key]
        if result["status"] != case.outcome:
            problems[key] = [f"status {result['status']} ({result['error'][:200]!r}), expected {case.outcome}"]
        elif case.outcome == "failed":
            missing = [w for w in case.words if w not in result["error"]]
            if missing:
                problems[key] = [f"reason {result['error']!r} lacks {missing}"]
        else:
            problems[key] = _check_ready(case, result)
    problems = {key: found for key, found in problems.items() if found}
    assert not problems, "\n".join(f"{key}: {'; '.join(found)}" for key, found in problems.items())

    # and the worker is still alive: a normal file uploaded after the lot is read
    after = wait_for_ingest(client, api_upload(client, "later-notes.md", AFTER)["id"])
    assert after["status"] == "ready", after["error"]

    # and nothing else changed: the first document keeps its chunks, no refused upload left a row, and every
    # hostile document kept the status it ended with
    assert _chunks(before["id"]) == chunks_before
    assert Document.objects.get(pk=before["id"]).status == "ready"
    assert Document.objects.count() == 2 + len(accepted)
    final = dict(Document.objects.filter(pk__in=[d for _, d in accepted.values()]).values_list("pk", "status"))
    assert {doc_id: final[doc_id] for _, doc_id in accepted.values()} == {
        doc_id: results[key]["status"] for key, (_, doc_id) in accepted.items()
    }
    # and the uploads left no stray files outside the media folder's collection tree, except the viewer pages the
    # worker drew for documents that exist
    documents = {str(pk) for pk in Document.objects.values_list("pk", flat=True)}

    def expected(path: Path) -> bool:
        parts = path.relative_to(media).parts
        return parts[0] == "collections" or (parts[0] == "renders" and parts[1] in documents)

    stray = [p for p in media.rglob("*") if p.is_file() and p not in files_before and not expected(p)]
    assert not stray, stray
    assert os.path.isdir(media / "collections")
