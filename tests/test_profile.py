"""ncu CSV -> Profile: bottleneck classification, occupancy limiter, DRAM bytes vs the work model, hot lines,
findings, and the CLI's clean refusal without ncu.

The h200_* fixtures are ncu's raw and source pages captured on the H200 by tests/gpu/test_gpu_profile_sanitize.py
(KOPT_RECORD_DIR); the one *_synthetic file covers the details-page layout, which kopt itself does not produce. The
capture by hand (kopt writes the report, then reads it back as CSV):
  ncu --clock-control none --launch-skip 1 --launch-count 1 --section SpeedOfLight --section MemoryWorkloadAnalysis \
      --section Occupancy --section LaunchStats --section WarpStateStats --section SchedulerStats \
      --section SourceCounters --metrics dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sector_hit_rate.pct,\
l1tex__t_sector_hit_rate.pct --import-source yes -f -o rep python -m kopt.worker.run_once --request REQ
  ncu --import rep.ncu-rep --csv --page raw     > tests/data/ncu/<case>_raw_capture.csv
  ncu --import rep.ncu-rep --csv --page details > tests/data/ncu/<case>_details_capture.csv
  ncu --import rep.ncu-rep --csv --page source --print-source cuda,sass --resolve-source-file $PWD/CAND.cu \
      > tests/data/ncu/<case>_source_capture.csv
"""
import re
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from kopt.errors import ToolchainError
from kopt.rules import RULES
from kopt.profile import (build, classify, number, parse_ncu_csv, parse_source_csv, source_page_command,
                          tool_failure)

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


def _captured(case: str, candidate: str, **kw):
    """A profile built from ncu's raw and source pages captured on the H200 (tests/gpu/test_gpu_profile_sanitize.py
    with KOPT_RECORD_DIR; vector_add at n = 2^28)."""
    return build("vector_add", candidate, "n=268435456", (DATA / f"h200_{case}_raw.csv").read_text(),
                 (DATA / f"h200_{case}_source.csv").read_text(), work_bytes=VADD_BYTES,
                 source_text=(ROOT / candidate).read_text(), **kw)


def test_captured_memory_bound_vector_add():
    p = _captured("memory_bound", "bench/tasks/vector_add/baseline.cu", launch_lines=[4])
    (k,) = p.kernels
    assert k.name == "vector_add" and k.bottleneck == "memory" and k.limiter is None
    assert k.get("duration") == pytest.approx(933.792) and k.get("grid_size") == 1048576
    assert k.get("dram_pct") == pytest.approx(71.42, abs=0.01) and k.get("l2_pct") == pytest.approx(81.95, abs=0.01)
    assert p.excess_ratio == pytest.approx(0.996, abs=0.001)  # DRAM bytes match the 3 x 1 GiB work model
    # per-issue ratios only: the PC-sampling counts (hundreds) of the same reasons are not mixed in
    assert [s["reason"] for s in k.stalls][:2] == ["long_scoreboard", "wait"]
    assert k.stalls[0]["value"] == pytest.approx(57.242)
    (d,) = p.diagnostics
    assert d.rule == "profile.memory-bound" and d.locations[0].line == 4
    assert "DRAM 71 %" in d.message and "busiest unit" not in d.message  # DRAM is busy: L2 at 82 % is its traffic


def test_captured_compute_bound_fma_chain():
    p = _captured("compute_bound", "tests/gpu/planted_sanitize/fma_chain.cu")
    (k,) = p.kernels
    assert k.bottleneck == "compute" and k.get("sol_compute") == pytest.approx(99.16, abs=0.01)
    assert k.get("sol_memory") < 5 and rules(p) == {"profile.compute-bound"}


def test_captured_strided_loads_show_excess_dram_and_hot_line():
    p = _captured("strided", "tests/gpu/planted_sanitize/strided.cu")
    assert p.excess_ratio == pytest.approx(6.0, abs=0.01)
    assert p.hot_lines[0]["line"] == 7 and p.hot_lines[0]["samples"] == 558246
    assert p.hot_lines[0]["source"].startswith("c[i] = a[(long long)i * 33 % n]")
    d = next(d for d in p.diagnostics if d.rule == "profile.excess-dram-traffic")
    assert d.locations[0].line == 7 and "6.0x" in d.message
    assert "profile.memory-bound" in rules(p)


