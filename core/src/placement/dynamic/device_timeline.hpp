// One device's schedule as the list scheduler builds it: the device runs one task at a time, and
// a task may go into an idle gap between tasks placed before it, if it fits there (HEFT's
// insertion policy), rather than only after the last one. Kept as the list of idle gaps, which
// is what a search needs: back-to-back tasks leave none, so a wide graph's searches stay short.
#pragma once

#include <cstddef>
#include <vector>

namespace hxrt::detail {

class DeviceTimeline {
 public:
  DeviceTimeline() { clear(); }

  // Where a task of `duration` seconds that can start at `ready` at the earliest would start:
  // the start of the first gap that holds it.
  struct Slot {
    double start;
    size_t gap;  // for occupy
  };
  Slot earliest(double ready, double duration) const;

  // Marks [slot.start, slot.start + duration) busy. `slot` comes from earliest with the same
  // duration, with nothing occupied since.
  void occupy(const Slot& slot, double duration);

  void clear();

 private:
  struct Gap {
    double start, end;  // the last gap ends at +infinity
  };
  std::vector<Gap> gaps_;  // by time, disjoint, none empty but the last
};

}  // namespace hxrt::detail
