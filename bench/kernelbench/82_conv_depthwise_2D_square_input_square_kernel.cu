// Naive depthwise 2D convolution (stride 1, no padding, no bias; one filter per channel): one thread per output element.
// kind: conv
// kopt: task p_82_conv_depthwise_2D_square_input_square_kernel
// kopt: tune BLOCK in [256, 128]
// kopt: launch depthwise grid=(cdiv((height - kernel_size + 1) * (width - kernel_size + 1), BLOCK), in_channels, batch_size) block=(BLOCK) args=(x, conv2d_weight, out, batch_size, in_channels, kernel_size, width, height)

extern "C" __global__ void depthwise(const float* __restrict__ x, const float* __restrict__ w, float* __restrict__ out,
                                     int batch_size, int in_channels, int kernel_size, int width, int height) {
  int ho = height - kernel_size + 1, wo = width - kernel_size + 1;
  int p = blockIdx.x * BLOCK + threadIdx.x;
  if (p >= ho * wo) return;
  int oy = p / wo, ox = p % wo;
  int c = blockIdx.y, n = blockIdx.z;
  const float* xp = x + ((long long)n * in_channels + c) * height * width;
  const float* wp = w + (long long)c * kernel_size * kernel_size;
  float acc = 0.0f;
  for (int ky = 0; ky < kernel_size; ++ky)
    for (int kx = 0; kx < kernel_size; ++kx) acc += xp[(oy + ky) * width + ox + kx] * wp[ky * kernel_size + kx];
  out[((long long)n * in_channels + c) * ho * wo + p] = acc;
}
