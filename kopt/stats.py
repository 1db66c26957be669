"""Statistics of kernel timing samples (microseconds): summaries, median CIs, baseline-vs-candidate verdicts."""
from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from functools import lru_cache

import numpy as np

CONFIDENCE = 0.95
BOOTSTRAP_RESAMPLES = 2000
_Z95 = 1.959963984540054  # two-sided 95 % normal quantile
_EXACT_MAX_N = 1000  # above this the binomial CDF is replaced by its normal approximation


def _round(x: float, sig: int = 4) -> float:
    return float(f"{x:.{sig}g}") if math.isfinite(x) else x


def _samples(samples, what: str = "samples") -> np.ndarray:
    a = np.asarray(samples, dtype=np.float64).ravel()
    if a.size == 0:
        raise ValueError(f"{what}: empty")
    if not np.all(np.isfinite(a)):
        raise ValueError(f"{what}: non-finite values")
    return a


@lru_cache(maxsize=4096)
def median_ci_ranks(n: int) -> tuple[int, int, bool]:
    """0-based ranks (lo, hi) into the sorted samples bracketing the median with >= 95 % probability.

    Distribution-free: the count of samples below the true median is Binomial(n, 1/2), so
    P(X_(j) <= median <= X_(n+1-j)) = 1 - 2 P(B <= j-1) (1-based j). Returns the narrowest symmetric pair;
    the flag is False when n is too small (n < 6) for 95 % and (min, max) is returned instead.
    """
    if n < 1:
        raise ValueError("n must be >= 1")
    alpha = (1.0 - CONFIDENCE) / 2
    if n > _EXACT_MAX_N:
        j = math.floor(n / 2 - _Z95 * math.sqrt(n) / 2)  # 1-based, conservative side
        j = max(j, 1)
        return j - 1, n - j, True
    total = 2 ** n
    cdf = 0  # P(B <= j-1) * 2^n, exact integers
    j = 0
    while j < n:
        cdf += math.comb(n, j)  # now P(B <= j) -> admissible 1-based rank is j+1
        if cdf > alpha * total:
            break
        j += 1
    if j == 0:  # even (min, max) covers < 95 %
        return 0, n - 1, False
    return j - 1, n - j, True


@dataclass
class Summary:
    n: int
    discarded: int
    median: float
    mean: float
    stdev: float
    cv: float
    p10: float
    p90: float
    min: float
    max: float
    ci_low: float  # 95 % CI of the median (order statistics)
    ci_high: float
    ci_exact: bool  # False: n < 6, the CI is just (min, max) and covers less than 95 %

    def to_dict(self) -> dict:
        return {k: (_round(v) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def summarize(samples, discarded: int = 0) -> Summary:
    """Summary of timing samples; ``discarded`` records warm-up/outlier samples dropped by the caller."""
    a = np.sort(_samples(samples))
    n = int(a.size)
    mean = float(a.mean())
    stdev = float(a.std(ddof=1)) if n > 1 else 0.0
    cv = stdev / mean if mean != 0 else (0.0 if stdev == 0 else math.inf)
    p10, med, p90 = (float(v) for v in np.percentile(a, [10, 50, 90]))
    lo, hi, exact = median_ci_ranks(n)
    return Summary(n=n, discarded=int(discarded), median=med, mean=mean, stdev=stdev, cv=cv, p10=p10, p90=p90,
                   min=float(a[0]), max=float(a[-1]), ci_low=float(a[lo]), ci_high=float(a[hi]), ci_exact=exact)


@dataclass
class Comparison:
    speedup: float  # baseline median / candidate median; > 1 means the candidate is faster
    ci_low: float  # 95 % bootstrap percentile CI of the speedup
    ci_high: float
    verdict: str  # FASTER | SLOWER | SAME | AMBIGUOUS
    threshold: float = 0.01

    def to_dict(self) -> dict:
        return {k: (_round(v) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def _bootstrap_medians(a: np.ndarray, rng: np.random.Generator, b: int) -> np.ndarray:
    idx = rng.integers(0, a.size, size=(b, a.size))
    return np.median(a[idx], axis=1)


def compare(baseline_samples, candidate_samples, threshold: float = 0.01) -> Comparison:
    """Speedup of the candidate over the baseline, with a reproducible bootstrap CI and a verdict.

    FASTER if the CI lies above 1 + threshold, SLOWER if below 1 - threshold, SAME if it lies within
    [1 - threshold, 1 + threshold], otherwise AMBIGUOUS.
    """
    base = _samples(baseline_samples, "baseline")
    cand = _samples(candidate_samples, "candidate")
    if threshold < 0:
        raise ValueError("threshold must be >= 0")
    rng = np.random.default_rng(0)
    ratios = _bootstrap_medians(base, rng, BOOTSTRAP_RESAMPLES) / _bootstrap_medians(cand, rng, BOOTSTRAP_RESAMPLES)
    alpha = (1.0 - CONFIDENCE) / 2
    lo, hi = (float(v) for v in np.quantile(ratios, [alpha, 1.0 - alpha]))
    speedup = float(np.median(base) / np.median(cand))
    if lo > 1 + threshold:
        verdict = "FASTER"
    elif hi < 1 - threshold:
        verdict = "SLOWER"
    elif lo >= 1 - threshold and hi <= 1 + threshold:
        verdict = "SAME"
    else:
        verdict = "AMBIGUOUS"
    return Comparison(speedup=speedup, ci_low=lo, ci_high=hi, verdict=verdict, threshold=float(threshold))


def relative_spread(medians) -> float:
    """max/min - 1 over per-process medians of the same kernel (run-to-run stability)."""
    a = _samples(medians, "medians")
    if a.min() <= 0:
        raise ValueError("medians must be positive")
    return float(a.max() / a.min() - 1.0)
