"""The API's shared conventions: one error body for every failure, one pagination for every list, the filters of
the long lists, and a schema that documents all of it."""

from __future__ import annotations

import pytest
from django.core.files.base import ContentFile
from django.urls import reverse
from rest_framework.exceptions import Throttled

from apps.citations.models import Conversation, Reference
from apps.documents.models import Document, DocumentStatus
from portal.api_errors import exception_handler

pytestmark = pytest.mark.django_db

ERROR_KEYS = {"detail", "code", "errors"}


def _add_document(collection, name: str, title: str = "", status: str = DocumentStatus.READY) -> Document:
    document = Document(
        collection=collection,
        original_name=name,
        title=title,
        doc_type=name.rsplit(".", 1)[-1],
        size=4,
        sha256=name.ljust(64, "0")[:64],
        status=status,
    )
    document.file.save(name, ContentFile(b"text"), save=False)
    document.save()
    return document


# ---- errors ------------------------------------------------------------------------------------------------------
def test_an_invalid_parameter_names_its_field(api_client_for, document):
    url = reverse("api-document-preview", kwargs={"document_id": document.pk})
    body = api_client_for("viewer").get(url, {"chunk_index": "abc"}).json()
    assert set(body) == ERROR_KEYS and body["code"] == "invalid"
    assert list(body["errors"]) == ["chunk_index"] and body["detail"].startswith("chunk_index: ")


def test_a_message_about_the_whole_request_becomes_the_detail(api_client_for, collection):
    body = api_client_for("viewer").get(reverse("api-search"), {"q": "x", "mode": "fuzzy"}).json()
    assert body["code"] == "invalid" and "mode must be one of" in body["detail"] and body["errors"] == {}


@pytest.mark.parametrize(
    "persona,headers,status,code",
    [
        (None, {}, 401, "not_authenticated"),
        (None, {"HTTP_AUTHORIZATION": "Token not-a-real-token"}, 401, "authentication_failed"),
        ("outsider", {}, 404, "not_found"),
    ],
)
def test_authentication_and_access_errors_have_the_same_shape(api_client_for, document, persona, headers, status, code):
    response = api_client_for(persona).get(reverse("api-document-detail", args=[document.pk]), **headers)
    body = response.json()
    assert response.status_code == status and set(body) == ERROR_KEYS
    assert body["code"] == code and body["errors"] == {} and body["detail"]


def test_a_hidden_document_and_a_missing_one_get_the_same_404(api_client_for, document):
    client = api_client_for("outsider")
    for name in ("api-document-detail", "api-document-preview", "api-document-references", "api-document-file"):
        hidden = client.get(reverse(name, args=[document.pk]))
        missing = client.get(reverse(name, args=[document.pk + 1000]))
        assert hidden.status_code == missing.status_code == 404, name
        assert hidden.json() == missing.json() == {"detail": "No such document.", "code": "not_found", "errors": {}}
        assert hidden["Content-Type"] == missing["Content-Type"] == "application/json"


def test_a_viewer_who_may_not_delete_gets_403_in_the_same_shape(api_client_for, document):
    response = api_client_for("viewer").delete(reverse("api-document-detail", args=[document.pk]))
    assert response.status_code == 403 and response.json()["code"] == "permission_denied"
    assert "Editors and managers" in response.json()["detail"]


