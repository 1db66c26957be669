"""The C++ harness module on the CPU: it imports without a GPU, its options are checked, and each stopping criterion,
selected by name, stops as documented on synthetic sample streams."""
import random
import re
import statistics
from pathlib import Path

import pytest

from kopt import _harness
from kopt.device import probe
from kopt.stats import median_ci_ranks, summarize

ROOT = Path(__file__).resolve().parents[1]
CRITERIA = {"stdrel", "stable", "ci-width", "stdrel-or-stable"}


def run(options: dict, stream, dt: float = 0.01) -> tuple[_harness.StoppingRule, list[float]]:
    """Feeds samples from ``stream`` one every ``dt`` seconds until the rule stops; returns it and the samples fed."""
    rule, fed = _harness.StoppingRule(options), []
    for i, x in enumerate(stream, 1):
        fed.append(x)
        if rule.add(x, dt * i):
            return rule, fed
    raise AssertionError("the stream ended before the rule stopped")


def gauss(rel: float, seed: int, mean: float = 100.0):
    rng = random.Random(seed)
    while True:
        yield mean * (1 + rng.gauss(0, rel))


def rel_stdev(xs) -> float:
    return statistics.stdev(xs) / statistics.mean(xs)


def test_imports_and_reports_missing_driver_clearly():
    status = _harness.driver_status()
    if probe()[0] is None:
        assert "libcuda" in status or "driver" in status.lower()
        with pytest.raises(RuntimeError, match="libcuda|driver"):
            _harness.measure([], {})
    else:
        assert status == ""


# --- the caps, around the default criterion --------------------------------------------------------------------
def test_stops_at_target_relative_stdev():
    rule, fed = run({"min_samples": 10, "min_time": 0.1}, gauss(0.001, 0), dt=0.02)
    assert len(fed) == 10  # 10 samples at 0.02 s each: both minimums (10 samples, 0.1 s) are met at the 10th
    assert rule.samples == 10 and rule.reason.startswith("relative stdev")


def test_waits_for_min_time_and_min_samples():
    rule = _harness.StoppingRule({"min_samples": 10, "min_time": 1.0})
    assert not any(rule.add(100.0, 0.01 * i) for i in range(50))  # 0.5 s only
    assert rule.add(100.0, 1.0)


def test_noisy_but_stable_noise_stops_by_stability():
    rule, fed = run({"stop_params": {"window": 16, "tol": 0.05}, "max_time": 100}, gauss(0.05, 1))
    assert "stable" in rule.reason and rel_stdev(fed) > 0.005


def test_time_cap():
    rule = _harness.StoppingRule({"max_time": 2.0, "stop_params": {"tol": 0.0}})
    rng = random.Random(2)
    i = 0
    while not rule.add(100 * (1 + rng.uniform(-0.5, 0.5) * (i % 7)), 0.01 * i):
        i += 1
    assert "time cap" in rule.reason and abs(0.01 * i - 2.0) < 0.02


def test_caps_apply_without_a_new_sample():
    rule = _harness.StoppingRule({"max_time": 1.0})
    assert not rule.add(100.0 + 5, 0.1) and not rule.check(0.5)  # every later sample discarded: time still runs
    assert rule.check(1.0) and rule.reason == "time cap reached (1 s)" and rule.samples == 1


def test_sample_cap():
    rule, fed = run({"stop": "stdrel", "max_samples": 50, "max_time": 1e9}, gauss(0.05, 3))
    assert len(fed) == 50 and rule.reason == "sample cap reached (50)"


# --- each criterion by name ------------------------------------------------------------------------------------
def test_stdrel_stops_at_its_target_and_only_there():
    rule, fed = run({"stop": "stdrel", "stop_params": {"max_rel_stdev": 0.01}}, gauss(0.005, 4))
    assert len(fed) == 10 and rel_stdev(fed) <= 0.01
    assert re.fullmatch(r"relative stdev [\d.]+ % <= target 1 %", rule.reason)
    # stable noise of 5 %: stdrel alone never stops, only the time cap does
    rule, fed = run({"stop": "stdrel", "max_time": 5.0}, gauss(0.05, 1))
    assert rule.reason == "time cap reached (5 s)" and len(fed) == 500


