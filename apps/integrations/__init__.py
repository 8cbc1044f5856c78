"""Ways other programs reach the portal besides the REST API: the MCP server (apps.integrations.mcp)."""
