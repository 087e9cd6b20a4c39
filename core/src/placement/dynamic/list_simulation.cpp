#include "placement/dynamic/list_simulation.hpp"

#include <algorithm>

namespace hxrt::detail {

ListSimulation::ListSimulation(const ScheduleProblem& problem)
    : problem_(problem),
      timelines_(problem.num_devices),
      device_(problem.tasks.size(), 0),
      finish_(problem.tasks.size(), 0.0) {}

ListSimulation::Estimate ListSimulation::estimate(size_t task, size_t device) const {
  const ScheduleTask& to_run = problem_.tasks[task];
  Estimate estimate;
  double ready = 0;
  for (size_t input = 0; input < to_run.predecessors.size(); ++input) {
    const size_t producer = to_run.predecessors[input];
    const uint64_t bytes = to_run.input_bytes[input];
    double arrival = finish_[producer];
    if (bytes > 0 && device_[producer] != device) {
      const double copy = checked_transfer_seconds(problem_, device_[producer], device, bytes);
      arrival += copy;
      estimate.transfer_in += copy;
    }
    ready = std::max(ready, arrival);
  }
  const double duration = to_run.seconds[device];
  estimate.slot = timelines_[device].earliest(ready, duration);
  estimate.start = estimate.slot.start;
  estimate.finish = estimate.start + duration;
  return estimate;
}

void ListSimulation::place(size_t task, size_t device, const Estimate& estimate) {
  timelines_[device].occupy(estimate.slot, problem_.tasks[task].seconds[device]);
  device_[task] = device;
  finish_[task] = estimate.finish;
  makespan_ = std::max(makespan_, estimate.finish);
}

void ListSimulation::clear() {
  for (DeviceTimeline& timeline : timelines_) timeline.clear();
  makespan_ = 0;
}

}  // namespace hxrt::detail
