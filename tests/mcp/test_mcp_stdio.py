"""`manage.py mcp --transport stdio` driven by the MCP SDK's stdio client: the tools answer as the token's owner,
with the REST API's JSON, and the server refuses to start without a valid token."""

from __future__ import annotations

import subprocess
import sys

import anyio
import pytest
from django.db import connection
from django.urls import reverse
from mcp.shared.exceptions import MCPError
from rest_framework.authtoken.models import Token

from tests.mcp.clients import call, stdio_session, text_of
from tests.mcp.conftest import LION_QUESTION, MCP_SITE_URL, ROOT

pytestmark = pytest.mark.django_db(transaction=True)


def test_it_lists_the_tools_finds_a_known_passage_and_previews_it(kb_library, stdio_server, token_of, api_client_for):
    lions = kb_library["lions.txt"]
    params = stdio_server(token_of("viewer"))

    async def session_calls():
        async with stdio_session(params) as session:
            tools = (await session.list_tools()).tools
            found = await call(session, "kb_search", query="Gir forest lions", collection="lab", mode="keyword")
            hit = found.structured_content["results"][0]
            preview = await call(session, "kb_preview", document_id=hit["document_id"], chunk_index=hit["chunk_index"])
            return tools, found, preview

    tools, found, preview = anyio.run(session_calls)

    assert {t.name for t in tools} == {"kb_search", "kb_ask", "kb_preview"}
    search_tool = next(t for t in tools if t.name == "kb_search")
    assert {"query", "collection", "mode", "depth", "top_k"} <= set(search_tool.input_schema["properties"])
    assert not found.is_error
    hits = found.structured_content["results"]
    assert hits[0]["document_id"] == lions.pk and "Gir forest" in hits[0]["text"]
    assert "Gir forest" in text_of(found)
    rest = api_client_for("viewer").get(
        reverse("api-search"), {"q": "Gir forest lions", "collection": "lab", "mode": "keyword"}
    )
    rest_hits = rest.json()["results"]
    assert [h["chunk_id"] for h in hits] == [h["chunk_id"] for h in rest_hits]
    assert set(hits[0]) == set(rest_hits[0])
    # absolute on the server's PORTAL_SITE_URL, as the REST API's are on the request's host
    assert [h["viewer_url"] for h in hits] == [h["viewer_url"] for h in rest_hits]
    assert hits[0]["viewer_url"].startswith(MCP_SITE_URL + "/documents/")

    assert not preview.is_error
    target = [c for c in preview.structured_content["chunks"] if c["is_target"]]
    assert len(target) == 1 and target[0]["chunk_index"] == hits[0]["chunk_index"]
    assert target[0]["text"] == lions.chunks.get(chunk_index=hits[0]["chunk_index"]).text
    rest_preview = api_client_for("viewer").get(
        reverse("api-document-preview", args=[lions.pk]), {"chunk_index": hits[0]["chunk_index"], "context": 2}
    )
    assert preview.structured_content == rest_preview.json()


def test_kb_ask_returns_the_citations_the_rest_api_returns(kb_library, stdio_server, token_of, api_client_for):
    rest = api_client_for("viewer").post(
        reverse("api-ask"), {"question": LION_QUESTION, "collection": "lab"}, format="json"
    )
    assert rest.status_code == 200, rest.content
    expected = rest.json()
    params = stdio_server(token_of("viewer"))

    async def session_calls():
        async with stdio_session(params) as session:
            return await call(session, "kb_ask", question=LION_QUESTION, collection="lab")

    result = anyio.run(session_calls)

    assert not result.is_error, text_of(result)
    body = result.structured_content
    assert set(body) == set(expected)
    assert body["citations"], body
    assert [set(c) for c in body["citations"]] == [set(c) for c in expected["citations"]]
    assert [c["citation_id"] for c in body["citations"]] == [c["citation_id"] for c in expected["citations"]]
    assert [c["chunk_id"] for c in body["citations"]] == [c["chunk_id"] for c in expected["citations"]]
    assert body["citations"][0]["document_id"] == kb_library["lions.txt"].pk
    assert body["conversation"] != expected["conversation"]  # stored as a conversation of its own
    assert "[1]" in text_of(result) and "Sources:" in text_of(result)


