#include "snapshot.hpp"

#include <algorithm>
#include <tuple>

namespace hxrt_info {

Snapshot take_snapshot(const hxrt::Runtime& runtime) {
  Snapshot snapshot{runtime.load_report(), runtime.devices(), runtime.kernels()};
  // An operator looks kernels up by op name; registration order is the plugins' business.
  std::stable_sort(snapshot.kernels.begin(), snapshot.kernels.end(),
                   [](const hxrt::KernelInfo& a, const hxrt::KernelInfo& b) {
                     return std::tie(a.op, a.device_type, b.priority) <
                            std::tie(b.op, b.device_type, a.priority);
                   });
  return snapshot;
}

}  // namespace hxrt_info
