// The same update, but positions are staged in shared memory and read back by a neighbour with no barrier.
// expect: sync.missing
// kopt: launch step grid=(16) block=(128) args=(pos, vel, dt)
#include "helper_math.h"
__global__ void step(float3 *pos, const float3 *vel, float dt) {
  __shared__ float3 s[128];
  int i = blockIdx.x * 128 + threadIdx.x;
  s[threadIdx.x] = pos[i] + vel[i] * dt;
  pos[i] = s[(threadIdx.x + 1) % 128];
}
