"""A pair the race check cannot decide (an index it cannot model) is a note, never a race finding; a race the
analyzer can show in the same kernel is still reported."""
from __future__ import annotations

import pytest

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


GEMM_4X1 = """
// kopt: assume M >= 256 && M <= 6144 && M % 256 == 0 && N == M && K == M
// kopt: assume gridDim.x == (M + 31) / 32 && gridDim.y == (N + 31) / 32
__global__ void gemm_4x1(int M, int N, int K, float alpha, const float *A, const float *B, float beta, float *C) {
  int tx = threadIdx.x;
  int row = (tx & 7) << 2, col = tx >> 3;
  A += blockIdx.x * 32;
  B += blockIdx.y * 32 * K;
  C += blockIdx.x * 32 + blockIdx.y * 32 * M;
  __shared__ float sa[32 * 32];
  __shared__ float sb[32 * 32];
  float acc[4] = {0.f, 0.f, 0.f, 0.f};
  for (int k = 0; k < K; k += 32) {
    for (int i = 0; i < 4; i++) {
      sa[col * 32 + row + i] = A[row + i + col * M];
      sb[(row + i) * 32 + col] = B[row + i + col * K];
    }
    A += 32 * M;
    B += 32;
    __syncthreads();
    for (int kk = 0; kk < 32; kk++)
      for (int i = 0; i < 4; i++) acc[i] += sa[kk * 32 + row + i] * sb[col * 32 + kk];
    __syncthreads();
  }
  C[row + col * M] = alpha * acc[0] + beta * C[row + col * M];
  C[row + 1 + col * M] = alpha * acc[1] + beta * C[row + 1 + col * M];
  C[row + 2 + col * M] = alpha * acc[2] + beta * C[row + 2 + col * M];
  C[row + 3 + col * M] = alpha * acc[3] + beta * C[row + 3 + col * M];
}
"""


@pytest.mark.parametrize("change, race", [
    ("", False),
    ("C += blockIdx.x * 16 + ", True),  # blocks' columns overlap
    ("int row = (tx & 7) << 1", True),  # a thread's four columns overlap its neighbour's
])
def test_a_gemm_epilogue_with_stated_sizes_is_decided_within_the_budget(change, race):
    # `C[row + col * M]` read and written, rows `(blockIdx.y * 32 + col) * M` apart: compared row by row and column
    # by column (the stores' rows proven inside the stated M, the reads' too), each pair is linear; asked whole,
    # z3 spent the kernel's budget on the first two pairs
    src = GEMM_4X1
    if change.startswith("C +="):
        src = src.replace("C += blockIdx.x * 32 + ", change)
    elif change:
        src = src.replace("int row = (tx & 7) << 2", change)
    res = analyze(src, path="gemm.cu", block=(256, 1, 1))
    assert not [d for d in res.diagnostics if d.rule == "analysis.incomplete"]
    assert bool([d for d in res.diagnostics if d.rule == "race.global"]) == race


def test_a_kernels_launches_share_one_solver_budget(monkeypatch):
    # a template's many instantiations each draw on the kernel's total: once it is spent, the rest are undecided
    # (said), not analyzed for minutes
    import analyzers.driver as driver

    src = """
template <int W>
__global__ void k(float* x, int n) {
  __shared__ float s[256];
  s[(threadIdx.x * W) % n] = x[threadIdx.x];
  __syncthreads();
  x[threadIdx.x] = s[threadIdx.x];
}
void run(float* x, int n) { k<1><<<1, 256>>>(x, n); k<3><<<1, 256>>>(x, n); }
"""
    assert not [d for d in analyze(src).diagnostics if "all the kernel's launches" in d.message]
    monkeypatch.setattr(driver, "KERNEL_TOTAL_RLIMIT", 1000)
    notes = [d.message for d in analyze(src).diagnostics if d.rule == "analysis.incomplete"]
    assert any("solver budget of all the kernel's launches" in m for m in notes), notes
