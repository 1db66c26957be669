"""GPU: the timing harness counts every kernel, voids cached results, and rejects impossible times."""
from pathlib import Path

import pytest

from kopt.evaluation import bench, time_entries
from kopt.build import build
from kopt.client import WorkerClient
from kopt.measurement import Evaluation
from kopt.task import Task
from kopt.verdict import Verdict

ROOT = Path(__file__).resolve().parents[2]
PLANTED = Path(__file__).parent / "planted"
pytestmark = pytest.mark.gpu
FAST = {"max_time": 2.0}


@pytest.fixture(scope="module")
def worker():
    with WorkerClient(kernel_timeout=10.0) as w:
        yield w


@pytest.fixture(scope="module")
def vadd():
    return Task.load(Path(__file__).parent / "tasks" / "vadd_mid")


def test_baseline_against_itself_is_not_faster_or_slower(vadd, worker):
    r = bench(vadd, vadd.baseline, baseline=vadd.baseline, worker=worker, options=FAST)
    assert r.ok, [d.to_dict() for d in r.diagnostics]
    (s,) = r.shapes
    assert s.candidate.method.startswith("cupti")
    assert s.comparison.verdict in ("SAME", "AMBIGUOUS")
    assert 50 < s.candidate.figures["pct_of_roofline"] <= 110
    assert s.candidate.summary.n >= 10 and s.candidate.stop_reason


def test_work_on_a_second_stream_is_timed_fully(vadd, worker):
    r = bench(vadd, PLANTED / "second_stream.cu", baseline=vadd.baseline, worker=worker, options=FAST)
    assert r.ok, [d.to_dict() for d in r.diagnostics]
    (s,) = r.shapes
    assert {"touch", "vadd"} <= set(s.candidate.kernels)
    assert s.candidate.summary.median >= 0.9 * s.baseline.summary.median


def test_result_caching_across_calls_voids_the_timing(vadd, worker):
    r = Evaluation(vadd.name, Verdict(vadd.name, "caches_result.cu"))
    time_entries(vadd, [("candidate", build(vadd, PLANTED / "caches_result.cu"))], r, worker=worker, options=FAST)
    assert "timing.output-invalid" in {d.rule for d in r.diagnostics}
    assert not r.shapes[0].candidate.valid


def test_noop_is_rejected_by_correctness_and_by_the_roofline_floor(vadd, worker):
    r = bench(vadd, PLANTED / "noop.cu", worker=worker, options=FAST)
    assert not r.ok and "check.unwritten-output" in {d.rule for d in r.candidate.diagnostics}
    r = Evaluation(vadd.name, Verdict(vadd.name, "noop.cu"))
    time_entries(vadd, [("candidate", build(vadd, PLANTED / "noop.cu"))], r, worker=worker, options=FAST)
    rules = {d.rule for d in r.diagnostics}
    assert "timing.implausible" in rules and "timing.output-invalid" in rules
