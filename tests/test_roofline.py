"""Roofline figures, the ceiling that matches a task's read/write mix, tensor-core floors and the plausibility floor
(CPU: ceilings given, not measured)."""
import pytest

from kopt.roofline import compute_ceiling, figures, implausible, matching_bandwidth, stream_points

CEIL = {"copy_gbps": 4000.0, "read_gbps": 4500.0, "fp32_tflops": 60.0}
GIB = 1 << 30
STREAMS = {"streams": [{"reads": 0, "writes": 1, "gbps": 3600.0}, {"reads": 1, "writes": 1, "gbps": 4000.0},
                       {"reads": 2, "writes": 1, "gbps": 4300.0}, {"reads": 1, "writes": 0, "gbps": 4500.0}],
           "fp32_tflops": 60.0,
           "tensor": {"bf16": {"tflops": 800.0, "source": "cuBLAS GEMM 8192^3 via torch.mm (bf16 in, bf16 out)"},
                      "fp8": {"note": "FP8 GEMMs need sm_89"}}}


def test_percent_of_roofline_is_of_copy_bandwidth_without_a_read_write_split():
    f = figures({"bytes": GIB, "flops": 0}, 300.0, CEIL)
    assert f["byte_floor_us"] == pytest.approx(GIB / 4000 / 1e3) and f["ceiling"] == "copy"
    assert f["pct_of_roofline"] == pytest.approx(100 * f["byte_floor_us"] / 300.0)
    assert f["gbps"] == pytest.approx(GIB / 300.0 / 1e3) and f["basis"] == "cold"


def test_the_ceiling_matches_the_mix_measured_or_interpolated_in_time_per_byte():
    assert matching_bandwidth(STREAMS, 2.0, 1.0) == (4300.0, "2:1 read:write")  # a vector add: measured
    assert matching_bandwidth(STREAMS, 1.0, 0.0) == (4500.0, "read-only")
    assert matching_bandwidth(STREAMS, 0.0, 5.0) == (3600.0, "write-only")
    gbps, which = matching_bandwidth(STREAMS, 3.0, 1.0)  # 75 % read: between 2:1 (66.7 %) and read-only
    w = (0.75 - 2 / 3) / (1 - 2 / 3)
    assert gbps == pytest.approx(1 / ((1 - w) / 4300.0 + w / 4500.0)) and "between 2:1 read:write and read-only" in which
    assert 4300.0 < gbps < 4500.0
    # the three-stream record (before the mixes): read-only beyond copy, the nearest outside what was measured
    assert matching_bandwidth(CEIL, 1.0, 1.0) == (4000.0, "copy")
    gbps, which = matching_bandwidth(CEIL, 1.0, 3.0)
    assert gbps == 4000.0 and "nearest" in which
    assert matching_bandwidth({}, 1.0, 1.0) is None and matching_bandwidth(STREAMS, 0.0, 0.0) is None
    assert [p[0] for p in stream_points(STREAMS)] == sorted(p[0] for p in stream_points(STREAMS))


def test_steady_state_sets_the_percentages_and_a_cold_time_under_the_floor_gets_a_note():
    work = {"bytes": 3 * GIB, "bytes_read": 2 * GIB, "bytes_written": GIB}
    floor = 3 * GIB / 4300.0 / 1e3
    f = figures(work, 0.97 * floor, STREAMS, steady_us=1.05 * floor)
    assert f["basis"] == "steady" and f["ceiling"] == "2:1 read:write"
    assert f["pct_of_roofline"] == pytest.approx(100 / 1.05) and f["pct_of_roofline_cold"] == pytest.approx(100 / 0.97)
    assert "beats the byte floor" in f["note"] and "written back after the timed window" in f["note"]
    assert "in steady state" in f["note"]
    assert "note" not in figures(work, 1.01 * floor, STREAMS, steady_us=1.05 * floor)
    read_only = figures({"bytes": GIB, "bytes_read": GIB, "bytes_written": 0.0}, 0.95 * GIB / 4500.0 / 1e3, STREAMS)
    assert "beats the byte floor" in read_only["note"] and "written back" not in read_only["note"]


def test_a_tensor_core_task_is_floored_by_its_declared_ceiling():
    work = {"bytes": 3 * 8192 * 8192 * 2, "bytes_read": 2 * 8192 * 8192 * 2, "bytes_written": 8192 * 8192 * 2,
            "flops": 2 * 8192 ** 3}
    t = 1400.0
    f = figures(work, t, STREAMS, steady_us=t, compute="bf16-tensor")
    assert f["compute_floor_us"] == pytest.approx(2 * 8192 ** 3 / 800.0 / 1e6)
    assert f["floor_us"] == f["compute_floor_us"] > f["byte_floor_us"]
    assert f["pct_of_tensor_peak"] == pytest.approx(100 * f["compute_floor_us"] / t) == f["pct_of_roofline"]
    assert "cuBLAS" in f["compute"]
    # undeclared: bytes only (the FP32 time is reported, no floor), as before
    plain = figures(work, t, STREAMS, steady_us=t)
    assert plain["floor_us"] == plain["byte_floor_us"] and "pct_of_tensor_peak" not in plain and "fp32_floor_us" in plain
    # fp32 declared: the FMA ceiling is the compute floor, no tensor peak
    fp32 = figures(work, t, STREAMS, compute="fp32")
    assert fp32["compute_floor_us"] == pytest.approx(2 * 8192 ** 3 / 60.0 / 1e6) and "pct_of_tensor_peak" not in fp32
    # a type without a measured ceiling says why and falls back to the byte floor
    fp8 = figures(work, t, STREAMS, compute="fp8-tensor")
    assert "no fp8 tensor-core ceiling" in fp8["compute"] and "sm_89" in fp8["compute"]
    assert fp8["floor_us"] == fp8["byte_floor_us"]
    assert compute_ceiling(STREAMS, None) == (None, "")


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
