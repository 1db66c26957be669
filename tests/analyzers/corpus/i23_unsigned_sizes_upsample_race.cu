// Nearest-neighbour upsampling over unsigned sizes that also clears the input as it goes, one element ahead of
// its own: thread t's store to x[t + 1] meets thread t + 1's load of it.
// expect: race.global, coalescing
#include <cstdint>
__global__ void upsample(float *x, float *out, uint64_t B, uint64_t C, uint64_t H, uint64_t W) {
  uint64_t flat = (uint64_t)blockDim.x * blockIdx.x + threadIdx.x;
  if (flat >= B * C * H * W) return;
  uint64_t b = flat / (C * H * W);
  uint64_t c = (flat / (H * W)) % C;
  uint64_t i = (flat / W) % H;
  uint64_t j = flat % W;
  float v = x[flat];
  float *o = out + b * C * 4 * H * W + c * 4 * H * W + 2 * i * 2 * W + 2 * j;
  for (int ii = 0; ii < 2; ii++)
    for (int jj = 0; jj < 2; jj++) o[ii * 2 * W + jj] = v;
  x[flat + 1] = 0.0f;
}
void run(float *x, float *out, uint64_t B, uint64_t C, uint64_t H, uint64_t W, int threads) {
  upsample<<<(B * C * H * W + threads - 1) / threads, threads>>>(x, out, B, C, H, W);
}
