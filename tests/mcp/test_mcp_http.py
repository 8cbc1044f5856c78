"""`manage.py mcp --transport http` driven by the MCP SDK's streamable HTTP client: every request needs a valid
API token (401 otherwise), and each call answers with the caller's access and the REST API's JSON."""

from __future__ import annotations

import anyio
import httpx2
import pytest
from django.urls import reverse
from mcp.shared.exceptions import MCPError
from rest_framework.authtoken.models import Token

from apps.citations.models import Conversation
from tests.mcp.clients import call, http_session, text_of
from tests.mcp.conftest import LION_QUESTION

pytestmark = pytest.mark.django_db(transaction=True)

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "1"}},
}
MCP_HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def _post(url: str, authorization: str | None) -> httpx2.Response:
    headers = MCP_HEADERS | ({"Authorization": authorization} if authorization else {})
    return httpx2.post(url, json=INITIALIZE, headers=headers, timeout=30)


def test_a_request_without_a_valid_token_gets_401(http_server, token_of):
    key = token_of("viewer")

    assert _post(http_server, None).status_code == 401
    refused = _post(http_server, "Bearer not-a-token")
    assert refused.status_code == 401
    assert refused.headers["WWW-Authenticate"].startswith("Bearer")
    assert refused.json() == {"detail": "Invalid API token."}
    assert _post(http_server, f"Basic {key}").status_code == 401
    assert _post(http_server, f"Bearer {key}").status_code == 200
    assert _post(http_server, f"Token {key}").status_code == 200

    Token.objects.filter(key=key).delete()  # a new token was made at /accounts/token/: the old one stops at once
    assert _post(http_server, f"Bearer {key}").status_code == 401


def test_the_sdk_client_cannot_open_a_session_with_a_bad_token(http_server, personas):
    statuses: list[int] = []

    async def open_session():
        async with http_session(http_server, "Bearer not-a-token", statuses):
            pass

    with pytest.raises(ExceptionGroup) as refused:  # the SDK's task groups wrap its MCPError
        anyio.run(open_session)
    assert refused.group_contains(MCPError)
    assert statuses == [401]  # refused at the first request, the initialize


def test_search_ask_and_preview_answer_as_the_rest_api(http_server, kb_library, token_of, api_client_for):
    lions = kb_library["lions.txt"]
    api = api_client_for("viewer")
    rest_answer = api.post(reverse("api-ask"), {"question": LION_QUESTION, "collection": "lab"}, format="json").json()
    key = token_of("viewer")

    async def session_calls():
        async with http_session(http_server, f"Token {key}") as session:
            tools = (await session.list_tools()).tools
            found = await call(session, "kb_search", query="durum wheat kernels", collection="lab")
            answered = await call(session, "kb_ask", question=LION_QUESTION, collection="lab")
            cited = answered.structured_content["citations"][0]
            preview = await call(
                session, "kb_preview", document_id=cited["document_id"], chunk_index=cited["chunk_index"], context=1
            )
            return tools, found, answered, cited, preview

    tools, found, answered, cited, preview = anyio.run(session_calls)

    assert sorted(t.name for t in tools) == ["kb_ask", "kb_preview", "kb_search"]
    assert not found.is_error
    assert found.structured_content["results"][0]["document_id"] == kb_library["wheat.txt"].pk
    rest_search = api.get(reverse("api-search"), {"q": "durum wheat kernels", "collection": "lab"}).json()
    assert set(found.structured_content) == set(rest_search)
    assert [h["chunk_id"] for h in found.structured_content["results"]] == [
        h["chunk_id"] for h in rest_search["results"]
    ]

    assert not answered.is_error, text_of(answered)
    body = answered.structured_content
    assert set(body) == set(rest_answer)
    assert [set(c) for c in body["citations"]] == [set(c) for c in rest_answer["citations"]]
    assert [(c["citation_id"], c["chunk_id"]) for c in body["citations"]] == [
        (c["citation_id"], c["chunk_id"]) for c in rest_answer["citations"]
    ]

    assert not preview.is_error
    rest_preview = api.get(
        reverse("api-document-preview", args=[lions.pk]), {"chunk_index": cited["chunk_index"], "context": 1}
    ).json()
    assert preview.structured_content == rest_preview
    assert [c["text"] for c in preview.structured_content["chunks"] if c["is_target"]] == [
        lions.chunks.get(chunk_index=cited["chunk_index"]).text
    ]


