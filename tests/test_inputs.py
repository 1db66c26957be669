"""Input generation (seeded chunks on a thread pool) and the worker's case cache (inputs + reference per seed)."""
from pathlib import Path

import numpy as np
import pytest

from kopt import inputs
from kopt.worker.runner import CheckRunner
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture
def small_chunks(monkeypatch):
    monkeypatch.setattr(inputs, "CHUNK", 1000)  # several chunks per argument at a small shape


def _vector_add():
    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    return task, task.find_shape("n=1000003")[0]


def test_values_depend_on_the_seed_not_on_the_threads(small_chunks, monkeypatch):
    task, shape = _vector_add()
    a = inputs.generate(task, shape, 7)
    monkeypatch.setattr(inputs, "WORKERS", 1)
    b = inputs.generate(task, shape, 7)
    c = inputs.generate(task, shape, 8)
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert not np.array_equal(a["a"], c["a"])
    # chunks are independent streams: no chunk repeats another
    assert not np.array_equal(a["a"][:1000], a["a"][1000:2000])
    # the declared distributions: a ~ N(0, 1), b ~ U(-1, 1)
    assert abs(a["a"].mean()) < 0.01 and abs(a["a"].std() - 1) < 0.01
    assert a["b"].min() >= -1 and a["b"].max() <= 1


def test_case_cache_reuses_and_evicts():
    task, shape = _vector_add()
    runner = CheckRunner(gpu=None)  # the host path's case cache needs no GPU
    first = runner.case(task, shape, 1)
    assert runner.case(task, shape, 1) is first
    assert not first.on_device and first.reference_on == "cpu" and set(first.ms) == {"inputs", "reference"}
    inp, exp = first.inputs, first.expected
    assert not inp["a"].flags.writeable and not exp["c"].flags.writeable
    np.testing.assert_allclose(exp["c"], inp["a"].astype(np.float64) + inp["b"])
    runner.cases.limit = first.nbytes  # room for one case only
    runner.case(task, shape, 2)
    assert runner.case(task, shape, 1) is not first  # seed 1 was evicted and made again
    runner.keep_cases([3])  # a new request with other seeds: nothing of the old ones is kept
    assert not runner.cases._cases and runner.cases._bytes == 0


def test_warm_samples_skip_the_byte_floor_check():
    """Cold timing rejects a median below the DRAM floor; warm timing (L2 not flushed) may beat it and says so."""
    from kopt.evaluation import _measurement
    from kopt.measurement import Evaluation
    from kopt.verdict import Verdict

    task, _ = _vector_add()
    shape = task.timed_shapes[0]
    e = {"samples_us": [1.0] * 20, "discarded_clock": 0, "method": "cupti", "method_note": "", "stop_reason": "x",
         "kernels": {"vadd": 20}, "declared": ["vadd"]}
    for cold in (True, False):
        result = Evaluation(task.name, Verdict(task=task.name, candidate="c.cu"), ceilings={"copy_gbps": 4000.0})
        t = _measurement(task, shape, dict(e), result, cold=cold)
        rules = [d.rule for d in result.diagnostics]
        assert (rules == ["timing.implausible"]) == cold and t.valid == (not cold)
        assert ("warm" in t.method_note) == (not cold)


def test_widen_matches_the_dtype_conversion_across_chunks(monkeypatch):
    import numpy as np

    from kopt import inputs
    from kopt.dtypes import dtype
    from kopt.inputs import CHUNK, widen

    monkeypatch.setattr(inputs, "WORKERS", 4)  # the chunked path, whatever this machine's CPU count

    bits = np.random.default_rng(3).integers(0, 0x7F80, 2 * CHUNK + 7).astype(np.uint16)  # finite bf16 values
    assert np.array_equal(widen(dtype("bf16"), bits), dtype("bf16").to_float64(bits))
    x = np.random.default_rng(4).standard_normal((3, CHUNK // 2 + 1), dtype=np.float32)
    w = widen(dtype("f32"), x)
    assert w.shape == x.shape and w.dtype == np.float64 and np.array_equal(w, x.astype(np.float64))
