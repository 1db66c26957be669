"""Launch expressions with device constants (num_sms, l2_bytes, max_smem_per_block) and `when` launch lines:
parsing, evaluation from the arch table and from overrides, per-shape selection, and `kopt check` / `kopt validate`
over every branch. CPU only (no GPU here: the constants come from the arch table)."""
from __future__ import annotations

import json
import subprocess
import sys

import pytest

from kopt.annotations import AnnotationError
from kopt.archs import device_constants
from kopt.candidate import Candidate
from kopt.device import probe
from kopt.errors import InputError
from kopt.geometry import launch_geometry



@pytest.fixture(autouse=True)
def arch_table_only(monkeypatch):
    """The arch table's values even where a GPU is present (its own: tests/gpu/test_gpu_device_constants.py)."""
    from kopt import archs

    monkeypatch.setattr(archs, "_device_constants", None)
    monkeypatch.setattr(archs, "_device_limits", None)

BRANCHES = """// kopt: launch persist grid=(min(num_sms * 4, cdiv(rows, 8))) block=(256) args=(x, y, rows) when rows >= 4096
// kopt: launch simple grid=(cdiv(rows, 8)) block=(256) args=(x, y, rows)
extern "C" __global__ void persist(const float* x, float* y, int rows) { y[blockIdx.x] = x[blockIdx.x]; }
extern "C" __global__ void simple(const float* x, float* y, int rows) { y[blockIdx.x] = x[blockIdx.x]; }
"""


def cand(text: str) -> Candidate:
    return Candidate.load(text, name="k.cu")


def grids(c, shape=None, **kw):
    return [(g.kernel, g.grid) for g in launch_geometry(c, shape=shape, **kw)]


# --- grammar -------------------------------------------------------------------------------------------------------
def test_when_is_split_from_the_options_and_groups_alternatives():
    c = cand(BRANCHES)
    assert [(d.kernel, d.when, d.group) for d in c.launches] == [("persist", "rows >= 4096", 0), ("simple", None, 0)]
    assert [str(a) for a in c.launches[0].args] == ["x", "y", "rows"]  # the condition is not part of args=
    assert c.launches[0].when.col == BRANCHES.index("rows >= 4096")  # located, for errors in it
    line = "// kopt: launch {} grid=(1) block=(32) args=(x, y, rows){}\n"
    seq = cand("".join(line.format(k, w) for k, w in (("persist", " when rows > 9"), ("simple", ""), ("simple", ""),
                                                     ("persist", " when rows > 1"), ("persist", " when rows > 0"),
                                                     ("simple", ""))) + BRANCHES.split("\n", 2)[2])
    # persist|simple, then simple alone (a line without `when` after one without is a new step), then three
    # alternatives
    assert [d.group for d in seq.launches] == [0, 0, 1, 2, 2, 2]


@pytest.mark.parametrize("tail,rule,text", [
    ("when", "annotation.syntax", "when needs a condition"),
    ("when rows >>> 2", "expr.syntax", "when"),
    ("when rows >= 4096 grid=(2)", "expr.syntax", "when"),  # the condition comes last
])
def test_bad_when_clauses_are_located_errors(tail, rule, text):
    src = f"// kopt: launch k grid=(1) block=(32) args=(x) {tail}\n__global__ void k(float* x) {{}}\n"
    with pytest.raises(AnnotationError) as exc:
        cand(src)
    assert exc.value.rule == rule and text in exc.value.message
    assert exc.value.message.startswith("k.cu:1:")


def test_device_constant_names_are_reserved():
    with pytest.raises(AnnotationError, match="num_sms is a device constant"):
        cand("// kopt: tune num_sms in [1, 2]\n" + BRANCHES)


# --- device constants ------------------------------------------------------------------------------------------------
def test_arch_table_values_and_what_was_assumed():
    c = cand(BRANCHES)
    (g,) = launch_geometry(c, shape={"rows": 1 << 20}, arch="sm_90")
    assert g.grid == (132 * 4, 1, 1)
    assert g.origin["num_sms"] == "num_sms = 132 (sm_90 default: H100 SXM / H200; --num-sms sets it)"
    (note,) = g.problems
    assert note.rule == "launch.device-constant" and not note.is_error and "132" in note.message
    assert grids(c, {"rows": 1 << 20}, arch="sm_80") == [("persist", (108 * 4, 1, 1))]
    assert grids(c, {"rows": 1 << 20}, device=device_constants("sm_90", {"num_sms": 114})) == [
        ("persist", (456, 1, 1))]
    (g,) = launch_geometry(c, shape={"rows": 1 << 20}, device=device_constants("sm_90", {"num_sms": 114}))
    assert g.origin["num_sms"] == "num_sms = 114 (given: --num-sms)" and not g.problems


