"""`kopt validate` on the CPU: each kind of problem a new user would otherwise meet on the GPU, with its rule id."""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from kopt.validate import validate

ROOT = Path(__file__).resolve().parents[1]
TASK = """name = "vadd"
args = [
  { name = "a", dtype = "f32", shape = ["n"], role = "in" },
  { name = "b", dtype = "f32", shape = ["n"], role = "in" },
  { name = "c", dtype = "f32", shape = ["n"], role = "out" },
  { name = "n", dtype = "i32", value = "n" },
]
shapes = [ { n = 1048576, timed = true }, { n = 1000 } ]
reference = "reference.py:vadd"
"""
REFERENCE = "def vadd(a, b, n):\n    return a + b\n"
KERNEL = """// kopt: tune BLOCK in [256, 128]
// kopt: launch vadd grid=(cdiv(n, BLOCK)) block=(BLOCK) args=(a, b, c, n)
extern "C" __global__ void vadd(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
"""


def make_task(tmp_path: Path, task: str = TASK, reference: str = REFERENCE) -> Path:
    d = tmp_path / "vadd"
    d.mkdir(exist_ok=True)
    (d / "task.toml").write_text(task)
    (d / "reference.py").write_text(reference)
    return d


def candidate(tmp_path: Path, text: str, name: str = "cand.cu") -> Path:
    p = tmp_path / name
    p.write_text(text)
    return p


def rules(v) -> set[str]:
    return {d.rule for d in v.problems if d.is_error}


def test_a_valid_task_and_candidate(tmp_path):
    v = validate(make_task(tmp_path), [candidate(tmp_path, KERNEL)])
    assert v.ok, [d.message for d in v.problems]
    assert v.reference["ok"] and v.reference["shape"] == "n=1000"
    (c,) = v.candidates
    assert [cc.config for cc in c.configs] == [{"BLOCK": 256}, {"BLOCK": 128}]
    launches = c.configs[1].shapes[1]["launches"]
    assert launches[0]["grid"] == [8, 1, 1] and launches[0]["block"] == [128, 1, 1]


@pytest.mark.parametrize("reference,rule", [
    (REFERENCE.replace("def vadd", "def vector_add"), "reference.not-found"),
    ("def vadd(a, b):\n    return a + b\n", "reference.signature"),
    ("def vadd(a, b, n):\n    raise RuntimeError('no')\n", "reference.raised"),
    ("import no_such_module_anywhere\n" + REFERENCE, "reference.import-failed"),
    ("def vadd(a, b, n):\n    return (a + b)[:5]\n", "reference.output"),
    ("def vadd(a, b, n):\n    return a + b, a - b\n", "reference.output"),
])
def test_reference_problems(tmp_path, reference, rule):
    v = validate(make_task(tmp_path, reference=reference))
    assert rules(v) == {rule}, [d.message for d in v.problems]
    (d,) = [d for d in v.problems if d.rule == rule]
    assert d.locations[0].file.endswith("task.toml") and d.locations[0].line == 9


def test_a_reference_that_hangs_is_stopped(tmp_path):
    v = validate(make_task(tmp_path, reference="import time\ntime.sleep(60)\n" + REFERENCE), reference_timeout=3)
    assert rules(v) == {"reference.timeout"}


@pytest.mark.parametrize("change,rule", [
    (("args=(a, b, c, n)", "args=(a, b, c)"), "launch.mismatch"),  # argument count
    (("int n)", "long long n, int m)"), "launch.mismatch"),  # count and size
    (("args=(a, b, c, n)", "args=(a, b, n, n)"), "launch.mismatch"),  # a 4-byte scalar where a pointer goes
    (("grid=(cdiv(n, BLOCK))", "grid=(cdiv(n, BLOK))"), "expr.unknown-name"),
    (("block=(BLOCK)", "block=(BLOCK * 8)"), "launch.block-too-large"),
    (("args=(a", "smem=300000 args=(a"), "launch.smem-too-large"),
    (("grid=(cdiv(n, BLOCK))", "grid=(n / BLOCK)"), "expr.not-positive-integer"),
])
def test_candidate_problems(tmp_path, change, rule):
    v = validate(make_task(tmp_path), [candidate(tmp_path, KERNEL.replace(*change))])
    assert rule in rules(v), [(d.rule, d.message) for d in v.problems]
    d = next(d for d in v.problems if d.rule == rule)
    assert d.locations[0].file.endswith("cand.cu") and d.locations[0].line == 2


