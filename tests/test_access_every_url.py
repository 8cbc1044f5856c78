"""Every URL pattern of the project, found by walking the resolver, for a manager, a member of another collection
and an anonymous person: no content of a collection reaches anyone who is not its member.

A new endpoint is covered the day it is added: the walk finds it, its path parameters are filled from the table
below (an unknown parameter name fails the test until it is added), and every method is tried. What is checked:
- the secret word carried by the collection's document (text, title, file name) and by the manager's conversation
  never appears in a response to the outsider or the anonymous person, whatever the method;
- the outsider's answer for the collection's objects is the same status as for objects that do not exist (a
  hidden collection is indistinguishable from a missing one);
- no request of theirs makes a server error;
- the anonymous person gets nothing but a log-in redirect, 401/403, 404 or 405, except on the public pages listed;
- nothing the outsider or the anonymous person sends changes anything (rows compared before and after);
- the manager does see the secret on every page and endpoint that shows content (so the check above can fail),
  and the search cache the manager filled is not served to the outsider.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, resolve
from rest_framework.authtoken.models import Token

from apps.citations.models import Conversation, Message
from apps.documents.models import Chunk, Document, IngestJob, Membership
from apps.documents.services.bulk import TextItem, add_texts

pytestmark = pytest.mark.django_db

SECRET = "zanzibarite"
QUESTION = f"What do {SECRET} crystals do under ultraviolet light?"
METHODS = ("get", "post", "put", "patch", "delete")
MISSING_SLUG, MISSING_ID = "no-such-collection", 987654321

# Pages anyone may open: they carry no collection's content (the log-in form, the API's description).
PUBLIC = {
    "login",
    "logout",
    "api-schema",
    "api-docs",
    "admin:login",
    "admin:logout",
    "admin:jsi18n",
    "healthz",
    "set-language",
    "javascript-catalog",
}
# GET endpoints that show no document content even to a manager, and why.
NO_CONTENT = {
    "login": "the log-in form",
    "logout": "logs out",
    "api-token": "the caller's own API token",
    "api-schema": "describes the API, holds no data",
    "api-docs": "describes the API, holds no data",
    "healthz": "whether the services are up, for load balancers",
    "set-language": "POST only: the interface language",
    "javascript-catalog": "the interface's translations for JavaScript",
    "api-collection-list": "collection names and counts only",
    "collection-list": "collection names and counts only",
    "api-document-references": "the test document is plain text: no reference list",
    "api-document-related": "a single document has no related ones",
    "api-document-reingest": "POST only",
    "api-ask": "POST only",
    "api-ask-stream": "POST only",
    "collection-upload": "POST only",
    "collection-members": "member names and roles",
    "membership-update": "POST only",
    "document-status": "the ingest progress row",
    "document-reingest": "POST only",
    "document-delete": "POST only",
    "message-regenerate": "POST only",
}


@dataclass
class Route:
    """One URL pattern with its path filled in for the collection's objects and for missing ones."""

    route: str
    name: str
    params: list[str] = field(default_factory=list)

    @property
    def is_api(self) -> bool:
        return self.route.startswith("api/")

    @property
    def is_admin(self) -> bool:
        return self.route.startswith("admin/")


_PARAM = re.compile(r"<(?:(?P<conv>\w+):)?(?P<name>\w+)>|\(\?P<(?P<rname>\w+)>[^)]*\)")


def _walk(resolver: URLResolver, prefix: str = "", namespace: str = "") -> list[Route]:
    routes: list[Route] = []
    for pattern in resolver.url_patterns:
        text = prefix + str(pattern.pattern)
        if isinstance(pattern, URLResolver):
            inner = f"{namespace}:{pattern.namespace}" if namespace and pattern.namespace else pattern.namespace
            routes += _walk(pattern, text, inner or namespace)
        elif isinstance(pattern, URLPattern):
            name = f"{namespace}:{pattern.name}" if namespace and pattern.name else (pattern.name or text)
            params = [m.group("name") or m.group("rname") for m in _PARAM.finditer(text)]
            routes.append(Route(text, name, params))
    return routes


ALL_ROUTES = _walk(get_resolver())


@pytest.fixture
def world(personas, collection, other_collection, embedder):
    """The lab's secret document, chunks and vectors; the manager's conversation about it; the outsider's own."""
    [doc] = add_texts(
        collection,
        [
            TextItem(
                f"{SECRET}-notes.txt",
                f"The {SECRET} report",
                f"{SECRET.capitalize()} crystals glow green "
                "under ultraviolet light, the lab found after three months of measurements.",
            )
        ],
        embedder,
    )
    add_texts(other_collection, [TextItem("otter.txt", "Otters", "Otters hold hands while they sleep.")], embedder)
    manager = _client("manager", personas)
    answer = manager.post("/api/v1/ask", {"question": QUESTION, "collection": "lab"}, content_type="application/json")
    assert answer.status_code == 200, answer.content
    conversation = Conversation.objects.get(pk=answer.json()["conversation"])
    message = Message.objects.filter(conversation=conversation).last()
    assert SECRET in answer.content.decode().lower()
    return {
        "slug": collection.slug,
        "document_id": doc.pk,
        "object_id": doc.pk,
        "conversation_id": conversation.pk,
        "message_id": message.pk,
        "membership_id": Membership.objects.filter(collection=collection, role="viewer").get().pk,
        "id": personas["viewer"].pk,
        "content_type_id": 1,
        "app_label": "documents",
        "url": "documents/document/",
        "path": "",
    }


