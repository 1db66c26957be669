// A layer of a small network, written for one block (its launches, <<<1, n>>>, live in code kopt does not see):
// each thread owns zs[threadIdx.x] and no block index divides the work. With no launch found and no blockIdx or
// gridDim read, the kernel is analyzed as one block (the note launch.inferred-grid): no race between blocks.
// expect: none
__global__ void feed_forward(float *zs, const float *weights, const float *acts, int w_off, int inputs) {
  zs[threadIdx.x] = 0.0f;
  for (int i = 0; i < inputs; ++i)
    zs[threadIdx.x] += weights[w_off + i * blockDim.x + threadIdx.x] * acts[i];
}
