"""Requests an attacker (or a confused client) sends that once ended in a 500: each gets a 4xx with a body that says
what is wrong, the API's JSON error body ({detail, code, errors}) under /api/, a readable page elsewhere.

- text PostgreSQL cannot store: a NUL anywhere (query string, page form, API body, a header), an unpaired surrogate
  in JSON;
- a body over DATA_UPLOAD_MAX_MEMORY_SIZE (413), JSON nested 100,000 levels;
- a Range header with a 5,000-digit number, and other malformed ranges.
"""

from __future__ import annotations

import json

import pytest
from django.conf import settings
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from apps.citations.models import Conversation
from apps.documents.files import byte_range
from apps.documents.models import Document

pytestmark = pytest.mark.django_db

NUL_REASON = "contains a NUL character (U+0000), which cannot be stored"
HUGE = "9" * 5000


def _error_body(response, status: int, code: str) -> dict:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("application/json")
    body = response.json()
    assert set(body) == {"detail", "code", "errors"} and body["code"] == code, body
    return body


def _post_json(client, payload: str | bytes):
    return client.generic("POST", reverse("api-ask"), payload, content_type="application/json")


def _refusal_page(response, status: int) -> str:
    assert response.status_code == status, response.content[:500]
    assert response["Content-Type"].startswith("text/html")
    page = response.content.decode()
    assert "Knowledge portal" in page and "Traceback" not in page
    assert response.has_header("X-Frame-Options")  # refused inside the security middleware, with its headers
    return page


# --- NUL and other text PostgreSQL refuses ------------------------------------------------------------------------


def test_a_question_with_a_nul_on_the_ask_page_is_refused_with_a_readable_page(page_client_for, collection):
    client = page_client_for("editor")
    response = client.post(reverse("collection-ask", args=["lab"]), {"question": "what is\x00 this", "depth": "quick"})
    page = _refusal_page(response, 400)
    assert "question" in page and NUL_REASON in page
    assert not Conversation.objects.exists()  # nothing reached the database


@pytest.mark.parametrize(
    "params",
    [
        {"q": "gla\x00cier"},
        {"q": "glacier", "title": "x\x00"},
        {"q": "glacier", "authors": "\x00", "journal": "j"},
        {"q": "glacier", "section": "results\x00"},
        {"q": "glacier", "kind\x00": "pdf"},
    ],
)
def test_a_nul_in_the_search_page_query_or_its_filters_is_refused(page_client_for, collection, params):
    page = _refusal_page(page_client_for("viewer").get(reverse("collection-search", args=["lab"]), params), 400)
    assert NUL_REASON in page


@pytest.mark.parametrize(
    ("url_name", "params", "field"),
    [
        ("api-search", {"q": "glacier", "collection": "la\x00b"}, "collection"),  # was a DataError: a 500
        ("api-search", {"q": "gla\x00cier", "collection": "lab"}, "q"),
        ("api-document-list", {"collection": "lab", "limit": "1\x00"}, "limit"),
        ("api-conversation-list", {"collection": "\x00"}, "collection"),
    ],
)
def test_a_nul_in_an_api_query_parameter_is_a_400_naming_it(api_client_for, collection, url_name, params, field):
    body = _error_body(api_client_for("viewer").get(reverse(url_name), params), 400, "invalid")
    assert body["errors"] == {field: [NUL_REASON + "; remove it and try again."]}


@pytest.mark.parametrize(
    ("payload", "field", "reason"),
    [
        (b'{"question": "a\\u0000b", "collection": "lab"}', "question", NUL_REASON),
        (b'{"question": "a\\ud800b", "collection": "lab"}', "question", "unpaired surrogate (U+D800)"),
        (b'{"question": "glacier", "collection": "lab", "extra": {"deep": ["\\u0000"]}}', "extra.deep.0", NUL_REASON),
        (b'{"question": "glacier", "collection": "lab", "k\\u0000": 1}', "k\ufffd", NUL_REASON),
    ],
)
def test_text_postgresql_cannot_store_in_an_api_json_body_is_a_400_naming_the_field(
    api_client_for, collection, payload, field, reason
):
    response = _post_json(api_client_for("editor"), payload)
    body = _error_body(response, 400, "invalid")
    assert list(body["errors"]) == [field] and reason in body["errors"][field][0]


def test_a_nul_in_an_api_form_body_is_a_400(api_client_for, collection):
    response = api_client_for("editor").post(reverse("api-ask"), {"question": "a\x00b", "collection": "lab"})
    assert _error_body(response, 400, "invalid")["errors"] == {"question": [NUL_REASON + "; remove it and try again."]}


@pytest.mark.parametrize("header", ["HTTP_AUTHORIZATION", "HTTP_COOKIE"])
def test_a_nul_in_a_header_that_is_looked_up_in_the_database_is_a_400(client, personas, header):
    # The token and the session key are database lookups; a NUL in either was a DataError.
    value = "Token abc\x00def" if header == "HTTP_AUTHORIZATION" else "sessionid=abcdefgh\x00ijkl"
    _error_body(client.get(reverse("api-collection-list"), **{header: value}), 400, "invalid")
    _refusal_page(client.get(reverse("collection-list"), **{header: value}), 400)


