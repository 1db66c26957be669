// Each body copies its own record out of an array of structs and reads its position and mass; the force member
// of the record is updated atomically by the other threads, but the copy never reads it, so no load of it exists
// (the array of structs makes both loads uncoalesced).
// expect: coalescing
struct I23hBody {
  float pos[3];
  float mass;
  float force[3];
  int id;
};

__global__ void i23h_pair_forces(I23hBody *bodies, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const I23hBody self = bodies[i];
  for (int j = i + 1; j < n; j++) {
    float d = bodies[j].pos[0] - self.pos[0];
    atomicAdd(&bodies[j].force[0], -self.mass * d);
  }
}

void i23h_run_forces(I23hBody *bodies, int n) {
  i23h_pair_forces<<<(n + 127) / 128, 128>>>(bodies, n);
}
