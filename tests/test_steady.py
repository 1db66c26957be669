"""Steady-state timing on the CPU: how many buffer sets the batches rotate over and when they are skipped, the
worker's samples into a Measurement (round trip), and the verdict text that states the cold and the steady
comparison."""
import pytest

from kopt.evaluation import _compare, _measurement
from kopt.measurement import Evaluation, Measurement, ShapeMeasurement
from kopt.stats import summarize
from kopt.task import Task
from kopt.verdict import Verdict
from kopt.worker.timing import STEADY_MAX_SETS, steady_plan, steady_sets

MIB, GIB = 1 << 20, 1 << 30
L2 = 50 * MIB


def test_sets_rotate_so_that_the_others_move_twice_the_l2_between_two_uses_of_one():
    for set_bytes in (1 * MIB, 7 * MIB, 33 * MIB, 99 * MIB, 100 * MIB, 101 * MIB, 3 * GIB):
        n = steady_sets(set_bytes, L2)
        assert n >= 2 and (n - 1) * set_bytes >= 2 * L2
        assert n == 2 or (n - 2) * set_bytes < 2 * L2  # no more than needed
    assert steady_sets(3 * GIB, L2) == 2 and steady_sets(1 * MIB, L2) == 101


def test_steady_plan_bounds_memory_and_set_count():
    counts, why = steady_plan([100 * MIB, 120 * MIB], L2, 100 * GIB)
    assert counts == [2, 2] and why == ""
    # too many sets (a small problem): skipped with the reason
    counts, why = steady_plan([64 << 10], L2, 100 * GIB)
    assert counts == [] and f"over {STEADY_MAX_SETS}" in why and "64 KiB" in why
    # more than half the free memory: skipped, saying how much was needed and allowed
    counts, why = steady_plan([3 * GIB, 3 * GIB], L2, 20 * GIB)
    assert counts == [] and "12288 MiB" in why and "10240 MiB allowed" in why
    counts, why = steady_plan([3 * GIB], L2, 200 * GIB, budget=4 * GIB)
    assert counts == [] and "4 GiB" in why


def _worker_entry(cold, steady, **extra):
    return {"name": "candidate:c.cu", "samples_us": cold, "discarded_clock": 0, "method": "cupti", "method_note": "",
            "stop_reason": "stable", "kernels": {"k": len(cold)}, "declared": ["k"], "diagnostics": [],
            "steady_samples_us": steady, "steady_discarded_clock": 0, "steady_warmup": 2, "steady_batch": 8,
            "steady_stop_reason": "stable", "steady_note": "", "steady_sets": 2, "steady_set_bytes": 384 * MIB,
            **extra}


@pytest.fixture
def vadd(tmp_path):
    (tmp_path / "ref.py").write_text("def f(a, b, **_):\n    return a + b\n")
    (tmp_path / "task.toml").write_text(
        'name = "vadd"\nargs = [ { name = "a", dtype = "f32", shape = ["n"], role = "in" },\n'
        '  { name = "b", dtype = "f32", shape = ["n"], role = "in" },\n'
        '  { name = "c", dtype = "f32", shape = ["n"], role = "out" } ]\n'
        'shapes = [ { n = 33554432, timed = true } ]\nreference = "ref.py:f"\nwork = { bytes = "3 * n * 4" }\n')
    return Task.load(tmp_path)


def test_a_worker_entry_becomes_a_measurement_with_a_steady_summary_that_round_trips(vadd):
    ceil = {"streams": [{"reads": 2, "writes": 1, "gbps": 4000.0}]}
    ev = Evaluation(vadd.name, Verdict(vadd.name, "c.cu"), ceilings=ceil)
    cold = [90.0 + 0.1 * i for i in range(20)]
    steady = [105.0 + 0.1 * i for i in range(30)]
    m = _measurement(vadd, vadd.shapes[0], _worker_entry(cold, steady), ev)
    assert m.median == pytest.approx(summarize(cold).median) and m.steady_us == pytest.approx(summarize(steady).median)
    assert "2 rotating sets of 384.0 MiB" in m.steady_note and "2 untimed then 8 timed" in m.steady_note
    f = m.figures
    floor = 3 * 33554432 * 4 / 4000.0 / 1e3  # 100.7 us: beaten cold, not in steady state
    assert f["basis"] == "steady" and f["pct_of_roofline"] == pytest.approx(100 * floor / m.steady_us)
    assert f["pct_of_roofline_cold"] > 100 and "beats the byte floor" in f["note"]
    back = Measurement.from_dict(m.to_dict())
    assert back.steady.to_dict() == m.steady.to_dict() and back.steady_samples_us == steady
    assert back.steady_note == m.steady_note
    d = m.to_dict(samples=False)
    assert d["steady_us"] == m.steady_us and "steady_samples_us" not in d


def test_without_steady_samples_the_measurement_says_why_and_the_figures_stay_cold(vadd):
    ev = Evaluation(vadd.name, Verdict(vadd.name, "c.cu"), ceilings={"copy_gbps": 4000.0})
    why = "steady state not measured: its sets need 99999 MiB"
    m = _measurement(vadd, vadd.shapes[0], _worker_entry([120.0] * 12, [], steady_note=why), ev)
    assert m.steady is None and m.steady_us is None and m.steady_note == why
    assert m.figures["basis"] == "cold"


def test_verdict_text_states_the_cold_and_the_steady_comparison():
    def meas(cold, steady, note=""):
        return Measurement("x", summarize(cold), samples_us=cold, steady=summarize(steady) if steady else None,
                           steady_samples_us=steady, steady_note=note)

    base = meas([100.0 + 0.01 * i for i in range(30)], [110.0 + 0.01 * i for i in range(30)])
    hinted = meas([90.0 + 0.01 * i for i in range(30)], [110.0 + 0.01 * i for i in range(30)])
    sm = ShapeMeasurement("n=1", hinted, base, _compare(base, hinted), _compare(base, hinted, steady=True))
    text = sm.verdict_text()
    assert text.startswith("cold FASTER x1.11") and "; steady SAME x1.00" in text
    again = ShapeMeasurement.from_dict(sm.to_dict())
    assert again.steady_comparison.to_dict() == sm.steady_comparison.to_dict() and again.verdict_text() == text
    # no steady samples on one side: no steady comparison, and the text says why
    lone = meas([90.0] * 12, [], note="steady state needs CUPTI records to tell back-to-back samples apart")
    sm = ShapeMeasurement("n=1", lone, base, _compare(base, lone), _compare(base, lone, steady=True))
    assert sm.steady_comparison is None and "steady: none (steady state needs CUPTI" in sm.verdict_text()
