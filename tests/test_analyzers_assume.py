"""Assumptions over kernel parameters (`// kopt: assume`, --assume) constrain every finding and its witness."""
from __future__ import annotations

import pytest

from analyzers.assume import parse
from kopt.analyze import analyze
from kopt.errors import InputError

KERNEL = """
__global__ void rows(float *out, const float *in, int width) {
  int r = blockIdx.x;
  if (threadIdx.x == 0) out[r * width] = in[r];
}
"""


def _races(res):
    return [d for d in res.diagnostics if d.rule == "race.global"]


def _notes(res):
    return [d for d in res.diagnostics if d.rule == "race.precondition"]


def test_without_assumption_a_degenerate_value_is_the_witness_of_a_precondition_note():
    # blocks collide only at width == 0 (a zero row stride), which no caller passes: a note naming width >= 1
    res = analyze(KERNEL, path="r.cu", block=(128, 1, 1))
    (got,) = _notes(res)
    assert not _races(res) and got.witness["parameters"]["width"] == 0
    assert got.witness["precondition"] == "1 <= width < 2^31"


@pytest.mark.parametrize("how", ["annotation", "argument"])
def test_assumption_excludes_the_collision(how):
    src = ("// kopt: assume width >= 1\n" if how == "annotation" else "") + KERNEL
    res = analyze(src, path="r.cu", block=(128, 1, 1), assume=["width >= 1"] if how == "argument" else ())
    assert not _races(res) and not _notes(res)
    assert "assuming (width >= 1)" in res.assumed


def test_an_assumption_that_allows_the_degenerate_value_has_it_checked():
    res = analyze(KERNEL, path="r.cu", block=(128, 1, 1), assume=["width >= 0"])
    assert _races(res) and not _notes(res) and _races(res)[0].witness["parameters"]["width"] == 0


def test_witness_respects_a_partial_assumption():
    # blocks share an output element whenever width > 1: still a race, never witnessed with an excluded value
    src = KERNEL.replace("r * width", "r / width")
    got = _races(analyze(src, path="r.cu", block=(128, 1, 1), assume=["width >= 7"]))
    assert got and got[0].witness["parameters"]["width"] >= 7


def test_assumption_over_unknown_names_is_said_unused():
    res = analyze(KERNEL, path="r.cu", block=(128, 1, 1), assume=["height >= 1"])
    assert any(d.rule == "analysis.incomplete" and "height >= 1" in d.message for d in res.diagnostics)
    assert _notes(res)


@pytest.mark.parametrize("bad", ["width >=", "f(width) > 1", "width[0] > 1"])
def test_malformed_assumption_is_a_clear_input_error(bad):
    with pytest.raises(InputError, match="assume"):
        analyze(KERNEL, path="r.cu", assume=[bad])
    with pytest.raises(InputError, match="assume"):
        analyze(f"// kopt: assume {bad}\n" + KERNEL, path="r.cu")


def test_candidate_accepts_assume_lines():
    src = "// kopt: launch rows grid=(4) block=(128) args=(y, x, 16)\n// kopt: assume width >= 1\n" + KERNEL
    assert not _races(analyze(src, path="c.cu"))


TASK = """
name = "rowsum"
args = [
  { name = "x", dtype = "f32", shape = ["rows", "cols"], role = "in" },
  { name = "y", dtype = "f32", shape = ["rows", "cols"], role = "out" },
  { name = "cols", dtype = "i32", value = "cols" },
]
shapes = [ { rows = 4, cols = 1000, timed = true }, { rows = 3, cols = 17 } ]
reference = "reference.py:rowsum"
"""


