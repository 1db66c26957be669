"""The kopt command: output, --json, and exit codes (0 ok, 1 failed, 2 bad input) with no tracebacks."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from kopt.cli._common import parse_stop
from kopt.errors import InputError

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"


def kopt(*args):
    return subprocess.run([sys.executable, "-m", "kopt.cli", *map(str, args)], capture_output=True, text=True)


def test_explain_json_shows_128_bit_loads():
    p = kopt("explain", DATA / "copy_float4.cu", "--arch", "sm_90", "--json")
    assert p.returncode == 0, p.stderr
    out = json.loads(p.stdout)
    assert out["lowering"]["copy4"]["widths"]["global load"] == {"128-bit": 1}
    assert out["lowering"]["copy4"]["occupancy"]["blocks_per_sm"] == 8
    assert out["lowering"]["copy4"]["occupancy"]["geometry_from"] == \
        "block assumed; --block sets it, smem assumed; --smem sets it"


def test_explain_takes_a_candidates_block_and_smem_from_its_launch_annotation():
    gemm = ROOT / "kb" / "cutlass_examples" / "gemm_bf16_wgmma_tma.cu"  # block=(384), smem from STAGES and BN
    occ = json.loads(kopt("explain", gemm, "--no-lines", "--json").stdout)["lowering"]["gemm_bf16_wgmma_tma"][
        "occupancy"]
    assert (occ["block_size"], occ["geometry_from"]) == (384, "block launch annotation, smem launch annotation")
    assert occ["dynamic_smem"] == 1024 + 4 * (16384 + 128 * 256) + 32768 + 256 and occ["blocks_per_sm"] == 1
    staged = json.loads(kopt("explain", gemm, "--no-lines", "--json", "-D", "STAGES=3").stdout)  # -D is text
    assert staged["lowering"]["gemm_bf16_wgmma_tma"]["occupancy"]["dynamic_smem"] == \
        1024 + 3 * (16384 + 128 * 256) + 32768 + 256
    given = json.loads(kopt("explain", gemm, "--no-lines", "--json", "--block", "128").stdout)
    assert given["lowering"]["gemm_bf16_wgmma_tma"]["occupancy"]["block_size"] == 128
    assert given["lowering"]["gemm_bf16_wgmma_tma"]["occupancy"]["geometry_from"].startswith("block given")


def test_compile_error_exits_1_with_located_diagnostic():
    p = kopt("compile", DATA / "compile_error.cu", "--arch", "sm_90")
    assert p.returncode == 1
    assert "compile_error.cu:3:10: error" in p.stderr and "Traceback" not in p.stderr
    j = json.loads(kopt("compile", DATA / "compile_error.cu", "--arch", "sm_90", "--json").stdout)
    assert j["ok"] is False and j["diagnostics"][0]["locations"][0]["line"] == 3


def test_bad_inputs_exit_2_without_traceback(tmp_path):
    (tmp_path / "empty.cu").write_text("")
    cases = [("compile", tmp_path / "missing.cu"), ("compile", tmp_path / "empty.cu"),
             ("compile", DATA / "copy_float4.cu", "--arch", "sm_70"),
             ("explain", DATA / "copy_float4.cu", "--kernel", "nope"),
             ("run", tmp_path, DATA / "copy_float4.cu"), ("compile", DATA / "copy_float4.cu", "--bogus-flag")]
    for args in cases:
        p = kopt(*args)
        assert p.returncode == 2, (args, p.stdout, p.stderr)
        assert "Traceback" not in p.stderr


def test_doctor_json_lists_components():
    p = kopt("doctor", "--json")
    assert p.returncode == 0
    names = {c["name"] for c in json.loads(p.stdout)}
    assert {"NVRTC", "nvdisasm", "GPU and driver"} <= names


def test_candidate_compiles_with_its_default_tunables_and_d_overrides():
    task_dir = ROOT / "bench" / "tasks" / "gemm_f32"
    p = kopt("compile", task_dir / "baseline.cu", "--arch", "sm_90", "--json")
    assert p.returncode == 0, p.stderr
    default_smem = json.loads(p.stdout)["kernels"]["gemm_f32"]["resources"]["static_smem"]
    p = kopt("compile", task_dir / "baseline.cu", "--arch", "sm_90", "-D", "TILE=32", "--json")
    assert json.loads(p.stdout)["kernels"]["gemm_f32"]["resources"]["static_smem"] == 8192 != default_smem


def test_check_analyzes_a_candidate_at_its_default_tunables():
    """TILE sizes the shared arrays of the gemm baseline: with it known, the analysis is complete and clean."""
    p = kopt("check", ROOT / "bench" / "tasks" / "gemm_f32" / "baseline.cu", "--json")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["files"][0]["diagnostics"] == []


def test_bench_stop_rejects_an_unknown_criterion_or_parameter_with_exit_2():
    task = ROOT / "bench" / "tasks" / "gemm_f32"
    p = kopt("bench", task, task / "baseline.cu", "--stop", "stdev")
    assert p.returncode == 2 and "Traceback" not in p.stderr
    assert "unknown stopping criterion 'stdev'; known: stdrel, stable, ci-width, stdrel-or-stable" in p.stderr
    p = kopt("bench", task, task / "baseline.cu", "--stop", "ci-width:width=0.02")
    assert p.returncode == 2 and "unknown parameter 'width' of stopping criterion 'ci-width'; known: max_width" \
        in p.stderr


def test_stop_spec_becomes_the_harness_options():
    assert parse_stop(None) == {}
    assert parse_stop("stdrel") == {"stop": "stdrel", "stop_params": {}}
    assert parse_stop("stable:window=16, tol=0.1") == {"stop": "stable", "stop_params": {"window": 16, "tol": 0.1}}
    with pytest.raises(InputError, match="key=value"):
        parse_stop("ci-width:max_width")
