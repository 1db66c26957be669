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
    from kopt.check_kernels import helper_kernels
    from kopt.device import default_arch
    from kopt.flush import flush_kernel

    task = Task.load(TASK)
    flush_kernel(default_arch())  # the harness's own flush kernel, compiled once per process
    helper_kernels(default_arch())  # and the check kernels
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


class RankingWorker(StandInWorker):
    """TEST DOUBLE: timing samples by the candidate's file: the float4 kernel 100 us, the naive baseline 200 us."""

    def call(self, request, on_phase=None):
        reply = super().call(request, on_phase)
        if isinstance(request, BenchRequest):
            for s in reply.payload["shapes"]:
                for e in s["entries"]:
                    e["samples_us"] = [100.0 if "float4" in e["name"] else 200.0] * 12
                    e["steady_samples_us"] = [150.0 if "float4" in e["name"] else 200.0] * 12
        return reply


def test_several_candidates_are_timed_together_and_ranked(no_gpu_needed, tmp_path):
    from kopt.evaluation import bench_many

    task = Task.load(TASK)
    broken = tmp_path / "broken.cu"
    broken.write_text(TASK.joinpath("baseline.cu").read_text().replace("{", "{ this does not compile;", 1))
    worker = RankingWorker()
    ranking = bench_many(task, [task.baseline, CANDIDATE, broken], baseline=task.baseline, worker=worker)
    assert worker.ops == ["CheckRequest"] * 3 + ["BenchRequest"]  # the broken one never reaches the worker
    names = [Path(r.evaluation.candidate.candidate).name for r in ranking.ranked]
    assert names == ["vector_add_float4.cu", "baseline.cu", "broken.cu"]
    best, second, last = ranking.ranked
    assert best.evaluation.speedup == 2.0 and second.evaluation.speedup == 1.0 and last.evaluation.status == \
        "compile-failed"
    assert [c.verdict for c in best.versus_best] == ["SAME"] and [c.verdict for c in second.versus_best] == ["SLOWER"]
    assert second.versus_best[0].speedup == 0.5 and last.versus_best == []
    assert second.versus_best_steady[0].speedup == 0.75 and best.versus_best_steady[0].verdict == "SAME"
    from kopt.cli._common import console
    from kopt.cli.bench_cmd import render_ranking

    with console.capture() as shown:
        render_ranking(ranking)
    assert "steady vs best" in shown.get() and "SLOWER x0.750" in shown.get()
    doc = ranking.to_dict()
    assert [r["rank"] for r in doc["ranking"]] == [1, 2, 3] and doc["ok"]