def test_captured_register_heavy_limiter():
    p = _captured("register_heavy", "tests/gpu/planted_sanitize/register_heavy.cu")
    (k,) = p.kernels
    assert k.limiter == "registers" and k.get("registers") == 166 and k.get("occ_theoretical") == 12.5
    occ = next(d for d in p.diagnostics if d.rule == "profile.occupancy-limited")
    assert "166 registers" in occ.message


def test_captured_source_page_rows():
    rows = parse_source_csv((DATA / "h200_strided_source.csv").read_text())
    assert {r[0] for r in rows} == {"/work/main/tests/gpu/planted_sanitize/strided.cu"}
    assert (7, 558246.0) in [r[1:3] for r in rows]


def test_on_chip_memory_unit_is_named_only_when_dram_is_not_busy():
    busy_l1 = {**metrics(30, 96), "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed": ("45", "%"),
               "l1tex__throughput.avg.pct_of_peak_sustained_active": ("96", "%"),
               "lts__throughput.avg.pct_of_peak_sustained_elapsed": ("50", "%")}
    d = next(d for d in build("t", "c.cu", "s", wide_csv([("hist", busy_l1)])).diagnostics
             if d.rule == "profile.memory-bound")
    assert "busiest unit is L1/shared" in d.message and "shared-memory operations" in d.hint


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


def test_source_page_and_multi_kernel_order():
    two = parse_ncu_csv(wide_csv([("first", metrics(10, 90)), ("second", metrics(80, 20))]))
    assert [k["name"] for k in two] == ["first", "second"]
    p = build("t", "c.cu", "s", wide_csv([("first", metrics(10, 90)), ("second", metrics(80, 20))]),
              launch_lines=[4, 5])
    assert [(k.bottleneck, k.line) for k in p.kernels] == [("memory", 4), ("compute", 5)]


# The cuda,sass source page, as Nsight Compute documents and users capture it. NVIDIA's Nsight Compute CLI docs
# (docs.nvidia.com/nsight-compute/NsightComputeCli/index.html#command-line-options-console-output, v2025.4.1): metric
# correlation is available only in the "sass" and "cuda,sass" views; the plain "cuda" view prints the source file.
# Row layout from parsers written against real captures: per file a "File Path" row and a "Function Name" row, then
# the header "Line No","Source","Address","Source",<metrics> ("Warp Stall Sampling (All Samples)", ...); a CUDA line's
# row has its number and text and the sum of its instructions' values, the SASS rows under it an address and no number;
# "..." stands for a collapsed stretch. Numbers and SASS text here are invented.
HEADER = ('"Line No","Source","Address","Source","Warp Stall Sampling (All Samples)",'
          '"Warp Stall Sampling (Not-issued Samples)","# Samples","Instructions Executed"')
CUDA_SASS = f"""==PROF== Connected to process 4242
"File Path","/work/cand/strided.cu"
"Function Name","strided"
{HEADER}
"5","  int i = blockIdx.x * blockDim.x + threadIdx.x;","-","","30","10","30","64"
"","","0x7f2a3c000080","S2R R0, SR_CTAID.X","20","8","20","32"
"","","0x7f2a3c000090","S2R R3, SR_TID.X","10","2","10","32"
"","","...","","-","-","-","-"
"7","  c[i] = a[(long long)i * 33 % n] + b[i];","-","","9,800","9,000","9,800","96"
"","","0x7f2a3c000100","LDG.E R4, desc[UR4][R4.64]","9,100","8,800","9,100","32"
"","","0x7f2a3c000110","LDG.E R6, desc[UR4][R6.64]","600","180","600","32"
"","","0x7f2a3c000120","STG.E desc[UR4][R8.64], R9","100","20","100","32"
"File Path","/usr/local/cuda/include/cuda_fp16.hpp"
"Function Name","strided"
{HEADER}
"7","#if defined(__cplusplus)","-","","40","40","40","32"
"","","0x7f2a3c000200","IMAD.MOV.U32 R1, RZ, RZ, c[0x0][0x28]","40","40","40","32"
"""
STRIDED = ["// Profile case: strided reads.", "// kopt: task vector_add", "// kopt: launch strided",
           'extern "C" __global__ void strided(const float* a, const float* b, float* c, int n) {',
           "  int i = blockIdx.x * blockDim.x + threadIdx.x;", "  if (i >= n) return;",
           "  c[i] = a[(long long)i * 33 % n] + b[i];", "}"]


