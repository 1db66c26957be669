// Thread 0 alone stores the reciprocal in a shared scalar that every thread then reads, with no barrier between:
// the other threads do not store it themselves, so they can read it before thread 0's store.
// expect: sync.missing
// kopt: launch scale grid=(64) block=(128) args=(z, sd, theta, n)
__global__ void scale(const double *z, double *sd, double theta, int n) {
  __shared__ double theta_r;
  if (threadIdx.x == 0) theta_r = 1.0 / theta;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sd[i] = z[i] * theta_r;
}
