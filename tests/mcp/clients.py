"""MCP client sessions for the tests, through the SDK's own transports: stdio (a server process per session) and
streamable HTTP (with an Authorization header)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx2
from mcp import ClientSession, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.client.streamable_http import streamable_http_client
from mcp.types import CallToolResult

# A first search in a fresh server process loads the embedding model; a deep answer also loads the reranker.
CALL_TIMEOUT_S = 300


@asynccontextmanager
async def stdio_session(params: StdioServerParameters) -> AsyncIterator[ClientSession]:
    async with stdio_client(params) as (read, write), ClientSession(read, write) as session:
        await session.initialize()
        yield session


@asynccontextmanager
async def http_session(url: str, authorization: str, statuses: list[int] | None = None) -> AsyncIterator[ClientSession]:
    """A session whose every request carries `authorization`; the HTTP status of each response goes to `statuses`."""

    async def record(response: httpx2.Response) -> None:
        if statuses is not None:
            statuses.append(response.status_code)

    client = httpx2.AsyncClient(
        headers={"Authorization": authorization},
        timeout=httpx2.Timeout(30, read=CALL_TIMEOUT_S),
        event_hooks={"response": [record]},
    )
    async with (
        client as http,
        streamable_http_client(url, http_client=http) as (read, write),
        ClientSession(read, write) as session,
    ):
        await session.initialize()
        yield session


async def call(session: ClientSession, tool: str, **arguments) -> CallToolResult:
    return await session.call_tool(tool, arguments, read_timeout_seconds=CALL_TIMEOUT_S)


def text_of(result: CallToolResult) -> str:
    return "\n".join(block.text for block in result.content if block.type == "text")
