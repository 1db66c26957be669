"""CPU tests of kopt.stats on synthetic timing samples."""
from __future__ import annotations

import math

import numpy as np
import pytest

from kopt.stats import Comparison, Summary, compare, median_ci_ranks, relative_spread, summarize


def _timings(n: int, mean: float, noise: float, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).normal(mean, noise * mean, size=n)


def test_summary_of_arange():
    s = summarize(np.arange(101, dtype=float), discarded=3)
    assert (s.n, s.discarded) == (101, 3)
    assert s.median == 50 and s.mean == 50
    assert s.p10 == pytest.approx(10) and s.p90 == pytest.approx(90)
    assert (s.min, s.max) == (0, 100)
    assert s.stdev == pytest.approx(np.arange(101).std(ddof=1))
    assert s.cv == pytest.approx(s.stdev / 50)
    assert s.ci_exact and s.ci_low < 50 < s.ci_high
    # order-statistic CI for n=101: 1-based ranks 41..61 -> values 40, 60
    assert (s.ci_low, s.ci_high) == (40, 60)


def test_summary_unsorted_input_and_single_sample():
    s = summarize([5.0, 1.0, 3.0, 2.0, 4.0, 6.0, 7.0])
    assert s.median == 4 and s.min == 1 and s.max == 7
    one = summarize([2.5])
    assert one.stdev == 0 and one.cv == 0 and one.median == 2.5
    assert (one.ci_low, one.ci_high, one.ci_exact) == (2.5, 2.5, False)


def test_ci_ranks_have_95_percent_binomial_coverage():
    for n in range(6, 200):
        lo, hi, exact = median_ci_ranks(n)
        assert exact and hi == n - 1 - lo
        j = lo + 1  # 1-based
        tail = sum(math.comb(n, i) for i in range(j)) / 2 ** n
        assert 1 - 2 * tail >= 0.95  # covers
        tail_next = tail + math.comb(n, j) / 2 ** n
        assert 1 - 2 * tail_next < 0.95  # and is the narrowest symmetric choice


def test_ci_normal_approximation_matches_exact_at_the_switch():
    lo_exact, hi_exact, _ = median_ci_ranks(1000)
    lo_approx, hi_approx, exact = median_ci_ranks(1001)
    assert exact
    assert abs(lo_approx - lo_exact) <= 2 and abs(hi_approx - hi_exact) <= 3


def test_median_ci_coverage_on_normal_samples():
    true_median, n, reps = 100.0, 41, 200
    hits = 0
    for seed in range(reps):
        s = summarize(_timings(n, true_median, 0.05, seed))
        hits += s.ci_low <= true_median <= s.ci_high
    assert hits / reps >= 0.90


def test_median_ci_narrows_with_n():
    widths = []
    for n in (20, 80, 320, 2000):
        s = summarize(_timings(n, 100.0, 0.05, seed=n))
        widths.append(s.ci_high - s.ci_low)
    assert all(a > b for a, b in zip(widths, widths[1:])), widths


@pytest.mark.parametrize("n", [1, 2, 5])
def test_median_ci_falls_back_below_6(n):
    x = _timings(n, 10.0, 0.1, seed=1)
    s = summarize(x)
    assert not s.ci_exact
    assert (s.ci_low, s.ci_high) == (x.min(), x.max())


def test_median_ci_exact_from_6():
    s = summarize(np.arange(6.0))
    assert s.ci_exact and (s.ci_low, s.ci_high) == (0, 5)


def test_compare_faster_candidate():
    base = _timings(50, 110.0, 0.01, seed=1)
    cand = _timings(50, 100.0, 0.01, seed=2)
    c = compare(base, cand)
    assert c.verdict == "FASTER"
    assert c.speedup == pytest.approx(1.10, abs=0.01)
    assert 1.01 < c.ci_low <= c.speedup <= c.ci_high < 1.2


def test_compare_slower_candidate():
    c = compare(_timings(50, 100.0, 0.01, seed=1), _timings(50, 110.0, 0.01, seed=2))
    assert c.verdict == "SLOWER"
    assert c.speedup == pytest.approx(1 / 1.10, abs=0.01)
    assert c.ci_high < 0.99


def test_compare_identical_distributions_never_faster_or_slower():
    verdicts = [compare(_timings(50, 100.0, 0.01, seed=s), _timings(50, 100.0, 0.01, seed=s + 100)).verdict
                for s in range(10)]
    assert not {"FASTER", "SLOWER"} & set(verdicts), verdicts
    assert verdicts.count("SAME") >= 5, verdicts


def test_compare_noisy_small_difference_is_ambiguous():
    c = compare(_timings(10, 102.0, 0.30, seed=3), _timings(10, 100.0, 0.30, seed=4))
    assert c.verdict == "AMBIGUOUS"
    assert c.ci_low < 1 < c.ci_high


def test_compare_is_reproducible_and_serializable():
    base, cand = _timings(30, 100.0, 0.05, seed=5), _timings(30, 95.0, 0.05, seed=6)
    a, b = compare(base, cand), compare(base, cand)
    assert a == b
    d = a.to_dict()
    assert set(d) == {"speedup", "ci_low", "ci_high", "verdict", "threshold"}
    assert d["threshold"] == 0.01 and isinstance(a, Comparison)


def test_compare_threshold_changes_verdict():
    base, cand = _timings(200, 102.0, 0.002, seed=7), _timings(200, 100.0, 0.002, seed=8)
    assert compare(base, cand, threshold=0.01).verdict == "FASTER"
    assert compare(base, cand, threshold=0.05).verdict == "SAME"


def test_summary_to_dict_rounds():
    s = summarize([1.234567, 2.345678, 3.456789])
    d = s.to_dict()
    assert isinstance(s, Summary)
    assert d["median"] == 2.346 and d["n"] == 3 and d["ci_exact"] is False
    assert set(d) >= {"n", "discarded", "median", "mean", "stdev", "cv", "p10", "p90", "min", "max",
                      "ci_low", "ci_high", "ci_exact"}


def test_relative_spread():
    assert relative_spread([10.0, 10.5, 11.0, 10.2, 10.1]) == pytest.approx(0.1)
    assert relative_spread([7.0]) == 0.0
    with pytest.raises(ValueError):
        relative_spread([1.0, 0.0])


def test_empty_input_raises():
    with pytest.raises(ValueError):
        summarize([])
    with pytest.raises(ValueError):
        compare([], [1.0, 2.0])
    with pytest.raises(ValueError):
        compare([1.0, 2.0], np.array([]))
    with pytest.raises(ValueError):
        relative_spread([])
    with pytest.raises(ValueError):
        summarize([1.0, float("nan")])