def test_stable_stops_once_the_noise_estimate_stops_moving():
    rule, fed = run({"stop": "stable", "stop_params": {"window": 16}, "max_time": 100}, gauss(0.05, 1))
    assert re.fullmatch(r"noise estimate stable at [\d.]+ % over 16 samples", rule.reason)
    assert f"{rel_stdev(fed) * 100:.3g} %" in rule.reason
    # a quiet stream meets stdrel at once, but stable needs a full window of estimates (the first sample has none)
    rule, fed = run({"stop": "stable", "stop_params": {"window": 40}}, gauss(0.001, 0))
    assert len(fed) >= 41 and "stable" in rule.reason


def test_ci_width_stops_when_the_medians_interval_is_narrow_enough():
    rule, fed = run({"stop": "ci-width", "stop_params": {"max_width": 0.01}, "max_time": 1e9}, gauss(0.02, 5))
    assert re.fullmatch(r"95 % CI of the median [\d.]+ % wide <= target 1 %", rule.reason)

    def width(xs) -> float:
        s = summarize(xs)
        return (s.ci_high - s.ci_low) / s.median

    assert width(fed) <= 0.01
    first = next(n for n in range(6, len(fed) + 1) if width(fed[:n]) <= 0.01)
    assert first <= len(fed) <= first * (1 + 1 / 64) + 1  # checked as the count grows by 1/64: never much later


def test_ci_width_ignores_rare_outliers_that_keep_stdrel_going():
    def outliers():  # 100 +- 0.1 us, one sample in 20 at 200 us (a preempted or throttled run)
        rng = random.Random(6)
        while True:
            yield 200.0 if rng.random() < 0.05 else 100 + rng.uniform(-0.1, 0.1)

    rule, fed = run({"stop": "ci-width", "max_time": 100}, outliers())
    assert rule.reason.startswith("95 % CI of the median") and len(fed) < 100
    assert rel_stdev(fed) > 0.1
    rule, _ = run({"stop": "stdrel", "max_time": 5}, outliers())
    assert "time cap" in rule.reason


def test_the_default_criterion_is_stdrel_or_stable():
    assert _harness.defaults()["stop"] == "stdrel-or-stable"
    for seed, rel, reason in ((0, 0.001, "relative stdev"), (1, 0.05, "noise estimate stable")):
        by_default, fed = run({}, gauss(rel, seed))
        named, fed_named = run({"stop": "stdrel-or-stable"}, gauss(rel, seed))
        assert by_default.reason.startswith(reason) and (by_default.reason, fed) == (named.reason, fed_named)


# --- options, defaults and the schema --------------------------------------------------------------------------
def test_unknown_criterion_is_rejected_with_the_known_ones():
    for make in (lambda o: _harness.measure([], o), _harness.StoppingRule):
        with pytest.raises(ValueError, match=r"unknown stopping criterion 'stdev'; known: stdrel, stable, ci-width"):
            make({"stop": "stdev"})


def test_unknown_keys_are_rejected_with_the_known_ones():
    with pytest.raises(ValueError, match=r"unknown option 'max_tme'; known: .*\bmax_time\b.*\bflush_l2\b"):
        _harness.measure([], {"max_tme": 1.0})
    with pytest.raises(ValueError, match=r"unknown option 'target_rel_stdev'"):  # now a parameter of stdrel
        _harness.measure([], {"target_rel_stdev": 0.01})
    with pytest.raises(ValueError, match=r"unknown parameter 'max_width' of stopping criterion 'stdrel'; "
                                         r"known: max_rel_stdev$"):
        _harness.measure([], {"stop": "stdrel", "stop_params": {"max_width": 0.01}})
    with pytest.raises(ValueError, match=r"unknown option 'method'; known: min_samples, .*stop_params$"):
        _harness.StoppingRule({"method": "events"})  # the stopping rule takes the stopping keys only


def test_bad_values_are_rejected():
    with pytest.raises(ValueError, match=r"option 'max_time' must be a float, got 'long'"):
        _harness.measure([], {"max_time": "long"})
    with pytest.raises(ValueError, match=r"option 'method' must be auto, cupti or events, got 'cupit'"):
        _harness.measure([], {"method": "cupit"})
    with pytest.raises(ValueError, match=r"'window' of stopping criterion 'stable' must be a whole number >= 1"):
        _harness.StoppingRule({"stop": "stable", "stop_params": {"window": 2.5}})
    with pytest.raises(ValueError, match=r"'max_width' of stopping criterion 'ci-width' must be a finite number"):
        _harness.StoppingRule({"stop": "ci-width", "stop_params": {"max_width": -1}})


