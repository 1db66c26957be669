// kopt shim: <assert.h> for device code under NVRTC, which ships no C or C++ standard library.
// assert is an NVRTC builtin in device code (a failed assert stops the kernel with an error).
// Shipped with kopt (kopt/include, last on the include path); see kopt/compat.py.
#pragma once
