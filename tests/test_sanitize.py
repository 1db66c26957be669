"""compute-sanitizer reports -> Diagnostics, merging with static findings, and the CLI's clean refusal without the tool.

The h200_* fixtures are compute-sanitizer reports captured on the H200 by tests/gpu/test_gpu_profile_sanitize.py
(KOPT_RECORD_DIR; tests/data/sanitizer/README.md). By hand (planted candidates in tests/gpu/planted_sanitize/, task
bench/tasks/vector_add):
  for t in memcheck:oob_write racecheck:shared_race initcheck:uninit_read synccheck:divergent_barrier; do
    compute-sanitizer --tool ${t%%:*} --print-limit 100 --show-backtrace no $( [ ${t%%:*} = racecheck ] &&
      echo --racecheck-report all ) python -m kopt.worker.run_once --request REQ > tests/data/sanitizer/${t%%:*}_capture.txt 2>&1
  done   # REQ from kopt.run_once.write_request(build_request(task, cand, folder)[0], folder); or simply: kopt sanitize ... --json
"""
import json
import subprocess
import sys
from pathlib import Path

from kopt.diagnostic import Diagnostic, Location, Severity
from kopt.sanitize import diagnostics, merge, tool_args

DATA = Path(__file__).parent / "data" / "sanitizer"
ROOT = Path(__file__).resolve().parents[1]


def _parse(name, tool):
    return diagnostics((DATA / name).read_text(), tool, lambda f: "cand.cu")


def test_memcheck_out_of_bounds_write_with_line_thread_block_and_sizes():
    (d,) = _parse("h200_memcheck_oob_write.txt", "memcheck")  # the driver-call notice is not a finding
    assert d.rule == "sanitize.memcheck.invalid-write" and d.is_error
    assert [(l.file, l.line, l.role) for l in d.locations] == [("cand.cu", 7, "write")]
    w = d.witness
    assert w["threads"][0] == [32, 0, 0] and w["block"] == [0, 0, 0] and w["size"] == 4
    assert w["allocation_bytes"] == 4 and w["offset"] == "125 bytes after"
    assert w["reports"] == 99  # the 100 printed records less the driver-call notice: one finding


def test_racecheck_hazard_and_analysis_lines_become_one_race_with_both_lines():
    (d,) = _parse("h200_racecheck_shared_race.txt", "racecheck")
    assert d.rule == "sanitize.racecheck.hazard"
    assert {(l.line, l.role) for l in d.locations} == {(8, "write"), (9, "read")}
    assert d.witness["hazards"] == 4 and d.witness["reports"] == 5  # four warp-level hazards and the analysis line
    assert [1, 0, 0] in d.witness["threads"]
    assert d.message.startswith("shared-memory RAW race between threads of one warp: write at line 8 and read at line 9")


def test_initcheck_and_synccheck():
    (u,) = _parse("h200_initcheck_uninit_read.txt", "initcheck")
    assert u.rule == "sanitize.initcheck.uninitialized" and u.locations[0].line == 6
    (b,) = _parse("h200_synccheck_divergent_barrier.txt", "synccheck")
    assert b.rule == "sanitize.synccheck.divergent-barrier" and b.locations[0].line == 7
    assert b.witness["reports"] == 100 and b.witness["threads"][0] == [33, 0, 0]  # the first report of the capture
    older = ("========= Barrier error detected. Divergent thread(s) in block\n"
             "=========     at 0x00000110 in /tmp/kopt/divergent_barrier.cu:10:divergent_barrier\n"
             "=========     by thread (16,0,0) in block (1,0,0)\n")  # the "in block" form, path:line:kernel location
    (o,) = diagnostics(older, "synccheck")
    assert o.rule == "sanitize.synccheck.divergent-barrier" and o.locations[0].line == 10
    assert diagnostics("========= COMPUTE-SANITIZER\n========= ERROR SUMMARY: 0 errors\n", "memcheck") == []


def test_tolerates_prefix_and_format_variants():
    text = ("======== Invalid __shared__ read of size 16 bytes\n"
            "=========     at 0x00000150 in /abs/path/k.cu:21:kern\n"
            "=========     by thread (1, 2, 0) in block (3, 0, 0)\n"
            "=========     Address 0x00fc is out of bounds\n")
    (d,) = diagnostics(text, "memcheck")
    assert d.rule == "sanitize.memcheck.invalid-read" and d.locations[0].line == 21
    assert d.witness["threads"] == [[1, 2, 0]] and d.witness["size"] == 16


def _static(rule, line):
    return Diagnostic(rule, Severity.ERROR, "static", [Location("/some/dir/cand.cu", line, role="write")])