def test_a_nul_in_an_uploaded_file_name_is_cleaned_not_stored(api_client_for, collection):
    response = api_client_for("editor").post(
        reverse("api-document-list"),
        {"collection": "lab", "file": SimpleUploadedFile("field\x00notes.txt", b"The glacier retreated.\n")},
        format="multipart",
    )
    assert response.status_code == 201, response.content
    assert Document.objects.get(pk=response.json()["id"]).original_name == "fieldnotes.txt"


# --- Bodies too large or too deep ---------------------------------------------------------------------------------


def test_a_json_body_over_the_upload_limit_is_a_413_with_the_error_body(api_client_for, collection):
    payload = json.dumps({"question": "x" * 6_000_000, "collection": "lab"})
    assert len(payload) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE
    response = _post_json(api_client_for("editor"), payload)
    body = _error_body(response, 413, "too_large")
    assert "larger than the 5 MB" in body["detail"]


def test_a_page_form_over_the_upload_limit_is_a_readable_413_page(page_client_for, collection):
    response = page_client_for("editor").post(reverse("collection-ask", args=["lab"]), {"question": "x" * 6_000_000})
    assert "larger than the 5 MB" in _refusal_page(response, 413)


def test_too_many_query_fields_are_a_400_not_a_500(api_client_for, page_client_for, collection):
    query = "&".join(f"f{i}=1" for i in range(settings.DATA_UPLOAD_MAX_NUMBER_FIELDS + 1))
    _error_body(api_client_for("viewer").get(reverse("api-search") + "?" + query), 400, "parse_error")
    _refusal_page(page_client_for("viewer").get(reverse("collection-search", args=["lab"]) + "?" + query), 400)


@pytest.mark.parametrize("depth", [100_000, 1_000, 33])
def test_json_nested_too_deeply_is_a_400_with_the_error_body(api_client_for, collection, depth):
    for payload in ("[" * depth + "]" * depth, '{"a":' * depth + "1" + "}" * depth):
        response = _post_json(api_client_for("editor"), payload)
        assert "nested deeper than 32 levels" in _error_body(response, 400, "parse_error")["detail"]


def test_json_nested_within_the_bound_is_read_as_usual(api_client_for, collection):
    # given a body whose extra field is nested 31 levels: within the bound, so the serializer answers as always
    payload = json.dumps({"question": "", "collection": "lab", "extra": json.loads("[" * 30 + "]" * 30)})
    response = _post_json(api_client_for("editor"), payload)
    body = _error_body(response, 400, "invalid")
    assert "parse" not in body["detail"]


# --- Range headers ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("header", "expected"),
    [
        (f"bytes={HUGE}-", False),  # starts past any end: 416
        (f"bytes=0-{HUGE}", (0, 10)),  # ends past the end: up to the end
        (f"bytes=-{HUGE}", (0, 10)),  # the last 10**5000 bytes: all of them
        ("bytes=" + "0" * 5000 + "3-4", (3, 4)),  # leading zeros count towards Python's digit limit as well
        (f"bytes={HUGE}-{HUGE}", False),
        ("bytes=\u0663-4", None),  # a digit of another script is no number of HTTP's
        ("bytes=-", None),
        ("bytes=--1", None),
        ("bytes= 1-2", None),
        ("bytes=1-2-3", None),
    ],
)
def test_malformed_and_enormous_ranges_are_parsed_without_error(header, expected):
    assert byte_range(header, len(b"hello world")) == expected


@pytest.mark.parametrize("url_name", ["document-file", "api-document-file"])
def test_a_range_with_thousands_of_digits_is_416_or_the_whole_file_never_500(
    page_client_for, api_client_for, document, url_name
):
    client = page_client_for("viewer") if url_name == "document-file" else api_client_for("viewer")
    url = reverse(url_name, args=[document.pk])
    start_beyond = client.get(url, HTTP_RANGE=f"bytes={HUGE}-")
    assert start_beyond.status_code == 416 and start_beyond["Content-Range"] == "bytes */11"
    suffix = client.get(url, HTTP_RANGE=f"bytes=-{HUGE}")
    assert suffix.status_code == 206 and b"".join(suffix.streaming_content) == b"hello world"
    for header in ("bytes=\u0663-4", f"bytes={HUGE}", "bytes=0-1-2", "bytes=1-2,3-" + HUGE):
        whole = client.get(url, HTTP_RANGE=header)
        assert whole.status_code == 200 and b"".join(whole.streaming_content) == b"hello world", header


@pytest.mark.django_db
def test_a_nul_in_the_mcp_search_collection_is_no_such_collection(personas):
    # the MCP tools call the operations directly, past the API's parsers and the request middleware
    from apps.integrations.mcp.operations import NotFound, search_hits

    with pytest.raises(NotFound, match="No such collection"):
        search_hits(personas["viewer"], query="glaciers", collection="lab\x00")
