// Each launch declares its own block in a `{ }` block of its own, inside a loop: `stage` is launched with 128
// threads, which its shared tile of 128 holds. (The sibling block's 1024 threads belong to the other launch.)
// expect: none
__global__ void stage(float *out, const float *in) {
  __shared__ float tile[128];
  tile[threadIdx.x] = in[threadIdx.x];
  __syncthreads();
  out[threadIdx.x] = tile[threadIdx.x];
}
__global__ void copy(float *out, const float *in) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[blockIdx.x * blockDim.x + threadIdx.x];
}
void run(float *out, const float *in, int rounds) {
  for (int r = 0; r < rounds; r++) {
    { dim3 block(1024); copy<<<1, block>>>(out, in); }
    { dim3 block(128); stage<<<1, block>>>(out, in); }
  }
}
