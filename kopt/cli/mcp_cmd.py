"""``kopt mcp [--workspace DIR]``: serve kopt's tools over MCP on stdio."""
from __future__ import annotations

from pathlib import Path

import typer

from . import app


@app.command("mcp")
def mcp_cmd(workspace: Path = typer.Option(Path("."), "--workspace", help="folder the tools may read and write")):
    """Run the MCP server on stdio (register this command with your editor's agent)."""
    from ..mcp_server import serve

    serve(workspace)
