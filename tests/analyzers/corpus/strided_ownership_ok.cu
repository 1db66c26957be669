// Each thread owns the shared elements t, t+256, ...: writes and reads stay with their owner.
// expect: none
// kopt: launch own_slots grid=(cdiv(n, 1024)) block=(256, 1, 1) args=(x, n)
__global__ void own_slots(float* x, int n) {
  __shared__ float buf[1024];
  int base = blockIdx.x * 1024;
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) buf[j] = base + j < n ? x[base + j] : 0.f;
  for (int j = threadIdx.x; j < 1024; j += blockDim.x) buf[j] = buf[j] * buf[j];
  for (int j = threadIdx.x; j < 1024; j += blockDim.x)
    if (base + j < n) x[base + j] = buf[j];
}
