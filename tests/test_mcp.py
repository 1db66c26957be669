"""`kopt mcp` as a subprocess, driven by the mcp Python client over stdio."""
import asyncio
import json
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

KERNEL = """// kopt: tune BLOCK in [128, 256]
// kopt: launch copy4 grid=(cdiv(n, BLOCK)) block=(BLOCK) args=(a, c, n)
extern "C" __global__ void copy4(const float4* __restrict__ a, float4* __restrict__ c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i];
}
"""


HOSTILE = "// kopt: tune BLOCK in [256, 9**9**9]\n" + KERNEL.split("\n", 1)[1]


def _payload(result) -> dict:
    return json.loads(result.content[0].text)


async def _session_run(workspace: Path):
    params = StdioServerParameters(command=sys.executable, args=["-m", "kopt.cli", "mcp", "--workspace", str(workspace)])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            names = {t.name for t in (await session.list_tools()).tools}
            wrote = _payload(await session.call_tool("write_candidate", {"path": "k/copy.cu", "text": KERNEL}))
            outside = _payload(await session.call_tool("write_candidate", {"path": "../escape.cu", "text": "x"}))
            compiled = _payload(await session.call_tool("compile", {"path": "k/copy.cu", "arch": "sm_90"}))
            explained = _payload(await session.call_tool("explain", {"path": "k/copy.cu", "arch": "sm_90"}))
            read = _payload(await session.call_tool("read_candidate", {"path": "k/copy.cu"}))
            tasks = _payload(await session.call_tool("list_tasks", {}))
            await session.call_tool("write_candidate", {"path": "k/hostile.cu", "text": HOSTILE})
            hostile = await session.call_tool("compile", {"path": "k/hostile.cu", "arch": "sm_90"})
            after = _payload(await session.call_tool("read_candidate", {"path": "k/hostile.cu"}))
            validated = _payload(await session.call_tool("validate", {"task": "vector_add"}))
            refused = await session.call_tool("validate", {"task": "k"})
            return names, wrote, outside, compiled, explained, read, tasks, (hostile, after, validated, refused)


def test_mcp_server_lists_and_calls_tools(tmp_path):
    names, wrote, outside, compiled, explained, read, tasks, more = asyncio.run(
        asyncio.wait_for(_session_run(tmp_path), 120))
    assert {"compile", "explain", "check", "evaluate", "read_candidate", "write_candidate", "list_tasks",
            "kb_search", "kb_show", "run_history"} <= names
    assert wrote["ok"] and (tmp_path / "k" / "copy.cu").read_text() == KERNEL
    assert not outside["ok"] and "outside the workspace" in outside["error"]
    assert not (tmp_path.parent / "escape.cu").exists()
    assert compiled["ok"] and compiled["kernels"]["copy4"]["registers"] > 0
    assert explained["kernels"]["copy4"]["widths"]["global load"] == {"128-bit": 1}
    assert read["text"] == KERNEL
    assert "vector_add" in {t["task"] for t in tasks["tasks"]}
    hostile, after, validated, refused = more
    assert hostile.is_error  # a hostile expression is a quick, located error; the server stays responsive
    (d,) = _payload(hostile)["diagnostics"]
    assert d["rule"] == "expr.out-of-range" and d["locations"][0]["line"] == 1 and d["locations"][0]["col"] == 30
    assert after["ok"] and after["text"] == HOSTILE
    assert validated["ok"] and validated["valid"] and validated["configurations"][0]["compiled"] == 4
    assert refused.is_error and "started with" in _payload(refused)["error"]
