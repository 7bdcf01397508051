"""Network surfaces over the same core: the REST server (and, to come, the MCP server)."""
