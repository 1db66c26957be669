// Blelloch scan whose down-sweep lost its barrier.
// expect: race.shared, sync.missing, bank-conflict(8), coalescing
// kopt: launch prescan grid=(1) block=(128, 1, 1) args=(g_odata, g_idata, n)
#define N_ELEMS 256
__global__ void prescan(float* g_odata, const float* g_idata, int n) {
  __shared__ float temp[N_ELEMS];
  int thid = threadIdx.x;
  int offset = 1;
  temp[2 * thid] = g_idata[2 * thid];
  temp[2 * thid + 1] = g_idata[2 * thid + 1];
  for (int d = N_ELEMS >> 1; d > 0; d >>= 1) {
    __syncthreads();
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      temp[bi] += temp[ai];
    }
    offset *= 2;
  }
  if (thid == 0) temp[N_ELEMS - 1] = 0;
  __syncthreads();
  for (int d = 1; d < N_ELEMS; d *= 2) {
    offset >>= 1;
    if (thid < d) {
      int ai = offset * (2 * thid + 1) - 1;
      int bi = offset * (2 * thid + 2) - 1;
      float t = temp[ai];
      temp[ai] = temp[bi];
      temp[bi] += t;
    }
  }
  __syncthreads();
  g_odata[2 * thid] = temp[2 * thid];
  g_odata[2 * thid + 1] = temp[2 * thid + 1];
}
