// Reading one field of a 16-byte struct per thread: 4x the sectors the data needs.
// expect: coalescing
// kopt: launch kinetic grid=(cdiv(n, 256)) block=(256, 1, 1) args=(bodies, e, n)
struct Body { float vx, vy, vz, mass; };
__global__ void kinetic(const Body* __restrict__ bodies, float* __restrict__ e, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    float m = bodies[i].mass;
    e[i] = 0.5f * m;
  }
}
