"""compute-sanitizer reports -> Diagnostics, merging with static findings, and the CLI's clean refusal without the tool.

The fixtures are hand-written to the documented format (tests/data/sanitizer/README.md). To replace them with
captures on the H200 (planted candidates in tests/gpu/planted_sanitize/, task bench/tasks/vector_add):
  for t in memcheck:oob_write racecheck:shared_race initcheck:uninit_read synccheck:divergent_barrier; do
    compute-sanitizer --tool ${t%%:*} --print-limit 100 --show-backtrace no $( [ ${t%%:*} = racecheck ] &&
      echo --racecheck-report all ) python -m kopt.run_once --request REQ > tests/data/sanitizer/${t%%:*}_capture.txt 2>&1
  done   # REQ from kopt.run_once.write_request(build_request(...)[0]); or simply: kopt sanitize ... --json
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
    (d,) = _parse("memcheck_oob_write_synthetic.txt", "memcheck")
    assert d.rule == "sanitize.memcheck.invalid-write" and d.is_error
    assert [(l.file, l.line, l.role) for l in d.locations] == [("cand.cu", 9, "write")]
    w = d.witness
    assert w["threads"][0] == [3, 0, 0] and w["block"] == [16, 0, 0] and w["size"] == 4
    assert w["allocation_bytes"] == 4096 and w["offset"] == "1 bytes after"  # "4,096" parsed
    assert w["reports"] == 2  # two threads, one finding


def test_racecheck_hazard_and_analysis_lines_become_one_race_with_both_lines():
    (d,) = _parse("racecheck_synthetic.txt", "racecheck")
    assert d.rule == "sanitize.racecheck.hazard"
    assert {(l.line, l.role) for l in d.locations} == {(11, "write"), (14, "read")}
    assert d.witness["hazards"] == 248 and [31, 0, 0] in d.witness["threads"]
    assert "race" in d.message and "line 11" in d.message


def test_initcheck_and_synccheck():
    (u,) = _parse("initcheck_synthetic.txt", "initcheck")
    assert u.rule == "sanitize.initcheck.uninitialized" and u.locations[0].line == 8
    (b,) = _parse("synccheck_synthetic.txt", "synccheck")  # "in block" and the old "in warp" form, same line
    assert b.rule == "sanitize.synccheck.divergent-barrier" and b.locations[0].line == 10
    assert b.witness["reports"] == 2
    assert _parse("clean_synthetic.txt", "memcheck") == []


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
    race = _parse("racecheck_synthetic.txt", "racecheck")
    oob = _parse("memcheck_oob_write_synthetic.txt", "memcheck")
    static = [_static("race.shared", 11), _static("race.shared.possible", 30), _static("barrier.divergent", 10),
              _static("bounds.shared", 40)]
    merged = merge(race + oob, static, ["racecheck", "memcheck"])
    status = {(d.rule, d.locations[0].line): d.witness["status"] for d in merged}
    assert status[("sanitize.racecheck.hazard", 14)] == "confirmed"
    assert status[("sanitize.memcheck.invalid-write", 9)] == "dynamic-only"
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
