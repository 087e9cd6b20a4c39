#include "snapshot.hpp"

#include <algorithm>
#include <tuple>
#include <utility>

namespace hxrt_info {

Snapshot take_snapshot(const hxrt::Runtime& runtime) {
  Snapshot snapshot;
  snapshot.plugins = runtime.load_report();
  // devices() first: it initialises the runtime, which fills PhysicalDeviceInfo::logical.
  for (hxrt::DeviceInfo& device : runtime.devices()) {
    std::optional<hxrt::MemoryStats> memory;
    if (device.local) memory = runtime.memory_stats(device.short_name);
    snapshot.devices.push_back({std::move(device), memory});
  }
  snapshot.cluster = runtime.cluster();
  snapshot.physical = runtime.physical_devices();
  snapshot.kernels = runtime.kernels();
  // An operator looks kernels up by op name; registration order is the plugins' business.
  std::stable_sort(snapshot.kernels.begin(), snapshot.kernels.end(),
                   [](const hxrt::KernelInfo& a, const hxrt::KernelInfo& b) {
                     return std::tie(a.op, a.device_type, b.priority) <
                            std::tie(b.op, b.device_type, a.priority);
                   });
  return snapshot;
}

}  // namespace hxrt_info
