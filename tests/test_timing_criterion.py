"""The short-kernel criterion of bench/timing_accuracy.py (issue 20, deliverable 6): band by ncu's duration, what each
band compares, and the per-band pass. The figures themselves come from the GPU run (the `timing` stage)."""
import importlib.util
import sys
from pathlib import Path

import pytest

BENCH = Path(__file__).resolve().parents[1] / "bench"


@pytest.fixture(scope="module")
def ta():
    sys.path.insert(0, str(BENCH))  # the script imports its sibling envelope.py
    try:
        spec = importlib.util.spec_from_file_location("timing_accuracy", BENCH / "timing_accuracy.py")
        mod = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mod)
        return mod
    finally:
        sys.path.remove(str(BENCH))


def row(kernel, median, ncu=None, **kw):
    return {"kernel": kernel, "median_us": median, "ncu_us": ncu, **kw}


def test_long_kernels_are_held_to_ncu_duration(ta):
    assert ta.criterion(row("a", 101.0, 100.0, vs_ncu_pct=1.0))["met"] is True
    c = ta.criterion(row("a", 97.0, 100.0, vs_ncu_pct=-3.0, vs_ncu_sm_active_pct=0.1))
    assert c["band"] == "50us_and_up" and c["met"] is False  # the launch-offset figure does not count from 50 µs up


def test_middle_band_accepts_launch_offset_or_globaltimer(ta):
    by_offset = ta.criterion(row("b", 30.0, 33.0, vs_ncu_pct=-9.0, vs_ncu_sm_active_pct=1.5,
                                 warm_vs_globaltimer_pct=4.0))
    by_timer = ta.criterion(row("b", 30.0, 33.0, vs_ncu_pct=-9.0, vs_ncu_sm_active_pct=5.0,
                                warm_vs_globaltimer_pct=-1.9))
    neither = ta.criterion(row("b", 30.0, 33.0, vs_ncu_pct=-9.0, vs_ncu_sm_active_pct=5.0,
                               warm_vs_globaltimer_pct=2.5))
    assert by_offset["band"] == "20_to_50us" and by_offset["met"] and by_timer["met"] and neither["met"] is False
    assert ta.criterion(row("b", 30.0, 33.0))["met"] is None  # nothing measured: undecided, not passed


def test_short_kernels_report_a_launch_overhead_estimate(ta):
    c = ta.criterion(row("c", 5.0, 7.5, ncu_sm_active_us=5.2, events_median_us=8.1))
    assert c["band"] == "under_20us" and c["met"] is True
    assert c["launch_overhead_estimate"]["ncu_launch_offset_us"] == pytest.approx(2.3)
    assert c["launch_overhead_estimate"]["events_minus_cupti_us"] == pytest.approx(3.1)
    assert ta.criterion(row("c", 5.0))["met"] is False


def test_band_summary(ta):
    rows = [row("a", 101.0, 100.0, vs_ncu_pct=1.0), row("a2", 60.0, 64.0, vs_ncu_pct=-6.0),
            row("b", 30.0, 33.0, vs_ncu_pct=-9.0, vs_ncu_sm_active_pct=1.5)]
    for r in rows:
        r["criterion"] = ta.criterion(r)
    bands = ta.band_summary(rows)
    assert bands["50us_and_up"] == {"range_us": [50.0, None], "kernels": ["a", "a2"], "met": 1, "decided": 2,
                                    "pass": False}
    assert bands["20_to_50us"]["pass"] is True and bands["under_20us"]["pass"] is None
