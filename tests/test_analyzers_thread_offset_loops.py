"""A loop that starts and ends at the thread's own offset runs as often in every thread: the thread's summand
cancels from both sides of its test, also when a side subtracts (``t < t1 - 2 * C``), so its barriers are not
divergent. A loop whose end leaves the thread out is divergent. (The kernels use a size the build defines, `W`, so
the fallback front end reads them and no trip-count facts pin the loop.)"""
from __future__ import annotations

from kopt.analyze import analyze

from analyzers import sym

LOOPS = """
__global__ void scan_back(const int T, const int C, const int n, const float *x, float *y) {
  __shared__ float v[W];
  const int i = threadIdx.x;
  const int t0 = blockIdx.x * T * C + W + i;
  const int t1 = (blockIdx.x + 1) * T * C + W + i;
  const int t2 = t1 - 2 * C;
  for (int t = t0; t < END; t += C) {
    __syncthreads();
    v[i] = x[t];
    __syncthreads();
    y[t] = v[(i + 1) % W];
  }
  for (int t = t1 - C; t >= t0; t -= C) {
    __syncthreads();
    y[t] = v[i];
  }
}
"""


def _divergent_lines(end: str) -> list:
    res = analyze(LOOPS.replace("END", end), path="k.cu")
    return sorted(d.locations[0].line for d in res.diagnostics if d.rule == "barrier.divergent")


def test_a_loop_from_and_to_the_threads_offset_has_no_divergent_barrier():
    assert _divergent_lines("t2") == []


def test_a_loop_whose_end_leaves_the_thread_out_is_divergent():
    assert _divergent_lines("t2 - i + n") == [9, 11]


def test_the_shared_summand_cancels_through_a_subtraction():
    tid, k, c, x, y = (sym.var(n, kind) for n, kind in (("tx", "thread"), ("k0", "iter"), ("p:C", "uniform"),
                                                        ("p:X", "uniform"), ("p:Y", "uniform")))
    lhs = sym.binop("+", sym.binop("+", x, tid), sym.binop("*", k, c))
    rhs = sym.binop("-", sym.binop("+", y, tid), sym.binop("*", sym.const(2), c))
    assert not sym.thread_dependent(sym.binop("<", lhs, rhs), iter_too=False)
    assert sym.thread_dependent(sym.binop("<", lhs, sym.binop("-", y, tid)), iter_too=False)
