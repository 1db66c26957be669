// Row softmax with the online (single-pass) max-and-sum: one block per row. Each thread keeps a running maximum m
// and a running sum s of exp(x - m) over its elements; a larger x rescales s by exp(m_old - m_new). The per-thread
// states are merged with warp shuffles (two values per lane), then one state per warp in shared memory is merged
// by warp 0 and broadcast. A second read of the row writes exp(x - m) / s. That is two passes over the row in
// global memory instead of three (max, sum, write). Rows whose length is a multiple of 4 are read and written as
// float4 (each row then starts 16-byte aligned); other rows take the scalar path.
// kopt: task softmax_rows
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: launch softmax_online grid=(rows) block=(BLOCK) args=(x, y, rows, cols)

#define FULL_MASK 0xffffffffu
#define NEG_INF (__int_as_float(0xff800000))

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
    return {m, a.s * expf(a.m - m) + b.s * expf(b.m - m)};
  };
  // Fold one element into a state: one exp per element.
  auto update = [](MaxSum& st, float v) {
    if (v > st.m) {
      st.s = st.s * expf(st.m - v) + 1.0f;  // st.m = -inf the first time: 0 * 0 + 1
      st.m = v;
    } else {
      st.s += expf(v - st.m);
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
  const bool vec = (cols & 3) == 0;

  // Pass 1: one read of the row.
  MaxSum st = {NEG_INF, 0.0f};
  if (vec) {
    const float4* xr4 = reinterpret_cast<const float4*>(xr);
    for (int i = threadIdx.x; i < cols / 4; i += BLOCK) {
      const float4 v = xr4[i];
      update(st, v.x);
      update(st, v.y);
      update(st, v.z);
      update(st, v.w);
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += BLOCK) update(st, xr[c]);
  }

  st = warp_merge(st);
  if (lane == 0) warp_states[warp] = st;
  __syncthreads();
  if (warp == 0) {
    MaxSum w = lane < BLOCK / 32 ? warp_states[lane] : MaxSum{NEG_INF, 0.0f};
    w = warp_merge(w);
    if (lane == 0) row_state = w;
  }
  __syncthreads();
  const float m = row_state.m;
  const float inv = 1.0f / row_state.s;

  // Pass 2: read again, write the normalized values.
  if (vec) {
    const float4* xr4 = reinterpret_cast<const float4*>(xr);
    float4* yr4 = reinterpret_cast<float4*>(yr);
    for (int i = threadIdx.x; i < cols / 4; i += BLOCK) {
      const float4 v = xr4[i];
      yr4[i] = make_float4(expf(v.x - m) * inv, expf(v.y - m) * inv, expf(v.z - m) * inv, expf(v.w - m) * inv);
    }
  } else {
    for (int c = threadIdx.x; c < cols; c += BLOCK) yr[c] = expf(xr[c] - m) * inv;
  }
}
