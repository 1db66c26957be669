"""GPU: kopt.launch on the caller's own arrays (torch, cupy, a bare DLPack producer) and kopt.time of a launch or a
function, in this process."""
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import kopt
from kopt.errors import InputError
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.gpu
torch = pytest.importorskip("torch")

SAXPY = r"""
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}
"""
SCALE_CANDIDATE = """// kopt: tune BLOCK in [128, 256]
// kopt: launch scale grid=(cdiv(n, BLOCK)) block=(BLOCK) args=(x, y, s, n)
extern "C" __global__ void scale(const double* x, double* y, double s, long long n) {
  long long i = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (i < n) y[i] = s * x[i] + BLOCK;
}
"""


def cdiv(a, b):
    return -(-a // b)


def test_launch_on_torch_tensors_matches_torch():
    n = 1_000_003
    x = torch.randn(n, device="cuda")
    y = torch.randn(n, device="cuda")
    want = 2.5 * x + y
    kopt.launch(SAXPY, "saxpy", cdiv(n, 256), 256, 2.5, x, y, n)
    torch.cuda.synchronize()
    torch.testing.assert_close(y, want, rtol=1e-6, atol=1e-6)  # the kernel's multiply-add is one fused rounding


def test_a_candidate_compiles_at_its_config_and_packs_64_bit_scalars(tmp_path):
    path = tmp_path / "scale.cu"
    path.write_text(SCALE_CANDIDATE)
    n = 4099
    x = torch.randn(n, device="cuda", dtype=torch.float64)
    y = torch.empty_like(x)
    launch = kopt.launch(path, None, cdiv(n, 128), 128, x, y, 3, n, config={"BLOCK": 128})
    torch.cuda.synchronize()
    torch.testing.assert_close(y, 3 * x + 128, rtol=1e-15, atol=1e-13)  # fused multiply-add: one rounding
    assert launch.kernel == "scale" and launch.block == (128, 1, 1)


def test_launch_on_cupy_arrays_and_a_bare_dlpack_producer():
    cupy = pytest.importorskip("cupy")
    n = 70_001
    x = cupy.random.standard_normal(n, dtype=cupy.float32)
    y = cupy.ones(n, dtype=cupy.float32)
    kopt.launch(SAXPY, "saxpy", cdiv(n, 256), 256, -1.0, x, y, n)
    cupy.cuda.get_current_stream().synchronize()
    np.testing.assert_array_equal(cupy.asnumpy(y), 1.0 - cupy.asnumpy(x))

    class OnlyDLPack:  # what any DLPack producer offers: no __cuda_array_interface__
        def __init__(self, t):
            self.t = t

        def __dlpack__(self, stream=None):
            return self.t.__dlpack__(stream=stream)

        def __dlpack_device__(self):
            return self.t.__dlpack_device__()

    xt, yt = torch.randn(n, device="cuda"), torch.zeros(n, device="cuda")
    kopt.launch(SAXPY, "saxpy", cdiv(n, 256), 256, 2.0, OnlyDLPack(xt), OnlyDLPack(yt), n)
    torch.cuda.synchronize()
    assert torch.equal(yt, 2.0 * xt)


def test_bad_arguments_are_input_errors():
    n = 64
    x, y = torch.randn(n, device="cuda"), torch.zeros(n, device="cuda")
    with pytest.raises(InputError, match="not in GPU memory|CPU"):
        kopt.launch(SAXPY, "saxpy", 1, 64, 1.0, torch.randn(n), y, n)
    with pytest.raises(InputError, match="not contiguous"):
        kopt.launch(SAXPY, "saxpy", 1, 64, 1.0, torch.randn(n, 2, device="cuda")[:, 0], y, n)
    with pytest.raises(InputError, match="takes 4 arguments"):
        kopt.launch(SAXPY, "saxpy", 1, 64, 1.0, x, y)
    with pytest.raises(InputError, match="is a float"):
        kopt.launch(SAXPY, "saxpy", 1, 64, 1.0, x, y, 64.5)
    with pytest.raises(InputError, match="grid"):
        kopt.launch(SAXPY, "saxpy", 0, 64, 1.0, x, y, n)


def test_time_of_a_launch_is_a_cupti_measurement_with_a_ci():
    n = 1 << 24
    x, y = torch.randn(n, device="cuda"), torch.zeros(n, device="cuda")
    launch = kopt.prepare(SAXPY, "saxpy", cdiv(n, 256), 256, 1.0, x, y, n)
    m = kopt.time(launch, max_time=1.0)
    assert m.method.startswith("cupti"), m.method_note
    assert m.valid and m.cold and m.summary.n >= 10
    assert m.summary.ci_low <= m.summary.median <= m.summary.ci_high
    assert set(m.kernels) == {"saxpy"} and m.stop_reason
    # 3 x 64 MiB moved: at most the H200's ~4.8 TB/s, so no faster than ~40 us
    assert m.summary.median > 35


def test_time_of_a_function_counts_every_kernel_it_runs():
    a = torch.randn(2048, 2048, device="cuda")

    def work():
        b = a @ a
        return torch.relu_(b)

    m = kopt.time(work, max_time=1.0)
    assert m.method.startswith("cupti"), m.method_note
    assert m.valid and m.summary.n >= 10 and len(m.kernels) >= 2, m.kernels
    flop_floor_us = 2 * 2048 ** 3 / 70e12 * 1e6  # far above any f32 rate of an H200 (TF32 included)
    assert m.summary.median > flop_floor_us


def test_time_of_a_function_counts_its_memcpys():
    """torch's copy_ of a contiguous tensor is a device-to-device memcpy, not a kernel: it is timed, and named."""
    n = 1 << 28
    x, y = torch.randn(n, device="cuda"), torch.empty(n, device="cuda")
    m = kopt.time(lambda: y.copy_(x), max_time=1.0)
    assert m.valid and m.summary.n >= 10, m.method_note
    assert "[memcpy]" in m.kernels, m.kernels
    assert m.summary.median > 2 * 4 * n / 5e12 * 1e6  # 2 GiB moved: no faster than ~5 TB/s allows


def test_time_raises_what_the_function_raised():
    def broken():
        raise ValueError("not today")

    with pytest.raises(ValueError, match="not today"):
        kopt.time(broken, max_time=0.5)


def test_time_agrees_with_kopt_bench_on_the_copy_baseline():
    """The same kernel (the copy baseline, 2 GiB moved, ~0.5 ms) timed by kopt bench in its worker and by kopt.time
    here agree within 2 % or within each other's 95 % CI."""
    task = Task.load(ROOT / "bench" / "tasks" / "copy")
    r = kopt.bench(task, task.baseline, options={"max_time": 3.0})
    assert r.ok, [d.to_dict() for d in r.diagnostics]
    benched = r.shapes[0].candidate.summary
    n = task.timed_shapes[0].symbols["n"]
    x, y = torch.randn(n, device="cuda"), torch.empty(n, device="cuda")
    timed = kopt.time(kopt.prepare(task.baseline, None, cdiv(n, 256), 256, x, y, n), max_time=3.0).summary
    assert benched.median > 50 and timed.median > 50
    close = abs(timed.median - benched.median) <= 0.02 * benched.median
    overlap = timed.ci_low <= benched.ci_high and benched.ci_low <= timed.ci_high
    assert close or overlap, (benched, timed)


def test_a_faulting_kernel_leaves_the_callers_context_unusable():
    """What the documentation warns about, shown in a separate process: after a fault, every CUDA call fails."""
    script = textwrap.dedent(r'''
        import torch, kopt
        from kopt.launcher import LaunchError
        BAD = 'extern "C" __global__ void bad(float* p) { p[1ll << 40] = 1.0f; }'
        x = torch.zeros(4, device="cuda")
        launch = kopt.launch(BAD, "bad", 1, 1, x)
        try:
            launch.synchronize()
        except LaunchError as exc:
            print("FAULT", exc.name)
        try:
            torch.zeros(1, device="cuda").sum().item()
            print("USABLE")
        except Exception:
            print("UNUSABLE")
    ''')
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120).stdout
    assert "FAULT CUDA_ERROR_ILLEGAL_ADDRESS" in out and "UNUSABLE" in out, out
