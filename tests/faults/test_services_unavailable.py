"""PostgreSQL or Redis away for a moment, with the real services still running for everybody else: the test's own
web server and worker reach them through a TCP proxy (tests/faults/proxy.py) whose cable the test pulls.

- database cut: pages and the API answer 503 with a sentence, then work again without a restart; an ingest that
  loses its connection (also inside its final transaction) retries and ends ready, written once;
- Redis cut: an upload is stored and says it waits for the queue, search answers without its cache, and once
  Redis is back the worker (reconnected, never restarted) sends the waiting job and takes new ones.
"""

from __future__ import annotations

import io
import json
import urllib.error
import urllib.request
import uuid

import pytest
from django.db import connection, transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from apps.documents.models import Chunk, Collection, Document, DocumentStatus, IngestJob, JobStage
from apps.documents.parsing import chunk_document, parse_document
from apps.documents.services.bulk import TextItem, add_texts
from apps.documents.services.ingest import NOT_QUEUED
from apps.documents.services.uploads import document_add
from apps.retrieval.models import IndexChange
from portal.middleware import MESSAGE as DATABASE_UNAVAILABLE
from tests.faults.conftest import wait_for

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.worker]

PAPER = "sci-pdf-jats/papers/bmc-trials-15-1-511/paper.pdf"  # 9 pages
LONG_PAPER = "sci-pdf-jats/papers/PMC4417228/paper.pdf"  # 22 pages: seconds of embedding in which to pull the cable
_OPENER = urllib.request.build_opener(urllib.request.ProxyHandler({}))  # loopback: never through a proxy


def request(
    url: str, *, headers: dict[str, str], data: bytes | None = None, method: str | None = None
) -> tuple[int, dict, str]:
    """(status, headers, body) of one HTTP request; error statuses are answers here, not exceptions."""
    try:
        asked = urllib.request.Request(url, data=data, headers=headers, method=method)
        with _OPENER.open(asked, timeout=180) as response:
            return response.status, dict(response.headers), response.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read().decode()


