// Profile case: a streaming kernel that keeps V float4 loads of each input in flight per thread. The loads in flight
// hold the registers that limit occupancy, and they are also what saturates DRAM: the kernel is bandwidth-bound at
// low occupancy, where advice to cap registers for occupancy would only slow it down.
// kopt: task vector_add
// kopt: launch bandwidth_low_occupancy grid=(cdiv(n, 256 * 4 * 16)) block=(256) args=(a, b, c, n)
#define V 16
extern "C" __global__ void bandwidth_low_occupancy(const float* __restrict__ a, const float* __restrict__ b,
                                                   float* __restrict__ c, int n) {
  long long base = (long long)blockIdx.x * blockDim.x * 4 * V;  // this block's first element
  if (base + (long long)blockDim.x * 4 * V <= n && n % 4 == 0) {
    const float4* a4 = reinterpret_cast<const float4*>(a + base);
    const float4* b4 = reinterpret_cast<const float4*>(b + base);
    float4* c4 = reinterpret_cast<float4*>(c + base);
    float4 x[V], y[V];
#pragma unroll
    for (int j = 0; j < V; ++j) {
      x[j] = __ldcs(a4 + j * blockDim.x + threadIdx.x);
      y[j] = __ldcs(b4 + j * blockDim.x + threadIdx.x);
    }
#pragma unroll
    for (int j = 0; j < V; ++j)
      __stcs(c4 + j * blockDim.x + threadIdx.x,
             make_float4(x[j].x + y[j].x, x[j].y + y[j].y, x[j].z + y[j].z, x[j].w + y[j].w));
  } else {  // the ragged tail (and sizes that are not a multiple of 4): element by element
    for (long long i = base + threadIdx.x; i < base + (long long)blockDim.x * 4 * V && i < n; i += blockDim.x)
      c[i] = a[i] + b[i];
  }
}
