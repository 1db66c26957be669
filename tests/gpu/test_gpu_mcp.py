"""The MCP server's GPU tools end to end on a GPU: an editor agent evaluates, profiles and sanitizes a candidate
through `kopt mcp` over stdio, and a faulting candidate is a verdict, not a dead server."""
import asyncio
import json
import os
import sys
from pathlib import Path

import pytest

pytest.importorskip("mcp")
from mcp import ClientSession, StdioServerParameters  # noqa: E402
from mcp.client.stdio import stdio_client  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.gpu


def _payload(result) -> dict:
    return json.loads(result.content[0].text)


async def _session(workspace: Path):
    # The server gets this environment (the mcp client passes only a safe subset by default, without PYTHONPATH).
    params = StdioServerParameters(command=sys.executable, args=["-m", "kopt.cli", "mcp", "--workspace", str(workspace)],
                                   env=dict(os.environ))
    good = (ROOT / "kb" / "cutlass_examples" / "vector_add_float4.cu").read_text()
    bad = (ROOT / "tests" / "gpu" / "planted" / "illegal_address.cu").read_text()
    async with stdio_client(params) as (read, write):
        async with ClientSession(read, write) as s:
            await s.initialize()
            call = lambda name, args: s.call_tool(name, args)  # noqa: E731
            await call("write_candidate", {"path": "vadd4.cu", "text": good})
            await call("write_candidate", {"path": "bad.cu", "text": bad})
            out = {"evaluate": _payload(await call("evaluate", {"task": "vector_add", "path": "vadd4.cu",
                                                                 "max_time": 1.0})),
                   "bad": _payload(await call("evaluate", {"task": "vector_add", "path": "bad.cu", "max_time": 1.0})),
                   "profile": _payload(await call("profile", {"task": "vector_add", "path": "vadd4.cu"})),
                   "sanitize": _payload(await call("sanitize", {"task": "vector_add", "path": "vadd4.cu",
                                                                 "tool": "memcheck", "shape": "n=1000003"})),
                   "still_alive": {t.name for t in (await s.list_tools()).tools}}
            return out


def test_mcp_evaluate_profile_sanitize(tmp_path):
    out = asyncio.run(asyncio.wait_for(_session(tmp_path), 600))
    ev = out["evaluate"]
    assert ev["correct"], ev
    (shape,) = ev["shapes"]
    assert shape["candidate_us"] > 0 and shape["baseline_us"] > 0 and shape["verdict"], ev
    assert shape["pct_of_roofline"] and shape["pct_of_roofline"] > 50, ev
    bad = out["bad"]
    assert not bad["correct"] and bad["diagnostics"], bad
    prof = out["profile"]
    assert prof["kernels"][0]["bottleneck"] == "memory", prof
    san = out["sanitize"]
    assert not [d for d in san["diagnostics"] if d["severity"] == "error"], san
    assert "evaluate" in out["still_alive"]
