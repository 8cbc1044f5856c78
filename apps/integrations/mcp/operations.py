"""What each MCP tool does, as plain Django code: the same services, serializers and views as the REST API, so a
tool's JSON is the body the matching endpoint returns, and its errors carry the endpoint's messages.

Everything here is synchronous (the ORM) and runs in a worker thread; `server` calls it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.http import Http404
from mcp.server.mcpserver.exceptions import ToolError
from rest_framework.exceptions import ValidationError
from rest_framework.renderers import JSONRenderer

from apps.citations.answers.service import InvalidQuestion, answer, prepare
from apps.citations.api import AskRequestSerializer
from apps.documents.api.params import PreviewQuerySerializer
from apps.documents.api.views import preview_data
from apps.retrieval.api import SearchQueryForm, first_errors, search_body
from apps.retrieval.search.service import search as run_search
from apps.retrieval.search.types import CollectionNotFound, InvalidSearch
from portal.links import absolute_links, site_url


class NotFound(ToolError):
    """A collection, document or conversation that does not exist or that the caller may not read: one message
    for both, as the REST API's 404, so nothing can be discovered by probing."""

    def __init__(self, detail: str) -> None:
        super().__init__(f"Not found: {detail}")


def as_api_json(data: Any) -> dict:
    """`data` as a REST client receives it (DRF's encoder: dates, decimals, lazy strings), its links absolute on
    PORTAL_SITE_URL. There is no request to take a host from: without the setting they stay site-relative
    ("/documents/4/view/?chunk=2"), and the server says so as it starts (docs/mcp.md)."""
    return absolute_links(json.loads(JSONRenderer().render(data)), site_url())


def _invalid(errors: Mapping[str, Any] | Any) -> ToolError:
    """One readable line from a form's or serializer's errors: "top_k: must be a whole number"."""
    if not isinstance(errors, Mapping):
        return ToolError(f"Invalid parameters: {errors}")
    parts = []
    for field, messages in errors.items():
        text = "; ".join(str(m) for m in messages) if isinstance(messages, list | tuple) else str(messages)
        parts.append(text if field in ("detail", "non_field_errors", "__all__") else f"{field}: {text}")
    return ToolError("Invalid parameters: " + " | ".join(parts))


def search_hits(
    user: AbstractBaseUser,
    *,
    query: str,
    collection: str | None = None,
    mode: str | None = None,
    depth: str | None = None,
    top_k: int | None = None,
) -> dict:
    """GET /api/v1/search?q=&collection=&mode=&depth=&top_k= for `user`: {query, params, results, diagnostics, ...}."""
    form = SearchQueryForm({"q": query, "mode": mode or "", "depth": depth or "", "top_k": top_k})
    if not form.is_valid():
        raise _invalid(first_errors(form))
    slugs = (collection.strip(),) if collection and collection.strip() else ()
    try:
        response = run_search(user, form.search_params(slugs))
    except InvalidSearch as exc:
        raise ToolError(f"Invalid parameters: {exc}") from None
    except CollectionNotFound:
        raise NotFound("No such collection.") from None
    return as_api_json(search_body(response, user))


def ask_answer(
    user: AbstractBaseUser,
    *,
    question: str,
    collection: str = "",
    depth: str | None = None,
    conversation: int | None = None,
) -> dict:
    """POST /api/v1/ask for `user`: {answer, citations, diagnostics, conversation, message, ...}, stored like the
    API's answers (a follow-up in `conversation`, or a new conversation). No collection and no conversation: every
    collection the user may read (the API's all_collections, the home page's scope)."""
    body = AskRequestSerializer(
        data={
            "question": question,
            "collection": collection or "",
            "depth": depth,
            "conversation": conversation,
            "all_collections": not collection and conversation is None,
        }
    )
    if not body.is_valid():
        raise _invalid(body.errors)
    try:
        return as_api_json(answer(prepare(user, body.ask_params())))
    except InvalidQuestion as exc:
        raise ToolError(f"Invalid parameters: {exc}") from None
    except Http404 as exc:
        raise NotFound(str(exc)) from None


def chunk_preview(user: AbstractBaseUser, *, document_id: int, chunk_index: int = 0, context: int = 2) -> dict:
    """GET /api/v1/documents/{id}/preview?chunk_index=&context= for `user`: the endpoint's own parameter checks and
    body (`preview_data`), so the same JSON, range checks and 404 for a document the caller may not read."""
    params = PreviewQuerySerializer(data={"chunk_index": chunk_index, "context": context})
    if not params.is_valid():
        raise _invalid(params.errors)
    try:
        return as_api_json(preview_data(user, document_id, **params.validated_data))
    except Http404 as exc:
        raise NotFound(str(exc)) from None
    except ValidationError as exc:
        raise _invalid(exc.detail) from None
