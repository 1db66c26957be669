// A block stages two vectors of C floats in one shared buffer, the weights first and the biases from float4 C / 4 on;
// the loop over i < C in steps of 4 fills float4 i / 4 of each. Written for C a multiple of 4: otherwise the
// weights' last, partial float4 is the biases' first, and two threads store it. The kernel does not state it: a
// precondition note.
// expect: race.precondition
// kopt: launch stage grid=(8) block=(128) smem=(2 * C * 4) args=(w, b, out, C)
__global__ void stage(const float4 *w, const float4 *b, float4 *out, int C) {
  extern __shared__ float4 buf[];
  float4 *s_w = buf;
  float4 *s_b = buf + C / 4;
  for (int i = threadIdx.x * 4; i < C; i += blockDim.x * 4) {
    s_w[i / 4] = w[i / 4];
    s_b[i / 4] = b[i / 4];
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    float4 x = s_w[0], y = s_b[0];
    out[blockIdx.x] = make_float4(x.x + y.x, x.y + y.y, x.z + y.z, x.w + y.w);
  }
}