def test_merge_marks_confirmed_dynamic_only_static_only_and_unchecked():
    race = _parse("h200_racecheck_shared_race.txt", "racecheck")
    oob = _parse("h200_memcheck_oob_write.txt", "memcheck")
    static = [_static("race.shared", 8), _static("race.shared.possible", 30), _static("barrier.divergent", 10),
              _static("bounds.shared", 40)]
    merged = merge(race + oob, static, ["racecheck", "memcheck"])
    status = {(d.rule, d.locations[0].line): d.witness["status"] for d in merged}
    assert status[("sanitize.racecheck.hazard", 8)] == "confirmed"
    assert status[("sanitize.memcheck.invalid-write", 7)] == "dynamic-only"
    assert status[("race.shared.possible", 30)] == "static-only"
    assert status[("bounds.shared", 40)] == "static-only"
    assert status[("barrier.divergent", 10)] == "unchecked"  # synccheck did not run
    assert not any(d.rule == "race.shared" for d in merged)  # folded into the confirmed dynamic finding
    confirmed = next(d for d in merged if d.witness["status"] == "confirmed")
    assert confirmed.witness["static_rules"] == ["race.shared"]


def test_tool_arguments():
    assert tool_args("memcheck")[:6] == ["--tool", "memcheck", "--print-limit", "100", "--show-backtrace", "no"]
    assert "--racecheck-report" in tool_args("racecheck")


def _kopt(*args):
    return subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args)], capture_output=True, text=True)


def test_cli_exits_2_with_one_line_when_the_tool_or_gpu_is_missing(tmp_path, monkeypatch):
    from kopt.device import probe
    from kopt.toolchain import find_tool

    if find_tool("compute-sanitizer") and probe()[0]:
        import pytest

        pytest.skip("compute-sanitizer and a GPU are present")
    task = ROOT / "bench" / "tasks" / "vector_add"
    for extra in ([], ["--json"], ["--tool", "all"]):
        p = _kopt("sanitize", task, task / "baseline.cu", *extra)
        assert p.returncode == 2, (p.stdout, p.stderr)
        assert "Traceback" not in p.stderr and len(p.stderr.strip().splitlines()) == 1
        assert "compute-sanitizer" in p.stderr or "GPU" in p.stderr
    p = _kopt("sanitize", task, task / "baseline.cu", "--tool", "bogus")
    assert p.returncode == 2 and "Traceback" not in p.stderr


def test_toolbox_sanitize_reports_error_not_exception(tmp_path):
    from kopt.tools import Toolbox

    out = Toolbox(tmp_path).sanitize("vector_add", "x.cu")
    assert out["ok"] is False and out["error"]
    json.dumps(out)


def test_racecheck_record_without_source_lines_names_the_block_once():
    text = ("========= Error: Potential WAW hazard detected at __shared__ 0x7c in block (2,0,0) :\n"
            "=========     Write Thread (3,0,0) at k+0x1a0\n"
            "=========     Write Thread (4,0,0) at k+0x120\n")
    (d,) = diagnostics(text, "racecheck")
    assert d.message == "potential WAW hazard detected at __shared__ 0x7c by threads (3,0,0) and (4,0,0) in block (2,0,0)"


def test_unknown_output_format_is_bad_input_before_any_gpu_work():
    task = ROOT / "bench" / "tasks" / "vector_add"
    p = _kopt("sanitize", task, task / "baseline.cu", "--output-format", "xml")
    assert p.returncode == 2 and "--output-format" in p.stderr and "Traceback" not in p.stderr


def test_the_hardware_out_of_bounds_write_confirms_the_static_global_bounds_finding():
    # memcheck's record of the planted oob_write on the H200 (vector_add's small shape, n = 1) and kopt check's
    # bounds.global for the same candidate under the task's buffer sizes (what `kopt sanitize` merges) name one line
    from kopt.analyze import analyze

    planted = ROOT / "tests" / "gpu" / "planted_sanitize" / "oob_write.cu"
    static = [d for d in analyze(planted, task=ROOT / "bench" / "tasks" / "vector_add").diagnostics
              if d.rule.startswith("bounds.")]
    assert [(d.rule, d.locations[0].line) for d in static] == [("bounds.global", 7)]
    oob = diagnostics((DATA / "h200_memcheck_oob_write.txt").read_text(), "memcheck", lambda f: str(planted))
    (hit,) = merge(oob, static, ["memcheck"])
    assert hit.witness["status"] == "confirmed" and hit.witness["static_rules"] == ["bounds.global"]
