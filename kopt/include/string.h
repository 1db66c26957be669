// kopt shim: <string.h> for device code under NVRTC, which ships no C or C++ standard library.
// memcpy and memset are NVRTC builtins in device code.
// Shipped with kopt (kopt/include, last on the include path); see kopt/compat.py.
#pragma once
