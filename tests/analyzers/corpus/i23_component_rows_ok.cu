// A virial of six components stored as six rows of one pitched array (`v[k * pitch + idx]`), written at constant
// rows and in a loop over the rows, for the local and ghost particles (`idx < n + n_ghost`). Rows meet only if the
// pitch is below the rows' length, which no caller passes: kopt assumes `pitch >= n + n_ghost` and says so.
// expect: none
// kopt: launch virial grid=(cdiv(n, 128)) block=(128, 1, 1) args=(v, w, pitch, n, n_ghost)
__global__ void virial(float* v, float* w, unsigned pitch, unsigned n, unsigned n_ghost) {
  unsigned idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx >= n + n_ghost) return;
  v[0 * pitch + idx] = 0.0f;
  v[1 * pitch + idx] = 1.0f;
  v[2 * pitch + idx] = 2.0f;
  for (int k = 0; k < 6; k++) w[k * pitch + idx] += v[idx];
}
