// Every thread writes a slot of the member array of one shared record: threads 0 and 4 both write `leaves[0]`.
// expect: race.global
// kopt: launch fill grid=(8) block=(128) args=(recs, n)
struct Rec { int sign, leaves[4]; unsigned count; };
__global__ void fill(Rec *recs, int n) {
  int idx = blockIdx.x * blockDim.x + threadIdx.x;
  if (idx < n) recs[0].leaves[idx % 4] = idx;
}
