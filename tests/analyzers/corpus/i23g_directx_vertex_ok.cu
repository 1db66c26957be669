// A Direct3D interop kernel writing a vertex buffer of DirectXMath types (a Windows header): the analyzers'
// stand-in declares the storage types, so libclang reads the kernel. Each thread writes its own vertex (28 bytes
// apart: the stores are uncoalesced).
// expect: coalescing
#include <DirectXMath.h>
using namespace DirectX;
struct i23g_Vertex {
  XMFLOAT3 position;
  XMFLOAT4 color;
};

__global__ void i23g_wave(i23g_Vertex *v, unsigned int w, unsigned int h) {
  unsigned int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < w && y < h) {
    v[y * w + x].position.x = x;
    v[y * w + x].color.w = 1.0f;
  }
}

void i23g_run_wave(i23g_Vertex *v) { i23g_wave<<<dim3(8, 8), dim3(16, 16)>>>(v, 128, 128); }
