// Each launch declares its own grid and block in a `{ }` block of its own, inside a loop (the same names, several
// variables): `accumulate` runs on one block (dimGrid(1, 1, 1)) of a run-time number of threads, each adding to
// its own element; the sibling block's grid of many blocks belongs to the other launch.
// expect: none
__global__ void accumulate(float *acc, const float *delta, int offset) {
  acc[offset + threadIdx.x] += delta[offset + threadIdx.x];
}
__global__ void spread(float *out, const float *in) {
  out[blockIdx.x * blockDim.x + threadIdx.x] = in[threadIdx.x];
}
void step(float *acc, const float *delta, float *out, const int *sizes, int layers) {
  for (int k = 1; k < layers; k++) {
    {dim3 dimBlock(sizes[k], 1, 1); dim3 dimGrid(sizes[k - 1], 1, 1);
    spread<<<dimGrid, dimBlock>>>(out, delta);}
    {dim3 dimBlock(sizes[k], 1, 1); dim3 dimGrid(1, 1, 1);
    accumulate<<<dimGrid, dimBlock>>>(acc, delta, k * 1024);}
  }
}