def test_an_outsider_gets_not_found_for_the_lab_collection_and_its_documents(kb_library, stdio_server, token_of):
    lions = kb_library["lions.txt"]
    params = stdio_server(token_of("outsider"))

    async def session_calls():
        async with stdio_session(params) as session:
            return {
                "search_lab": await call(session, "kb_search", query="lion", collection="lab", mode="keyword"),
                "search_missing": await call(session, "kb_search", query="lion", collection="nope", mode="keyword"),
                "search_all": await call(session, "kb_search", query="lion", mode="keyword"),
                "ask_lab": await call(session, "kb_ask", question=LION_QUESTION, collection="lab", depth="quick"),
                "ask_missing": await call(session, "kb_ask", question=LION_QUESTION, collection="nope", depth="quick"),
                "preview_lab": await call(session, "kb_preview", document_id=lions.pk, chunk_index=0),
                "preview_missing": await call(session, "kb_preview", document_id=lions.pk + 1000, chunk_index=0),
            }

    results = anyio.run(session_calls)

    for name in ("search_lab", "search_missing", "ask_lab", "ask_missing", "preview_lab", "preview_missing"):
        assert results[name].is_error, name
    # The same words as for a collection or document that does not exist: nothing to learn by probing.
    assert text_of(results["search_lab"]) == text_of(results["search_missing"])
    assert text_of(results["search_lab"]).endswith("Not found: No such collection.")
    assert text_of(results["ask_lab"]) == text_of(results["ask_missing"])
    assert text_of(results["ask_lab"]).endswith("Not found: No such collection.")
    assert text_of(results["preview_lab"]) == text_of(results["preview_missing"])
    assert text_of(results["preview_lab"]).endswith("Not found: No such document.")
    # Searching everything one may read finds nothing of `lab`.
    assert not results["search_all"].is_error
    assert results["search_all"].structured_content["results"] == []


def _start_without_valid_token(server_env: dict, token: str | None) -> subprocess.CompletedProcess:
    env = dict(server_env)
    if token is not None:
        env["PORTAL_MCP_TOKEN"] = token
    return subprocess.run(
        [sys.executable, "manage.py", "mcp", "--transport", "stdio"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )


@pytest.mark.parametrize(
    ("token", "reason"), [(None, "no API token"), ("", "no API token"), ("not-a-token", "not valid")]
)
def test_it_refuses_to_start_without_a_valid_token(server_env, personas, token, reason):
    done = _start_without_valid_token(server_env, token)

    assert done.returncode != 0
    assert done.stdout == ""  # nothing on the protocol stream
    assert len(done.stderr.strip().splitlines()) == 1 and reason in done.stderr, done.stderr


def test_the_sdk_client_cannot_open_a_session_with_a_bad_token(stdio_server, personas):
    params = stdio_server("not-a-token")

    async def open_session():
        async with stdio_session(params):
            pass

    with pytest.raises(ExceptionGroup) as refused:  # the SDK's task groups wrap its MCPError
        anyio.run(open_session)
    assert refused.group_contains(MCPError, match="Connection closed")


def test_a_token_replaced_during_a_session_stops_working_at_once(kb_library, stdio_server, token_of):
    lions = kb_library["lions.txt"]
    key = token_of("viewer")
    params = stdio_server(key)

    def revoke() -> None:
        Token.objects.filter(key=key).delete()  # what making a new token at /accounts/token/ does
        connection.close()  # this thread's own connection

    async def session_calls():
        async with stdio_session(params) as session:
            before = await call(session, "kb_preview", document_id=lions.pk, chunk_index=0)
            await anyio.to_thread.run_sync(revoke)
            after = await call(session, "kb_preview", document_id=lions.pk, chunk_index=0)
            return before, after

    before, after = anyio.run(session_calls)

    assert not before.is_error
    assert after.is_error and "The API token is no longer valid" in text_of(after)
    assert after.structured_content is None


def test_without_a_site_url_it_says_its_links_are_site_relative(server_env, token_of):
    # given: no PORTAL_SITE_URL, a valid token, and a client that closes at once (stdin at its end)
    env = {k: v for k, v in server_env.items() if k != "PORTAL_SITE_URL"} | {"PORTAL_MCP_TOKEN": token_of("viewer")}
    env["PORTAL_WARM_UP"] = "false"
    done = subprocess.run(
        [sys.executable, "manage.py", "mcp", "--transport", "stdio"],
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    # then: the warning is on stderr, never on the protocol stream
    assert "PORTAL_SITE_URL is not set" in done.stderr and "site-relative" in done.stderr, done.stderr
    assert "PORTAL_SITE_URL" not in done.stdout
    # and with the setting it says nothing of the kind
    done = subprocess.run(
        [sys.executable, "manage.py", "mcp", "--transport", "stdio"],
        cwd=ROOT,
        env=env | {"PORTAL_SITE_URL": "https://kb.example.org"},
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert "PORTAL_SITE_URL is not set" not in done.stderr
