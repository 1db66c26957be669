// kopt shim: <stdio.h> for device code under NVRTC, which ships no C or C++ standard library.
// printf is an NVRTC builtin in device code; nothing else of stdio runs on the device.
// Shipped with kopt (kopt/include, last on the include path); see kopt/compat.py.
#pragma once
