// Hillis-Steele inclusive scan with ping-pong buffers.
// expect: none
// kopt: launch scan_block grid=(1) block=(512, 1, 1) args=(in, out, n)
#include <cuda_runtime.h>

__global__ void scan_block(const float* in, float* out, int n) {
  __shared__ float temp[2][512];
  int t = threadIdx.x;
  int pout = 0, pin = 1;
  temp[pout][t] = t < n ? in[t] : 0.f;
  __syncthreads();
  for (int offset = 1; offset < 512; offset *= 2) {
    pout = 1 - pout;
    pin = 1 - pout;
    if (t >= offset)
      temp[pout][t] = temp[pin][t] + temp[pin][t - offset];
    else
      temp[pout][t] = temp[pin][t];
    __syncthreads();
  }
  if (t < n) out[t] = temp[pout][t];
}
