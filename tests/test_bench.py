"""kopt bench's orchestration on the CPU, with a stand-in for the GPU worker: each candidate is compiled once (the
check and the timing share one Build), and the result is an Evaluation that round-trips through its dict form."""
from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

import pytest

from kopt import evaluation as bench_module
from kopt import cache, roofline
from kopt.evaluation import bench
from kopt.measurement import Evaluation
from kopt.protocol import BenchRequest, CheckRequest, Ok
from kopt.task import Task

ROOT = Path(__file__).resolve().parents[1]
TASK = ROOT / "bench" / "tasks" / "vector_add"
CANDIDATE = ROOT / "kb" / "cutlass_examples" / "vector_add_float4.cu"


class StandInWorker:
    """TEST DOUBLE for the GPU worker: every check passes; timing returns fixed samples (candidate 2x faster)."""

    kernel_timeout = 10.0

    def __init__(self):
        self.ops = []

    def call(self, request, on_phase=None):
        self.ops.append(type(request).__name__)
        if isinstance(request, CheckRequest):
            return Ok({"shapes": [{"shape": s.label, "ok": True, "diagnostics": [], "trials": []}
                                  for s in request.shapes]})
        assert isinstance(request, BenchRequest) and request.flush.name == "kopt_l2_flush"
        return Ok({"warnings": [], "shapes": [
            {"shape": s.label, "entries": [
                {"name": e.name, "samples_us": [100.0 if e.name.startswith("candidate") else 200.0] * 12,
                 "discarded_clock": 0, "method": "cupti", "method_note": "", "stop_reason": "stand-in",
                 "kernels": {"k": 12}, "declared": ["k"], "diagnostics": []} for e in request.entries]}
            for s in request.shapes]})


@pytest.fixture
def no_gpu_needed(monkeypatch):
    monkeypatch.setattr(bench_module, "require_gpu", lambda what: SimpleNamespace(name="stand-in", driver="0"))
    monkeypatch.setattr(roofline, "ceilings", lambda *a: {"copy_gbps": 1e9, "read_gbps": 1e9})


def test_bench_compiles_each_candidate_once(no_gpu_needed):
    from kopt.device import default_arch
    from kopt.flush import flush_kernel

    task = Task.load(TASK)
    flush_kernel(default_arch())  # the harness's own flush kernel, compiled once per process
    before = dict(cache.COUNTS)
    worker = StandInWorker()
    r = bench(task, CANDIDATE, baseline=task.baseline, worker=worker)
    assert cache.COUNTS["lookups"] - before["lookups"] == 2  # candidate and baseline: one compile each
    assert worker.ops == ["CheckRequest", "CheckRequest", "BenchRequest"]
    assert isinstance(r, Evaluation) and r.ok and r.status == "ok"
    assert [s.speedup for s in r.shapes] == [2.0] and r.speedup == 2.0 and r.time_us == 100.0


def test_an_evaluation_round_trips_and_stores_without_samples(no_gpu_needed):
    task = Task.load(TASK)
    r = bench(task, CANDIDATE, baseline=task.baseline, worker=StandInWorker(), aggregate="worst")
    again = Evaluation.from_dict(r.to_dict())
    assert again.to_dict() == r.to_dict() and again.aggregate == "worst"
    stored = r.to_dict(samples=False)
    assert "samples_us" not in str(stored) and Evaluation.from_dict(stored).speedup == r.speedup
    assert r.brief()["shapes"][0]["speedup"] == 2.0 and r.brief()["aggregate"] == "worst"
