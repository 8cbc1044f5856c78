"""python manage.py mcp [--transport stdio|http] [--token TOKEN] [--host HOST] [--port PORT]

stdio: one person's server for a local MCP client (Claude Desktop, an IDE), which starts this command; the
token comes from --token or PORTAL_MCP_TOKEN and is checked before anything is served.
http: streamable HTTP at http://HOST:PORT/mcp for any number of people, each request with its own token.
"""

from __future__ import annotations

import os

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError
from django.db import connection

from apps.integrations.mcp.auth import user_for_token
from apps.retrieval.search.service import warm_up

TOKEN_VARIABLE = "PORTAL_MCP_TOKEN"


def _warm_up_search() -> None:
    # As the web process does (portal/wsgi.py): the embedding model loads now, not in the first search.
    if settings.PORTAL_WARM_UP:
        warm_up()


class Command(BaseCommand):
    help = "Serve the portal's MCP tools (kb_search, kb_ask, kb_preview) over stdio or streamable HTTP."

    def add_arguments(self, parser) -> None:
        parser.add_argument("--transport", choices=("stdio", "http"), default="stdio")
        parser.add_argument(
            "--token", default="", help=f"stdio: the API token to act with (default: ${TOKEN_VARIABLE})"
        )
        parser.add_argument("--host", default="127.0.0.1", help="http: the address to listen on")
        parser.add_argument("--port", type=int, default=8765, help="http: the port to listen on")

    def handle(self, *args, transport: str, **options) -> None:
        if transport == "stdio":
            self._serve_stdio(options["token"] or os.environ.get(TOKEN_VARIABLE, ""))
        else:
            self._serve_http(options["host"], options["port"])

    def _serve_stdio(self, key: str) -> None:
        from apps.integrations.mcp.server import build_server

        key = key.strip()
        if not key:
            raise CommandError(f"no API token: set {TOKEN_VARIABLE} or pass --token (your token: /accounts/token/)")
        if user_for_token(key) is None:
            raise CommandError("the API token is not valid (mistyped, or replaced by a newer one at /accounts/token/)")
        connection.close()  # each tool call opens its own, in its worker thread
        self._say_links()
        _warm_up_search()
        build_server(lambda _ctx: key).run("stdio")

    def _say_links(self) -> None:
        if not settings.PORTAL_SITE_URL:
            # stderr: over stdio, stdout is the protocol's own channel.
            self.stderr.write(
                "PORTAL_SITE_URL is not set: viewer_url and the other links in tool results are site-relative "
                '("/documents/4/view/?chunk=2"); set it to the address people open the portal at to make them absolute.'
            )

    def _serve_http(self, host: str, port: int) -> None:
        import uvicorn

        from apps.integrations.mcp.http import MCP_PATH, build_asgi_app

        self._say_links()
        _warm_up_search()
        self.stderr.write(f"MCP over streamable HTTP at http://{host}:{port}{MCP_PATH} (Ctrl-C stops)")
        uvicorn.run(build_asgi_app(host), host=host, port=port, log_level="warning", lifespan="on")