def test_task_shapes_become_assumptions(tmp_path):
    (tmp_path / "task.toml").write_text(TASK)
    (tmp_path / "reference.py").write_text("def rowsum(x, y, cols):\n    pass\n")
    cand = "// kopt: launch rows grid=(rows) block=(128) args=(y, x, cols)\n" + KERNEL
    assert _notes(analyze(cand, path="c.cu"))  # width = 0 collides: a precondition the task's shapes settle
    res = analyze(cand, path="c.cu", task=tmp_path)
    assert not _races(res) and not _notes(res)
    assert "[rows=4, cols=1000]" in res.assumed and "(width == 17)" in res.assumed
    assert {tuple(g["grid"]) for g in res.launches} == {(4, 1, 1), (3, 1, 1)}


def test_task_needs_a_candidate(tmp_path):
    (tmp_path / "task.toml").write_text(TASK)
    (tmp_path / "reference.py").write_text("def rowsum(x, y, cols):\n    pass\n")
    with pytest.raises(InputError, match="candidate"):
        analyze(KERNEL, path="r.cu", task=tmp_path)


SCALE_TASK = """
name = "scale"
args = [
  { name = "x", dtype = "f32", shape = ["n"], role = "in" },
  { name = "y", dtype = "f32", shape = ["n"], role = "out" },
  { name = "n", dtype = "i32", value = "n" },
]
shapes = [ { n = 4096, timed = true }, { n = 1000 } ]
reference = "reference.py:scale"
"""
SCALE = """// kopt: launch scale grid=(cdiv(n, 128)) block=(128) args=(y, x, n)
__global__ void scale(float *y, const float *x, int n) {
  int i = blockIdx.x * 128 + threadIdx.x;
  %s
}
"""


def _bounds(res):
    return [d for d in res.diagnostics if d.rule == "bounds.global"]


def test_task_buffer_sizes_bound_global_accesses(tmp_path):
    (tmp_path / "task.toml").write_text(SCALE_TASK)
    (tmp_path / "reference.py").write_text("def scale(x, y, n):\n    pass\n")
    unguarded = analyze(SCALE % "y[i] = 2.f * x[i];", path="c.cu", task=tmp_path)
    (r, w) = sorted(_bounds(unguarded), key=lambda d: d.message)
    assert "write" in w.message and "`y`" in w.message and "1000 elements" in w.message
    assert "read" in r.message and "`x`" in r.message and "[n=1000]" in unguarded.assumed
    assert w.witness["index"] == "1000" or int(w.witness["index"]) >= 1000
    assert not _bounds(analyze(SCALE % "if (i < n) y[i] = 2.f * x[i];", path="c.cu", task=tmp_path))
    # one past the end only at the odd shape's last thread, through a neighbour read
    assert _bounds(analyze(SCALE % "if (i < n) y[i] = x[i] + x[i + 1];", path="c.cu", task=tmp_path))
    # without a task the buffer sizes are unknown: nothing to check against
    assert not _bounds(analyze(SCALE % "y[i] = 2.f * x[i];", path="c.cu"))


def test_lower_bounds_an_assumption_gives_its_parameters():
    # what the race check takes as a positive divisor: equalities, bounds either way round, one parameter's values
    got = parse("n == 4 and m >= 2 and 1 <= k and j > 3 and (h == 12 or h == 1024) and (x == 2 or y == 3)", "t").lows
    assert got == {"n": 4, "m": 2, "k": 1, "j": 4, "h": 12}


def test_an_assumption_may_name_an_element_of_a_parameters_array_field():
    # a tensor view's sizes (`t.sizes[1]`): rows of 64 threads overlap unless a row is at least that long
    src = """struct View { float *data; int sizes[2]; };
__global__ void k(View t) {
  t.data[blockIdx.x * t.sizes[1] + threadIdx.x] = threadIdx.x;
}
"""
    loose = analyze(src, path="v.cu", block=(64, 1, 1))
    assert [d.rule for d in loose.diagnostics if d.rule.startswith("race")] == ["race.precondition"], loose.diagnostics
    told = analyze("// kopt: assume t.sizes[1] >= 64\n" + src, path="v.cu", block=(64, 1, 1))
    assert not [d for d in told.diagnostics if d.rule.startswith("race")], told.diagnostics
