"""GPU: launch expressions see the device's own constants (num_sms, l2_bytes, max_smem_per_block), and `when`
launch lines pick a launch per shape, both branches running correctly."""
from pathlib import Path

import pytest

from kopt.build import build
from kopt.checker import check
from kopt.render import to_text
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.gpu

PERSISTENT = """// kopt: task vector_add
// kopt: launch vadd_persistent grid=(num_sms * 2) block=(256) args=(a, b, c, n) when n >= 100000
// kopt: launch vadd_simple grid=(cdiv(n, 256)) block=(256) args=(a, b, c, n)
extern "C" __global__ void vadd_persistent(const float* a, const float* b, float* c, int n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)gridDim.x * blockDim.x)
    c[i] = a[i] + b[i];
}
extern "C" __global__ void vadd_simple(const float* a, const float* b, float* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] + b[i];
}
"""


def _device_attribute(name: str) -> int:
    from cuda.bindings import driver as cu

    (err,) = cu.cuInit(0)
    assert err == cu.CUresult.CUDA_SUCCESS
    _, dev = cu.cuDeviceGet(0)
    err, value = cu.cuDeviceGetAttribute(getattr(cu.CUdevice_attribute, f"CU_DEVICE_ATTRIBUTE_{name}"), dev)
    assert err == cu.CUresult.CUDA_SUCCESS
    return int(value)


def test_num_sms_resolves_to_the_devices_sm_count_and_each_branch_runs(tmp_path):
    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    cand = tmp_path / "persistent.cu"
    cand.write_text(PERSISTENT)
    b = build(task, cand)
    sms = _device_attribute("MULTIPROCESSOR_COUNT")
    big, small = task.find_shape("n=1000003")[0], task.find_shape("n=4097")[0]
    (lp,) = b.plan(big).launches
    assert (lp.kernel, lp.grid) == ("vadd_persistent", (sms * 2, 1, 1))
    (lp,) = b.plan(small).launches
    assert (lp.kernel, lp.grid) == ("vadd_simple", (17, 1, 1))
    verdict = check(task, b, shapes=[big, small])
    assert verdict.correct, to_text(verdict.diagnostics)


def test_l2_and_shared_memory_constants_are_the_devices():
    from kopt.archs import device_constants
    from kopt.device import default_arch

    dc = device_constants(default_arch())
    assert dc.values["num_sms"] == _device_attribute("MULTIPROCESSOR_COUNT")
    assert dc.values["l2_bytes"] == _device_attribute("L2_CACHE_SIZE")
    assert dc.values["max_smem_per_block"] == _device_attribute("MAX_SHARED_MEMORY_PER_BLOCK_OPTIN")
    assert dc.origin["num_sms"].startswith("the GPU")
