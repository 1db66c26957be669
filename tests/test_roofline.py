"""Roofline figures and the plausibility floor (CPU: ceilings given, not measured)."""
import pytest

from kopt.roofline import figures, implausible

CEIL = {"copy_gbps": 4000.0, "read_gbps": 4500.0, "fp32_tflops": 60.0}
GIB = 1 << 30


def test_percent_of_roofline_is_of_copy_bandwidth():
    f = figures({"bytes": GIB, "flops": 0}, 300.0, CEIL)
    assert f["byte_floor_us"] == pytest.approx(GIB / 4000 / 1e3)
    assert f["pct_of_roofline"] == pytest.approx(100 * f["byte_floor_us"] / 300.0)
    assert f["gbps"] == pytest.approx(GIB / 300.0 / 1e3)


def test_a_read_only_kernel_faster_than_a_copy_is_plausible_but_not_faster_than_any_stream():
    read_floor = GIB / 4500 / 1e3  # 238.6 us
    ok = 0.95 * read_floor  # beats 0.9 x the copy floor (268.4 us) but not 0.9 x the read floor
    assert ok < 0.9 * GIB / 4000 / 1e3
    assert implausible(figures({"bytes": GIB}, ok, CEIL), ok, "c.cu", "n=1") is None
    bad = 0.85 * read_floor
    d = implausible(figures({"bytes": GIB}, bad, CEIL), bad, "c.cu", "n=1")
    assert d is not None and d.rule == "timing.implausible" and "read-only" in d.message


def test_without_a_read_ceiling_the_copy_floor_applies():
    only_copy = {"copy_gbps": 4000.0}
    t = 0.85 * GIB / 4000 / 1e3
    assert implausible(figures({"bytes": GIB}, t, only_copy), t, "c.cu", "n=1") is not None
