// Without an assumption on stride the threads collide only at stride == 0 (every thread's element folds onto
// out[0]), a stride no caller of a strided store passes: a precondition note naming stride >= 1, which the
// assumption of i23_assume_stride_ok.cu states.
// expect: race.precondition, coalescing
// kopt: launch scatter grid=(8) block=(128) args=(x, out, stride, n)
__global__ void scatter(const float *x, float *out, int stride, int n) {
  int i = blockIdx.x * 128 + threadIdx.x;
  if (i < n) out[i * stride] = x[i];
}
