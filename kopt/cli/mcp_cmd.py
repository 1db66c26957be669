"""``kopt mcp [--workspace DIR]``: serve kopt's tools over MCP on stdio."""
from __future__ import annotations

from pathlib import Path
from typing import List, Optional

import typer

from ._app import app


@app.command("mcp")
def mcp_cmd(workspace: Path = typer.Option(Path("."), "--workspace", help="folder the tools may read and write"),
            task: Optional[List[Path]] = typer.Option(None, "--task", help="a task directory the `validate` tool may "
                                                                            "import the reference of; repeatable")):
    """Run the MCP server on stdio (register this command with your editor's agent)."""
    from ..errors import InputError
    from ..extras import require

    require("mcp")
    from ..mcp_server import serve

    for t in task or []:
        if not (t / "task.toml").is_file():
            raise InputError(f"--task {t}: no task.toml there")
    serve(workspace, task or [])
