// The CUDA driver functions the harness uses, resolved at run time (dlopen + cuGetProcAddress): no link-time
// dependency on libcuda, so the module imports on machines without a driver.
#pragma once
#include <cuda.h>

#include <stdexcept>
#include <string>

namespace kopt {

struct DriverApi {
  bool loaded = false;
  std::string error;
#define KOPT_DRIVER_FN(name) decltype(&::name) name = nullptr;
#include "driver_fns.inc"
#undef KOPT_DRIVER_FN
};

// A failed driver call, raised in Python as kopt._harness.CudaError with these fields as attributes. `asynchronous`:
// reported while waiting for queued work, so it came from a kernel (or the harness's own memsets) rather than from
// the call that queued it; such an error may have left the context unusable.
struct CudaError : std::runtime_error {
  CudaError(CUresult code, std::string name, std::string call, bool asynchronous)
      : std::runtime_error(call + ": " + name), code(code), name(std::move(name)), call(std::move(call)),
        asynchronous(asynchronous) {}
  CUresult code;
  std::string name;  // CUDA_ERROR_...
  std::string call;  // what the harness was doing
  bool asynchronous;
};

// Loads libcuda once; throws std::runtime_error with a clear message when it cannot.
DriverApi& driver();
// Throws CudaError when r is not CUDA_SUCCESS.
void check(CUresult r, const char* what);
// The same for the result of a synchronize: the error came from the work it waited for.
void check_wait(CUresult r, const char* what);

}  // namespace kopt
