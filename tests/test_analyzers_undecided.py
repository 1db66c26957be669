"""A pair the race check cannot decide (an index it cannot model) is a note, never a race finding; a race the
analyzer can show in the same kernel is still reported."""
from __future__ import annotations

from kopt.analyze import analyze

TILE = """
template <int BLOCK>
__global__ void tile(const float *x, float *y) {
  __shared__ float t[BLOCK][BLOCK];
  t[threadIdx.y][threadIdx.x] = x[threadIdx.y * BLOCK + threadIdx.x];
  __syncthreads();
  y[threadIdx.y * BLOCK + threadIdx.x] = t[threadIdx.x][threadIdx.y];
%s}
"""


def _by_rule(res):
    return {d.rule: d for d in res.diagnostics}


def test_an_index_that_cannot_be_modelled_is_a_note():
    got = _by_rule(analyze(TILE % "", path="t.cu", block=(16, 16, 1), grid=(1, 1, 1)))
    assert got["race.shared.possible"].severity.value == "note"
    assert "no race is reported" in got["race.shared.possible"].message
    assert not [r for r, d in got.items() if d.severity.value in ("error", "warning")]


def test_a_race_the_analyzer_can_show_is_still_reported_beside_it():
    racy = "  __shared__ float u[256];\n  u[threadIdx.x % 8] = x[threadIdx.x];\n"
    got = _by_rule(analyze(TILE % racy, path="t.cu", block=(16, 16, 1), grid=(1, 1, 1)))
    assert got["race.shared"].severity.value == "error"
    assert got["race.shared.possible"].severity.value == "note"
