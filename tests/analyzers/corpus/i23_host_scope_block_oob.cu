// Each launch declares its own block in a `{ }` block of its own, inside a loop: `stage` is launched with 256
// threads, but its shared tile holds 128, so threads 128..255 store past its end. (The sibling block's run-time
// size belongs to the other launch.)
// expect: bounds.shared
__global__ void stage(float *out, const float *in) {
  __shared__ float tile[128];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
__global__ void copy(float *out, const float *in) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
}
void run(float *out, const float *in, int n, int rounds) {
  for (int r = 0; r < rounds; r++) {
    { dim3 block(n); copy<<<1, block>>>(out, in); }
    { dim3 block(256); stage<<<1, block>>>(out, in); }
  }
}
