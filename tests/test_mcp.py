"""`kopt mcp` as a subprocess, driven by the mcp Python client over stdio."""
import asyncio
import json
import os
import shutil
import sys
import time
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


PLAIN = """extern "C" __global__ void add(const float* a, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + 1.0f;
}
"""


async def _hardening_run(ws: Path, task: Path, outside: Path):
    env = {**os.environ, "KOPT_TOOL_TIMEOUT": "5"}
    params = StdioServerParameters(command=sys.executable, env=env,
                                   args=["-m", "kopt.cli", "mcp", "--workspace", str(ws), "--task", str(task)])
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as session:
            await session.initialize()
            listed = {t.name: t for t in (await session.list_tools()).tools}

            async def call(name, **args):
                return await session.call_tool(name, args)

            refused = {}
            for path in ("mytask/task.toml", "mytask/reference.py", ".kopt/runs.db", "mytask/baseline.cu",
                         "../escape.cu", str(outside / "abs.cu"), "out/x.cu", "linked/y.cu", "alias.cu", "a\x00b.cu",
                         "d/" * 2100 + "x.cu", "n" * 300 + ".cu", "notes.txt"):
                refused[path] = await call("write_candidate", path=path, text="// overwritten\n")
            history = await call("run_history")
            plain = await call("explain", path="plain.cu", arch="sm_90")
            started = time.monotonic()
            pending = asyncio.create_task(call("compile", path="fifo.cu", arch="sm_90"))
            await asyncio.sleep(1)
            during = await call("read_candidate", path="plain.cu")  # answered while the other call hangs
            during_pending = not pending.done()
            hostile = await pending
            hostile_s = time.monotonic() - started
            after = await call("compile", path="plain.cu", arch="sm_90")
            local = await call("validate", task="ws_task")
            trusted = await call("list_tasks")
            return listed, refused, history, plain, (hostile, hostile_s, after, during, during_pending), local, \
                trusted


def test_mcp_hardening(tmp_path):
    """Writes only candidate sources; tasks, the run store and escapes are refused with isError and a Diagnostic;
    a call that hangs is stopped and the next call works; tasks come only from the server's command line."""
    from kopt.runstore import RunStore
    from kopt.tool_schemas import output_schema

    ws, outside = tmp_path / "ws", tmp_path / "outside"
    ws.mkdir(), outside.mkdir()
    src = Path(__file__).resolve().parents[1] / "bench" / "tasks" / "vector_add"
    shutil.copytree(src, ws / "mytask")  # a task given to the server, inside its workspace
    guarded = {p: p.read_bytes() for p in (ws / "mytask").iterdir() if p.is_file()}
    RunStore(ws / ".kopt" / "runs.db").create_run("vector_add", workflow="tune", options={})
    (ws / "out").symlink_to(outside)
    (ws / "cands").mkdir()
    (ws / "linked").symlink_to(ws / "cands")  # inside the workspace, but a link: refused all the same
    (ws / "alias.cu").symlink_to(ws / "mytask" / "task.toml")
    (ws / "plain.cu").write_text(PLAIN)
    os.mkfifo(ws / "pipe.cuh")  # reading it blocks forever: a compile that includes it never ends by itself
    (ws / "fifo.cu").write_text('#include "pipe.cuh"\n' + PLAIN)
    shutil.copytree(src, ws / "ws_task")  # a task in the workspace the server was not given: never loaded
    (ws / "ws_task" / "reference.py").write_text(f"open({str(tmp_path / 'imported')!r}, 'w').close()\n")

    listed, refused, history, plain, hostile_run, local, trusted = asyncio.run(
        asyncio.wait_for(_hardening_run(ws, ws / "mytask", outside), 240))

    write = listed["write_candidate"]
    assert write.annotations.destructive_hint and not write.annotations.read_only_hint
    assert listed["compile"].annotations.read_only_hint and not listed["compile"].annotations.destructive_hint
    assert all(t.output_schema == output_schema(name) for name, t in listed.items())

    for path, result in refused.items():
        assert result.is_error, path
        body = _payload(result)
        assert body["ok"] is False and body["diagnostics"][0]["rule"] == "tool.refused", (path, body)
        assert result.structured_content == body
    assert "NUL" in _payload(refused["a\x00b.cu"])["error"]
    assert "outside the workspace" in _payload(refused["out/x.cu"])["error"]
    assert "symbolic link" in _payload(refused["linked/y.cu"])["error"]
    assert "symbolic link" in _payload(refused["alias.cu"])["error"]
    assert "task folder" in _payload(refused["mytask/baseline.cu"])["error"]
    assert all(p.read_bytes() == data for p, data in guarded.items())
    assert not list(outside.iterdir()) and not list((ws / "cands").iterdir()) and not (tmp_path / "escape.cu").exists()
    assert not history.is_error and _payload(history)["evaluations"] == []  # the run store still opens
    assert [r["task"] for r in RunStore(ws / ".kopt" / "runs.db").list_runs()] == ["vector_add"]

    assert not plain.is_error and _payload(plain)["kernels"]["add"]["occupancy"]["block_size"] == 256

    hostile, hostile_s, after, during, during_pending = hostile_run
    assert during_pending and not during.is_error and _payload(during)["text"] == PLAIN
    assert hostile.is_error and _payload(hostile)["diagnostics"][0]["rule"] == "tool.timeout"
    assert hostile_s < 30
    assert not after.is_error and _payload(after)["kernels"]["add"]["registers"] > 0

    assert local.is_error and "never loaded from files the tools can write" in _payload(local)["error"]
    assert not (tmp_path / "imported").exists()
    names = [t["task"] for t in _payload(trusted)["tasks"]]
    assert names[0] == "vector_add" and "ws_task" not in names and "mytask" not in names
