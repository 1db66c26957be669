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
