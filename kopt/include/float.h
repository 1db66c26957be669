// kopt shim: <float.h> for device code under NVRTC, which ships no C or C++ standard library.
// FLT_MAX, DBL_EPSILON, ... from CCCL's <cuda/std/cfloat>.
// Shipped with kopt (kopt/include, last on the include path); see kopt/compat.py.
#pragma once
#include <cuda/std/cfloat>
