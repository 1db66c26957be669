// Kernel and memset activity records from CUPTI, loaded at run time. Kernels on every stream are recorded,
// including ones the candidate did not declare.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kopt {

struct GpuActivity {
  bool is_kernel;  // false: a memset (the harness's own resets and L2 flush, which separate samples) or a memcpy
  uint64_t start, end;  // ns, GPU clock
  std::string name;
};

class CuptiTrace {
 public:
  // Loads libcupti from `library` and enables kernel, memset and memcpy records. Returns false and sets `why` on failure.
  bool start(const std::string& library, std::string& why);
  // Completes every outstanding buffer and returns the records collected since the last call, by start time.
  std::vector<GpuActivity> drain();
  void stop();
  bool active() const { return active_; }

 private:
  bool active_ = false;
};

}  // namespace kopt
