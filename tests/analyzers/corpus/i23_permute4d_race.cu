// The 4-D permute with the last digit dropped from the transposed position: the threads whose indices differ
// only in i2 write one element.
// expect: race.global, coalescing
// kopt: launch permute grid=(2520) block=(256, 1, 1) args=(in, out, dim1, dim2, dim3, dim4)
// kopt: assume dim1 == 24 && dim2 == 42 && dim3 == 20 && dim4 == 32
__global__ void permute(const float* in, float* out, int dim1, int dim2, int dim3, int dim4) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < dim1 * dim2 * dim3 * dim4) {
    int i1 = (idx / (dim2 * dim3 * dim4)) % dim1;
    int i2 = (idx / (dim3 * dim4)) % dim2;
    int i3 = (idx / dim4) % dim3;
    int i4 = idx % dim4;
    out[i4 * (dim3 * dim1 * dim2) + i3 * (dim1 * dim2) + i1 * dim2] = in[idx];
  }
}
