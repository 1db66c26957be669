// kopt shim: <limits.h> for device code under NVRTC, which ships no C or C++ standard library.
// INT_MAX, CHAR_BIT, ... from CCCL's <cuda/std/climits>.
// Shipped with kopt (kopt/include, last on the include path); see kopt/compat.py.
#pragma once
#include <cuda/std/climits>
