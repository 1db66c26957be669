// Row softmax with the online max-and-sum: one block per row. The central idea is the state (m, s) = (running
// maximum, sum of exp(x - m)) and how two states merge: the merged maximum is the larger one, and each sum is
// rescaled by exp(m_old - m_new) before they are added. The merge is associative, so any partition of the row
// works: each thread builds a state over its elements, warps merge states with shuffles (two values per lane), one
// state per warp goes through shared memory and warp 0 merges those.
//
// Register path (rows whose length is a multiple of 4 and at most BLOCK * 4 * ITEMS, e.g. 8192 at the defaults):
// the row is read from global memory once. Each thread loads its ITEMS float4 into registers, takes their exact
// maximum mt, keeps e = exp(x - mt) in place of x and sums those. Once the block merge has given the row's (m, s),
// the output is e * exp(mt - m) / s: the factor exp(mt - m) that rescaled this thread's sum in the merge also
// rescales its stored exponentials (flash attention rescales its running output the same way), so there is one exp
// per element and no second read of the row.
//
// Fallback (longer rows; rows whose length is not a multiple of 4, which then do not start 16-byte aligned): a
// first read folds each element into the thread's state (float4 loads when the length allows, scalar otherwise),
// a second read, mostly from L2, writes exp(x - m) / s. Two passes over global memory instead of three.
//
// FAST_EXP = 0 uses expf (at most 2 ulp anywhere); 1 uses __expf, ex2.approx(x * log2(e)), whose error grows with
// |x| through the rounded product. In softmax the arguments are <= 0 and the values with large |x| are tiny, so
// they hardly count in the relative L2 error: emulated in float32 on 8192-element rows of N(0, 2), both stay near
// 1e-7 (about 6e-7 at worst with 2-ulp exp errors), far inside the 1e-5 bound. Both lower to MUFU.EX2: about 9
// instructions per element with expf (its range reduction) against 6 with __expf, a difference a memory-bound
// kernel may well hide; the measurement decides.
// kopt: task softmax_rows
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: tune ITEMS in [8, 4, 16, 2]
// kopt: tune FAST_EXP in [0, 1]
// The row slice takes 4 * ITEMS registers of the 65536 / BLOCK a thread may have: this bound keeps it spill-free.
// kopt: restrict BLOCK * ITEMS <= 4096
// kopt: launch softmax_online grid=(rows) block=(BLOCK) args=(x, y, rows, cols)

#define FULL_MASK 0xffffffffu
#define NEG_INF (__int_as_float(0xff800000))
#if FAST_EXP
#define EXP(v) __expf(v)
#else
#define EXP(v) expf(v)
#endif

struct MaxSum {
  float m;  // running maximum
  float s;  // sum of exp(x - m) over the elements seen
};