def test_source_page_cuda_sass_view_counts_each_instruction_once_per_file():
    """The cuda,sass layout (see CUDA_SASS): a line's samples are its SASS rows' sum, not doubled by the line row's own
    aggregate; an included header's line 7 stays apart from the candidate's line 7 (keyed by "File Path")."""
    rows = [r[1:] for r in parse_source_csv(CUDA_SASS)]
    assert rows[0] == (7, 9800.0, "c[i] = a[(long long)i * 33 % n] + b[i];")
    assert (5, 30.0, "int i = blockIdx.x * blockDim.x + threadIdx.x;") in rows
    assert (7, 40.0, "#if defined(__cplusplus)") in rows and len(rows) == 3
    p = build("vector_add", "strided.cu", "n=1", wide_csv([("strided", metrics(12, 88))]), CUDA_SASS,
              source_text="\n".join(STRIDED))
    assert [(h["line"], h["samples"]) for h in p.hot_lines] == [(7, 9800.0), (5, 30.0)]  # the header's line 7 dropped


def test_source_page_sass_view_has_no_lines():
    """The plain sass view (header captured from a real report and quoted in a public parser: "Kernel Name",NAME, then
    "Address","Source","Warp Stall Sampling (All Cycles)",...; older ncu said "Cycles" where newer says "Samples") has
    no CUDA line column: no hot lines, and no crash."""
    text = ('"Kernel Name","strided"\n'
            '"Address","Source","Warp Stall Sampling (All Cycles)","Warp Stall Sampling (Not-issued Cycles)",'
            '"Instructions Executed"\n'
            '"0x7f2a3c000100","LDG.E R4, desc[UR4][R4.64]","9100","8800","32"\n')
    assert parse_source_csv(text) == []
    assert build("t", "c.cu", "s", wide_csv([("k", metrics(12, 88))]), text).hot_lines == []


def test_source_page_command_asks_for_the_metric_carrying_view(tmp_path):
    """Nsight Compute CLI docs (Console Output): --print-source cuda shows the file only, cuda,sass correlates metrics;
    the CLI shows CUDA source only if the file exists on the host, --resolve-source-file names it (full paths)."""
    cand = tmp_path / "cand.cu"
    cand.write_text("// k\n")
    cmd = source_page_command("ncu", "r.ncu-rep", cand)
    assert cmd[:8] == ["ncu", "--import", "r.ncu-rep", "--csv", "--page", "source", "--print-source", "cuda,sass"]
    assert cmd[8:] == ["--resolve-source-file", str(cand.resolve())]
    assert source_page_command("ncu", "r.ncu-rep", None)[8:] == []
    assert source_page_command("ncu", "r.ncu-rep", tmp_path / "missing.cu")[8:] == []


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


def test_report_path_is_checked_before_profiling(tmp_path):
    """A --report that cannot be written is bad input up front (exit 2), not a traceback after ncu ran."""
    from kopt.errors import InputError
    from kopt.profile import profile
    from kopt.task import Task

    task = Task.load(ROOT / "bench" / "tasks" / "vector_add")
    for bad in (tmp_path, tmp_path / "missing" / "x.ncu-rep"):
        with pytest.raises(InputError, match="--report"):
            profile(task, task.baseline, report=bad)


# --- advice: evidence, hypothesis wording, no occupancy advice at the bandwidth limit --------------------------------
HYPOTHESIS = re.compile(r"\b(may|might|try)\b")
FIGURE = re.compile(r"\d+(\.\d+)? (%|TB/s|µs|MB)")
PROFILE_RULES = [r for r in RULES.values() if r.id.startswith("profile.")]


