// Naive two-pass sum: pass 1 has min(cdiv(n, BLOCK), 1024) blocks, each sums a grid-stride slice and writes one
// partial; pass 2 is one block that sums the partials into s[0]. Deterministic, no atomics.
// kopt: task reduce_sum
// kopt: tune BLOCK in [256, 128, 512, 1024]
// kopt: scratch partial f32[min(cdiv(n, BLOCK), 1024)]
// kopt: launch reduce_partial grid=(min(cdiv(n, BLOCK), 1024)) block=(BLOCK) args=(x, partial, n)
// kopt: launch reduce_final grid=(1) block=(BLOCK) args=(partial, s, min(cdiv(n, BLOCK), 1024))

// Sums v over the block (blockDim.x == BLOCK, a power of two) using buf[BLOCK]; the result is returned to every
// thread.
__device__ float block_sum(float v, float* buf) {
  buf[threadIdx.x] = v;
  __syncthreads();
  for (int stride = BLOCK / 2; stride > 0; stride /= 2) {
    if (threadIdx.x < stride) buf[threadIdx.x] += buf[threadIdx.x + stride];
    __syncthreads();
  }
  return buf[0];
}

extern "C" __global__ void reduce_partial(const float* __restrict__ x, float* __restrict__ partial, int n) {
  float acc = 0.0f;
  for (long long i = blockIdx.x * (long long)BLOCK + threadIdx.x; i < n; i += (long long)gridDim.x * BLOCK)
    acc += x[i];
  __shared__ float buf[BLOCK];
  float total = block_sum(acc, buf);
  if (threadIdx.x == 0) partial[blockIdx.x] = total;
}

extern "C" __global__ void reduce_final(const float* __restrict__ partial, float* __restrict__ s, int nparts) {
  float acc = 0.0f;
  for (int i = threadIdx.x; i < nparts; i += BLOCK) acc += partial[i];
  __shared__ float buf[BLOCK];
  float total = block_sum(acc, buf);
  if (threadIdx.x == 0) s[0] = total;
}
