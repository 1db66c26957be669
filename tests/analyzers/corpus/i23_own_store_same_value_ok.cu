// Every thread stores one value (the reciprocal of a parameter) in a shared scalar and then reads it, with no
// barrier between: whichever thread's store lands last, each reads the value it stored itself (wasteful, not a race).
// expect: none
// kopt: launch scale grid=(64) block=(128) args=(z, sd, theta, n)
__global__ void scale(const double *z, double *sd, double theta, int n) {
  __shared__ double theta_r;
  theta_r = 1.0 / theta;
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) sd[i] = z[i] * theta_r;
}
