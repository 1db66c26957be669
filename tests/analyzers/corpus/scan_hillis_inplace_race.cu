// In-place Hillis-Steele scan: a thread reads s[t - offset] while that element is being updated.
// expect: race.shared
// kopt: launch scan_inplace grid=(1) block=(256, 1, 1) args=(data, n)
__global__ void scan_inplace(float* data, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  s[t] = t < n ? data[t] : 0.f;
  __syncthreads();
  for (int offset = 1; offset < blockDim.x; offset <<= 1) {
    if (t >= offset) s[t] += s[t - offset];
    __syncthreads();
  }
  if (t < n) data[t] = s[t];
}
