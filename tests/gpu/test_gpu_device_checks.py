"""GPU: the device path of a check (inputs drawn on the GPU, references through CuPy, comparisons as reductions)
agrees with the host path it replaces, and both paths give the same verdicts."""
from pathlib import Path

import numpy as np
import pytest

from kopt import reference
from kopt.dtypes import dtype
from kopt.task import Task
from kopt.worker.compare import compare_output, mutated_inputs

ROOT = Path(__file__).resolve().parents[2]
TASKS = sorted(p.parent for p in (ROOT / "bench" / "tasks").glob("*/task.toml"))
PLANTED = Path(__file__).parent / "planted"

pytestmark = pytest.mark.gpu


@pytest.fixture(scope="module")
def runner():
    from kopt.worker.runner import CheckRunner
    from kopt.worker.session import GpuSession

    from kopt.check_kernels import helper_kernels
    from kopt.device import default_arch

    r = CheckRunner(GpuSession())
    r.use_helpers(helper_kernels(default_arch()))
    assert r.checks is not None, r.checks_note
    return r


def _to_device(runner, host: np.ndarray):
    buf = runner.gpu.alloc_collected(host.nbytes)
    runner.gpu.upload(buf, np.ascontiguousarray(host))
    return buf


def _drawn(runner, name: str, n: int, seed: int, stream: int, init: dict) -> np.ndarray:
    dt = dtype(name)
    buf = runner.gpu.alloc_collected(n * dt.itemsize)
    runner.checks.fill(buf, dt, n, seed, stream, init)
    runner.gpu.synchronize()
    host = np.empty(n, dt.storage)
    runner.gpu.download(buf, host)
    return dt.to_float64(host)


def test_generator_is_reproducible_and_has_the_declared_distributions(runner):
    n = 1 << 20
    a = _drawn(runner, "f32", n, 7, 0, {"kind": "normal", "mean": 1.0, "std": 2.0})
    assert np.array_equal(a, _drawn(runner, "f32", n, 7, 0, {"kind": "normal", "mean": 1.0, "std": 2.0}))
    assert not np.array_equal(a, _drawn(runner, "f32", n, 8, 0, {"kind": "normal", "mean": 1.0, "std": 2.0}))
    assert not np.array_equal(a, _drawn(runner, "f32", n, 7, 1, {"kind": "normal", "mean": 1.0, "std": 2.0}))
    assert abs(a.mean() - 1.0) < 0.01 and abs(a.std() - 2.0) < 0.01
    z = (a - 1.0) / 2.0  # tails of a normal: P(|z| > 3) = 0.0027
    assert 0.0022 < np.mean(np.abs(z) > 3) < 0.0032
    u = _drawn(runner, "f64", n, 3, 2, {"kind": "uniform", "low": -1.0, "high": 3.0})
    assert u.min() >= -1.0 and u.max() < 3.0 and abs(u.mean() - 1.0) < 0.01
    assert np.histogram(u, bins=8, range=(-1, 3))[0].min() > n / 8 * 0.97
    k = _drawn(runner, "i32", n, 3, 3, {"kind": "randint", "low": -5, "high": 5})
    assert set(np.unique(k)) == set(range(-5, 5))
    for name in ("f16", "bf16", "u8", "i64"):
        v = _drawn(runner, name, 4096, 1, 0, {"kind": "uniform", "low": 0.0, "high": 100.0})
        assert 0.0 <= v.min() and v.max() <= 100.0 and v.std() > 20, name
    clipped = _drawn(runner, "u8", 4096, 1, 0, {"kind": "normal", "mean": 0.0, "std": 1000.0})
    assert clipped.min() == 0 and clipped.max() == 255  # clipped to the type, as on the host


