"""``kopt mcp``: kopt's tools over the Model Context Protocol (stdio), for agents in editors."""
from __future__ import annotations

import functools
import json
from pathlib import Path

from .tools import Toolbox


def _flag_failures(fn):
    """A tool result with ``ok: false`` goes back as an error result (``isError``), its JSON intact."""
    from mcp.types import CallToolResult, TextContent

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        result = fn(*args, **kwargs)
        if isinstance(result, dict) and result.get("ok") is False:
            return CallToolResult(content=[TextContent(type="text", text=json.dumps(result, default=str))],
                                  is_error=True)
        return result

    return wrapper


def build_server(workspace: str | Path, tasks=()):
    from mcp.server.mcpserver import MCPServer

    box = Toolbox(workspace, tasks)
    server = MCPServer("kopt", instructions=(
        "kopt compiles CUDA kernels with NVRTC, explains how they lower, checks them statically, and evaluates "
        "candidates against tasks (correctness, then timing against a baseline). Candidates are .cu files with "
        "'// kopt:' launch annotations; files are confined to the workspace " + str(box.ws.root) + "."))
    for fn in box.tools():
        server.add_tool(_flag_failures(fn), name=fn.__name__, description=(fn.__doc__ or "").strip())
    return server


def serve(workspace: str | Path, tasks=()) -> None:
    build_server(workspace, tasks).run("stdio")