def multipart(fields: dict[str, str], name: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    parts = [
        f'--{boundary}\r\nContent-Disposition: form-data; name="{key}"\r\n\r\n{value}\r\n'.encode()
        for key, value in fields.items()
    ]
    parts.append(
        f'--{boundary}\r\nContent-Disposition: form-data; name="file"; filename="{name}"\r\n'
        "Content-Type: application/octet-stream\r\n\r\n".encode()
        + content
        + b"\r\n"
    )
    parts.append(f"--{boundary}--\r\n".encode())
    return b"".join(parts), f"multipart/form-data; boundary={boundary}"


def token_header(user) -> dict[str, str]:
    token, _ = Token.objects.get_or_create(user=user)
    return {"Authorization": f"Token {token.key}", "Accept": "application/json"}


def session_header(user) -> dict[str, str]:
    client = Client()
    client.force_login(user)  # the session row is committed: the server process finds it
    return {"Cookie": f"sessionid={client.cookies['sessionid'].value}", "Accept": "text/html"}


def api_upload(base: str, user, name: str, content: bytes) -> tuple[int, dict]:
    body, content_type = multipart({"collection": "lab"}, name, content)
    status, _, text = request(
        f"{base}/api/v1/documents/", headers=token_header(user) | {"Content-Type": content_type}, data=body
    )
    return status, json.loads(text)


def wait_until_finished(document_id: int, timeout: float = 240) -> Document:
    wait_for(
        lambda: Document.objects.filter(
            pk=document_id, status__in=[DocumentStatus.READY, DocumentStatus.FAILED]
        ).exists(),
        f"document {document_id} to finish",
        timeout=timeout,
    )
    return Document.objects.get(pk=document_id)


def assert_ready_once(document: Document, data: bytes, name: str) -> None:
    """Ready, with exactly the passages a clean ingest makes, one job and one final write."""
    assert document.status == DocumentStatus.READY, document.error
    expected = [(d.chunk_index, d.text) for d in chunk_document(parse_document(data, name))]
    stored = list(Chunk.objects.filter(document=document).order_by("chunk_index").values_list("chunk_index", "text"))
    assert stored == expected
    assert [j.stage for j in IngestJob.objects.filter(document=document)] == [JobStage.DONE]
    assert IndexChange.objects.filter(document_id=document.pk).count() == 1


# ---- PostgreSQL -------------------------------------------------------------------------------------------------
def test_pages_and_api_answer_503_while_the_database_is_cut_and_work_again_after(personas, pg_proxy, web_server):
    base = web_server(database_port=pg_proxy.port)
    page, api = session_header(personas["viewer"]), token_header(personas["viewer"])

    status, _, body = request(f"{base}/", headers=page)
    assert status == 200 and "Lab notes" in body
    assert request(f"{base}/api/v1/collections/", headers=api)[0] == 200

    pg_proxy.cut()
    status, headers, body = request(f"{base}/", headers=page)
    assert status == 503, body[:500]
    assert DATABASE_UNAVAILABLE in body and "Traceback" not in body
    assert headers["Content-Type"].startswith("text/html") and headers["Retry-After"]
    status, headers, body = request(f"{base}/api/v1/collections/", headers=api)
    assert status == 503, body[:500]
    assert json.loads(body) == {"detail": DATABASE_UNAVAILABLE, "code": "database_unavailable", "errors": {}}

    pg_proxy.restore()  # the same server process: Django opens a new connection for the next request
    status, _, body = request(f"{base}/", headers=page)
    assert status == 200 and "Lab notes" in body
    status, _, body = request(f"{base}/api/v1/collections/", headers=api)
    assert status == 200 and "lab" in body


def test_an_ingest_that_loses_the_database_while_embedding_retries_and_ends_ready(
    workers, pg_proxy, collection, personas, shared_corpus
):
    data = (shared_corpus / LONG_PAPER).read_bytes()
    worker = workers("pg-embed", database_port=pg_proxy.port)
    added = document_add(collection=collection, name="paper.pdf", fileobj=io.BytesIO(data), user=personas["editor"])
    job = added.document.latest_job()
    wait_for(lambda: IngestJob.objects.filter(pk=job.pk, stage=JobStage.EMBED).exists(), "the embed stage", every=0.05)

    pg_proxy.cut()  # the worker's connection dies; its next progress update fails and the task retries
    wait_for(lambda: "Retry in" in worker.log_text(), "the task to be retried", timeout=120)
    pg_proxy.restore()

    assert_ready_once(wait_until_finished(added.document.pk), data, "paper.pdf")


def test_an_ingest_whose_connection_dies_inside_its_final_transaction_is_rolled_back_and_retried(
    workers, pg_proxy, collection, personas, shared_corpus
):
    data = (shared_corpus / PAPER).read_bytes()
    worker = workers("pg-index", database_port=pg_proxy.port)
    added = document_add(collection=collection, name="trial.pdf", fileobj=io.BytesIO(data), user=personas["editor"])
    # Hold the collection row (long before the worker gets there: it parses and embeds first). Its final transaction,
    # chunks written but not committed, waits for it when it logs its change for search: the cable is pulled
    # exactly inside that transaction.
    with transaction.atomic():
        Collection.objects.select_for_update().get(pk=collection.pk)
        waiting = wait_for(lambda: _backend_waiting_for_a_lock(), "the worker's transaction to wait for the lock")
        assert Chunk.objects.filter(document=added.document).count() == 0  # not committed: invisible
        pg_proxy.cut()
    # The lock is released; the worker's server process finds its client gone, and its transaction rolls back.
    wait_for(lambda: not _backend_alive(waiting), "the cut connection's server process to end")
    assert Chunk.objects.filter(document=added.document).count() == 0
    assert Document.objects.get(pk=added.document.pk).status == DocumentStatus.PROCESSING
    wait_for(lambda: "Retry in" in worker.log_text(), "the task to be retried", timeout=120)
    pg_proxy.restore()

    assert_ready_once(wait_until_finished(added.document.pk), data, "trial.pdf")


def _backend_waiting_for_a_lock() -> int | None:
    with connection.cursor() as cursor:
        # Inside a transaction pg_stat_activity is a snapshot taken at its first read: take a fresh one each time.
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute(
            "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid() "
            "AND wait_event_type = 'Lock' AND query ILIKE %s",
            ["%documents_collection%"],
        )
        row = cursor.fetchone()
    return row[0] if row else None


def _backend_alive(pid: int) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_stat_clear_snapshot()")
        cursor.execute("SELECT 1 FROM pg_stat_activity WHERE pid = %s", [pid])
        return cursor.fetchone() is not None


# ---- Redis --------------------------------------------------------------------------------------------------------
def test_with_redis_cut_uploads_wait_search_degrades_and_the_worker_catches_up(
    workers, web_server, redis_proxy, collection, personas
):
    add_texts(collection, [TextItem("lions.txt", "Asiatic lions", "The Asiatic lion survives in the Gir forest.")])
    [old] = add_texts(collection, [TextItem("old.txt", "Old notes", "Notes nobody needs any more.")])
    base = web_server(redis_port=redis_proxy.port)
    worker = workers("redis", redis_port=redis_proxy.port)
    editor = personas["editor"]

    redis_proxy.cut()
    status, created = api_upload(base, editor, "plan.md", b"# Plan\n\nRead the gir forest papers first.\n")
    # stored and pending, and the person is told why nothing happens yet
    assert status == 201, created
    assert created["status"] == "pending" and "task queue cannot be reached" in created["message"]
    assert IngestJob.objects.get(document_id=created["id"]).error == NOT_QUEUED
    # search answers without its Redis cache
    status, _, body = request(
        f"{base}/api/v1/search?q=lion+forest&collection=lab&mode=keyword", headers=token_header(editor)
    )
    assert status == 200, body[:500]
    assert [hit["title"] for hit in json.loads(body)["results"]][:1] == ["Asiatic lions"]
    # a delete is done, and the relink it needs is marked for later rather than lost
    status, _, body = request(f"{base}/api/v1/documents/{old.pk}/", method="DELETE", headers=token_header(editor))
    assert status == 204, body[:500]
    collection.refresh_from_db()
    assert collection.links_stale

    redis_proxy.restore()
    # the worker reconnects by itself and sends the job that could not be queued
    assert wait_until_finished(created["id"]).status == DocumentStatus.READY
    assert "re-sent 1 ingest job" in worker.log_text()
    # and the relink (the test suite's own worker may sweep first: what counts is that it was sent)
    wait_for(lambda: not Collection.objects.get(pk=collection.pk).links_stale, "the stale relink to be sent", 90)
    # and takes work queued after the cut, as the same process that lived through it
    status, later = api_upload(base, editor, "later.md", b"# Later\n\nQueued after Redis came back.\n")
    assert status == 201 and "is being read" in later["message"]
    assert wait_until_finished(later["id"]).status == DocumentStatus.READY
    assert worker.alive()
