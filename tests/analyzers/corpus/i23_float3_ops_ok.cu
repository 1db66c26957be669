// float3 arithmetic through helper_math.h operators; each thread updates its own particle.
// expect: none
// kopt: launch step grid=(16) block=(128) args=(pos, vel, dt)
#include "helper_math.h"
__global__ void step(float3 *pos, const float3 *vel, float dt) {
  int i = blockIdx.x * 128 + threadIdx.x;
  pos[i] = pos[i] + vel[i] * dt;
}
