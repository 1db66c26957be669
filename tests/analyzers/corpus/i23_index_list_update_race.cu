// Forces summed into the particles a pair list names: one particle appears in many pairs, so two threads add
// into one element with a plain +=. The list's entries repeat by design: a contribution per pair, not an
// update of the particle from its own fields.
// expect: race.global
// kopt: launch add_pair_forces grid=(cdiv(n, 128)) block=(128, 1, 1) args=(first, f, force, n)
__global__ void add_pair_forces(const unsigned* first, const float* f, float* force, unsigned n) {
  unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    unsigned p = first[i];
    force[p] = force[p] + f[i];
  }
}
