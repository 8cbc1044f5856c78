"""Every API endpoint for each persona, with token authentication as integrations use it."""

from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.citations.models import Conversation
from apps.documents.models import Document, Membership

pytestmark = pytest.mark.django_db


def test_collections_need_authentication(api_client_for):
    assert api_client_for(None).get(reverse("api-collection-list")).status_code == 401


def test_collections_lists_only_readable_ones_with_the_callers_role(api_client_for, collection, document):
    data = api_client_for("viewer").get(reverse("api-collection-list")).json()["results"]
    assert [(c["slug"], c["role"], c["document_count"], c["ready_count"]) for c in data] == [("lab", "viewer", 1, 1)]
    listed = {
        persona: api_client_for(persona).get(reverse("api-collection-list")).json() for persona in ("outsider", "admin")
    }
    assert [c["slug"] for c in listed["outsider"]["results"]] == ["other"]
    assert {c["slug"] for c in listed["admin"]["results"]} == {"lab", "other"}


ENDPOINTS = [
    ("get", "api-document-list", lambda d: {}, {"collection": "lab"}),
    ("get", "api-document-detail", lambda d: {"document_id": d.pk}, None),
    ("get", "api-document-file", lambda d: {"document_id": d.pk}, None),
    ("get", "api-document-preview", lambda d: {"document_id": d.pk}, {"chunk_index": 0}),
]


@pytest.mark.parametrize("method,name,kwargs,params", ENDPOINTS)
@pytest.mark.parametrize("persona,expected", [("viewer", 200), ("manager", 200), ("outsider", 404), (None, 401)])
def test_read_endpoints_by_persona(api_client_for, document, method, name, kwargs, params, persona, expected):
    response = getattr(api_client_for(persona), method)(reverse(name, kwargs=kwargs(document)), params)
    assert response.status_code == expected


def test_unknown_collection_and_forbidden_collection_look_the_same(api_client_for, collection):
    client = api_client_for("outsider")
    hidden = client.get(reverse("api-document-list"), {"collection": "lab"})
    missing = client.get(reverse("api-document-list"), {"collection": "no-such"})
    assert hidden.status_code == missing.status_code == 404
    assert hidden.json() == missing.json()


def test_document_list_carries_status_and_progress(api_client_for, document):
    [row] = api_client_for("viewer").get(reverse("api-document-list"), {"collection": "lab"}).json()["results"]
    assert row["status"] == "ready" and row["job"]["stage"] == "done" and row["job"]["percent"] == 100
    # absolute on the request's host (portal/links.py; PORTAL_SITE_URL unset in tests)
    assert row["file_url"] == "http://testserver" + reverse("api-document-file", kwargs={"document_id": document.pk})


def test_preview_returns_the_target_chunk_with_its_locator(api_client_for, document):
    data = (
        api_client_for("viewer")
        .get(reverse("api-document-preview", kwargs={"document_id": document.pk}), {"chunk_index": 0, "context": 1})
        .json()
    )
    assert data["total_chunks"] == 1 and data["target_index"] == 0
    [chunk] = data["chunks"]
    assert chunk["is_target"] and chunk["text"] == "hello world"
    assert chunk["metadata"]["locator_precision"] == "paragraph" and chunk["metadata"]["line_start"] == 1


def test_preview_rejects_an_index_out_of_range(api_client_for, document):
    response = api_client_for("viewer").get(
        reverse("api-document-preview", kwargs={"document_id": document.pk}), {"chunk_index": 5}
    )
    assert response.status_code == 400 and "chunk_index" in response.json()["errors"]


@pytest.mark.parametrize(
    "persona,expected", [("viewer", 403), ("outsider", 404), (None, 401), ("editor", 201), ("manager", 201)]
)
def test_upload_by_persona(api_client_for, collection, persona, expected):
    upload = SimpleUploadedFile("memo.md", b"# Memo\n\nThe lab moves on Monday.\n")
    response = api_client_for(persona).post(
        reverse("api-document-list"), {"collection": "lab", "file": upload}, format="multipart"
    )
    assert response.status_code == expected
    assert Document.objects.filter(original_name="memo.md").exists() == (expected == 201)
    if expected == 201:
        assert response.json()["outcome"] == "added" and response.json()["status"] == "pending"


