// Naive RMS norm over dim 1 (features) of a (batch, features, dim1, dim2) tensor, eps = 1e-5: one thread per
// (batch, spatial) position walks the features twice (mean of squares, then the scaled write).
// kind: softmax-norm
// kopt: task p_36_RMSNorm_
// kopt: tune BLOCK in [256, 128]
// kopt: launch rms_norm grid=(cdiv(dim1 * dim2, BLOCK), batch_size) block=(BLOCK) args=(x, out, batch_size, features, dim1, dim2)

extern "C" __global__ void rms_norm(const float* __restrict__ x, float* __restrict__ out, int batch_size, int features,
                                    int dim1, int dim2) {
  long long plane = (long long)dim1 * dim2;
  long long s = (long long)blockIdx.x * BLOCK + threadIdx.x;
  if (s >= plane) return;
  long long base = (long long)blockIdx.y * features * plane + s;
  float acc = 0.0f;
  for (int f = 0; f < features; ++f) {
    float v = x[base + f * plane];
    acc += v * v;
  }
  float inv = rsqrtf(acc / features + 1e-5f);
  for (int f = 0; f < features; ++f) out[base + f * plane] = x[base + f * plane] * inv;
}
