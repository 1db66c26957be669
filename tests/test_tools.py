"""The agent/MCP tools called directly: confinement, compact results, clear errors."""
from pathlib import Path

import pytest

from kopt.device import probe
from kopt.tools import Toolbox

ROOT = Path(__file__).resolve().parents[1]
RACY = """// kopt: launch reduce grid=(1) block=(256) args=(x, y)
extern "C" __global__ void reduce(const float* x, float* y) {
  __shared__ float s[256];
  s[threadIdx.x] = x[threadIdx.x];
  float v = s[(threadIdx.x + 1) % 256];
  y[threadIdx.x] = v;
}
"""


def test_confinement_and_round_trip(tmp_path):
    box = Toolbox(tmp_path)
    assert box.write_candidate("a.cu", "x")["ok"]
    assert box.read_candidate("a.cu")["text"] == "x"
    for bad in ("../a.cu", "/etc/passwd", str(tmp_path / ".." / "b.cu")):
        r = box.write_candidate(bad, "x")
        assert not r["ok"] and "outside the workspace" in r["error"]
    (tmp_path / "link").symlink_to(tmp_path.parent)
    assert not box.read_candidate("link/whatever.cu")["ok"]


def test_check_reports_the_race_compactly(tmp_path):
    box = Toolbox(tmp_path)
    box.write_candidate("racy.cu", RACY)
    r = box.check("racy.cu")
    assert r["ok"] and r["errors"] >= 1
    assert {"sync.missing", "race.shared"} & {d["rule"] for d in r["diagnostics"]}


def test_compile_error_and_missing_task_are_results_not_exceptions(tmp_path):
    box = Toolbox(tmp_path)
    box.write_candidate("bad.cu", "// kopt: launch k grid=(1) block=(1) args=()\n__global__ void k() { undefined_x = 1; }\n")
    r = box.compile("bad.cu", arch="sm_90")
    assert not r["ok"] and r["diagnostics"][0]["locations"][0]["line"] == 2
    r = box.evaluate("no_such_task", "bad.cu")
    assert not r["ok"] and "no task" in r["error"]


def test_evaluate_without_gpu_says_so(tmp_path):
    if probe()[0] is not None:
        pytest.skip("a GPU is present: evaluate is covered by the GPU tests")
    box = Toolbox(tmp_path)
    box.write_candidate("v.cu", (ROOT / "bench" / "tasks" / "vector_add" / "baseline.cu").read_text())
    r = box.evaluate("vector_add", "v.cu")
    assert not r["ok"] and "GPU" in r["error"]


def test_check_takes_what_the_cli_takes(tmp_path):
    box = Toolbox(tmp_path)
    box.write_candidate("t.cu", "template <int N>\n__global__ void k(float* x) {\n  __shared__ float s[N];\n"
                                "  s[threadIdx.x] = x[threadIdx.x];\n  x[threadIdx.x] = s[threadIdx.x + 1];\n}\n")
    r = box.check("t.cu", block="64", grid="2", kernel="k<64>")
    assert r["ok"] and {"sync.missing", "bounds.shared"} <= {d["rule"] for d in r["diagnostics"]}
    assert r["assumed"] == "k: from --block/--grid, block=(64, 1, 1), grid=(2, 1, 1), template <64>; read by libclang"
    bad = box.check("t.cu", grid="0")
    assert not bad["ok"] and bad["diagnostics"][0]["rule"] == "tool.refused"


def test_check_under_a_task_bounds_global_accesses(tmp_path):
    box = Toolbox(tmp_path)
    box.write_candidate("oob.cu", (ROOT / "tests" / "gpu" / "planted_sanitize" / "oob_write.cu").read_text())
    assert "bounds.global" not in {d["rule"] for d in box.check("oob.cu")["diagnostics"]}
    r = box.check("oob.cu", task="vector_add")
    assert r["ok"] and [d["locations"][0]["line"] for d in r["diagnostics"] if d["rule"] == "bounds.global"] == [7]
    assert not box.check("oob.cu", task="no_such_task")["ok"]
