"""The C++ harness module on the CPU: it imports without a GPU, and its stopping rule behaves as documented."""
import random

import pytest

from kopt import _harness
from kopt.device import probe


def test_imports_and_reports_missing_driver_clearly():
    status = _harness.driver_status()
    if probe()[0] is None:
        assert "libcuda" in status or "driver" in status.lower()
        with pytest.raises(RuntimeError, match="libcuda|driver"):
            _harness.measure([], {})
    else:
        assert status == ""


def test_stops_at_target_relative_stdev():
    rule = _harness.StoppingRule({"min_samples": 10, "min_time": 0.1})
    rng = random.Random(0)
    stopped = [rule.add(100 + rng.gauss(0, 0.1), 0.02 * i) for i in range(1, 200)]
    first = stopped.index(True) + 1
    assert first == 10  # 10 samples at 0.02 s each: both minimums (10 samples, 0.1 s) are met at the 10th
    assert rule.samples >= 10 and "relative stdev" in rule.reason


def test_waits_for_min_time_and_min_samples():
    rule = _harness.StoppingRule({"min_samples": 10, "min_time": 1.0})
    assert not any(rule.add(100.0, 0.01 * i) for i in range(50))  # 0.5 s only
    assert rule.add(100.0, 1.0)


def test_noisy_but_stable_noise_stops_by_stability():
    rule = _harness.StoppingRule({"stable_window": 16, "stable_tol": 0.05, "max_time": 100})
    rng = random.Random(1)
    reason = None
    for i in range(1, 20000):
        if rule.add(100 * (1 + rng.gauss(0, 0.05)), 0.01 * i):
            reason = rule.reason
            break
    assert reason and "stable" in reason and rule.rel_stdev > 0.005


def test_time_cap():
    rule = _harness.StoppingRule({"max_time": 2.0, "stable_tol": 0.0})
    rng = random.Random(2)
    i = 0
    while not rule.add(100 * (1 + rng.uniform(-0.5, 0.5) * (i % 7)), 0.01 * i):
        i += 1
    assert "time cap" in rule.reason and abs(0.01 * i - 2.0) < 0.02
