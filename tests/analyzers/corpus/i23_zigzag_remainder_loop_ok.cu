// Two passes over a block's row with one index: the first loop steps c up past the row's end, and the second
// steps it back down from the last element the first pass touched (llm.c's "zigzag" residual kernel). Where the
// first loop leaves c decides which elements the second pass touches: its exit test failed, and held one step
// before, so c - 32 is again inside the row.
// expect: none
// kopt: launch zigzag grid=(rows) block=(32, 1, 1) args=(x, rows, C)
// kopt: assume C >= 1
__global__ void zigzag(float* x, int rows, int C) {
  float* row = x + blockIdx.x * C;
  int c = threadIdx.x;
  for (; c < C; c += 32) row[c] = 2.f * row[c];
  c -= 32;
  for (; c >= 0; c -= 32) row[c] += 1.f;
}
