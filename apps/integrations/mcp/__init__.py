"""The portal as an MCP server (Model Context Protocol): kb_search, kb_ask and kb_preview over stdio or streamable
HTTP, each call limited to what the caller's API token may read. See docs/mcp.md.

- operations: what each tool does, through the REST API's own services, serializers and views;
- server: the tools, their arguments and results (build_server);
- http: the ASGI app for streamable HTTP, with token authentication (build_asgi_app);
- auth, render: the token check, and the text each result carries beside its JSON.
"""
