// Boundary blocks take a different path; the branch depends only on blockIdx, so barriers are uniform.
// expect: none
// kopt: launch smooth_rows grid=(cdiv(n, 128)) block=(128, 1, 1) args=(in, out, n)
__global__ void smooth_rows(const float* in, float* out, int n) {
  __shared__ float buf[130];
  int t = threadIdx.x;
  int base = blockIdx.x * 128;
  bool interior = blockIdx.x > 0 && blockIdx.x + 1 < gridDim.x;
  if (interior) {
    buf[t + 1] = in[base + t];
    if (t == 0) buf[0] = in[base - 1];
    if (t == 127) buf[129] = in[base + 128];
    __syncthreads();
    out[base + t] = (buf[t] + buf[t + 1] + buf[t + 2]) / 3.f;
  } else {
    int i = base + t;
    if (i < n) out[i] = in[i];
  }
}
