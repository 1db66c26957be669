"""PyTorch problems as tasks (KernelBench's format): what `kopt task new --from-torch` infers, how the worker's
inputs and reference are drawn, and the problems that are refused. Needs torch (CPU is enough); CI does not install
it (the CUDA build from PyPI is gigabytes), so there these tests skip, and they run on the GPU machine and wherever
torch is installed."""
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

torch = pytest.importorskip("torch")

from kopt.task import Task  # noqa: E402
from kopt.torch_problem import describe, write_task  # noqa: E402
from kopt.torch_reference import case  # noqa: E402

PROBLEMS = Path(__file__).parent / "data" / "torch_problems"


def kopt(*args):
    return subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args)], capture_output=True, text=True)


@pytest.fixture(scope="module")
def relu_task(tmp_path_factory):
    return Task.load(write_task(PROBLEMS / "scaled_relu.py", tmp_path_factory.mktemp("t") / "relu"))


def test_inputs_outputs_and_sizes_are_inferred(relu_task):
    t = relu_task
    assert [(a.name, a.role, a.dtype.name, a.shape, a.torch) for a in t.args if a.is_buffer] == [
        ("x", "in", "f32", ["rows", "cols"], "input 0"), ("out", "out", "f32", ["rows", "cols"], "output 0")]
    assert [(a.name, a.value) for a in t.args if not a.is_buffer] == [("rows", "rows"), ("cols", "cols")]
    # the problem's own sizes are timed; a smaller shape with odd sizes comes first for the checks
    assert t.timed_shapes[0].symbols == {"rows": 4096, "cols": 1000}
    small = t.shapes[0].symbols
    assert not t.shapes[0].timed and small["rows"] % 2 == 1 and small["rows"] * small["cols"] < 4096 * 1000


def test_parameters_are_arguments_and_an_output_size_gets_its_own_symbol(tmp_path):
    desc = describe(PROBLEMS / "norm_conv.py")
    args = {a["name"]: a for a in desc["args"]}
    assert args["norm_weight"]["torch"] == "state norm.weight" and args["norm_weight"]["shape"] == ["length"]
    assert args["conv_weight"]["shape"] == ["channels", "channels", "kernel"]
    assert args["out"]["shape"] == ["batch", "channels", "out_d2"]
    assert desc["shapes"][-1]["out_d2"] == 40 - 5 + 1


def test_a_function_reference_and_a_number_among_the_inputs(tmp_path):
    folder = tmp_path / "scale"
    p = kopt("task", "new", "--from-torch", f"{PROBLEMS / 'scale_by_constant.py'}:scale", "--out", folder)
    assert p.returncode == 0, p.stderr
    t = Task.load(folder)
    assert t.reference == "reference.py:scale"
    s = t.arg("s")
    assert (s.role, s.dtype.name, s.value, s.torch) == ("scalar", "f32", "1.5", "input 1")
    host, expected = case(t, t.shapes[0], seed=3, device="cpu")
    assert set(host) == {"a"}
    np.testing.assert_allclose(expected["out"], host["a"].astype(np.float64) * 1.5)


def test_every_trial_draws_fresh_inputs_under_the_seed_and_the_reference_is_float64(relu_task):
    shape = relu_task.shapes[0]
    a1, e1 = case(relu_task, shape, seed=1, device="cpu")
    a2, _ = case(relu_task, shape, seed=1, device="cpu")
    b, _ = case(relu_task, shape, seed=2, device="cpu")
    assert np.array_equal(a1["x"], a2["x"]) and not np.array_equal(a1["x"], b["x"])
    assert e1["out"].dtype == np.float64
    np.testing.assert_array_equal(e1["out"], np.maximum(a1["x"].astype(np.float64), 0) * 2.0)


def test_a_naive_candidate_validates_against_the_problem_file_directly():
    p = kopt("validate", PROBLEMS / "scaled_relu.py", PROBLEMS / "scaled_relu.cu", "--json")
    assert p.returncode == 0, p.stdout + p.stderr
    doc = json.loads(p.stdout)
    assert doc["ok"] and doc["reference"]["ok"] and len(doc["candidates"][0]["configs"][0]["shapes"]) == 2


@pytest.mark.parametrize("problem,message", [
    ("broken_import.py", "importing broken_import.py raised ModuleNotFoundError"),
    ("broken_inputs.py", "get_inputs() item 0 is a str, not a tensor or a number"),
    ("broken_forward.py", "Model(*get_inputs()) raised RuntimeError: the reference is broken"),
    ("scaled_relu.py:nothing", "no class or function 'nothing'"),
    ("missing.py", "no such file"),
])
def test_a_problem_that_cannot_be_read_is_bad_input(tmp_path, problem, message):
    for args in (["task", "new", "--from-torch", PROBLEMS / problem, "--out", tmp_path / "t"],
                 ["validate", PROBLEMS / problem, PROBLEMS / "scaled_relu.cu"]):
        p = kopt(*args)
        assert p.returncode == 2, (args, p.stdout, p.stderr)
        assert message in p.stderr and "Traceback" not in p.stderr, p.stderr
    assert not (tmp_path / "t").exists()