MISSING = {"slug": MISSING_SLUG, "app_label": "documents", "url": "documents/document/", "path": ""}


def _fill(route: Route, values: dict) -> str:
    def value(match: re.Match) -> str:
        name = match.group("name") or match.group("rname")
        return str(values.get(name, MISSING_ID))

    return "/" + _PARAM.sub(value, route.route).lstrip("^").rstrip("$")


def _client(persona: str | None, personas: dict, *, token: bool = False) -> Client:
    client = Client()
    if persona is not None and token:
        key = Token.objects.get_or_create(user=personas[persona])[0].key
        client.defaults["HTTP_AUTHORIZATION"] = f"Token {key}"
    elif persona is not None:
        client.force_login(personas[persona])
    return client


def _query(route: Route, slug: str) -> dict:
    """What each endpoint needs beyond its path to reach the collection's content."""
    return {
        "api-search": {"q": SECRET, "collection": slug},
        "collection-search": {"q": SECRET},
        "api-document-list": {"collection": slug},
        "api-conversation-list": {"collection": slug},
        "api-document-preview": {"chunk_index": 0},
        "document-viewer": {"chunk": 0},
    }.get(route.name, {})


def _body(route: Route, slug: str) -> dict:
    """A request body that would do something if the caller were allowed to."""
    upload = SimpleUploadedFile(f"{SECRET}-upload.txt", f"{SECRET} upload".encode())
    return {
        "api-ask": {"question": QUESTION, "collection": slug},
        "api-ask-stream": {"question": QUESTION, "collection": slug},
        "collection-ask": {"question": QUESTION},
        "api-document-list": {"collection": slug, "file": upload},
        "collection-upload": {"files": [upload]},
        "membership-update": {"role": "manager"},
        "collection-members": {"username": "otto", "role": "manager"},
    }.get(route.name, {"q": SECRET})


def _send(client: Client, method: str, route: Route, values: dict, slug: str):
    url = _fill(route, values)
    if method == "get":
        return client.get(url, _query(route, slug))
    body = _body(route, slug)
    if method == "post" and any(isinstance(v, SimpleUploadedFile | list) for v in body.values()):
        return client.post(url, body)
    plain = {k: v for k, v in body.items() if not isinstance(v, SimpleUploadedFile | list)}
    return getattr(client, method)(url, plain, content_type="application/json")


def _text(response) -> str:
    raw = b"".join(response.streaming_content) if response.streaming else response.content
    return raw.decode("utf-8", "replace").lower()


def _state() -> dict:
    """Every row a request could change that belongs to the collections."""
    return {
        "documents": sorted(Document.objects.values_list("id", "status", "title", "original_name", "chunk_count")),
        "chunks": sorted(Chunk.objects.values_list("id", "document_id", "text")),
        "jobs": IngestJob.objects.count(),
        "memberships": sorted(Membership.objects.values_list("id", "user_id", "collection_id", "role")),
        "conversations": sorted(Conversation.objects.values_list("id", "user_id", "title")),
        "messages": sorted(Message.objects.values_list("id", "conversation_id", "answer")),
    }


def _redirects_to_login(response) -> bool:
    return response.status_code == 302 and "login" in response["Location"]


def test_every_url_pattern_is_reached(world):
    """The walk finds the project's endpoints and every path parameter has a value (a new one fails here)."""
    names = {route.name for route in ALL_ROUTES}
    assert {"api-search", "api-ask", "document-viewer", "api-document-file", "conversation-detail"} <= names
    unknown = {p for route in ALL_ROUTES for p in route.params if p not in world}
    assert not unknown, f"add values for these path parameters to the `world` fixture: {sorted(unknown)}"
    for route in ALL_ROUTES:
        assert resolve(_fill(route, world)).route == route.route.lstrip("^").rstrip("$") or route.is_admin


