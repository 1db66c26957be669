// Naive attention forward: one block per (query row, batch * head), plain global loads, f32 math. The row's
// scores against every key it may see go to shared memory (one warp per key: lanes split the head dimension and
// reduce with shuffles), then a block-wide max and sum of exp turn them into probabilities, and each output
// element sums p_j * V[j, d] over the keys (groups of threads take interleaved keys, then add their partials).
// Every row reads all of K and V again (through L1/L2): simple, correct, slow.
// kopt: task attention_fwd
// kopt: tune BLOCK in [128, 256]
// kopt: launch attention_fwd grid=(S, B * H) block=(BLOCK) smem=(S * 4) args=(Q, K, V, O, S, D, causal, scale)
#include <cuda_bf16.h>

#define MAX_D 128           // the task's head dims are 64 and 128
#define NWARPS (BLOCK / 32)

// Block-wide max / sum through buf[NWARPS]; the result goes to every thread.
__device__ float block_max(float v, float* buf) {
  for (int o = 16; o > 0; o /= 2) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  if (threadIdx.x % 32 == 0) buf[threadIdx.x / 32] = v;
  __syncthreads();
  float r = buf[0];
  for (int w = 1; w < NWARPS; ++w) r = fmaxf(r, buf[w]);
  __syncthreads();  // buf is reused by the next reduction
  return r;
}

__device__ float block_sum(float v, float* buf) {
  for (int o = 16; o > 0; o /= 2) v += __shfl_xor_sync(0xffffffffu, v, o);
  if (threadIdx.x % 32 == 0) buf[threadIdx.x / 32] = v;
  __syncthreads();
  float r = 0.0f;
  for (int w = 0; w < NWARPS; ++w) r += buf[w];
  __syncthreads();
  return r;
}

extern "C" __global__ void attention_fwd(const __nv_bfloat16* __restrict__ Q, const __nv_bfloat16* __restrict__ K,
                                         const __nv_bfloat16* __restrict__ V, __nv_bfloat16* __restrict__ O, int S,
                                         int D, int causal, float scale) {
  extern __shared__ float p[];     // S scores, then probabilities
  __shared__ float q[MAX_D];       // the query row, pre-scaled
  __shared__ float part[BLOCK];    // per-group partial sums of P V
  __shared__ float buf[NWARPS];
  const int row = blockIdx.x;
  const long long head = (long long)blockIdx.y * S * D;
  const int tid = threadIdx.x, lane = tid % 32, warp = tid / 32;
  const int keys = causal ? row + 1 : S;  // keys this row may see
  if (D > MAX_D || row >= S) return;      // never taken for the task's shapes (grid.x = S, D = 64 or 128)

  for (int d = tid; d < D; d += BLOCK) q[d] = __bfloat162float(Q[head + (long long)row * D + d]) * scale;
  __syncthreads();

  // Scores: one warp per key.
  for (int j = warp; j < keys; j += NWARPS) {
    const __nv_bfloat16* kr = K + head + (long long)j * D;
    float dot = 0.0f;
    for (int d = lane; d < D; d += 32) dot += q[d] * __bfloat162float(kr[d]);
    for (int o = 16; o > 0; o /= 2) dot += __shfl_xor_sync(0xffffffffu, dot, o);
    if (lane == 0) p[j] = dot;
  }
  __syncthreads();

  float m = __int_as_float(0xff800000);  // -inf
  for (int j = tid; j < keys; j += BLOCK) m = fmaxf(m, p[j]);
  m = block_max(m, buf);
  float l = 0.0f;
  for (int j = tid; j < keys; j += BLOCK) {
    const float e = expf(p[j] - m);
    p[j] = e;
    l += e;
  }
  l = block_sum(l, buf);  // its barriers also publish p[]

  // P V: thread t owns column t % D of group t / D; the groups take interleaved keys.
  const int groups = BLOCK / D;  // >= 1 for D <= MAX_D <= BLOCK
  const int g = tid / D, d = tid % D;
  float acc = 0.0f;
  if (g < groups) {
    for (int j = g; j < keys; j += groups) acc += p[j] * __bfloat162float(V[head + (long long)j * D + d]);
  }
  part[tid] = acc;
  __syncthreads();
  if (tid < D) {
    float o = 0.0f;
    for (int k = 0; k < groups; ++k) o += part[k * D + tid];
    O[head + (long long)row * D + tid] = __float2bfloat16(o / l);
  }
}
