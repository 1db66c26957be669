"""``kopt mcp``: kopt's tools over the Model Context Protocol (stdio), for agents in editors.

Each call runs in a child process (``kopt.tool_process``): CPU tools under a time limit, GPU tools under the GPU
worker's phase deadlines, so one call cannot freeze or crash the server. Results carry structured content that
matches each tool's output schema (``kopt.tool_schemas``); a failure is an error result (``isError``) whose content
holds kopt's Diagnostics.
"""
from __future__ import annotations

import functools
import inspect
import json
from pathlib import Path

from . import tool_process, tool_schemas
from .tools import Toolbox


def _remote(box: Toolbox, name: str):
    """The tool ``name`` of ``box``, with its signature and docs, run in a child process."""
    from mcp.types import CallToolResult, TextContent

    method = getattr(box, name)

    @functools.wraps(method)
    def call(**kwargs) -> CallToolResult:
        result = tool_process.call(box.ws.root, list(box.trusted), name, kwargs)
        return CallToolResult(content=[TextContent(type="text", text=json.dumps(result, default=str))],
                              structured_content=result, is_error=result.get("ok") is not True)

    return call


def build_server(workspace: str | Path, tasks=()):
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.tools import Tool
    from mcp.types import ToolAnnotations

    from . import __version__

    box = Toolbox(workspace, tasks)
    tools = []
    for name in box.NAMES:
        fn = _remote(box, name)
        tool = Tool.from_function(fn, name=name, description=inspect.cleandoc(fn.__doc__ or ""), structured_output=False,
                                  annotations=ToolAnnotations(**tool_schemas.annotations(name)))
        tool.fn_metadata.output_schema = tool_schemas.output_schema(name)  # published; results are built to match
        tools.append(tool)
    return MCPServer("kopt", version=__version__, tools=tools, instructions=(
        "kopt compiles CUDA kernels with NVRTC, explains how they lower, checks them statically, and evaluates "
        "candidates against tasks (correctness, then timing against a baseline). Candidates are .cu files with "
        "'// kopt:' launch annotations; the tools read files of the workspace " + str(box.ws.root) + " and write "
        "only candidate sources (.cu, .cuh) there. Tasks are kopt's bench tasks and those this server was started "
        "with; list_tasks names them."))


def serve(workspace: str | Path, tasks=()) -> None:
    build_server(workspace, tasks).run("stdio")
