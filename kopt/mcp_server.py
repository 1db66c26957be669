"""``kopt mcp``: kopt's tools over the Model Context Protocol (stdio), for agents in editors."""
from __future__ import annotations

from pathlib import Path

from .tools import Toolbox


def build_server(workspace: str | Path):
    from mcp.server.mcpserver import MCPServer

    box = Toolbox(workspace)
    server = MCPServer("kopt", instructions=(
        "kopt compiles CUDA kernels with NVRTC, explains how they lower, checks them statically, and evaluates "
        "candidates against tasks (correctness, then timing against a baseline). Candidates are .cu files with "
        "'// kopt:' launch annotations; files are confined to the workspace " + str(box.ws.root) + "."))
    for fn in box.tools():
        server.add_tool(fn, name=fn.__name__, description=(fn.__doc__ or "").strip())
    return server


def serve(workspace: str | Path) -> None:
    build_server(workspace).run("stdio")