def test_a_follow_up_question_stays_in_its_conversation(http_server, kb_library, token_of):
    key = token_of("viewer")

    async def session_calls():
        async with http_session(http_server, f"Bearer {key}") as session:
            first = await call(session, "kb_ask", question=LION_QUESTION, collection="lab", depth="quick")
            conversation = first.structured_content["conversation"]
            again = await call(session, "kb_ask", question="How many lions were there by 2017?", collection="lab",
                               depth="quick", conversation=conversation)  # fmt: skip
            return first, again

    first, again = anyio.run(session_calls)

    assert not again.is_error, text_of(again)
    assert again.structured_content["conversation"] == first.structured_content["conversation"]
    assert again.structured_content["message"] != first.structured_content["message"]


def test_an_outsider_gets_not_found_for_the_lab_collection_and_its_documents(http_server, kb_library, token_of):
    lions = kb_library["lions.txt"]
    key = token_of("outsider")

    async def session_calls():
        async with http_session(http_server, f"Bearer {key}") as session:
            return [
                await call(session, "kb_search", query="lion", collection="lab"),
                await call(session, "kb_ask", question=LION_QUESTION, collection="lab", depth="quick"),
                await call(session, "kb_preview", document_id=lions.pk, chunk_index=0),
            ]

    search, ask, preview = anyio.run(session_calls)

    assert search.is_error and text_of(search).endswith("Not found: No such collection.")
    assert ask.is_error and text_of(ask).endswith("Not found: No such collection.")
    assert preview.is_error and text_of(preview).endswith("Not found: No such document.")


def test_invalid_parameters_come_back_as_tool_errors_that_say_what_is_wrong(http_server, kb_library, token_of):
    lions = kb_library["lions.txt"]
    key = token_of("viewer")

    async def session_calls():
        async with http_session(http_server, f"Bearer {key}") as session:
            return {
                "mode": await call(session, "kb_search", query="lion", mode="fuzzy"),
                "top_k": await call(session, "kb_search", query="lion", top_k=0),
                "empty": await call(session, "kb_search", query="   "),
                "no_question": await call(session, "kb_ask", question="", collection="lab"),
                "chunk": await call(session, "kb_preview", document_id=lions.pk, chunk_index=99),
                "conversation": await call(session, "kb_ask", question="Why?", collection="lab", conversation=999999),
            }

    errors = anyio.run(session_calls)

    assert all(result.is_error for result in errors.values())
    assert "Invalid parameters: mode: Input should be 'keyword', 'vector' or 'hybrid'" in text_of(errors["mode"])
    assert "Invalid parameters: top_k: Input should be greater than or equal to 1" in text_of(errors["top_k"])
    assert "Invalid parameters" in text_of(errors["empty"])
    assert "Invalid parameters: Type a question." in text_of(errors["no_question"])
    assert "chunk_index" in text_of(errors["chunk"]) and "between 0 and 0" in text_of(errors["chunk"])
    assert text_of(errors["conversation"]).endswith("Not found: No such conversation.")


def test_kb_ask_without_a_collection_asks_every_collection_its_caller_may_read(http_server, kb_library, token_of):
    lab_documents = {document.pk for document in kb_library.values()}
    member, outsider = token_of("viewer"), token_of("outsider")

    async def session_calls():
        async with http_session(http_server, f"Bearer {member}") as session:
            mine = await call(session, "kb_ask", question=LION_QUESTION, depth="quick")
        async with http_session(http_server, f"Bearer {outsider}") as session:
            theirs = await call(session, "kb_ask", question=LION_QUESTION, depth="quick")
        return mine, theirs

    mine, theirs = anyio.run(session_calls)

    # a member is answered from the lab's documents, in a conversation across collections
    assert not mine.is_error, text_of(mine)
    cited = {c["document_id"] for c in mine.structured_content["citations"]}
    assert cited and cited <= lab_documents
    assert Conversation.objects.get(pk=mine.structured_content["conversation"]).collection is None
    # an outsider asking every collection they may read never gets a lab passage, cited or on the topic
    assert not theirs.is_error, text_of(theirs)
    seen = theirs.structured_content["citations"] + theirs.structured_content.get("topic_passages", [])
    assert not {c["document_id"] for c in seen} & lab_documents
