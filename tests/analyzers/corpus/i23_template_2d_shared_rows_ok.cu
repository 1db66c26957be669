// A shared array whose two extents are template parameters (`d[W][P]`, the rsmt benchmark's per-warp rows):
// each warp fills and reads only its own row of P entries, lanes striding by 32, with __syncwarp between. The
// extents are read outer first (libclang visits the size expressions innermost first).
// expect: none
template <int W, int P>
static __device__ void body(int* out, int i) {
  __shared__ int d[W][P];
  const int lane = threadIdx.x % 32;
  const int warp = threadIdx.x / 32;
  for (int j = lane; j < P; j += 32) d[warp][j] = i + j;
  __syncwarp();
  for (int j = lane; j < P; j += 32) out[(blockIdx.x * W + warp) * P + j] = d[warp][(j + 32) % P];
}
template <int W, int P>
static __global__ void rows(int* out) {
  body<W, P>(out, blockIdx.x);
}
int main() { rows<24, 64><<<8, 24 * 32>>>(0); }
