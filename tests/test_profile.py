"""ncu CSV -> Profile: bottleneck classification, occupancy limiter, DRAM bytes vs the work model, hot lines,
findings, and the CLI's clean refusal without ncu.

The fixtures are hand-written to the documented layouts (tests/data/ncu/README.md). To replace them with captures on
the H200 (kopt writes the report, then reads it back as CSV):
  ncu --clock-control none --launch-skip 1 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
      --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
      --section SourceCounters --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,\
l1tex__t_sector_hit_rate.pct --import-source yes -f -o rep python -m kopt.run_once --request REQ
  ncu --import rep.ncu-rep --csv --page raw     > tests/data/ncu/<case>_raw_capture.csv
  ncu --import rep.ncu-rep --csv --page details > tests/data/ncu/<case>_details_capture.csv
  ncu --import rep.ncu-rep --csv --page source --print-source cuda > tests/data/ncu/<case>_source_capture.csv
"""
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from kopt.errors import ToolchainError
from kopt.profile import build, classify, number, parse_ncu_csv, parse_source_csv, tool_failure

DATA = Path(__file__).parent / "data" / "ncu"
ROOT = Path(__file__).resolve().parents[1]
VADD_BYTES = 3 * 2 ** 28 * 4


def wide_csv(kernels: list[tuple[str, dict]]) -> str:
    """A --page raw style CSV (names row, units row, a row per kernel) from {metric: (value, unit)}."""
    names = sorted({m for _, ms in kernels for m in ms})
    head = ["ID", "Process ID", "Process Name", "Host Name", "Kernel Name"]
    rows = [head + names, [""] * len(head) + [next(ms[m][1] for _, ms in kernels if m in ms) for m in names]]
    for i, (k, ms) in enumerate(kernels):
        rows.append([str(i), "1", "python", "h", k] + [ms.get(m, ("", ""))[0] for m in names])
    return "\n".join(",".join(f'"{c}"' for c in r) for r in rows)


def metrics(sm, mem, dur_us=800.0, dram_read=0.0, dram_write=0.0, theo=100.0, ach=90.0, regs=32, limits=(8, 32, 8, 32)):
    return {
        "gpu__time_duration.sum": (f"{dur_us * 1000:,.0f}", "nsecond"),
        "sm__throughput.avg.pct_of_peak_sustained_elapsed": (str(sm), "%"),
        "gpu__compute_memory_throughput.avg.pct_of_peak_sustained_elapsed": (str(mem), "%"),
        "dram__bytes_read.sum": (f"{dram_read:,.0f}", "byte"), "dram__bytes_write.sum": (f"{dram_write:,.0f}", "byte"),
        "sm__maximum_warps_per_active_cycle_pct": (str(theo), "%"),
        "sm__warps_active.avg.pct_of_peak_sustained_active": (str(ach), "%"),
        "launch__registers_per_thread": (str(regs), "register/thread"),
        "launch__occupancy_limit_warps": (str(limits[0]), "block"), "launch__occupancy_limit_blocks": (str(limits[1]), "block"),
        "launch__occupancy_limit_registers": (str(limits[2]), "block"),
        "launch__occupancy_limit_shared_mem": (str(limits[3]), "block"),
        "smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio": ("12.5", "inst"),
        "smsp__average_warps_issue_stalled_barrier_per_issue_active.ratio": ("0.4", "inst"),
    }


def rules(p):
    return {d.rule for d in p.diagnostics}


def test_numbers_and_units():
    assert number("1,073.74") == 1073.74 and number("n/a") is None and number(" 93.1 %") == 93.1
    p = build("t", "c.cu", "n=1", wide_csv([("k", {"gpu__time_duration.sum": ("1.5", "usecond"),
                                                    "dram__bytes_read.sum": ("2", "Kbyte")})]))
    assert p.kernels[0].get("duration") == 1.5 and p.kernels[0].get("dram_read") == 2000


def test_memory_bound_fixture_wide_raw_layout():
    p = build("vector_add", "c.cu", "n=268435456", (DATA / "memory_bound_raw_synthetic.csv").read_text(),
              work_bytes=VADD_BYTES, launch_lines=[4])
    (k,) = p.kernels
    assert k.name == "vector_add" and k.bottleneck == "memory"
    assert k.get("duration") == pytest.approx(710.0) and k.get("grid_size") == 1048576
    assert k.stalls[0]["reason"] == "long_scoreboard" and "selected" not in [s["reason"] for s in k.stalls]
    assert k.limiter is None  # full theoretical occupancy
    assert p.excess_ratio == pytest.approx(1.0, abs=0.01)
    assert rules(p) == {"profile.memory-bound"}
    assert p.diagnostics[0].locations[0].line == 4