def test_l2_and_shared_memory_constants():
    src = ("// kopt: launch k grid=(l2_bytes // (1024 * 1024)) block=(256) smem=(max_smem_per_block - 1024) "
           "args=(x)\n__global__ void k(float* x) {}\n")
    (g,) = launch_geometry(cand(src), arch="sm_90a")
    assert g.grid == (50, 1, 1) and g.smem == 227 * 1024 - 1024
    (g,) = launch_geometry(cand(src), arch="sm_86")
    assert g.grid == (6, 1, 1) and g.smem == 99 * 1024 - 1024
    (g,) = launch_geometry(cand(src), device=device_constants("sm_90", {"l2_bytes": 60 << 20,
                                                                         "max_smem_per_block": 100 * 1024}))
    assert g.grid == (60, 1, 1) and g.smem == 99 * 1024


def test_an_arch_without_a_default_asks_for_the_option():
    (g,) = launch_geometry(cand(BRANCHES), shape={"rows": 1 << 20}, arch="sm_103")
    (err,) = g.errors
    assert err.rule == "launch.device-constant" and "--num-sms" in err.message and g.grid is None


def test_bad_overrides_are_input_errors():
    with pytest.raises(InputError, match="--num-sms must be a positive integer"):
        device_constants("sm_90", {"num_sms": 0})


def test_a_task_size_symbol_of_the_same_name_wins():
    (g,) = launch_geometry(cand(BRANCHES), shape={"rows": 1 << 20, "num_sms": 10}, arch="sm_90")
    assert g.grid == (40, 1, 1) and "num_sms" not in g.origin and not g.problems


# --- when: selection -------------------------------------------------------------------------------------------------
def test_the_first_line_that_applies_wins_per_shape():
    c = cand(BRANCHES)
    assert grids(c, {"rows": 8192}, arch="sm_90") == [("persist", (528, 1, 1))]
    assert grids(c, {"rows": 1000}, arch="sm_90") == [("simple", (125, 1, 1))]
    both = launch_geometry(c, arch="sm_90")  # no shape: every branch that may apply
    assert [(g.kernel, g.when, g.branch) for g in both] == [
        ("persist", "rows >= 4096", "line 1 (when rows >= 4096)"), ("simple", None, "line 2 (otherwise)")]


def test_no_line_applies_is_an_error_naming_the_shape():
    c = cand(BRANCHES.replace("args=(x, y, rows)\nextern", "args=(x, y, rows) when rows < 100\nextern", 1))
    (g,) = launch_geometry(c, shape={"rows": 1000}, arch="sm_90")
    (err,) = g.errors
    assert err.rule == "launch.no-branch" and "rows=1000" in err.message and "line 2: rows < 100" in err.message
    assert err.locations[0].line == 1


def test_a_condition_over_tunables_is_decided_without_a_shape():
    src = ("// kopt: tune BLOCK in [128, 512]\n"
           "// kopt: launch k grid=(num_sms) block=(BLOCK) args=(x) when BLOCK >= 256\n"
           "// kopt: launch k grid=(num_sms * 2) block=(BLOCK) args=(x)\n__global__ void k(float* x) {}\n")
    c = cand(src)
    assert grids(c, arch="sm_90") == [("k", (264, 1, 1))]
    assert [g.grid for g in launch_geometry(c, {"BLOCK": 512}, arch="sm_90")] == [(132, 1, 1)]


def test_the_runners_plan_takes_the_selected_lines_arguments(tmp_path):
    from kopt.plan import resolve
    from kopt.task import Task

    task = Task.load(_task(tmp_path, "shapes = [ { rows = 8192, timed = true }, { rows = 1000 } ]"))
    c = cand(BRANCHES.replace("args=(x, y, rows)\nextern", "args=(x, y, rows, i32(7))\nextern", 1))
    lowered = {"persist": "persist", "simple": "simple"}
    big = resolve(task, c, task.shapes[0], {}, lowered, "sm_90")
    small = resolve(task, c, task.shapes[1], {}, lowered, "sm_90")
    assert [(lp.kernel, lp.grid, lp.line, len(lp.args)) for lp in big.launches] == [("persist", (528, 1, 1), 1, 3)]
    assert [(lp.kernel, lp.grid, lp.line, len(lp.args)) for lp in small.launches] == [("simple", (125, 1, 1), 2, 4)]


# --- check and validate over every branch ----------------------------------------------------------------------------
SHARED = """// kopt: launch tile grid=(cdiv(rows, 256)) block=(256) args=(x, y, rows) when rows >= 4096
// kopt: launch tile grid=(cdiv(rows, 512)) block=(512) args=(x, y, rows)
extern "C" __global__ void tile(const float* x, float* y, int rows) {
  __shared__ float s[256];
  s[threadIdx.x] = x[blockIdx.x * blockDim.x + threadIdx.x];
  __syncthreads();
  y[blockIdx.x * blockDim.x + threadIdx.x] = s[threadIdx.x];
}
"""


