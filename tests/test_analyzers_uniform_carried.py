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


ROUNDED = """
#define B 256
__global__ void k(const float *x, int n) {
  __shared__ float s[B];
  int end = (n + B - 1) / B * B;
  for (int i = threadIdx.x; %s; i += B) {
    s[threadIdx.x] = i < n ? x[i] : 0.f;
    __syncthreads();
    int c = __syncthreads_count(s[threadIdx.x] > 0.f);
    if (%s) break;
  }
}
void run(const float *x, int n) { k<<<4, B>>>(x, n); }
"""


@pytest.mark.parametrize("test, leave, divergent", [
    ("i < end", "c != 0 || i + B >= end", False),
    ("i < n", "c != 0", True),
    ("i < end", "s[threadIdx.x] > 0.f", True),
])


def test_a_loop_every_thread_runs_as_often_keeps_its_barriers_uniform(test, leave, divergent):
    # `i = tid + 256 k < round_up(n, 256)` with 256 threads: the same truth in every thread at each iteration, and
    # so the `break` on a block-wide count; a bound not a multiple of the block, or a thread's own break, diverges
    res = analyze(ROUNDED % (test, leave), path="r.cu")
    assert ("barrier.divergent" in {d.rule for d in res.diagnostics}) == divergent, res.diagnostics


NMS = """
__global__ void nms(const float *score, int *keep, int n, float thr) {
  __shared__ bool flag[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) flag[i] = i < n && score[i] > 0.f;
  int ref = 0;
  while (ref < n) {
    float s = score[ref];
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
      if (flag[i] && i > ref && score[i] * s > thr) flag[i] = false;
    %s
    do { ref++; } while (ref < n && !flag[ref]);
  }
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) keep[blockIdx.x * 1024 + i] = flag[i];
}
void run(const float *s, int *k, int n, float t) { nms<<<1, 256>>>(s, k, n, t); }
"""


@pytest.mark.parametrize("sep, divergent", [("__syncthreads();", False), ("", True)])
def test_a_scan_of_shared_flags_a_barrier_settled_is_alike_in_every_thread(sep, divergent):
    # the NMS loop: every thread advances `ref` over the flags the phase before the barrier wrote; without that
    # barrier other threads may still be clearing them
    res = analyze(NMS % sep, path="nms.cu")
    assert ("barrier.divergent" in {d.rule for d in res.diagnostics}) == divergent, res.diagnostics


LISTED = """
__global__ void nms(int *order, int *keep, int n) {
  __shared__ bool flag[1024];
  for (int i = threadIdx.x; i < 1024; i += blockDim.x) flag[i] = i < n;
  int ref = 0, box = order[0];
  while (ref < n && box >= 0) {
    __syncthreads();
    for (int i = threadIdx.x; i < 1024; i += blockDim.x)
      if (flag[i] && i > ref && order[i] %% 7 == box %% 7) flag[i] = false;
    __syncthreads();
    do { ref++; } while (ref < n && !flag[ref]);
    box = ref < n ? order[ref] : -1;
  }
  %s
}
void run(int *o, int *k, int n) { nms<<<1, 256>>>(o, k, n); }
"""


@pytest.mark.parametrize("after, divergent", [("keep[threadIdx.x] = flag[threadIdx.x];", False),
                                              ("order[threadIdx.x] = flag[threadIdx.x];", True)])


def test_a_pointer_the_kernel_only_reads_is_alike_at_a_uniform_index(after, divergent):
    # `order` is not const, yet the kernel never stores through it; a store anywhere makes its elements unknown
    res = analyze(LISTED % after, path="nms.cu")
    assert ("barrier.divergent" in {d.rule for d in res.diagnostics}) == divergent, res.diagnostics


TILED = """
__global__ void tiled(const float *A, float *out, int in_len) {
  __shared__ float tile[4 * 64];
  int lane = threadIdx.x & 31, row = threadIdx.x >> 5;
  int a_tile = 64;
  for (int k = 0; k < in_len; k += 64) {
    %s
    for (int l = lane; l < a_tile; l += 32) tile[row * 64 + l] = A[k + l];
    __syncwarp();
    float acc = 0.0f;
    for (int i = 0; i < a_tile; i++) acc += tile[row * 64 + i];
    out[blockIdx.x * 128 + threadIdx.x] += acc;
    __syncwarp();
  }
}
"""


