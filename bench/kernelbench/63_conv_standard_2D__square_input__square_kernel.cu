// Naive direct 2D convolution (stride 1, no padding, no bias): one thread per output element, the whole
// in_channels x kernel_size x kernel_size window read from global memory.
// kind: conv
// kopt: task p_63_conv_standard_2D__square_input__square_kernel
// kopt: tune BLOCK in [256, 128]
// kopt: launch conv2d grid=(cdiv((height - kernel_size + 1) * (width - kernel_size + 1), BLOCK), out_channels, batch_size) block=(BLOCK) args=(x, conv2d_weight, out, batch_size, in_channels, out_channels, kernel_size, width, height)

extern "C" __global__ void conv2d(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ out,
                                  int batch_size, int in_channels, int out_channels, int kernel_size, int width,
                                  int height) {
  int ho = height - kernel_size + 1, wo = width - kernel_size + 1;
  int p = blockIdx.x * BLOCK + threadIdx.x;
  if (p >= ho * wo) return;
  int oy = p / wo, ox = p % wo;
  int oc = blockIdx.y, n = blockIdx.z;
  float acc = 0.0f;
  for (int ic = 0; ic < in_channels; ++ic) {
    const float* xp = x + ((long long)n * in_channels + ic) * height * width;
    const float* wp = w + ((long long)oc * in_channels + ic) * kernel_size * kernel_size;
    for (int ky = 0; ky < kernel_size; ++ky)
      for (int kx = 0; kx < kernel_size; ++kx)
        acc += xp[(long long)(oy + ky) * width + ox + kx] * wp[ky * kernel_size + kx];
  }
  out[((long long)n * out_channels + oc) * ho * wo + p] = acc;
}
