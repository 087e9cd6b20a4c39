// The execution model every estimate of the list scheduler comes from. Tasks are placed one at
// a time, each after its predecessors, on a device the caller picks, at the earliest slot where
// that device is idle for its whole kernel (DeviceTimeline) once its inputs are there. An input
// from the same device, or one that only orders (0 bytes), is there when its producer finishes;
// one from another device transfer_seconds later: the copy starts when the producer finishes and
// nothing else waits for it (copies overlap kernels and each other). A value read by several
// tasks of one device is copied once, but since the copy starts at the producer's finish
// whoever reads it, each reader sees the same arrival time as if it had its own.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "placement/dynamic/device_timeline.hpp"
#include "placement/dynamic/schedule_problem.hpp"

namespace hxrt::detail {

class ListSimulation {
 public:
  // `problem` is borrowed, valid (validate_problem), and must outlive the simulation.
  explicit ListSimulation(const ScheduleProblem& problem);

  struct Estimate {
    double start = 0, finish = 0;
    double transfer_in = 0;  // the seconds of its inputs' copies to the device, added up
    DeviceTimeline::Slot slot{};
  };
  // Where `task` would run on `device` (which it must be allowed on), given the tasks placed so
  // far; its predecessors must all be placed.
  Estimate estimate(size_t task, size_t device) const;
  // Places `task` on `device` as `estimate` (from estimate(task, device), nothing placed since)
  // says.
  void place(size_t task, size_t device, const Estimate& estimate);

  size_t device_of(size_t task) const { return device_[task]; }
  double makespan() const { return makespan_; }  // the latest finish so far

  void clear();  // no task placed

 private:
  const ScheduleProblem& problem_;
  std::vector<DeviceTimeline> timelines_;
  std::vector<size_t> device_;
  std::vector<double> finish_;
  double makespan_ = 0;
};

}  // namespace hxrt::detail
