// kopt shim: <stdint.h> for device code under NVRTC, which ships no C or C++ standard library.
// Fixed-width integer types and their limits, from CCCL's <cuda/std/cstdint>.
// Shipped with kopt (kopt/include, last on the include path); see kopt/compat.py.
#pragma once
#include <cuda/std/cstdint>