@pytest.mark.parametrize("persona", ["outsider", "anonymous"])
def test_no_content_reaches_a_non_member_through_any_url(world, personas, persona):
    who = None if persona == "anonymous" else persona
    clients = [_client(who, personas)] + ([_client(who, personas, token=True)] if who else [])
    before = _state()
    leaks, differs, opened, failed = [], [], [], []
    for route in ALL_ROUTES:
        for client in clients if route.is_api else clients[:1]:
            for method in METHODS if not route.is_admin else ("get", "post"):
                hidden = _send(client, method, route, world, "lab")
                missing = _send(client, method, route, MISSING, MISSING_SLUG)
                if who and route.name in ("logout", "admin:logout"):
                    client.force_login(personas[who])  # the log-out endpoints did what they say
                where = f"{method.upper()} /{route.route} ({route.name})"
                if SECRET in _text(hidden):
                    leaks.append(where)
                if hidden.status_code >= 500 or missing.status_code >= 500:
                    failed.append(f"{where}: {hidden.status_code}/{missing.status_code}")
                if hidden.status_code != missing.status_code:
                    differs.append(f"{where}: {hidden.status_code} for the lab, {missing.status_code} if missing")
                allowed = hidden.status_code in (401, 403, 404, 405) or _redirects_to_login(hidden)
                if who is None and not allowed and route.name not in PUBLIC:
                    opened.append(f"{where}: {hidden.status_code}")
    assert not leaks, f"the secret reached the {persona} through: {leaks}"
    assert not failed, f"server errors: {failed}"
    assert not differs, f"the {persona} can tell the lab's objects from missing ones: {differs}"
    assert not opened, f"the anonymous person got an answer from: {opened}"
    assert _state() == before, f"a request of the {persona} changed the collections"


def test_the_manager_sees_the_content_everywhere_it_is_shown(world, personas):
    """The positive control: without it the test above could pass on a portal that shows nothing to anyone."""
    client, api = _client("manager", personas), _client("manager", personas, token=True)
    silent = []
    for route in ALL_ROUTES:
        if route.is_admin or route.name in NO_CONTENT:
            continue
        response = _send(api if route.is_api else client, "get", route, world, "lab")
        if response.status_code != 200 or SECRET not in _text(response):
            silent.append(f"GET /{route.route} ({route.name}): {response.status_code}")
    assert not silent, f"list these in NO_CONTENT with a reason, or fix them: {silent}"
    admin = _client("admin", personas)
    assert SECRET in _text(admin.get("/admin/documents/document/"))


def test_a_cached_search_is_not_served_to_another_collections_member(world, personas):
    manager, outsider = _client("manager", personas, token=True), _client("outsider", personas, token=True)
    first = manager.get("/api/v1/search", {"q": SECRET})
    assert first.status_code == 200 and SECRET in _text(first)
    personas["manager"].is_staff = True  # staff alone are told that the cache answered
    personas["manager"].save(update_fields=["is_staff"])
    assert manager.get("/api/v1/search", {"q": SECRET}).json()["diagnostics"]["cached"]
    again = outsider.get("/api/v1/search", {"q": SECRET})
    assert again.status_code == 200 and "cached" not in again.json()
    assert {hit["collection"] for hit in again.json()["results"]} <= {"other"}
    assert SECRET not in json.dumps(again.json()["results"]).lower()


MCP_ARGUMENTS = {
    "kb_search": lambda w, slug: {"query": SECRET, "collection": slug},
    "kb_ask": lambda w, slug: {"question": QUESTION, "collection": slug},
    "kb_preview": lambda w, slug: {"document_id": w["document_id"] if slug == "lab" else MISSING_ID, "chunk_index": 0},
}


def _mcp_calls(key: str, world: dict, slug: str) -> dict[str, tuple[bool, str]]:
    """Every tool the MCP server lists, called in process with `key` as the caller's token: (is_error, text)."""
    import asyncio

    from apps.integrations.mcp.server import build_server

    server = build_server(lambda ctx: key)

    async def run() -> dict[str, tuple[bool, str]]:
        tools = [tool.name for tool in await server.list_tools()]
        unknown = set(tools) - set(MCP_ARGUMENTS)
        assert not unknown, f"add the arguments that reach a collection's content for these MCP tools: {unknown}"
        out = {}
        for name in tools:
            try:
                result = await server.call_tool(name, MCP_ARGUMENTS[name](world, slug))
            except Exception as exc:  # the SDK raises a tool's error when it is called without a session
                out[name] = (True, str(exc))
                continue
            parts = result if isinstance(result, list | tuple) else [result]
            out[name] = (bool(getattr(parts[0], "is_error", False)), repr(result))
        return out

    return asyncio.run(run())


@pytest.mark.django_db(transaction=True)  # the tools run in threads of their own, on connections of their own
def test_every_mcp_tool_keeps_the_collection_to_its_members(world, personas):
    key = Token.objects.get_or_create(user=personas["outsider"])[0].key
    hidden, missing = _mcp_calls(key, world, "lab"), _mcp_calls(key, world, MISSING_SLUG)
    for name, (is_error, text) in hidden.items():
        assert is_error and "not found" in text.lower() and SECRET not in text.lower(), (name, text)
        assert text.replace(str(world["document_id"]), str(MISSING_ID)) == missing[name][1], name
    for name, (is_error, text) in _mcp_calls("not-a-token", world, "lab").items():
        assert is_error and SECRET not in text.lower(), (name, text)
    manager = Token.objects.get_or_create(user=personas["manager"])[0].key
    for name, (is_error, text) in _mcp_calls(manager, world, "lab").items():
        assert not is_error and SECRET in text.lower(), (name, text)
