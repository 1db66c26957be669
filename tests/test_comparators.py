"""Comparators (kopt.comparators) on the CPU: every bench task's PyTorch expression computes what its reference does
(evaluated with CPU tensors at a small shape), the subprocess protocol fills in what a limit cut off, and speedups."""
import json
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

from kopt import comparators, reference
from kopt.errors import InputError
from kopt.task import Task
from kopt.torch_reference import _storage

torch = pytest.importorskip("torch")
TASKS = Path(__file__).resolve().parents[1] / "bench" / "tasks"


def _small(task):
    """The task's smallest shape (fewest symbols' product) that is not timed."""
    untimed = [s for s in task.shapes if not s.timed] or task.shapes
    return min(untimed, key=lambda s: np.prod(list(s.symbols.values())))


def _host(t):
    if t.dtype == torch.bfloat16:
        return t.float().numpy()
    if t.dtype == torch.uint32:
        return t.to(torch.int64).numpy()
    return t.numpy()


@pytest.mark.parametrize("name", sorted(p.parent.name for p in TASKS.glob("*/task.toml")))
def test_every_bench_task_has_a_torch_expression_that_matches_its_reference(name):
    task = Task.load(TASKS / name)
    assert task.torch, f"{name} declares no torch expression"
    shape = _small(task)
    env = comparators.tensors(task, shape, torch, device="cpu")
    try:
        got = [comparators.expression(task.torch, env, torch)()]
    except (TypeError, NotImplementedError) as exc:  # e.g. mm's out_dtype, or a kernel this CPU build lacks
        pytest.skip(f"{name}: this PyTorch cannot run the expression on the CPU ({exc})")
    inputs = {a.name: _storage(env[a.name], a.dtype) for a in task.args if a.is_buffer and a.role != "out"}
    expected = reference.call(task, shape, inputs)
    out_arg = [a for a in task.args if a.role == "out"][0]
    want = np.asarray(expected[out_arg.name], dtype=np.float64).reshape(-1)
    have = _host(got[0]).astype(np.float64).reshape(-1)
    tol = task.tolerances(out_arg)
    scale = np.sqrt(np.mean(want ** 2)) or 1.0
    # bf16 inputs are exact in both; the torch side computes in bf16/f32, the reference in float64
    assert np.sqrt(np.mean((have - want) ** 2)) <= max(tol["l2"], 1e-2 if "bf16" in {a.dtype.name for a in task.args}
                                                         else tol["l2"]) * scale + tol["atol"], name


def test_a_task_without_a_torch_form_has_no_comparators(tmp_path):
    (tmp_path / "ref.py").write_text("def f(x, **_):\n    return x\n")
    (tmp_path / "task.toml").write_text(
        'name = "t"\nargs = [ { name = "x", dtype = "f32", shape = ["n"], role = "in" },\n'
        '  { name = "y", dtype = "f32", shape = ["n"], role = "out" } ]\nshapes = [ { n = 4, timed = true } ]\n'
        'reference = "ref.py:f"\n')
    task = Task.load(tmp_path)
    assert "no PyTorch form" in comparators.unavailable(task)
    with pytest.raises(InputError, match="no comparators"):
        comparators.run(task, task.shapes[0])


def test_a_compile_past_its_limit_is_reported_and_the_eager_figure_kept():
    eager = {"name": "eager", "median_us": 10.0, "samples_us": [10.0]}
    out = comparators._complete([eager], "compile limit", [], True, 300.0)
    assert out[0] is eager
    assert out[1]["name"] == comparators.COMPILED and "exceeded the 300 s limit" in out[1]["error"]
    # the eager part itself ran out of time: both say so
    out = comparators._complete([], "time limit", [], True, 300.0)
    assert all("took longer than" in r["error"] for r in out)
    out = comparators._complete([], "the comparator process failed: boom", ["alt"], False, 300.0)
    assert [r["name"] for r in out] == ["eager", "alt"] and all("boom" in r["error"] for r in out)