def test_the_same_bytes_again_are_reported_as_a_duplicate(api_client_for, collection):
    client = api_client_for("editor")
    for name in ("a.txt", "b.txt"):
        response = client.post(
            reverse("api-document-list"),
            {"collection": "lab", "file": SimpleUploadedFile(name, b"same bytes")},
            format="multipart",
        )
    assert response.status_code == 200 and response.json()["outcome"] == "duplicate"
    assert Document.objects.filter(collection=collection).count() == 1


def test_an_empty_upload_is_refused_with_a_reason(api_client_for, collection):
    response = api_client_for("editor").post(
        reverse("api-document-list"),
        {"collection": "lab", "file": SimpleUploadedFile("e.txt", b"")},
        format="multipart",
    )
    assert response.status_code == 400 and "empty" in response.json()["errors"]["file"][0]


@pytest.mark.parametrize(
    "persona,expected", [("viewer", 403), ("outsider", 404), (None, 401), ("editor", 204), ("manager", 204)]
)
def test_delete_by_persona(api_client_for, document, persona, expected):
    response = api_client_for(persona).delete(reverse("api-document-detail", kwargs={"document_id": document.pk}))
    assert response.status_code == expected
    assert Document.objects.filter(pk=document.pk).exists() == (expected != 204)


@pytest.mark.parametrize(
    "persona,expected", [("viewer", 403), ("outsider", 404), (None, 401), ("editor", 202), ("manager", 202)]
)
def test_reingest_by_persona(api_client_for, document, persona, expected):
    before = document.jobs.count()
    response = api_client_for(persona).post(reverse("api-document-reingest", kwargs={"document_id": document.pk}))
    assert response.status_code == expected
    assert document.jobs.count() == before + (expected == 202)


def test_conversations_are_their_owners_only(api_client_for, personas, collection):
    mine = Conversation.objects.create(user=personas["viewer"], collection=collection, title="Mine")
    url = reverse("api-conversation-detail", kwargs={"conversation_id": mine.pk})
    assert api_client_for("viewer").get(url).json()["title"] == "Mine"
    listed = api_client_for("viewer").get(reverse("api-conversation-list")).json()["results"]
    assert [c["id"] for c in listed] == [mine.pk]
    for other in ("manager", "outsider"):
        assert api_client_for(other).get(url).status_code == 404
        assert api_client_for(other).get(reverse("api-conversation-list")).json()["results"] == []
    assert api_client_for(None).get(url).status_code == 401


def test_conversations_disappear_with_the_membership(api_client_for, personas, collection):
    mine = Conversation.objects.create(user=personas["viewer"], collection=collection)
    Membership.objects.filter(user=personas["viewer"], collection=collection).delete()
    url = reverse("api-conversation-detail", kwargs={"conversation_id": mine.pk})
    assert api_client_for("viewer").get(url).status_code == 404


def test_a_bad_token_is_refused(client, collection):
    response = client.get(reverse("api-collection-list"), HTTP_AUTHORIZATION="Token not-a-real-token")
    assert response.status_code == 401


def test_the_openapi_schema_lists_the_endpoints(client):
    body = client.get(reverse("api-schema")).content.decode()
    for path in ("/api/v1/collections/", "/api/v1/documents/{document_id}/preview", "/api/v1/conversations/"):
        assert path in body


def test_an_upload_over_the_size_limit_is_refused_with_the_limit(api_client_for, collection, settings):
    settings.PORTAL_MAX_UPLOAD_MB = 1
    big = SimpleUploadedFile("big.txt", b"x" * (1024 * 1024 + 1))
    response = api_client_for("editor").post(
        reverse("api-document-list"), {"collection": "lab", "file": big}, format="multipart"
    )
    assert response.status_code == 400 and "the limit is 1 MB" in response.json()["errors"]["file"][0]
    assert not Document.objects.filter(original_name="big.txt").exists()
