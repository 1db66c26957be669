// A loop with a barrier in it runs a number of times each thread reads for itself (a count another kernel may be
// updating, read with atomicAdd(p, 0)): threads of one block can run different numbers of barriers. The hang is the
// finding; the stores in the loop and the reads after it meet only if the counts differ, which is that finding
// again, not a second one.
// expect: barrier.divergent
// kopt: launch drain grid=(8) block=(128) args=(counts, out)
__global__ void drain(int *counts, float *out) {
  __shared__ float s[128];
  int tid = threadIdx.x;
  int rounds = atomicAdd(&counts[blockIdx.x], 0);
  float acc = 0.f;
  for (int r = 0; r < rounds; r++) {
    s[tid] = acc + r;
    __syncthreads();
    acc += s[(tid + 1) % 128];
    __syncthreads();
  }
  out[blockIdx.x * 128 + tid] = acc + s[127 - tid];
}
