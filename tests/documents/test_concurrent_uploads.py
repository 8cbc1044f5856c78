"""The same file uploaded many times at once: one upload adds it, every other one is told it is a duplicate.

Each upload first looks for a copy with the same content and, finding none, inserts one; when twenty arrive
together several find none, and the unique constraint (one_copy_per_collection) let only the first insert through:
the others answered HTTP 500 (measured: 1 added, 14 duplicates, 5 errors out of 20). Here the uploads run truly
at once, in threads started together (each with its own database connection), through the service and through a
live server's API and upload page, and every answer must be "added" or "duplicate", as in the sequential case.
"""

from __future__ import annotations

import hashlib
import http.client
import json
import re
import threading
import uuid
from collections import Counter
from collections.abc import Callable
from io import BytesIO
from urllib.parse import urlsplit

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.test import Client
from django.urls import reverse
from rest_framework.authtoken.models import Token

from apps.documents.models import Document
from apps.documents.services.uploads import document_add

pytestmark = pytest.mark.django_db(transaction=True)

UPLOADS = 20


def at_once(work: Callable[[int], object], count: int = UPLOADS) -> list[object]:
    """`work(n)` in `count` threads released together; their results (or the exception each raised)."""
    start = threading.Barrier(count)
    results: list[object] = [None] * count

    def run(n: int) -> None:
        try:
            start.wait()
            results[n] = work(n)
        except Exception as exc:  # recorded, the test looks at every answer
            results[n] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(n,)) for n in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return results


def unique_bytes() -> bytes:
    return f"Field notes {uuid.uuid4()}: the glacier retreated 40 m this summer.\n".encode()


def stored_files(collection, content: bytes) -> list[str]:
    """The files stored for `content` in `collection` (they live in a folder named by the content's hash)."""
    folder = f"collections/{collection.pk}/{hashlib.sha256(content).hexdigest()[:16]}"
    return default_storage.listdir(folder)[1] if default_storage.exists(folder) else []


def test_the_service_adds_one_copy_and_reports_the_rest_as_duplicates(collection, personas, celery_worker_available):
    content = unique_bytes()
    editor = personas["editor"]

    results = at_once(
        lambda n: document_add(collection=collection, name=f"notes-{n}.txt", fileobj=BytesIO(content), user=editor)
    )

    errors = [r for r in results if isinstance(r, Exception)]
    assert errors == []
    assert Counter(r.outcome for r in results) == {"added": 1, "duplicate": UPLOADS - 1}
    document = Document.objects.get(collection=collection)
    assert {r.document.pk for r in results} == {document.pk}
    duplicate = next(r for r in results if r.outcome == "duplicate")
    assert "already in this collection" in duplicate.message
    assert len(stored_files(collection, content)) == 1, "the losers' stored files must be removed again"


def _post(url: str, body: bytes, headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=120)
    try:
        conn.request("POST", parts.path, body=body, headers=headers)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def _get(url: str, cookies: str) -> tuple[int, dict[str, str], str]:
    parts = urlsplit(url)
    conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
    try:
        conn.request("GET", parts.path, headers={"Cookie": cookies})
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read().decode()
    finally:
        conn.close()


def multipart(fields: dict[str, str], field: str, filename: str, content: bytes) -> tuple[bytes, str]:
    boundary = uuid.uuid4().hex
    out = BytesIO()
    for name, value in fields.items():
        out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{name}"\r\n\r\n{value}\r\n'.encode())
    out.write(f'--{boundary}\r\nContent-Disposition: form-data; name="{field}"; filename="{filename}"\r\n'.encode())
    out.write(b"Content-Type: text/plain\r\n\r\n" + content + b"\r\n")
    out.write(f"--{boundary}--\r\n".encode())
    return out.getvalue(), f"multipart/form-data; boundary={boundary}"


def test_the_api_answers_added_once_and_duplicate_to_every_other_upload(
    live_server, collection, personas, api_client_for, celery_worker_available
):
    token, _ = Token.objects.get_or_create(user=personas["editor"])
    content = unique_bytes()
    url = live_server.url + reverse("api-document-list")

    def upload(n: int):
        body, content_type = multipart({"collection": collection.slug}, "file", f"notes-{n}.txt", content)
        headers = {"Authorization": f"Token {token.key}", "Content-Type": content_type, "Accept": "application/json"}
        return _post(url, body, headers)

    results = at_once(upload)

    assert [r for r in results if isinstance(r, Exception)] == []
    statuses = Counter(status for status, _, _ in results)
    assert statuses == {201: 1, 200: UPLOADS - 1}, [body[:200] for status, _, body in results if status >= 300]
    answers = [json.loads(body) for _, _, body in results]
    assert Counter(a["outcome"] for a in answers) == {"added": 1, "duplicate": UPLOADS - 1}
    document = Document.objects.get(collection=collection)
    assert {a["id"] for a in answers} == {document.pk}
    # The same shape as a duplicate uploaded after the first had finished.
    again = api_client_for("editor").post(
        reverse("api-document-list"),
        {"collection": collection.slug, "file": SimpleUploadedFile("again.txt", content)},
        format="multipart",
    )
    assert again.status_code == 200 and again.json()["outcome"] == "duplicate"
    assert all(set(a) == set(again.json()) for a in answers)
    assert len(stored_files(collection, content)) == 1


def test_the_upload_page_says_added_once_and_already_there_to_every_other_upload(
    live_server, collection, personas, celery_worker_available
):
    # given: an editor's session, and the CSRF cookie and form token the collection page hands out
    browser = Client()
    browser.force_login(personas["editor"])
    cookies = f"sessionid={browser.cookies['sessionid'].value}"
    page = live_server.url + collection.get_absolute_url()
    status, headers, html = _get(page, cookies)
    assert status == 200
    cookies += "; " + re.search(r"csrftoken=[^;]+", headers["Set-Cookie"]).group(0)
    csrf_form = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', html).group(1)
    content = unique_bytes()
    upload_url = live_server.url + reverse("collection-upload", kwargs={"slug": collection.slug})

    def upload(n: int):
        body, content_type = multipart({"csrfmiddlewaretoken": csrf_form}, "files", f"notes-{n}.txt", content)
        status, headers, _ = _post(upload_url, body, {"Content-Type": content_type, "Cookie": cookies})
        # then the page the browser is sent to, with the message this upload left in its cookie
        messages = re.search(r"messages=([^;]*)", headers.get("Set-Cookie", ""))
        _, _, html = _get(page, cookies + (f"; messages={messages.group(1)}" if messages else ""))
        return status, headers.get("Location"), html

    # when
    results = at_once(upload)

    # then
    assert [r for r in results if isinstance(r, Exception)] == []
    assert Counter(status for status, _, _ in results) == {302: UPLOADS}
    assert {location for _, location, _ in results} == {collection.get_absolute_url()}
    added = sum("was added and is being read" in html for _, _, html in results)
    duplicates = sum("is already in this collection" in html for _, _, html in results)
    assert (added, duplicates) == (1, UPLOADS - 1)
    assert Document.objects.filter(collection=collection).count() == 1
    assert len(stored_files(collection, content)) == 1
