// kopt shim: <stddef.h> for device code under NVRTC, which ships no C or C++ standard library.
// size_t, ptrdiff_t and NULL are NVRTC builtins; this adds offsetof.
// Shipped with kopt (kopt/include, last on the include path); see kopt/compat.py.
#pragma once
#ifndef offsetof
#define offsetof(type, member) __builtin_offsetof(type, member)
#endif
