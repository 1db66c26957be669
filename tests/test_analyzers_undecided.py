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


SORTING_NETWORK = """
#define N 512
__global__ void bsort(unsigned *d, unsigned dir) {
  __shared__ unsigned s[N];
  s[threadIdx.x] = d[blockIdx.x * N + threadIdx.x];
  s[threadIdx.x + N / 2] = d[blockIdx.x * N + threadIdx.x + N / 2];
  for (unsigned size = 2; size < N; size <<= 1) {
    unsigned ddd = dir ^ ((threadIdx.x & (size / 2)) != 0);
    for (unsigned stride = size / 2; stride > 0; stride >>= 1) {
      __syncthreads();
      unsigned pos = 2 * threadIdx.x - (threadIdx.x & (stride - 1));
      if ((s[pos] > s[pos + stride]) == ddd) { unsigned t = s[pos]; s[pos] = s[pos + stride]; s[pos + stride] = t; }
    }
  }
  __syncthreads();
  d[blockIdx.x * N + threadIdx.x] = s[threadIdx.x];
}
"""


def test_a_sorting_networks_masked_indices_are_decided_within_the_budget():
    # `2 * tid - (tid & (stride - 1))` with a halving stride goes to bit-vectors: each such query is solved once
    # (bit-blasted), not on the incremental core, which spent the kernel's budget on the first few pairs
    res = analyze(SORTING_NETWORK, path="bitonic.cu", block=(256, 1, 1), grid=(64, 1, 1))
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete" or d.severity.value == "error"]
    res = analyze(SORTING_NETWORK.replace("      __syncthreads();\n      unsigned pos", "      unsigned pos"),
                  path="bitonic.cu", block=(256, 1, 1), grid=(64, 1, 1))
    assert 11 in {d.locations[0].line for d in res.diagnostics if d.rule == "race.shared"}  # the compare-exchange
