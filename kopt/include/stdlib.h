// kopt shim: <stdlib.h> for device code under NVRTC, which ships no C or C++ standard library.
// malloc, free (the device heap), abs, labs and llabs are NVRTC builtins in device code; nothing else of
// stdlib runs on the device.
// Shipped with kopt (kopt/include, last on the include path); see kopt/compat.py.
#pragma once
