// kopt analyzers: DirectXMath's storage types as device code sees them (plain float fields; the library's math
// is host code). Kernels of Direct3D interop samples write vertex buffers of these.
#pragma once
namespace DirectX {
struct XMFLOAT2 { float x, y; };
struct XMFLOAT3 { float x, y, z; };
struct XMFLOAT4 { float x, y, z, w; };
struct XMINT2 { int x, y; };
struct XMINT3 { int x, y, z; };
struct XMINT4 { int x, y, z, w; };
struct XMUINT2 { unsigned int x, y; };
struct XMUINT3 { unsigned int x, y, z; };
struct XMUINT4 { unsigned int x, y, z, w; };
}