@pytest.mark.parametrize("name", ["f32", "f16", "bf16", "f64", "i32", "u8"])
def test_device_comparison_matches_the_host_figures(runner, name):
    from kopt.worker.compare import report

    dt = dtype(name)
    rng = np.random.default_rng(5)
    n = 3 * 8192 + 17  # several blocks and a ragged tail
    if dt.is_float:
        expected = rng.standard_normal(n) * 3
        got = dt.from_float64(expected * (1 + rng.standard_normal(n) * 1e-3))
        bits = got.view(np.dtype(f"u{dt.itemsize}"))
        bits[100:140] = dt.poison  # unwritten
        got[5000] = dt.from_float64(np.array([np.nan]))[0]
        got[7000] = dt.from_float64(np.array([np.inf]))[0]
        expected[9000] = np.nan
        got[9000] = dt.from_float64(np.array([np.nan]))[0]  # NaN where NaN is expected: not a mismatch
    else:
        expected = rng.integers(0, 100, n).astype(np.float64)
        got = dt.from_float64(expected)
        got[10:20] += 1
        got.view(np.dtype(f"u{dt.itemsize}"))[30:35] = dt.poison
        expected[40] = float(np.array(dt.poison, dtype=np.dtype(f"u{dt.itemsize}")).view(dt.storage))  # legit
        got[40] = dt.from_float64(np.array([expected[40]]))[0]
    tol = {"rtol": dt.rtol, "atol": dt.atol, "l2": dt.l2}
    host = compare_output("y", got, dt, expected, tol)
    totals = runner.checks.compare(_to_device(runner, got), dt, _to_device(runner, expected), n, tol)
    dev = report("y", (n,), dt, totals, tol, host.unwritten_region)
    for field in ("mismatches", "unwritten", "nan_mismatch", "worst_index", "ok", "l2_ok"):
        assert getattr(dev, field) == getattr(host, field), field
    for field in ("max_abs", "max_rel", "rel_l2", "worst_value", "worst_expected"):
        a, b = getattr(dev, field), getattr(host, field)
        same = a == b or (np.isnan(a) and np.isnan(b)) or (np.isinf(a) and np.isinf(b))
        assert same or abs(a - b) <= 1e-12 * abs(b), (field, a, b)


def test_device_mutation_check_matches_the_host(runner):
    before = np.random.default_rng(1).standard_normal((64, 1000)).astype(np.float32)
    after = before.copy()
    after[3, 5] += 1
    after[60, 999] = 0
    count, first = runner.checks.differences(_to_device(runner, after), _to_device(runner, before), 4, before.size)
    assert (count, tuple(np.unravel_index(first, before.shape))) == mutated_inputs(before, after) == (2, (3, 5))
    assert runner.checks.differences(_to_device(runner, before), _to_device(runner, before), 4, before.size) == \
        (0, None)


@pytest.mark.parametrize("task_dir,via", [(t, "cupy") for t in TASKS if Task.load(t).reference_device == "gpu"] +
                         [(t, "cuda") for t in TASKS if Task.load(t).reference_cuda is not None],
                         ids=lambda p: p.name if isinstance(p, Path) else p)
def test_gpu_reference_matches_the_numpy_reference(task_dir, via, runner):
    """Each built-in reference's GPU run (the numpy function on CuPy arrays, or the task's reference_cuda kernels)
    against the numpy run, in float64, on the small shapes."""
    from kopt.device import default_arch
    from kopt.reference_kernels import build_reference

    task = Task.load(task_dir)
    small = [s for s in task.shapes if not s.timed]
    runner.cases.reference = build_reference(task, default_arch(), small) if via == "cuda" else None
    try:
        for shape in small:
            case = runner.case(task, shape, 11 if via == "cupy" else 12)  # cases are kept by seed
            assert case.on_device and case.reference_on == f"gpu ({via})", case.note
            host_inputs = {}
            for a in task.args:
                if a.name in case.inputs:
                    host_inputs[a.name] = np.empty(task.shape_of(a, shape), a.dtype.storage)
                    runner.gpu.download(case.inputs[a.name], host_inputs[a.name])
            want = reference.call(task, shape, host_inputs)
            for name, arr in want.items():
                got = np.empty(arr.shape, np.float64)
                runner.gpu.download(case.expected[name], got)
                np.testing.assert_allclose(got, arr.astype(np.float64), rtol=1e-12, atol=1e-12,
                                           err_msg=f"{task.name} {shape.label} {name}")
    finally:
        runner.cases.reference = None


@pytest.mark.parametrize("planted,rule", [("half_output.cu", "check.unwritten-output"),
                                          ("mutates_input.cu", "check.input-mutated"),
                                          ("constant.cu", "check.mismatch")])
def test_both_paths_give_the_same_verdict(planted, rule, monkeypatch):
    """The host path (``KOPT_CHECK_ON=cpu``) stays the fallback: it fails the same planted bugs, and the baseline
    passes on both."""
    from kopt.checker import check
    from kopt.client import WorkerClient

    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    small = [s for s in task.shapes if not s.timed]
    verdicts = {}
    for where in ("gpu", "cpu"):
        monkeypatch.setenv("KOPT_CHECK_ON", where)
        with WorkerClient(kernel_timeout=5.0) as w:
            bad = check(task, PLANTED / planted, worker=w, shapes=small)
            good = check(task, task.baseline, worker=w, shapes=small)
        assert good.correct and not bad.correct
        assert rule in {d.rule for d in bad.diagnostics}, (where, [d.rule for d in bad.diagnostics])
        assert good.shapes[0]["checked_on"] == where
        verdicts[where] = bad
    assert verdicts["gpu"].shapes[0]["phases_ms"].keys() == {"inputs", "reference", "launch", "compare"}
