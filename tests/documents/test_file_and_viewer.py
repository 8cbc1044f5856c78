"""The original file (ranges, headers, no path from the request) and the viewer page, through the access helpers:
members see them, anyone else gets 404 from the viewer, the file URL and the preview API alike."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse

from apps.documents.files import byte_range
from apps.documents.models import Chunk, Document, DocumentStatus

pytestmark = pytest.mark.django_db

BODY = b"hello world"  # the `document` fixture's file


@pytest.mark.parametrize(
    "header,expected",
    [
        ("", None),
        ("bytes=0-3", (0, 3)),
        ("bytes=4-", (4, 10)),
        ("bytes=-3", (8, 10)),
        ("bytes=5-99", (5, 10)),
        ("bytes=11-", False),
        ("bytes=-0", False),
        ("bytes=7-3", False),
        ("bytes=0-1,4-5", None),  # several ranges: the whole file
        ("items=0-3", None),
        ("bytes=a-b", None),
    ],
)
def test_byte_ranges_are_parsed_strictly(header, expected):
    assert byte_range(header, len(BODY)) == expected


def _read(response) -> bytes:
    return b"".join(response.streaming_content)


@pytest.mark.parametrize("url_name", ["api-document-file", "document-file"])
def test_the_file_is_served_whole_or_by_range_with_safe_headers(api_client_for, document, url_name):
    client = api_client_for("viewer")
    if url_name == "document-file":
        client.force_login(document.collection.memberships.get(role="viewer").user)
    url = reverse(url_name, args=[document.pk])
    whole = client.get(url)
    assert whole.status_code == 200 and _read(whole) == BODY
    assert whole["Accept-Ranges"] == "bytes" and whole["Content-Length"] == str(len(BODY))
    assert whole["Content-Type"] == "text/plain; charset=utf-8"
    assert whole["X-Content-Type-Options"] == "nosniff"
    assert whole["Content-Disposition"] == 'inline; filename="notes.txt"'
    part = client.get(url, HTTP_RANGE="bytes=6-")
    assert part.status_code == 206 and _read(part) == b"world"
    assert part["Content-Range"] == "bytes 6-10/11" and part["Content-Length"] == "5"
    beyond = client.get(url, HTTP_RANGE="bytes=50-")
    assert beyond.status_code == 416 and beyond["Content-Range"] == "bytes */11"
    saved = client.get(url + "?download=1", HTTP_ACCEPT="application/pdf")
    assert saved.status_code == 200 and saved["Content-Disposition"].startswith("attachment;")
    # Conditional requests, by the content hash: a cached copy is confirmed, a stale one gets the whole file.
    tag = whole["ETag"]
    assert tag == f'"{document.sha256}"' and part["ETag"] == tag
    assert client.get(url, HTTP_IF_NONE_MATCH=tag).status_code == 304
    assert client.get(url, HTTP_IF_NONE_MATCH='"another"').status_code == 200
    resumed = client.get(url, HTTP_RANGE="bytes=6-", HTTP_IF_RANGE=tag)
    assert resumed.status_code == 206 and _read(resumed) == b"world"
    stale = client.get(url, HTTP_RANGE="bytes=6-", HTTP_IF_RANGE='"what-it-was-before"')
    assert stale.status_code == 200 and _read(stale) == BODY


def test_uploaded_html_is_served_as_text_and_odd_names_stay_harmless(api_client_for, collection, personas):
    document = Document(
        collection=collection,
        original_name='x"; filename=../../etc/passwd <b>.html',
        doc_type="html",
        size=31,
        sha256="b" * 64,
        status=DocumentStatus.READY,
    )
    document.file.save("page.html", ContentFile(b"<script>alert(1)</script> hello"), save=False)
    document.save()
    response = api_client_for("viewer").get(reverse("api-document-file", args=[document.pk]))
    assert response["Content-Type"] == "text/plain; charset=utf-8" and response["X-Content-Type-Options"] == "nosniff"
    disposition = response["Content-Disposition"]
    assert disposition == 'inline; filename="x_; filename=.._.._etc_passwd <b>.html"'


@pytest.mark.parametrize("persona", ["viewer", "editor", "manager", "admin"])
def test_members_open_the_viewer_at_a_passage(page_client_for, document, persona):
    response = page_client_for(persona).get(reverse("document-viewer", args=[document.pk]) + "?chunk=0")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'id="viewer-target"' in body and '"chunk_index": 0' in body and "hello world" in body
    assert reverse("api-document-preview", args=[document.pk]) in body


def test_outsiders_get_404_from_the_viewer_the_file_and_the_preview(page_client_for, api_client_for, document, client):
    outsider = page_client_for("outsider")
    for name in ("document-viewer", "document-file"):
        assert outsider.get(reverse(name, args=[document.pk])).status_code == 404
    api = api_client_for("outsider")
    for name in ("api-document-file", "api-document-preview"):
        assert api.get(reverse(name, args=[document.pk])).status_code == 404
    client.logout()
    anonymous = client.get(reverse("document-viewer", args=[document.pk]))
    assert anonymous.status_code == 302 and "/accounts/login/" in anonymous["Location"]


def test_the_preview_gives_each_passage_its_section_page_and_locator(api_client_for, document):
    data = api_client_for("viewer").get(reverse("api-document-preview", args=[document.pk]) + "?chunk_index=0").json()
    chunk = data["chunks"][0]
    assert chunk["is_target"] and chunk["chunk_index"] == 0 and chunk["text"] == "hello world"
    assert chunk["locator"] == chunk["metadata"] and chunk["locator"]["para_start"] == 0
    assert "section" in chunk and chunk["page"] is None and data["total_chunks"] == 1
    assert data["doc_type"] == "txt" and chunk["place"] == "line 1"  # the words of the source cards


def test_the_document_page_names_each_passage_as_the_source_cards_do(page_client_for, document):
    # the fixture's one passage is paragraph 0 (counted from 0 inside) and line 1 of a text file
    url = reverse("document-detail", args=[document.pk])
    body = page_client_for("viewer").get(url).content.decode()
    assert "#0 · line 1" in body and "paragraphs 0" not in body
    Chunk.objects.filter(document=document).update(line_start=None, line_end=None, para_start=3, para_end=5)
    body = page_client_for("viewer").get(url).content.decode()
    assert "#0 · paragraphs 4–6" in body
