"""Tasks' CUDA references (``reference_cuda``): the bench tasks' compile and resolve at every shape on the CPU; a
missing or broken one is the task's error, reported by loading and by ``kopt validate``. Their outputs against the
numpy references run on the GPU (tests/gpu/test_gpu_device_checks.py)."""
import shutil
from pathlib import Path

import pytest

from kopt.errors import InputError
from kopt.reference_kernels import build_reference, for_request
from kopt.task import Task
from kopt.validate import validate

TASKS = Path(__file__).resolve().parents[1] / "bench" / "tasks"
WITH_CUDA = sorted(p.parent.name for p in TASKS.glob("*/task.toml") if Task.load(p.parent).reference_cuda)


def test_the_heavy_bench_references_have_cuda_kernels():
    assert {"softmax_rows", "layernorm", "bias_gelu", "histogram", "gemm_bf16", "gemm_bf16_aligned",
            "attention_fwd"} <= set(WITH_CUDA)


@pytest.mark.parametrize("name", WITH_CUDA)
def test_bench_cuda_references_compile_and_resolve_at_every_shape(name):
    task = Task.load(TASKS / name)
    ref = build_reference(task, "sm_90", task.shapes)
    assert ref.cubin and set(ref.plans) == {s.label for s in task.shapes}
    outputs = {a.name for a in task.args if a.is_output}
    for plan in ref.plans.values():
        written = {a.name for lp in plan.launches for a in lp.args if a.kind == "buffer"}
        assert outputs <= written  # every output is an argument of some launch


def test_host_checks_send_no_cuda_reference():
    task = Task.load(TASKS / "histogram")
    assert for_request(task, "sm_90", task.shapes, None) is None


def _copy(tmp_path, name="histogram") -> Path:
    d = tmp_path / name
    shutil.copytree(TASKS / name, d)
    return d


def test_a_missing_cuda_reference_is_a_task_error(tmp_path):
    d = _copy(tmp_path)
    (d / "reference.cu").unlink()
    with pytest.raises(InputError, match="reference_cuda 'reference.cu' not found"):
        Task.load(d)


def test_a_cuda_reference_that_does_not_compile_is_reported_by_validate(tmp_path):
    d = _copy(tmp_path)
    (d / "reference.cu").write_text('// kopt: launch histogram_ref grid=(1) block=(1) args=(x, hist, n)\n'
                                    'extern "C" __global__ void histogram_ref(const unsigned char* x, double* h, '
                                    'int n) { no_such_name; }\n')
    result = validate(d, reference_timeout=60)
    assert any("reference_cuda reference.cu does not compile" in d.message and "no_such_name" in d.message
               for d in result.diagnostics), [d.message for d in result.diagnostics]
    with pytest.raises(InputError, match="does not compile"):
        for_request(Task.load(d), "sm_90", Task.load(d).shapes, object())


def test_an_inout_task_cannot_take_a_cuda_reference(tmp_path):
    d = _copy(tmp_path)
    toml = d / "task.toml"
    toml.write_text(toml.read_text().replace('role = "out"', 'role = "inout"'))
    with pytest.raises(InputError, match="inout"):
        build_reference(Task.load(d), "sm_90", Task.load(d).shapes)
