extern "C" __global__ void broken(float* x) {
  int i = threadIdx.x;
  x[i] = undefined_value + 1.0f;
}
