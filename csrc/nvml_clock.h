// The SM clock of the current device through NVML, loaded at run time; absent NVML reads as 0 (unknown).
#pragma once
#include <string>

namespace kopt {

class SmClock {
 public:
  bool open(const std::string& library, const std::string& pci_bus_id);
  unsigned current() const;  // MHz, 0 when unknown
  unsigned max() const;      // MHz, 0 when unknown

 private:
  void* device_ = nullptr;
  int (*get_clock_)(void*, int, unsigned*) = nullptr;
  int (*get_max_)(void*, int, unsigned*) = nullptr;
};

}  // namespace kopt