def test_compute_bound_fixture_long_details_layout():
    p = build("t", "c.cu", "n=1", (DATA / "compute_bound_details_synthetic.csv").read_text(), launch_lines=[3])
    (k,) = p.kernels
    assert k.bottleneck == "compute" and k.get("duration") == pytest.approx(1204.35)
    assert k.get("sol_memory") == pytest.approx(3.52)  # the % row, not the Gbyte/s one of the same name
    assert k.stalls[0]["reason"] == "math_pipe_throttle"
    assert rules(p) == {"profile.compute-bound"}


def test_classification_rule():
    assert classify({"duration": 3.0, "sol_memory": 90}) == "launch"
    assert classify({"duration": 500, "sol_memory": 85, "sol_compute": 70}) == "memory"
    assert classify({"duration": 500, "sol_memory": 30, "sol_compute": 75}) == "compute"
    assert classify({"duration": 500, "sol_memory": 40, "sol_compute": 35}) == "latency"


def test_register_limited_occupancy():
    p = build("t", "c.cu", "s", wide_csv([("heavy", metrics(45, 30, theo=18.75, ach=17.9, regs=168,
                                                             limits=(8, 32, 1, 32)))]), launch_lines=[5])
    (k,) = p.kernels
    assert k.limiter == "registers" and k.bottleneck == "latency"
    occ = next(d for d in p.diagnostics if d.rule == "profile.occupancy-limited")
    assert "168 registers" in occ.message and occ.witness["limiter"] == "registers"
    assert "profile.latency-bound" in rules(p)
    assert "long_scoreboard" in next(d for d in p.diagnostics if d.rule == "profile.latency-bound").message


def test_strided_loads_show_excess_dram_and_hot_line():
    source = (DATA / "source_cuda_synthetic.csv").read_text()
    cand = ["// Strided read: every thread reads a with a stride of 33 floats."] + [""] * 5 + [
        "extern \"C\" __global__ void k(const float* a, const float* b, float* c, int n) {",
        "  int i = blockIdx.x * blockDim.x + threadIdx.x;",
        "  if (i < n) c[i] = a[(long long)i * 33 % n] + b[i];", "}"]
    cand = cand[:6] + cand[7:]  # line 7 is the index, line 8 the strided load
    raw = wide_csv([("k", metrics(12, 88, dram_read=7.4e9, dram_write=1.07e9))])
    p = build("vector_add", "strided.cu", "n=268435456", raw, source, work_bytes=VADD_BYTES, launch_lines=[4],
              source_text="\n".join(cand))
    assert p.excess_ratio == pytest.approx(8.47e9 / VADD_BYTES, rel=1e-3)
    assert [h["line"] for h in p.hot_lines][:2] == [8, 7] and 120 not in [h["line"] for h in p.hot_lines]
    d = next(d for d in p.diagnostics if d.rule == "profile.excess-dram-traffic")
    assert d.locations[0].line == 8 and "re-reads or uncoalesced" in d.message
    assert "profile.memory-bound" in rules(p)


def test_source_page_and_multi_kernel_order():
    rows = parse_source_csv((DATA / "source_cuda_synthetic.csv").read_text())
    assert rows[0][:2] == (8, 9871.0)
    two = parse_ncu_csv(wide_csv([("first", metrics(10, 90)), ("second", metrics(80, 20))]))
    assert [k["name"] for k in two] == ["first", "second"]
    p = build("t", "c.cu", "s", wide_csv([("first", metrics(10, 90)), ("second", metrics(80, 20))]),
              launch_lines=[4, 5])
    assert [(k.bottleneck, k.line) for k in p.kernels] == [("memory", 4), ("compute", 5)]


def test_launch_bound_short_kernel():
    p = build("t", "c.cu", "n=1", wide_csv([("tiny", metrics(1, 2, dur_us=2.1))]))
    assert rules(p) == {"profile.launch-bound"}


def test_counter_permission_error_is_one_line_toolchain_error():
    proc = SimpleNamespace(stdout="", returncode=1, stderr="==ERROR== ERR_NVGPUCTRPERM - The user does not have "
                           "permission to access NVIDIA GPU Performance Counters on the target device 0.\n")
    with pytest.raises(ToolchainError, match="ERR_NVGPUCTRPERM"):
        tool_failure("ncu", proc)


def test_cli_exits_2_with_one_line_when_ncu_or_gpu_is_missing():
    from kopt.device import probe
    from kopt.toolchain import find_tool

    if find_tool("ncu") and probe()[0]:
        pytest.skip("ncu and a GPU are present")
    task = ROOT / "bench" / "tasks" / "vector_add"
    for extra in ([], ["--json"], ["--shape", "n=4097"]):
        p = subprocess.run([sys.executable, "-m", "kopt.cli", "profile", str(task), str(task / "baseline.cu"), *extra],
                           capture_output=True, text=True)
        assert p.returncode == 2, (p.stdout, p.stderr)
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
        assert "ncu" in p.stderr or "GPU" in p.stderr


def test_toolbox_profile_reports_error(tmp_path):
    from kopt.tools import Toolbox

    out = Toolbox(tmp_path).profile("vector_add", "x.cu")
    assert out["ok"] is False and out["error"]
