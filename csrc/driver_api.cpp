#include "driver_api.h"

#include <dlfcn.h>

#include <mutex>
#include <stdexcept>

namespace kopt {
namespace {

using GetProcAddress = CUresult (*)(const char*, void**, int, cuuint64_t, CUdriverProcAddressQueryResult*);

// The driver ABI version whose prototypes the harness calls. Asking for CUDA_VERSION instead can return a newer
// variant with another signature (CUDA 13's cuCtxGetDevice takes a context too), which crashes when called.
constexpr int kAbiVersion = 12000;

template <typename F>
void resolve(GetProcAddress get, const char* symbol, F& fn) {
  void* p = nullptr;
  CUdriverProcAddressQueryResult status;
  bool found = get(symbol, &p, kAbiVersion, CU_GET_PROC_ADDRESS_DEFAULT, &status) == CUDA_SUCCESS && p;
  if (!found)  // retired at that version: the header's current variant (same prototype where it was renamed)
    found = get(symbol, &p, CUDA_VERSION, CU_GET_PROC_ADDRESS_DEFAULT, &status) == CUDA_SUCCESS && p;
  if (!found)
    throw std::runtime_error(std::string("the CUDA driver does not provide ") + symbol);
  fn = reinterpret_cast<F>(p);
}

[[noreturn]] void fail(CUresult r, const char* what, bool asynchronous) {
  const char* name = nullptr;
  if (driver().cuGetErrorName(r, &name) != CUDA_SUCCESS || !name) name = "CUDA_ERROR_UNKNOWN";
  throw CudaError(r, name, what, asynchronous);
}

}  // namespace

DriverApi& driver() {
  static DriverApi api;
  static std::once_flag once;
  std::call_once(once, [] {
    void* lib = dlopen("libcuda.so.1", RTLD_NOW | RTLD_GLOBAL);
    if (!lib) {
      api.error = std::string("CUDA driver not found (libcuda.so.1): ") + dlerror();
      return;
    }
    auto get = reinterpret_cast<GetProcAddress>(dlsym(lib, "cuGetProcAddress_v2"));
    if (!get) {
      api.error = "the CUDA driver is too old: no cuGetProcAddress_v2";
      return;
    }
    try {
      // Names without the _v2 suffixes: cuGetProcAddress maps them to the versions this header expects.
#define KOPT_DRIVER_FN(name) resolve(get, #name, api.name);
#include "driver_fns.inc"
#undef KOPT_DRIVER_FN
      api.loaded = true;
    } catch (const std::exception& e) {
      api.error = e.what();
    }
  });
  if (!api.loaded) throw std::runtime_error(api.error);
  return api;
}

void check(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) fail(r, what, false);
}

void check_wait(CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) fail(r, what, true);
}

}  // namespace kopt
