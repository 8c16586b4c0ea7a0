"""The MCP server (docs/mcp.md): the official `mcp` SDK's server, its tools on waitgate's use cases.

Only the function that serves `POST /mcp` (functions/serve_mcp) imports this package: the SDK is not a
layer dependency, it ships with that function (its requirements.txt; the `mcp` extra for the local
stack and the tests).
"""
