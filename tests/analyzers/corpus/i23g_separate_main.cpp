// Host code for i23g_separate_kernel_oob.cu and i23g_separate_kernel_ok.cu: the kernels are declared here and
// compiled in their own files.
__global__ void i23g_sep_tile_copy(const float *in, float *out);
__global__ void i23g_sep_tile_copy_fits(const float *in, float *out);

void i23g_sep_run(const float *in, float *out) {
  i23g_sep_tile_copy<<<40, 256>>>(in, out);
  i23g_sep_tile_copy_fits<<<80, 128>>>(in, out);
}
