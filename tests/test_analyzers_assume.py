"""Assumptions over kernel parameters (`// kopt: assume`, --assume) constrain every finding and its witness."""
from __future__ import annotations

import pytest

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


def test_without_assumption_a_degenerate_value_is_the_witness():
    got = _races(analyze(KERNEL, path="r.cu", block=(128, 1, 1)))
    assert got and got[0].witness["parameters"]["width"] == 0


@pytest.mark.parametrize("how", ["annotation", "argument"])
def test_assumption_excludes_the_collision(how):
    src = ("// kopt: assume width >= 1\n" if how == "annotation" else "") + KERNEL
    res = analyze(src, path="r.cu", block=(128, 1, 1), assume=["width >= 1"] if how == "argument" else ())
    assert not _races(res)
    assert "assuming (width >= 1)" in res.assumed


def test_witness_respects_a_partial_assumption():
    # blocks share an output element whenever width > 1: still a race, never witnessed with an excluded value
    src = KERNEL.replace("r * width", "r / width")
    got = _races(analyze(src, path="r.cu", block=(128, 1, 1), assume=["width >= 7"]))
    assert got and got[0].witness["parameters"]["width"] >= 7


def test_assumption_over_unknown_names_is_said_unused():
    res = analyze(KERNEL, path="r.cu", block=(128, 1, 1), assume=["height >= 1"])
    assert any(d.rule == "analysis.incomplete" and "height >= 1" in d.message for d in res.diagnostics)
    assert _races(res)


@pytest.mark.parametrize("bad", ["width >=", "f(width) > 1", "width[0] > 1"])
def test_malformed_assumption_is_a_clear_input_error(bad):
    with pytest.raises(InputError, match="assume"):
        analyze(KERNEL, path="r.cu", assume=[bad])
    with pytest.raises(InputError, match="assume"):
        analyze(f"// kopt: assume {bad}\n" + KERNEL, path="r.cu")


def test_candidate_accepts_assume_lines():
    src = "// kopt: launch rows grid=(4) block=(128) args=(y, x, 16)\n// kopt: assume width >= 1\n" + KERNEL
    assert not _races(analyze(src, path="c.cu"))