extern "C" __global__ void __launch_bounds__(BLOCK) softmax_online(const float* __restrict__ x,
                                                                    float* __restrict__ y, int rows, int cols) {
  __shared__ MaxSum warp_states[BLOCK / 32];
  __shared__ MaxSum row_state;

  // Merge two partial states. Two empty states (m = -inf) stay empty instead of producing exp(-inf + inf) = NaN.
  auto merge = [](MaxSum a, MaxSum b) -> MaxSum {
    const float m = fmaxf(a.m, b.m);
    if (m == NEG_INF) return {m, 0.0f};
    return {m, a.s * EXP(a.m - m) + b.s * EXP(b.m - m)};
  };
  // Fold one element into a state (fallback path): one exp per element, the old sum rescaled when the maximum grows.
  auto update = [](MaxSum& st, float v) {
    if (v > st.m) {
      st.s = st.s * EXP(st.m - v) + 1.0f;  // st.m = -inf the first time: 0 * 0 + 1
      st.m = v;
    } else {
      st.s += EXP(v - st.m);
    }
  };
  // Butterfly over the warp: every lane ends with the merged state of all 32 lanes.
  auto warp_merge = [&](MaxSum st) -> MaxSum {
#pragma unroll
    for (int offset = 16; offset > 0; offset >>= 1) {
      const MaxSum other = {__shfl_xor_sync(FULL_MASK, st.m, offset), __shfl_xor_sync(FULL_MASK, st.s, offset)};
      st = merge(st, other);
    }
    return st;
  };

  const int lane = threadIdx.x & 31, warp = threadIdx.x >> 5;
  const float* xr = x + (long long)blockIdx.x * cols;
  float* yr = y + (long long)blockIdx.x * cols;
  const float4* xr4 = reinterpret_cast<const float4*>(xr);  // used only when cols % 4 == 0
  float4* yr4 = reinterpret_cast<float4*>(yr);
  const int n4 = cols / 4;
  const bool vec = (cols & 3) == 0;
  // Depends on cols only: every block, hence every thread, takes the same path (the barriers stay uniform).
  const bool in_regs = vec && n4 <= BLOCK * ITEMS;

  // 1. This thread's state over its elements.
  float4 v[ITEMS];  // register path: the thread's slice of the row, then exp(x - mt) in its place
  MaxSum st = {NEG_INF, 0.0f};
  if (in_regs) {
    // Thread t owns float4 number t + k * BLOCK (k < ITEMS): each load instruction of a warp reads 512 contiguous
    // bytes, and all ITEMS loads are in flight before the first is used. Past the row's end: -inf, which changes
    // neither the maximum nor the sum (exp(-inf) = 0).
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const int i = threadIdx.x + k * BLOCK;
      v[k] = i < n4 ? xr4[i] : make_float4(NEG_INF, NEG_INF, NEG_INF, NEG_INF);
    }
    // With all its values at hand a thread knows its maximum (mt = st.m) up front: no rescaling inside the thread.
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) st.m = fmaxf(st.m, fmaxf(fmaxf(v[k].x, v[k].y), fmaxf(v[k].z, v[k].w)));
    // A thread with no elements (or only -inf) has m = -inf: subtract 0 instead, so exp(-inf - 0) = 0, not NaN.
    const float base = st.m == NEG_INF ? 0.0f : st.m;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      v[k] = make_float4(EXP(v[k].x - base), EXP(v[k].y - base), EXP(v[k].z - base), EXP(v[k].w - base));
      st.s += (v[k].x + v[k].y) + (v[k].z + v[k].w);
    }
  } else if (vec) {
    for (int i = threadIdx.x; i < n4; i += BLOCK) {
      const float4 e = xr4[i];
      update(st, e.x);
      update(st, e.y);
      update(st, e.z);
      update(st, e.w);
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += BLOCK) update(st, xr[c]);
  }

  // 2. The row's state, one merge for both paths: across the warp, then one state per warp through shared memory.
  // (st itself is kept: the register path needs this thread's own maximum below.)
  const MaxSum in_warp = warp_merge(st);
  if (lane == 0) warp_states[warp] = in_warp;
  __syncthreads();
  if (warp == 0) {
    MaxSum w = lane < BLOCK / 32 ? warp_states[lane] : MaxSum{NEG_INF, 0.0f};
    w = warp_merge(w);
    if (lane == 0) row_state = w;
  }
  __syncthreads();
  const MaxSum row = row_state;

  // 3. Write exp(x - m) / s.
  if (in_regs) {
    // exp(x - m) / s = exp(x - mt) * exp(mt - m) / s: one factor per thread (0 for a thread with no elements).
    const float scale = EXP(st.m - row.m) / row.s;
#pragma unroll
    for (int k = 0; k < ITEMS; ++k) {
      const int i = threadIdx.x + k * BLOCK;
      if (i < n4) yr4[i] = make_float4(v[k].x * scale, v[k].y * scale, v[k].z * scale, v[k].w * scale);
    }
  } else {
    // Fallback: read the row again.
    const float inv = 1.0f / row.s;
    if (vec) {
      for (int i = threadIdx.x; i < n4; i += BLOCK) {
        const float4 e = xr4[i];
        yr4[i] = make_float4(EXP(e.x - row.m) * inv, EXP(e.y - row.m) * inv, EXP(e.z - row.m) * inv,
                             EXP(e.w - row.m) * inv);
      }
    } else {
      for (int c = threadIdx.x; c < cols; c += BLOCK) yr[c] = EXP(xr[c] - row.m) * inv;
    }
  }
}
