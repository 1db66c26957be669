#include "cupti_trace.h"

#include <cupti.h>
#include <dlfcn.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>

#ifndef KOPT_CUPTI_KERNEL_RECORD
#error "KOPT_CUPTI_KERNEL_RECORD must name the newest CUpti_ActivityKernelN of the CUPTI headers (set by CMake)"
#endif
#ifndef KOPT_CUPTI_MEMSET_RECORD
#error "KOPT_CUPTI_MEMSET_RECORD must name the newest CUpti_ActivityMemsetN of the CUPTI headers (set by CMake)"
#endif
#ifndef KOPT_CUPTI_MEMCPY_RECORD
#error "KOPT_CUPTI_MEMCPY_RECORD must name the newest CUpti_ActivityMemcpyN of the CUPTI headers (set by CMake)"
#endif

namespace kopt {
namespace {

struct Cupti {
  decltype(&cuptiActivityEnable) enable = nullptr;
  decltype(&cuptiActivityDisable) disable = nullptr;
  decltype(&cuptiActivityRegisterCallbacks) register_callbacks = nullptr;
  decltype(&cuptiActivityFlushAll) flush_all = nullptr;
  decltype(&cuptiActivityGetNextRecord) next_record = nullptr;
  decltype(&cuptiGetResultString) result_string = nullptr;
};

Cupti api;
std::mutex records_mutex;
std::vector<GpuActivity> records;
constexpr size_t kBufferBytes = 8 << 20;

void CUPTIAPI buffer_requested(uint8_t** buffer, size_t* size, size_t* max_records) {
  *buffer = static_cast<uint8_t*>(std::aligned_alloc(8, kBufferBytes));
  *size = kBufferBytes;
  *max_records = 0;
}

void CUPTIAPI buffer_completed(CUcontext, uint32_t, uint8_t* buffer, size_t, size_t valid) {
  CUpti_Activity* rec = nullptr;
  std::lock_guard<std::mutex> lock(records_mutex);
  while (api.next_record(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind == CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL || rec->kind == CUPTI_ACTIVITY_KIND_KERNEL) {
      auto* k = reinterpret_cast<KOPT_CUPTI_KERNEL_RECORD*>(rec);
      records.push_back({true, k->start, k->end, k->name ? k->name : "?"});
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMSET) {
      auto* m = reinterpret_cast<KOPT_CUPTI_MEMSET_RECORD*>(rec);
      records.push_back({false, m->start, m->end, "memset"});
    } else if (rec->kind == CUPTI_ACTIVITY_KIND_MEMCPY) {  // a function's copies (torch's copy_ is a memcpy)
      auto* m = reinterpret_cast<KOPT_CUPTI_MEMCPY_RECORD*>(rec);
      records.push_back({false, m->start, m->end, "memcpy"});
    }
  }
  std::free(buffer);
}

template <typename F>
bool load(void* lib, const char* name, F& fn, std::string& why) {
  fn = reinterpret_cast<F>(dlsym(lib, name));
  if (!fn) why = std::string("libcupti lacks ") + name;
  return fn != nullptr;
}

}  // namespace

bool CuptiTrace::start(const std::string& library, std::string& why) {
  if (active_) return true;
  void* lib = dlopen(library.c_str(), RTLD_NOW | RTLD_GLOBAL);
  if (!lib) {
    why = std::string("cannot load CUPTI (") + library + "): " + dlerror();
    return false;
  }
  if (!load(lib, "cuptiActivityEnable", api.enable, why) || !load(lib, "cuptiActivityDisable", api.disable, why) ||
      !load(lib, "cuptiActivityRegisterCallbacks", api.register_callbacks, why) ||
      !load(lib, "cuptiActivityFlushAll", api.flush_all, why) ||
      !load(lib, "cuptiActivityGetNextRecord", api.next_record, why) ||
      !load(lib, "cuptiGetResultString", api.result_string, why))
    return false;
  auto fail = [&](CUptiResult r, const char* what) {
    const char* s = nullptr;
    api.result_string(r, &s);
    why = std::string(what) + ": " + (s ? s : "unknown CUPTI error");
    return false;
  };
  CUptiResult r = api.register_callbacks(buffer_requested, buffer_completed);
  if (r != CUPTI_SUCCESS) return fail(r, "cuptiActivityRegisterCallbacks");
  if ((r = api.enable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL)) != CUPTI_SUCCESS)
    return fail(r, "cuptiActivityEnable(CONCURRENT_KERNEL)");
  if ((r = api.enable(CUPTI_ACTIVITY_KIND_MEMSET)) != CUPTI_SUCCESS) return fail(r, "cuptiActivityEnable(MEMSET)");
  if ((r = api.enable(CUPTI_ACTIVITY_KIND_MEMCPY)) != CUPTI_SUCCESS) return fail(r, "cuptiActivityEnable(MEMCPY)");
  active_ = true;
  return true;
}

std::vector<GpuActivity> CuptiTrace::drain() {
  std::vector<GpuActivity> out;
  if (!active_) return out;
  api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  {
    std::lock_guard<std::mutex> lock(records_mutex);
    out.swap(records);
  }
  std::sort(out.begin(), out.end(), [](const GpuActivity& a, const GpuActivity& b) { return a.start < b.start; });
  return out;
}

void CuptiTrace::stop() {
  if (!active_) return;
  api.flush_all(CUPTI_ACTIVITY_FLAG_FLUSH_FORCED);
  api.disable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL);
  api.disable(CUPTI_ACTIVITY_KIND_MEMSET);
  api.disable(CUPTI_ACTIVITY_KIND_MEMCPY);
  std::lock_guard<std::mutex> lock(records_mutex);
  records.clear();
  active_ = false;
}

}  // namespace kopt
