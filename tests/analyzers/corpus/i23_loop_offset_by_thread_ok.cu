// A loop over one sequence's tokens for one head, starting and ending at the thread's own channel
// (`t = first + tid; t < last + tid; t += C`): its trip count does not depend on the thread, so every thread reaches
// the barriers in it equally often, whatever the batch, head and channel counts.
// expect: none
// kopt: launch attn grid=(64) block=(64) args=(B, T, C, H, k, dst)
template <int HEAD>
__global__ void attn(const int B, const int T, const int C, const int H, const float *k, float *dst) {
  __shared__ float s[HEAD];
  const int tid = threadIdx.x;
  const int batch_i = blockIdx.x / H;
  const int head_i = blockIdx.x % H;
  const int n_seq_tokens = T / B;
  for (int t = batch_i * n_seq_tokens * C + head_i * HEAD + tid;
       t < (batch_i + 1) * n_seq_tokens * C + head_i * HEAD + tid; t += C) {
    __syncthreads();
    s[tid] = k[t];
    __syncthreads();
    dst[t] += s[HEAD - 1 - tid];
  }
}