@pytest.mark.parametrize("update, beyond", [
    ("if (in_len - k < a_tile) a_tile = in_len - k;", False),  # only lowered: at most 64, within its row
    ("a_tile = min(a_tile, in_len - k);", False),
    ("if (in_len - k > a_tile) a_tile = in_len - k;", True),  # raised past the row: out of bounds
    ("a_tile = in_len - k;", True),
])
def test_a_carried_size_only_lowered_stays_within_its_first_value(update, beyond):
    res = analyze(TILED % update, path="t.cu", block=(128, 1, 1))
    bounds = {d.rule for d in res.diagnostics if d.rule == "bounds.shared" and d.is_error}
    assert bool(bounds) == beyond, [d.message for d in res.diagnostics]


def test_a_count_only_raised_is_never_below_its_first_value():
    # `done` starts at 0 and only grows: a row never takes more than its 64 columns
    src = """
__global__ void rest(const float *A, float *out, int in_len) {
  __shared__ float tile[4 * 64];
  int lane = threadIdx.x & 31, row = threadIdx.x >> 5;
  int done = 0;
  for (int k = 0; k < in_len; k += 64) {
    for (int l = lane; l < 64 - done; l += 32) tile[row * 64 + l] = A[k + l];
    __syncwarp();
    out[blockIdx.x * 128 + threadIdx.x] += tile[row * 64 + lane];
    __syncwarp();
    if (A[k] > 0.0f) done += 32;
  }
}
"""
    res = analyze(src, path="r.cu", block=(128, 1, 1))
    assert not [d for d in res.diagnostics if d.rule == "bounds.shared"], [d.message for d in res.diagnostics]


SEARCH = """
__device__ int find_tensor(const long *%s offsets, int n, long offset) {
  int low = 1, hi = n;
  while (low < hi) {
    int mid = low + (hi - low) / 2;
    if (offsets[mid] <= offset) low = mid + 1; else hi = mid;
  }
  return low - 1;
}
__global__ void grouped(%slong *offsets, float *out, int n, long rows) {
  __shared__ float tile[128];
  int t = find_tensor(offsets, n, (long)blockIdx.y * 128);
  if ((long)blockIdx.y * 128 >= offsets[t + 1]) return;
  tile[threadIdx.x] = out[blockIdx.y * 128 + threadIdx.x];
  __syncthreads();
  out[blockIdx.y * 128 + threadIdx.x] = tile[127 - threadIdx.x];
  %s
}
"""


@pytest.mark.parametrize("const, write, divergent", [
    ("const", "", False),  # a binary search of read-only offsets by the block's index: the block returns together
    ("", "offsets[threadIdx.x] = 0;", True),  # offsets the kernel writes: each thread may read its own
])
def test_a_search_of_a_read_only_table_by_the_block_index_is_alike_in_the_block(const, write, divergent):
    res = analyze(SEARCH % ("", const + " ", write), path="s.cu", block=(128, 1, 1))
    found = any(d.rule == "barrier.divergent" for d in res.diagnostics)
    assert found == divergent, [d.message for d in res.diagnostics]


VOTED = """
__global__ void voted(const int *beg, const int *end, int *out) {
  __shared__ volatile int s[128];
  volatile int *mine = &s[16 * (threadIdx.x / 16)];
  int lane = threadIdx.x %% 16, acc = 0;
  int b = beg[threadIdx.x], e = end[threadIdx.x];
  for (; %s; b += 16) {
    mine[lane] = b;
    __syncwarp();
    acc += mine[(lane + 1) %% 16];
    __syncwarp();
  }
  if (lane %% 4 == 0) mine[lane / 4] = acc;
  __syncwarp();
  out[threadIdx.x] = mine[lane / 4];
}
"""


@pytest.mark.parametrize("test, races", [
    ("__any_sync(0xffffffff, b < e)", False),  # a vote: every lane of a warp runs the same passes
    ("__all_sync(0xffffffff, b < e)", False),
    ("b < e", True),  # lanes leave at different passes: a lane's last store meets another's store after the loop
])
def test_a_loop_under_a_warp_vote_runs_alike_in_each_warp(test, races):
    res = analyze(VOTED % test, path="v.cu", block=(128, 1, 1))
    found = [d for d in res.diagnostics if d.rule == "race.shared"]
    assert bool(found) == races, [d.message for d in res.diagnostics]
