"""A loop-carried value every thread of a block computes alike (from parameters, blockDim and other such values,
under conditions of the same kind; not from memory) keeps a barrier in its loop uniform; any
thread-dependent step makes the loop's trip count per-thread again, and the barrier divergent."""
from __future__ import annotations

import pytest

from kopt.analyze import analyze

CHUNKED = """
__global__ void chunked(const float *src, float *dst, int count, const int *lens) {
  extern __shared__ float tile[];
  __shared__ int sizes[1];
  int t = threadIdx.x;
  int len = blockDim.x;
  float acc = 0.0f;
  for (int start = 0; start < count; start += len) {
    %s
    if (t < len) tile[t] = src[start + t];
    __syncthreads();
    for (int i = 0; i < len; i++) acc += tile[i];
    __syncthreads();
  }
  dst[blockIdx.x * blockDim.x + t] = acc;
}
"""


def _divergent(step: str) -> bool:
    res = analyze(CHUNKED % step, path="c.cu", block=(128, 1, 1), grid=(4, 1, 1))
    return any(d.rule == "barrier.divergent" for d in res.diagnostics)


@pytest.mark.parametrize("step", [
    "if (start + len > count) len = count - start;",
    "len = min(len, count - start);",
    "if (blockIdx.x > 2 && start + len > count) len = count - start;",
])
def test_a_value_computed_alike_in_every_thread_keeps_the_barriers_uniform(step):
    assert not _divergent(step)


@pytest.mark.parametrize("step", [
    "if (start + len > count) len = count - start - t;",  # the thread's own position
    "if (t == 0) len = count - start;",  # a thread-dependent condition
    "if (t > 5) continue;",  # some threads leave the iteration early
    "len = min(len, lens[t]);",  # each thread's own element
    "int mine[2] = {t, t}; len = min(len, mine[0] + 1);",  # a thread's local array
    "len = min(len, ((volatile int *)lens)[0]);",  # a volatile read: threads may see different values
    "len = min(len, sizes[0]); if (t == 0) atomicAdd(&sizes[0], 1);",  # a counter other warps still update
])
def test_a_thread_dependent_step_makes_the_loop_divergent(step):
    assert _divergent(step)


def test_a_constant_memory_value_is_the_same_in_every_thread():
    # Parboil's cutcp: the neighbour-list length is a __constant__ variable, which device code cannot write, so
    # every thread reads the same value; a __device__ variable may change under another block's store
    src = """
%s int list_len;
__global__ void k(float *out, const float *in) {
  __shared__ float cache[1024];
  int t = threadIdx.x;
  int numbins = 32;
  float e = 0.f;
  for (int total = 0; total < list_len; total += numbins) {
    cache[t] = in[t + total];
    __syncthreads();
    if (total + 32 > list_len) numbins = list_len - total;
    e += cache[t ^ 1];
    __syncthreads();
  }
  out[t] = e;
}
"""
    def divergent(space):
        res = analyze(src % space, path="c.cu", block=(128, 1, 1))
        return any(d.rule == "barrier.divergent" for d in res.diagnostics)
    assert not divergent("__constant__")
    assert divergent("__device__")
