"""The MCP server: kb_search, kb_ask and kb_preview, each answering as the person whose API token made the call.

A tool result carries the REST endpoint's JSON as structured content and a readable rendering as text; an
invalid parameter or an unknown (or unreadable) collection or document comes back as a tool error.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Annotated, Any, Literal

from asgiref.sync import sync_to_async
from django.contrib.auth.models import AbstractBaseUser
from django.db import close_old_connections
from mcp.server.mcpserver import Context, MCPServer
from mcp.server.mcpserver.exceptions import ToolError, UnexpectedToolError
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import Field, ValidationError

from apps.integrations.mcp import operations, render
from apps.integrations.mcp.auth import user_for_token
from apps.retrieval.search.types import MAX_TOP_K

# How a call finds its token: fixed for a stdio server, the request's Authorization header over HTTP.
TokenOf = Callable[[Context], str]

INSTRUCTIONS = (
    "Search and ask the team knowledge portal. Every result says where a passage is (document id, chunk index, "
    "page or paragraph) and carries a viewer_url. kb_search finds passages; kb_ask answers a question from one "
    "collection, or all you may read, with numbered citations [n]; kb_preview shows a cited chunk with its "
    "neighbours. You see only the collections your API token's owner is a member of."
)

Query = Annotated[str, Field(description="what to search for (at most 1000 characters)")]
Question = Annotated[str, Field(description="the question, in any language the documents are in")]
Collection = Annotated[str, Field(description="a collection's slug, as GET /api/v1/collections/ lists them")]
AskCollection = Annotated[
    str | None,
    Field(description="a collection's slug; omitted: every collection you may read (a follow-up: its conversation's)"),
]
SearchCollection = Annotated[
    str | None, Field(description="a collection's slug; omitted: every collection you may read")
]
Mode = Annotated[Literal["keyword", "vector", "hybrid"] | None, Field(description="retrieval mode (default hybrid)")]
SearchDepth = Annotated[
    Literal["quick", "deep"] | None,
    Field(description="quick (default), or deep: rerank, the passages' cited references, related documents"),
]
AskDepth = Annotated[Literal["quick", "deep"] | None, Field(description="deep (default: reranked evidence) or quick")]
TopK = Annotated[int | None, Field(ge=1, le=MAX_TOP_K, description="hits to return (default: the depth's)")]
ConversationId = Annotated[
    int | None, Field(ge=1, description="follow up this conversation (the `conversation` of an earlier answer)")
]
DocumentId = Annotated[int, Field(ge=1, description="the document's id (document_id of a hit or citation)")]
ChunkIndex = Annotated[int, Field(ge=0, description="the chunk to centre on (chunk_index of a hit or citation)")]
ContextSize = Annotated[int, Field(ge=0, le=20, description="chunks to show on each side (default 2)")]


def _call_as_user(key: str, operation: Callable[..., dict], **arguments: Any) -> dict:
    """One tool call in a worker thread, like one request: the token checked again (a token revoked during a
    long stdio session stops working at once), and database connections handled as Django handles a request."""
    close_old_connections()
    try:
        user: AbstractBaseUser | None = user_for_token(key)
        if user is None:
            raise ToolError("The API token is no longer valid; copy the current one from /accounts/token/.")
        return operation(user, **arguments)
    finally:
        close_old_connections()


async def _run(token_of: TokenOf, ctx: Context, operation: Callable[..., dict], **arguments: Any) -> dict:
    # Not thread-sensitive: calls of different clients run side by side, each in a thread of its own.
    return await sync_to_async(_call_as_user, thread_sensitive=False)(token_of(ctx), operation, **arguments)


def _result(data: dict, text: str) -> CallToolResult:
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=data)


def _validation_error(exc: BaseException) -> ValidationError | None:
    while exc is not None and not isinstance(exc, ValidationError):
        exc = exc.__cause__
    return exc


class PortalServer(MCPServer):
    """MCPServer whose argument errors read like the REST API's ("top_k: ..."), without pydantic's model name and
    help links, so a model or a person can fix the call from the message alone."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Context | None = None) -> Any:
        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            invalid = None if isinstance(exc, UnexpectedToolError) else _validation_error(exc)
            if invalid is None:
                raise
            fields = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'arguments'}: {e['msg']}" for e in invalid.errors())
            raise ToolError(f"Error executing tool {name}: Invalid parameters: {fields}") from invalid


def build_server(token_of: TokenOf) -> MCPServer:
    """The portal's MCP server; `token_of` tells whose token a call came with."""
    server = PortalServer("knowledge-portal", title="Team knowledge portal", instructions=INSTRUCTIONS)

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    async def kb_search(
        query: Query,
        ctx: Context,
        collection: SearchCollection = None,
        mode: Mode = None,
        depth: SearchDepth = None,
        top_k: TopK = None,
    ) -> CallToolResult:
        """Search passages of your collections. Returns the hits of GET /api/v1/search: each with its text,
        document_id, chunk_index, title, section (as printed) and section_key (canonical, e.g. "Methods"), locator
        (page, rects, paragraphs), score and viewer_url."""
        data = await _run(
            token_of, ctx, operations.search_hits, query=query, collection=collection, mode=mode, depth=depth,
            top_k=top_k,
        )  # fmt: skip
        return _result(data, render.search_text(data))

    @server.tool(annotations=ToolAnnotations(read_only_hint=False, destructive_hint=False, open_world_hint=False))
    async def kb_ask(
        question: Question,
        ctx: Context,
        collection: AskCollection = None,
        depth: AskDepth = None,
        conversation: ConversationId = None,
    ) -> CallToolResult:
        """Answer a question from one collection, or from every collection you may read when `collection` is left
        out, as POST /api/v1/ask (all_collections): the answer marks each claim with [n], and
        `citations` says where each one is (citation_id, document_id, chunk_id, chunk_index, quote, page, rects,
        viewer_url, ...); `sentences` lists the claims, each with `quotes` {n: the words of source n behind that
        claim}. When the documents do not answer it, `answered` is false and `topic_passages` holds the passages
        on the topic (citation objects). The question and answer are stored in a conversation you can follow up."""
        data = await _run(
            token_of, ctx, operations.ask_answer, question=question, collection=collection, depth=depth,
            conversation=conversation,
        )  # fmt: skip
        return _result(data, render.answer_text(data))

    @server.tool(annotations=ToolAnnotations(read_only_hint=True, open_world_hint=False))
    async def kb_preview(
        document_id: DocumentId,
        chunk_index: ChunkIndex,
        ctx: Context,
        context: ContextSize = 2,
    ) -> CallToolResult:
        """Show one chunk of a document with its neighbours, as GET /api/v1/documents/{id}/preview: total_chunks,
        target_index and chunks [{chunk_index, text, is_target, metadata: {section, page, rects, ...}}]."""
        data = await _run(
            token_of, ctx, operations.chunk_preview, document_id=document_id, chunk_index=chunk_index,
            context=context,
        )  # fmt: skip
        return _result(data, render.preview_text(data))

    return server
