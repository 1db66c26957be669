// Array-of-structs in shared memory: 4-word records read one field at a time.
// expect: bank-conflict(4)
// kopt: launch particles grid=(cdiv(n, 256)) block=(256, 1, 1) args=(p, out, n)
struct Particle { float x, y, z, m; };
__global__ void particles(const Particle* __restrict__ p, float* __restrict__ out, int n) {
  __shared__ Particle sp[256];
  int t = threadIdx.x, i = blockIdx.x * 256 + t;
  if (i < n) sp[t] = p[i];
  __syncthreads();
  float m = sp[t].m;
  if (i < n) out[i] = m * (sp[t].x + sp[t].y + sp[t].z);
}
