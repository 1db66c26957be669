// The same copy, but the kernel also reads the copied force member, which other threads update atomically at the
// same time: a plain read racing with atomic updates.
// expect: race.atomic-plain, coalescing
struct I23hBodyF {
  float pos[3];
  float mass;
  float force[3];
  int id;
};

__global__ void i23h_pair_forces_read(I23hBodyF *bodies, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const I23hBodyF self = bodies[i];
  for (int j = i + 1; j < n; j++) {
    float d = bodies[j].pos[0] - self.pos[0];
    atomicAdd(&bodies[j].force[0], -self.mass * d);
  }
  out[i] = self.force[0];
}

void i23h_run_forces_read(I23hBodyF *bodies, float *out, int n) {
  i23h_pair_forces_read<<<(n + 127) / 128, 128>>>(bodies, out, n);
}
