"""Network surfaces over the same core: the REST server and the MCP server."""