def test_check_analyzes_each_branch_and_names_it(tmp_path):
    from kopt.analyze import analyze

    f = tmp_path / "tile.cu"
    f.write_text(SHARED)
    res = analyze(f)
    assert {(tuple(l["block"]), l.get("branch")) for l in res.launches} == {
        ((256, 1, 1), "line 1 (when rows >= 4096)"), ((512, 1, 1), "line 2 (otherwise)")}
    bounds = [d for d in res.diagnostics if d.rule == "bounds.shared"]
    assert bounds and all("[launch line 2 (otherwise)]" in d.message for d in bounds)  # only the 512-thread branch
    assert all(d.witness["launch"] == ["line 2 (otherwise)"] for d in bounds)
    assert "at line 1 (when rows >= 4096)" in res.assumed


TASK = """name = "rows"
args = [
  { name = "x", dtype = "f32", shape = ["rows"], role = "in" },
  { name = "y", dtype = "f32", shape = ["rows"], role = "out" },
  { name = "rows", dtype = "i32", value = "rows" },
]
shapes = [ { rows = 8192, timed = true }, { rows = 8200 } ]
reference = "reference.py:copy"
"""


def _task(tmp_path, shapes=None):
    d = tmp_path / "rows"
    d.mkdir(exist_ok=True)
    (d / "task.toml").write_text(TASK if shapes is None else TASK.replace(
        "shapes = [ { rows = 8192, timed = true }, { rows = 8200 } ]", shapes))
    (d / "reference.py").write_text("def copy(x, rows):\n    return x.copy()\n")
    return d


def test_validate_checks_the_branch_each_shape_selects_and_warns_of_an_unused_one(tmp_path):
    from kopt.validate import validate

    f = tmp_path / "tile.cu"
    f.write_text(SHARED.replace("block=(512)", "block=(2048)"))  # the fallback cannot launch
    v = validate(_task(tmp_path), [f])
    assert v.ok and "launch.branch-unused" in {d.rule for d in v.problems}  # every shape takes line 1
    unused = next(d for d in v.problems if d.rule == "launch.branch-unused")
    assert unused.locations[0].line == 2 and "line 2 (otherwise)" in unused.message
    v = validate(_task(tmp_path, "shapes = [ { rows = 8192, timed = true }, { rows = 1000 } ]"), [f])
    err = next(d for d in v.problems if d.rule == "launch.block-too-large")
    assert err.witness["shape"] == "rows=1000" and err.witness["launch"] == "line 2 (otherwise)"
    v = validate(None, [f])  # no task: both branches are possible, both are checked
    assert "launch.block-too-large" in {d.rule for d in v.problems if d.is_error}


@pytest.mark.skipif(probe()[0] is not None, reason="the command reads this GPU's own constants")
def test_validate_cli_takes_the_device_constant_options(tmp_path):
    f = tmp_path / "persist.cu"
    f.write_text(BRANCHES.replace("extern", '// kopt: task rows\nextern', 1))
    task = _task(tmp_path)

    def run(*extra):
        p = subprocess.run([sys.executable, "-m", "kopt.cli", "validate", str(task), str(f), "--json", *extra],
                           capture_output=True, text=True, timeout=300)
        return p.returncode, json.loads(p.stdout)

    rc, out = run()
    launch = out["candidates"][0]["configs"][0]["shapes"][0]["launches"][0]
    assert rc == 0 and launch["grid"] == [528, 1, 1] and launch["when"] == "rows >= 4096"
    assert any(d["rule"] == "launch.device-constant" and "132" in d["message"] for d in out["problems"])
    rc, out = run("--num-sms", "114")
    launch = out["candidates"][0]["configs"][0]["shapes"][0]["launches"][0]
    assert rc == 0 and launch["grid"] == [456, 1, 1] and launch["origin"]["num_sms"].endswith("(given: --num-sms)")
    assert not any(d["rule"] == "launch.device-constant" for d in out["problems"])


def test_an_error_in_a_condition_is_located_at_a_shape():
    c = cand(BRANCHES.replace("when rows >= 4096", "when colz >= 4096"))
    assert [g.kernel for g in launch_geometry(c, arch="sm_90")] == ["persist", "simple"]  # colz may be a symbol
    geos = launch_geometry(c, shape={"rows": 8192}, arch="sm_90")
    err = next(d for g in geos for d in g.errors)
    assert err.rule == "expr.unknown-name" and "colz" in err.message
    assert (err.locations[0].line, err.locations[0].col) == (1, BRANCHES.index("rows >= 4096") + 1)
