"""Streamable HTTP: an ASGI app serving the MCP endpoint at /mcp, every request authenticated by an API token.

The portal's web server is gunicorn with synchronous WSGI workers, which cannot hold MCP's event streams; this
app runs under uvicorn instead (`manage.py mcp --transport http`), beside the web server. It is stateless: each
POST carries its own token and is answered on its own, so any number of these processes can serve one portal.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from mcp.server.auth.middleware.bearer_auth import AuthenticatedUser
from mcp.server.auth.provider import AccessToken
from mcp.server.mcpserver import Context
from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from apps.integrations.mcp.auth import token_from_header, user_for_token
from apps.integrations.mcp.server import build_server

MCP_PATH = "/mcp"
_CHALLENGE = 'Bearer realm="knowledge-portal", Token realm="knowledge-portal"'


class TokenAuthentication:
    """ASGI middleware: a request without a valid `Authorization: Bearer|Token <token>` gets 401 before it
    reaches MCP; a valid one carries its principal in scope["user"], where the SDK and the tools find it."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":  # lifespan: starts and stops the SDK's session manager
            await self.app(scope, receive, send)
            return
        key = token_from_header(Headers(scope=scope).get("authorization"))
        user = await sync_to_async(user_for_token, thread_sensitive=False)(key) if key else None
        if user is None:
            detail = "Invalid API token." if key else "An API token is required: Authorization: Bearer <token>."
            response = JSONResponse({"detail": detail}, status_code=401, headers={"WWW-Authenticate": _CHALLENGE})
            await response(scope, receive, send)
            return
        # The SDK's own principal type: a session, if one is ever used, is then bound to this person.
        principal = AccessToken(token=key, client_id=f"portal-user-{user.pk}", subject=str(user.pk), scopes=[])
        scope["user"] = AuthenticatedUser(principal)
        await self.app(scope, receive, send)


def request_token(ctx: Context) -> str:
    """The token of the HTTP request that carried this tool call (checked by TokenAuthentication)."""
    request = ctx.request_context.request
    principal = request.scope.get("user") if request is not None else None
    if not isinstance(principal, AuthenticatedUser):
        raise RuntimeError("an MCP call reached a tool without passing TokenAuthentication")
    return principal.access_token.token


def build_asgi_app(host: str = "127.0.0.1") -> ASGIApp:
    """The ASGI app for an ASGI server. `host` is where it listens: on a loopback address the SDK also refuses
    requests whose Host or Origin header names another site (DNS rebinding)."""
    server = build_server(request_token)
    app = server.streamable_http_app(streamable_http_path=MCP_PATH, stateless_http=True, json_response=True, host=host)
    return TokenAuthentication(app)
