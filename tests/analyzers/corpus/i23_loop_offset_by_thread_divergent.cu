// The loop of i23_loop_offset_by_thread_ok.cu ending at the head's last channel for every thread (no `+ tid`):
// a thread whose channel passes it leaves one pass early and skips barriers the rest of its block still runs.
// expect: barrier.divergent
// kopt: launch attn grid=(64) block=(64) args=(B, T, C, H, k, dst)
template <int HEAD>
__global__ void attn(const int B, const int T, const int C, const int H, const float *k, float *dst) {
  __shared__ float s[HEAD];
  const int tid = threadIdx.x;
  const int batch_i = blockIdx.x / H;
  const int head_i = blockIdx.x % H;
  const int n_seq_tokens = T / B;
  for (int t = batch_i * n_seq_tokens * C + head_i * HEAD + tid;
       t < (batch_i + 1) * n_seq_tokens * C + head_i * HEAD + 32; t += C) {
    __syncthreads();
    s[tid] = k[t];
    __syncthreads();
    dst[t] += s[HEAD - 1 - tid];
  }
}
