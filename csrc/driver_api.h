// The CUDA driver functions the harness uses, resolved at run time (dlopen + cuGetProcAddress): no link-time
// dependency on libcuda, so the module imports on machines without a driver.
#pragma once
#include <cuda.h>

#include <string>

namespace kopt {

struct DriverApi {
  bool loaded = false;
  std::string error;
#define KOPT_DRIVER_FN(name) decltype(&::name) name = nullptr;
#include "driver_fns.inc"
#undef KOPT_DRIVER_FN
};

// Loads libcuda once; throws std::runtime_error with a clear message when it cannot.
DriverApi& driver();
// Throws std::runtime_error("<what>: CUDA_ERROR_...") when r is not CUDA_SUCCESS.
void check(CUresult r, const char* what);

}  // namespace kopt
