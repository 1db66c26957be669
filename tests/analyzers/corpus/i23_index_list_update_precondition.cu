// A particle integrator over a group: each thread updates the particle its group's member list names, in place,
// from that particle's own fields. The member list holds distinct particle indices (the caller builds it so);
// kopt presumes that of an index list the kernel never stores to and says so in a note.
// expect: race.precondition
// kopt: launch step grid=(cdiv(n, 128)) block=(128, 1, 1) args=(members, pos, vel, n, dt)
__global__ void step(const unsigned* members, float* pos, const float* vel, unsigned n, float dt) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned p = members[i];
    pos[p] = pos[p] + vel[p] * dt;
  }
}
