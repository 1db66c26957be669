// Every thread stores its own value (its index over a parameter) in a shared scalar and then reads it, with no
// barrier between: another thread's store can land between a thread's store and its read.
// expect: race.shared, sync.missing
// kopt: launch scale grid=(64) block=(128) args=(z, sd, theta, n)
__global__ void scale(const double *z, double *sd, double theta, int n) {
  __shared__ double theta_r;
  theta_r = threadIdx.x / theta;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sd[i] = z[i] * theta_r;
}