class _Sleeper:
    """A process that writes the child's marks on a schedule and then hangs (TEST DOUBLE for the comparator child)."""

    def __init__(self, out, marks):
        script = ("import json, sys, time\n"
                  "for delay, name in json.loads(sys.argv[2]):\n"
                  "    time.sleep(delay)\n"
                  "    open(sys.argv[1], 'a').write(json.dumps({'name': name}) + '\\n')\n"
                  "time.sleep(60)\n")
        self.proc = subprocess.Popen([sys.executable, "-c", script, str(out), json.dumps(marks)])


def test_the_watch_kills_a_compile_past_its_limit_but_not_the_eager_part(tmp_path):
    out = tmp_path / "r.jsonl"
    child = _Sleeper(out, [(0.1, "eager"), (0.1, "_compiling")])
    t0 = time.monotonic()
    assert comparators._watch(child.proc, out, 30.0, 1.0) == "compile limit"
    assert time.monotonic() - t0 < 10 and child.proc.returncode is not None
    out2 = tmp_path / "r2.jsonl"
    child = _Sleeper(out2, [(0.1, "eager")])  # never starts compiling: the eager limit stops it
    assert comparators._watch(child.proc, out2, 1.0, 100.0) == "time limit"


def test_speedups_compare_each_measured_comparator_with_the_candidate():
    cand = [100.0 + 0.1 * i for i in range(30)]
    slow = {"name": "eager", "samples_us": [200.0 + 0.1 * i for i in range(30)]}
    failed = {"name": comparators.COMPILED, "error": "boom"}
    [s] = comparators.speedups(cand, [slow, failed])
    assert s["name"] == "eager" and s["verdict"] == "FASTER" and s["speedup"] == pytest.approx(2.0, rel=0.01)


def test_a_pytorch_problem_compares_with_its_model_forward(tmp_path):
    from kopt.torch_problem import write_task

    problem = Path(__file__).parent / "data" / "torch_problems" / "scaled_relu.py"
    task = Task.load(write_task(problem, tmp_path / "relu"))
    assert comparators.unavailable(task) is None
    shape = task.shapes[0]
    [(name, what, fn)] = comparators.callables(task, shape, {}, torch, device="cpu")
    out = fn()
    assert name == "eager" and "forward" in what
    assert tuple(out.shape) == task.shape_of(task.arg("out"), shape)


def test_extra_expressions_run_beside_the_tasks_own():
    task = Task.load(TASKS / "softmax_rows")
    shape = _small(task)
    rows = comparators.callables(task, shape, {"log-softmax": "torch.log_softmax(x, 1).exp()"}, torch, device="cpu")
    assert [r[0] for r in rows] == ["eager", "log-softmax"]
    assert torch.allclose(rows[0][2](), rows[1][2](), atol=1e-6)


def test_the_sdpa_backend_is_named_from_the_kernels_that_ran():
    from kopt.comparators import sdpa_backend

    # kernel names of the forms PyTorch's backends launch (cuDNN's carry "flash" too: it is checked first)
    assert sdpa_backend({"cudnn_generated_fort_native_sdpa_sm90_flash_fprop_wgmma_f16": 10}) == "cuDNN"
    assert sdpa_backend({"void pytorch_flash::flash_fwd_kernel<Flash_fwd_kernel_traits<128>>": 10}) == \
        "flash attention"
    assert sdpa_backend({"fmha_cutlassF_bf16_aligned_64x128_rf_sm80(PyTorchMemEffAttention::AttentionKernel)": 3}) == \
        "memory-efficient"
    assert sdpa_backend({"sm90_xmma_gemm_bf16bf16": 2, "void (anonymous)::cunn_SoftMaxForward<8>": 1}).startswith(
        "math")
    assert sdpa_backend({"elementwise_kernel": 1}) is None
