// Naive direct 1D convolution (stride 1, no padding, no bias): one thread per output element.
// kind: conv
// kopt: task p_67_conv_standard_1D
// kopt: tune BLOCK in [256, 128]
// kopt: launch conv1d grid=(cdiv(length - kernel_size + 1, BLOCK), out_channels, batch_size) block=(BLOCK) args=(x, conv1d_weight, out, batch_size, in_channels, out_channels, kernel_size, length)

extern "C" __global__ void conv1d(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ out,
                                  int batch_size, int in_channels, int out_channels, int kernel_size, int length) {
  int lo = length - kernel_size + 1;
  int t = blockIdx.x * BLOCK + threadIdx.x;
  if (t >= lo) return;
  int oc = blockIdx.y, n = blockIdx.z;
  float acc = 0.0f;
  for (int ic = 0; ic < in_channels; ++ic) {
    const float* xp = x + ((long long)n * in_channels + ic) * length + t;
    const float* wp = w + ((long long)oc * in_channels + ic) * kernel_size;
    for (int k = 0; k < kernel_size; ++k) acc += xp[k] * wp[k];
  }
  out[((long long)n * out_channels + oc) * lo + t] = acc;
}