def streaming(dram_pct: float, theo: float = 25.0, regs: int = 98, limits=(8, 32, 2, 32)) -> dict:
    """A streaming kernel (8 GB in 2 ms) at ``dram_pct`` of ncu's DRAM peak, its occupancy capped by registers."""
    rate = 4.0e12 * dram_pct / 83.0
    return {**metrics(20, dram_pct, dur_us=2000.0, dram_read=rate * 2e-3 / 2, dram_write=rate * 2e-3 / 2, theo=theo,
                      ach=theo * 0.95, regs=regs, limits=limits),
            "gpu__dram_throughput.avg.pct_of_peak_sustained_elapsed": (str(dram_pct), "%"),
            "dram__bytes.sum.per_second": (f"{rate / 1e12:.6f}", "Tbyte/s")}


def _advice_is_hypothesis_with_evidence(p):
    for d in p.diagnostics:
        assert FIGURE.search(d.message), d.message
        assert d.hint and HYPOTHESIS.search(d.hint), (d.rule, d.hint)


@pytest.mark.parametrize("rule", PROFILE_RULES, ids=lambda r: r.id)
def test_profile_rule_hints_are_hypotheses(rule):
    assert rule.hint and HYPOTHESIS.search(rule.hint), rule.hint


@pytest.mark.parametrize("case,candidate", [("memory_bound", "bench/tasks/vector_add/baseline.cu"),
                                            ("compute_bound", "tests/gpu/planted_sanitize/fma_chain.cu"),
                                            ("strided", "tests/gpu/planted_sanitize/strided.cu"),
                                            ("register_heavy", "tests/gpu/planted_sanitize/register_heavy.cu")])
def test_captured_advice_names_its_evidence(case, candidate):
    p = _captured(case, candidate)
    _advice_is_hypothesis_with_evidence(p)
    kernel_findings = [d for d in p.diagnostics if d.rule != "profile.excess-dram-traffic"]
    assert kernel_findings and all("TB/s" in d.message and "occupancy" in d.message for d in kernel_findings)


def test_captured_memory_bound_states_dram_throughput_against_ncu_peak_and_measured_ceiling():
    p = _captured("memory_bound", "bench/tasks/vector_add/baseline.cu")
    (d,) = p.diagnostics
    # ncu: 3.436664 TB/s at 71.42 % of its DRAM peak (4.81 TB/s)
    assert "achieved DRAM throughput 3.44 TB/s = 71 % of ncu's peak (4.81 TB/s)" in d.message
    assert d.witness["dram_ceiling"] == "ncu's peak" and d.witness["dram_share_pct"] == pytest.approx(71.42, 0.01)
    p = _captured("memory_bound", "bench/tasks/vector_add/baseline.cu", ceilings={"copy_gbps": 4000.0,
                                                                                   "read_gbps": 4400.0})
    # two bytes read per byte written: the time per byte interpolated between copy (4.0) and read-only (4.4 TB/s) at
    # 2/3 read is 1 / (2/3 / 4.0 + 1/3 / 4.4) = 4.125 TB/s, and 3.437 / 4.125 = 83 %
    (d,) = p.diagnostics
    assert ("= 83 % of the measured ceiling for 67 % read, between copy and read-only (4.13 TB/s), 71 % of ncu's peak"
            in d.message), d.message
    p = _captured("memory_bound", "bench/tasks/vector_add/baseline.cu", ceilings={"copy_gbps": 4000.0})
    (d,) = p.diagnostics  # only the copy stream measured: the nearest mix
    assert "= 86 % of the measured ceiling for copy, the nearest measured mix to 67 % read (4.00 TB/s)" in d.message
    assert d.witness["dram_share_pct"] == pytest.approx(100 * 3436.664 / 4000.0, 0.01)