def test_static_plus_dynamic_shared_memory_over_the_limit(tmp_path):
    src = KERNEL.replace("args=(a", "smem=200000 args=(a").replace(
        "if (i < n) c[i] = a[i] + b[i];", "__shared__ float pad[8192];\n  pad[threadIdx.x] = b[i];\n  __syncthreads();\n"
        "  if (i < n) c[i] = a[i] + pad[threadIdx.x ^ 1];")
    v = validate(make_task(tmp_path), [candidate(tmp_path, src)])
    assert "launch.smem-too-large" in rules(v)
    assert "static" in next(d.message for d in v.problems if d.rule == "launch.smem-too-large")


def test_the_arch_decides_the_limits(tmp_path):
    src = KERNEL.replace("args=(a", "smem=120000 args=(a")
    assert validate(make_task(tmp_path), [candidate(tmp_path, src)]).ok
    assert "launch.smem-too-large" in rules(validate(make_task(tmp_path), [candidate(tmp_path, src)], arch="sm_86"))


def test_compile_errors_are_reported_per_configuration(tmp_path):
    src = KERNEL.replace("if (i < n)", "static_assert(BLOCK != 128, \"no\"); if (i < n)")
    (c,) = validate(make_task(tmp_path), [candidate(tmp_path, src)]).candidates
    assert [cc.compiled for cc in c.configs] == [True, False]
    assert c.configs[1].diagnostics[0].rule == "compile.error"
    assert c.configs[1].diagnostics[0].witness["config"] == {"BLOCK": 128}


def test_a_malformed_task_and_annotation_are_findings(tmp_path):
    v = validate(make_task(tmp_path, task=TASK.replace('role = "out"', 'role = "output"')))
    assert rules(v) == {"task.invalid"} and v.problems[0].locations[0].line == 5
    v = validate(make_task(tmp_path), [candidate(tmp_path, KERNEL.replace("tune BLOCK in [256, 128]",
                                                                          "tune BLOCK in [256, 9**9**9]"))])
    (d,) = v.problems
    assert d.rule == "expr.out-of-range" and (d.locations[0].line, d.locations[0].col) == (1, 30)


def test_the_cli_exit_codes_and_json(tmp_path):
    task = make_task(tmp_path)
    good = candidate(tmp_path, KERNEL)
    bad = candidate(tmp_path, KERNEL.replace("block=(BLOCK)", "block=(BLOCK * 8)"), "bad.cu")

    def run(*args):
        return subprocess.run([sys.executable, "-m", "kopt.cli", "validate", *map(str, args)], capture_output=True,
                              text=True)

    p = run(task, good, "--json")
    assert p.returncode == 0, p.stderr
    assert json.loads(p.stdout)["ok"] is True
    p = run(task, bad)
    assert p.returncode == 1 and "launch.block-too-large" in p.stderr and "Traceback" not in p.stderr
    for args in ((tmp_path / "nowhere",), (task, tmp_path / "missing.cu"), (task, good, "--arch", "sm_99")):
        p = run(*args)
        assert p.returncode == 2 and "Traceback" not in p.stderr, (args, p.stderr)
    p = run(good, "--json")  # a candidate alone: no task, so no shapes
    assert p.returncode == 0 and json.loads(p.stdout)["candidates"][0]["configs"][0]["shapes"][0]["launches"][0][
        "grid"] == [None, 1, 1]


def test_every_bench_task_validates():
    for task in sorted((ROOT / "bench" / "tasks").glob("*/task.toml")):
        v = validate(task.parent)
        assert v.ok, (task.parent.name, [(d.rule, d.message) for d in v.problems])
