#include "nvml_clock.h"

#include <dlfcn.h>

namespace kopt {
namespace {
constexpr int kClockSm = 1;  // NVML_CLOCK_SM
}

bool SmClock::open(const std::string& library, const std::string& pci_bus_id) {
  void* lib = dlopen(library.c_str(), RTLD_NOW);
  if (!lib) return false;
  auto init = reinterpret_cast<int (*)()>(dlsym(lib, "nvmlInit_v2"));
  auto by_pci = reinterpret_cast<int (*)(const char*, void**)>(dlsym(lib, "nvmlDeviceGetHandleByPciBusId_v2"));
  get_clock_ = reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetClockInfo"));
  get_max_ = reinterpret_cast<int (*)(void*, int, unsigned*)>(dlsym(lib, "nvmlDeviceGetMaxClockInfo"));
  if (!init || !by_pci || !get_clock_ || !get_max_ || init() != 0) return false;
  return by_pci(pci_bus_id.c_str(), &device_) == 0;
}

unsigned SmClock::current() const {
  unsigned mhz = 0;
  return device_ && get_clock_(device_, kClockSm, &mhz) == 0 ? mhz : 0;
}

unsigned SmClock::max() const {
  unsigned mhz = 0;
  return device_ && get_max_(device_, kClockSm, &mhz) == 0 ? mhz : 0;
}

}  // namespace kopt
