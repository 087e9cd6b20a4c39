#include "placement/dynamic/device_timeline.hpp"

#include <algorithm>
#include <limits>

namespace hxrt::detail {

void DeviceTimeline::clear() {
  gaps_.assign(1, Gap{0.0, std::numeric_limits<double>::infinity()});
}

DeviceTimeline::Slot DeviceTimeline::earliest(double ready, double duration) const {
  // The gaps' ends increase, so the first that ends after `ready` is found by bisection; the
  // last gap never ends, so the search always stops (times that overflowed to +infinity land
  // in it too).
  auto gap = std::upper_bound(gaps_.begin(), gaps_.end(), ready,
                              [](double time, const Gap& g) { return time < g.end; });
  if (gap == gaps_.end()) --gap;
  for (;; ++gap) {
    const double start = std::max(gap->start, ready);
    if (start + duration <= gap->end) {
      return Slot{start, static_cast<size_t>(gap - gaps_.begin())};
    }
  }
}

void DeviceTimeline::occupy(const Slot& slot, double duration) {
  // A task that takes no time leaves its gap whole: split in two, neither part might hold a
  // task that the whole holds.
  if (duration <= 0) return;
  const Gap gap = gaps_[slot.gap];
  const double finish = slot.start + duration;
  const bool idle_before = gap.start < slot.start;
  const bool idle_after = finish < gap.end || slot.gap + 1 == gaps_.size();  // keep the last
  if (idle_before && idle_after) {
    gaps_[slot.gap].end = slot.start;
    gaps_.insert(gaps_.begin() + static_cast<std::ptrdiff_t>(slot.gap) + 1, Gap{finish, gap.end});
  } else if (idle_before) {
    gaps_[slot.gap].end = slot.start;
  } else if (idle_after) {
    gaps_[slot.gap].start = finish;
  } else {
    gaps_.erase(gaps_.begin() + static_cast<std::ptrdiff_t>(slot.gap));
  }
}

}  // namespace hxrt::detail