def test_no_occupancy_advice_at_the_bandwidth_limit():
    below = build("t", "c.cu", "s", wide_csv([("stream", streaming(60.0))]))
    occ = [d for d in below.diagnostics if d.rule == "profile.occupancy-limited"]
    assert len(occ) == 1 and "98 registers per thread" in occ[0].message and "60 % of ncu's peak" in occ[0].message
    _advice_is_hypothesis_with_evidence(below)
    at = build("t", "c.cu", "s", wide_csv([("stream", streaming(88.0))]))
    assert "profile.occupancy-limited" not in rules(at) and "profile.memory-bound" in rules(at)
    assert any("no occupancy advice" in n and "88 % of ncu's peak" in n and "25 % theoretical" in n
               for n in at.notes), at.notes
    # 75 % of ncu's peak is under the line, but 94 % of the copy bandwidth this device reaches: at its limit
    ceil = {"copy_gbps": 3800.0}
    assert "profile.occupancy-limited" in rules(build("t", "c.cu", "s", wide_csv([("stream", streaming(75.0))])))
    limited = build("t", "c.cu", "s", wide_csv([("stream", streaming(75.0))]), ceilings=ceil)
    assert "profile.occupancy-limited" not in rules(limited)
    assert any("of the measured copy ceiling (3.80 TB/s)" in n for n in limited.notes)


def test_read_only_kernel_is_held_to_the_read_ceiling():
    m = streaming(70.0)
    m["dram__bytes_write.sum"] = ("0", "byte")
    d = next(d for d in build("t", "c.cu", "s", wide_csv([("reduce", m)]),
                              ceilings={"copy_gbps": 3000.0, "read_gbps": 4000.0}).diagnostics
             if d.rule == "profile.memory-bound")
    assert d.witness["dram_ceiling"] == "measured read-only ceiling" and "(4.00 TB/s)" in d.message


CAPTURED_BW = DATA / "h200_bandwidth_low_occupancy_raw.csv"


@pytest.mark.skipif(not CAPTURED_BW.exists(), reason="no captured profile of the bandwidth-bound, low-occupancy kernel "
                    "(tests/gpu/planted_sanitize/bandwidth_low_occupancy.cu): capture it on the H200 with the "
                    "`capture:bandwidth_low_occupancy` stage of bench/gpu_session.sh")
def test_captured_bandwidth_bound_low_occupancy_gets_no_occupancy_advice():
    import json

    ceil_file = DATA / "h200_ceilings.json"
    ceil = json.loads(ceil_file.read_text()) if ceil_file.exists() else None
    p = build("vector_add", "tests/gpu/planted_sanitize/bandwidth_low_occupancy.cu", "n=268435456",
              CAPTURED_BW.read_text(), ceilings=ceil)
    (k,) = p.kernels
    # the premise, as captured: occupancy capped by registers, DRAM at its limit
    assert k.limiter == "registers" and k.get("occ_theoretical") < 50, k.figures
    assert k.bottleneck == "memory"
    assert "profile.occupancy-limited" not in rules(p)
    assert any("no occupancy advice" in n for n in p.notes), p.notes
    _advice_is_hypothesis_with_evidence(p)


def test_dram_traffic_sums_the_kernels_counters_against_the_work_model(monkeypatch):
    """``kopt bench --dram``'s figures: ncu's DRAM read and write bytes over the candidate's kernels, as a multiple
    of the task's work model; an ncu that cannot count gives the reason instead (profile is a TEST DOUBLE here)."""
    from kopt import profile as prof
    from kopt.errors import ToolchainError

    kernels = [prof.KernelProfile("a", figures={"dram_read": 2e9, "dram_write": 1e9}),
               prof.KernelProfile("b", figures={"dram_read": 1e9})]
    monkeypatch.setattr(prof, "profile", lambda *a, **k: prof.Profile("t", "c.cu", "n=1", kernels, work_bytes=3e9))
    got = prof.dram_traffic(None, "c.cu")
    assert got == {"shape": "n=1", "read_bytes": 3e9, "written_bytes": 1e9, "work_bytes": 3e9, "x_work": 4 / 3}

    def refused(*a, **k):
        raise ToolchainError("ncu: access to GPU performance counters is not permitted (ERR_NVGPUCTRPERM)")
    monkeypatch.setattr(prof, "profile", refused)
    assert "ERR_NVGPUCTRPERM" in prof.dram_traffic(None, "c.cu")["error"]
