"""A pointer into one of two arrays (`T *dst = is_k ? k_cache : v_cache`) places its accesses on both arrays, each
under its side of the choice, so their races are checked (they were a store kopt could not place); a conditional
index the path has decided reads as its arm."""
from __future__ import annotations

from kopt.analyze import analyze

from analyzers import sym

CACHES = """
__global__ void uncompact(float *k_out, float *v_out, const float *k_in, const float *v_in, int n) {
  for (int g = blockIdx.x * blockDim.x + threadIdx.x; g < 2 * n; g += blockDim.x * gridDim.x) {
    const bool is_k = g < n;
    float *dst = is_k ? k_out : v_out;
    const float *src = is_k ? k_in : v_in;
    const int idx = is_k ? g : g - n;
    dst[IDX] = src[idx];
  }
}
"""

HALVES = """
__global__ void halves(float *out) {
  __shared__ float lo[64], hi[64];
  float *mine = threadIdx.x < 64 ? lo : hi;
  mine[IDX] = threadIdx.x;
  __syncthreads();
  out[threadIdx.x] = threadIdx.x < 64 ? hi[threadIdx.x] : lo[threadIdx.x - 64];
}
"""


def _findings(src: str, idx: str, block=None) -> dict:
    res = analyze(src.replace("IDX", idx), path="k.cu", block=block)
    return {d.rule: d for d in res.diagnostics if d.severity.value in ("error", "warning") or
            d.rule == "analysis.incomplete"}


def test_a_store_through_a_chosen_cache_is_checked_on_both_caches():
    assert _findings(CACHES, "idx") == {}
    got = _findings(CACHES, "idx / 2")  # two elements of one cache to each element
    assert set(got) == {"race.global"} and got["race.global"].witness["location"].split("[")[0] in ("k_out", "v_out")


def test_a_shared_pointer_chosen_by_the_thread_keeps_the_two_halves_apart():
    assert _findings(HALVES, "threadIdx.x % 64", block=(128, 1, 1)) == {}
    assert "race.shared" in _findings(HALVES, "threadIdx.x % 32", block=(128, 1, 1))


def test_a_conditional_the_path_decides_reads_as_its_arm():
    g, n = sym.var("tx", "thread"), sym.var("p:n", "uniform")
    is_k = sym.binop("<", g, n)
    idx = sym.ite(is_k, g, sym.binop("-", g, n))
    assert sym.under(idx, sym.land(sym.binop(">=", g, sym.ZERO), is_k)).key() == g.key()
    assert sym.under(idx, sym.unop("!", is_k)).key() == sym.binop("-", g, n).key()
    assert sym.under(idx, sym.binop(">=", g, sym.ZERO)) is idx


def test_a_pointer_a_block_loads_from_an_array_of_pointers_names_its_own_buffer():
    # MAGMA's batched kernels: `dA = dA_array[batchid] + ...` with batchid = blockIdx.z. Each entry's buffer is its
    # own (entries are taken to be disjoint): stores through it are placed, compared with those of the same entry
    # (they had been unplaced: every batched kernel incomplete)
    src = """
__global__ void scale(float **arr, int n) {
  float *a = arr[blockIdx.z] + 4;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) a[i] = 2.0f * a[i];
}
void run(float **arr, int n, int batch) { scale<<<dim3((n + 127) / 128, 1, batch), 128>>>(arr, n); }
"""
    res = analyze(src, path="b.cu")
    assert not res.diagnostics, res.diagnostics
    racy = analyze(src.replace("a[i] = 2.0f * a[i]", "a[0] = a[i] + threadIdx.x"), path="b.cu")
    assert [d.rule for d in racy.diagnostics] == ["race.global"], racy.diagnostics