def test_defaults_list_every_option():
    d = _harness.defaults()
    assert set(d) == {"min_samples", "min_time", "max_time", "max_samples", "stop", "stop_params", "method",
                      "cupti_library", "graph_reps", "warmup", "clock_floor", "flush_function", "flush_grid",
                      "flush_l2", "steady_max_time"}
    assert d["steady_max_time"] == 2.0
    assert (d["min_samples"], d["min_time"], d["max_time"], d["max_samples"]) == (10, 0.1, 10.0, 100000)
    assert (d["stop"], d["stop_params"], d["method"], d["warmup"], d["clock_floor"]) == \
        ("stdrel-or-stable", {}, "auto", 2, 0.75)
    try:  # the defaults are valid options: what fails now is the missing driver or context, not the options
        _harness.measure([], d)
    except ValueError as exc:
        pytest.fail(f"the defaults were rejected: {exc}")
    except RuntimeError:
        pass


def test_steady_state_sets_must_match_every_launch():
    launch = {"function": 0, "grid": [1, 1, 1], "block": [1, 1, 1], "smem": 0, "params": [1]}
    with pytest.raises(ValueError, match="one parameter array per steady-state set"):
        _harness.measure([{"launches": [{**launch, "steady_params": [1]}], "resets": [[]],
                           "steady_resets": [[], []]}])
    with pytest.raises(ValueError, match="a function bench has no steady-state sets"):
        _harness.measure([{"launches": [], "resets": [[]], "steady_resets": [[], []], "call": lambda: True}])


def test_criteria_list_names_descriptions_and_parameter_defaults():
    crit = {c["name"]: c for c in _harness.criteria()}
    assert set(crit) == CRITERIA and _harness.defaults()["stop"] in crit
    assert crit["stdrel"]["params"] == {"max_rel_stdev": {"default": 0.005, "integer": False,
                                                          "description": crit["stdrel"]["params"]["max_rel_stdev"][
                                                              "description"]}}
    assert {k: v["default"] for k, v in crit["stable"]["params"].items()} == {"window": 32, "tol": 0.05}
    assert {k: v["default"] for k, v in crit["ci-width"]["params"].items()} == {"max_width": 0.01}
    assert set(crit["stdrel-or-stable"]["params"]) == {"max_rel_stdev", "window", "tol"}
    for c in crit.values():
        assert c["description"]
        assert all(p["description"] for p in c["params"].values())
        _harness.StoppingRule({"stop": c["name"], "stop_params": {k: p["default"] for k, p in c["params"].items()}})


def test_ci_width_uses_the_same_median_ci_ranks_as_kopt_stats():
    for n in range(1, 2001):
        assert tuple(_harness.median_ci_ranks(n)) == median_ci_ranks(n), n


# --- CUDA errors -------------------------------------------------------------------------------------------------
def test_cuda_error_carries_the_error_name_and_the_call():
    exc = _harness.CudaError("CUDA_ERROR_ILLEGAL_ADDRESS", "kernel execution", 700, True)
    assert isinstance(exc, RuntimeError) and type(exc).__module__ == "kopt._harness"
    assert (exc.name, exc.call, exc.code, exc.asynchronous) == ("CUDA_ERROR_ILLEGAL_ADDRESS", "kernel execution",
                                                                700, True)
    assert str(exc) == "kernel execution: CUDA_ERROR_ILLEGAL_ADDRESS"
    plain = _harness.CudaError("CUDA_ERROR_OUT_OF_MEMORY", "cuMemAlloc")
    assert (plain.code, plain.asynchronous) == (0, False)


def test_nothing_parses_cuda_error_text():
    """The harness's CudaError carries the name and the call: splitting its message is how the two drifted."""
    pattern = re.compile(r"""rsplit\(["']: ["']|["']execution["'] in\b""")
    found = [f"{p.relative_to(ROOT)}:{i}" for p in sorted((ROOT / "kopt").rglob("*.py"))
             for i, line in enumerate(p.read_text().splitlines(), 1) if pattern.search(line)]
    assert not found, found