def test_wrong_method_media_type_and_malformed_json_have_the_same_shape(api_client_for, collection):
    client = api_client_for("viewer")
    put = client.put(reverse("api-collection-list"))
    assert put.status_code == 405 and put.json()["code"] == "method_not_allowed"
    plain = client.post(reverse("api-ask"), "question", content_type="text/plain")
    assert plain.status_code == 415 and plain.json()["code"] == "unsupported_media_type"
    broken = client.post(reverse("api-ask"), "{not json", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["code"] == "parse_error"
    for response in (put, plain, broken):
        assert set(response.json()) == ERROR_KEYS


def test_an_unexpected_exception_is_a_logged_500_in_the_same_shape(api_client_for, document, monkeypatch, caplog):
    def broken(*_args, **_kwargs):
        raise RuntimeError("the related-documents service broke")

    monkeypatch.setattr("apps.citations.document_api.related_documents", broken)
    response = api_client_for("viewer").get(reverse("api-document-related", args=[document.pk]))
    assert response.status_code == 500 and response["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error" and response.json()["errors"] == {}
    assert "RuntimeError" not in response.content.decode()  # the cause is logged, not told to the caller
    assert any(record.exc_info and "related-documents" in str(record.exc_info[1]) for record in caplog.records)


def test_throttling_answers_429_in_the_same_shape_with_retry_after():
    response = exception_handler(Throttled(wait=3), {})
    assert response.status_code == 429 and response["Retry-After"] == "3"
    assert response.data["code"] == "throttled" and set(response.data) == ERROR_KEYS


def test_every_refused_field_is_listed_with_its_messages(api_client_for, collection):
    response = api_client_for("viewer").post(
        reverse("api-ask"), {"conversation": "x", "depth": "deepest"}, format="json"
    )
    assert response.status_code == 400
    assert set(response.json()["errors"]) == {"conversation", "depth"}
    assert all(isinstance(messages, list) for messages in response.json()["errors"].values())


def test_a_stream_error_before_the_first_event_is_one_error_event_with_the_body(api_client_for, collection):
    response = api_client_for("viewer").post(
        reverse("api-ask-stream"), {"question": ""}, format="json", HTTP_ACCEPT="text/event-stream"
    )
    assert response.status_code == 400 and response["Content-Type"].startswith("text/event-stream")
    assert response.content.decode().startswith('event: error\ndata: {"detail": ')
    assert '"code": "invalid"' in response.content.decode()


# ---- pagination and filters --------------------------------------------------------------------------------------
def test_the_document_list_pages_with_limit_and_offset(api_client_for, collection):
    for n in range(3):
        _add_document(collection, f"note{n}.txt")
    client = api_client_for("viewer")
    first = client.get(reverse("api-document-list"), {"collection": "lab", "limit": 2}).json()
    assert first["count"] == 3 and len(first["results"]) == 2 and first["previous"] is None
    assert "offset=2" in first["next"] and "collection=lab" in first["next"]
    second = client.get(first["next"]).json()
    assert [d["original_name"] for d in second["results"]] == ["note0.txt"] and second["next"] is None
    assert second["previous"] is not None


@pytest.mark.parametrize("params", [{"limit": "0"}, {"limit": "501"}, {"limit": "ten"}, {"offset": "-1"}])
def test_a_bad_page_is_refused_instead_of_guessed(api_client_for, collection, params):
    response = api_client_for("viewer").get(reverse("api-document-list"), {"collection": "lab"} | params)
    assert response.status_code == 400 and list(response.json()["errors"]) == list(params)


def test_the_document_list_filters_by_status_type_and_words(api_client_for, collection):
    _add_document(collection, "lions.txt", title="Asiatic Lions")
    _add_document(collection, "wheat.md", title="Wheat volatiles", status=DocumentStatus.FAILED)
    _add_document(collection, "glacier-lions.txt", title="Glaciers")
    client = api_client_for("viewer")

    def names(**params) -> set[str]:
        body = client.get(reverse("api-document-list"), {"collection": "lab"} | params).json()
        return {d["original_name"] for d in body["results"]}

    assert names(status="failed") == {"wheat.md"}
    assert names(doc_type="md") == {"wheat.md"}
    assert names(q="LIONS") == {"lions.txt", "glacier-lions.txt"}  # the title or the file name
    assert names(q="lions", status="ready", doc_type="txt") == {"lions.txt", "glacier-lions.txt"}
    assert names(status="") == names()  # an emptied filter means "any"
    bad = client.get(reverse("api-document-list"), {"collection": "lab", "status": "lost"})
    assert bad.status_code == 400 and list(bad.json()["errors"]) == ["status"]


def test_conversations_page_and_filter_by_collection(api_client_for, personas, collection, other_collection):
    from apps.documents.models import Membership

    Membership.objects.create(user=personas["viewer"], collection=other_collection, role="viewer")
    lab = [Conversation.objects.create(user=personas["viewer"], collection=collection) for _ in range(2)]
    Conversation.objects.create(user=personas["viewer"], collection=other_collection)
    client = api_client_for("viewer")
    everything = client.get(reverse("api-conversation-list")).json()
    assert everything["count"] == 3
    only_lab = client.get(reverse("api-conversation-list"), {"collection": "lab", "limit": 1}).json()
    assert only_lab["count"] == 2 and [c["id"] for c in only_lab["results"]] == [lab[-1].pk]
    assert client.get(reverse("api-conversation-list"), {"collection": "no-such"}).json()["count"] == 0


def test_references_are_listed_in_order_a_page_at_a_time(api_client_for, document):
    for index in range(3):
        Reference.objects.create(document=document, index=index, number=index + 1, text=f"Entry {index + 1}.")
    body = api_client_for("viewer").get(reverse("api-document-references", args=[document.pk]), {"limit": 2}).json()
    assert body["count"] == 3 and [r["ref_no"] for r in body["results"]] == [1, 2]
    assert set(body["results"][0]) >= {"text", "in_library", "mentions", "chunk_indices", "cited_in"}


# ---- the schema --------------------------------------------------------------------------------------------------
@pytest.fixture
def schema(client) -> dict:
    response = client.get(reverse("api-schema"), {"format": "json"})
    assert response.status_code == 200  # public: it carries no content
    return response.json()


def test_every_operation_documents_its_errors_with_the_shared_body(schema):
    operations = [
        (path, method, operation)
        for path, item in schema["paths"].items()
        if path.startswith("/api/v1/")
        for method, operation in item.items()
    ]
    assert len(operations) == 15
    for path, method, operation in operations:
        responses = operation["responses"]
        assert "401" in responses, (method, path)
        for code, response in responses.items():
            if code.startswith("4") and code != "416":
                json_body = response["content"]["application/json"]["schema"]
                assert json_body == {"$ref": "#/components/schemas/Error"}, (method, path, code)
        if method == "get" and "results" in str(responses["200"]):
            assert {"limit", "offset"} <= {p["name"] for p in operation["parameters"]}, path
    assert set(schema["components"]["schemas"]["Error"]["required"]) == ERROR_KEYS


def test_the_lists_are_documented_as_pages_with_their_filters(schema):
    documents = schema["paths"]["/api/v1/documents/"]["get"]
    assert documents["responses"]["200"]["content"]["application/json"]["schema"] == {
        "$ref": "#/components/schemas/PaginatedDocumentList"
    }
    assert {"collection", "status", "doc_type", "q", "limit", "offset"} <= {p["name"] for p in documents["parameters"]}
    page = schema["components"]["schemas"]["PaginatedDocumentList"]
    assert set(page["properties"]) == {"count", "next", "previous", "results"}
    conversations = schema["paths"]["/api/v1/conversations/"]["get"]
    assert "collection" in {p["name"] for p in conversations["parameters"]}
    for path in ("/api/v1/collections/", "/api/v1/documents/{document_id}/references"):
        assert "Paginated" in str(schema["paths"][path]["get"]["responses"]["200"]), path


def test_the_file_and_the_stream_are_documented_with_their_media_types(schema):
    file_responses = schema["paths"]["/api/v1/documents/{document_id}/file"]["get"]["responses"]
    assert {"200", "206", "416"} <= set(file_responses)
    assert file_responses["206"]["content"]["application/pdf"]["schema"] == {"type": "string", "format": "binary"}
    stream = schema["paths"]["/api/v1/ask/stream"]["post"]["responses"]
    assert list(stream["200"]["content"]) == ["text/event-stream"]
    assert set(stream["400"]["content"]) == {"application/json", "text/event-stream"}


def test_nested_validation_errors_are_flattened_to_dotted_names():
    from rest_framework.exceptions import ValidationError

    response = exception_handler(ValidationError({"rects": {0: {"page": ["required"]}}, "tags": ["too many"]}), {})
    assert response.data["errors"] == {"rects.0.page": ["required"], "tags": ["too many"]}
    assert response.data["detail"] == "rects.0.page: required"
