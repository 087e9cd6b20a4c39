// What the dynamic placer's list scheduler is given and what it returns: the graph's nodes as
// tasks in a topological order, with their kernel's estimated time on every device, what they
// read from each other, their output bytes and the devices' memory budgets. Pure data, with the
// checks every entry point makes: a problem the scheduler cannot make sense of is an error
// naming what is wrong, never a crash or a silent guess.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <limits>
#include <string>
#include <vector>

#include "hxrt/error.hpp"

namespace hxrt::detail {

inline constexpr double kNotAllowed = std::numeric_limits<double>::infinity();

// One node of the graph, in a topological order: every predecessor has a lower index.
struct ScheduleTask {
  std::vector<size_t> predecessors;   // tasks whose outputs it reads, or that must finish first
  std::vector<uint64_t> input_bytes;  // per predecessor: bytes it reads from it (0: an order only)
  // Per device: estimated seconds of its kernel there; +infinity (kNotAllowed) where it may not
  // run (no kernel, or a user constraint pins it elsewhere).
  std::vector<double> seconds;
  uint64_t output_bytes = 0;  // what it holds on its device (memory budget)
};

struct ScheduleProblem {
  std::vector<ScheduleTask> tasks;
  size_t num_devices = 0;
  // Seconds to move `bytes` from device `from` to device `to` (never called with from == to,
  // nor with 0 bytes). Needed when there are two devices or more.
  std::function<double(size_t from, size_t to, uint64_t bytes)> transfer_seconds;
  // Per device: bytes its tasks' outputs may take at most (UINT64_MAX: no limit). The sum of
  // output_bytes of the tasks placed on a device stays within it (an upper bound of what the
  // memory plan needs; conservative on purpose).
  std::vector<uint64_t> memory_budget;
};

struct TaskPlacement {
  size_t device = 0;
  double start = 0, finish = 0;  // estimated, seconds from the run's start
  // Per device: the estimated finish had the task gone there, when chosen; +infinity where it
  // could not (not allowed, or over the memory budget).
  std::vector<double> finish_on;
  double transfer_in = 0;  // seconds of input transfers its chosen device pays
};

struct Schedule {
  std::vector<TaskPlacement> tasks;
  double makespan = 0;
};

// An error about one task: task() is its index, so that the caller can name the node.
class ScheduleTaskError : public Error {
 public:
  ScheduleTaskError(StatusCode code, size_t task, const std::string& message)
      : Error(code, message), task_(task) {}
  size_t task() const { return task_; }

 private:
  size_t task_;
};

// Throws Error(kInvalidArgument) for a problem without devices, with a budget list or a task
// whose size is not the device count, or without transfer_seconds for two devices or more; and
// ScheduleTaskError(kInvalidArgument) for a task whose predecessor is not an earlier task (or
// is listed twice), whose seconds are negative or NaN, or that may run on no device.
void validate_problem(const ScheduleProblem& problem);

inline bool allowed_on(const ScheduleTask& task, size_t device) {
  return task.seconds[device] < kNotAllowed;
}

// Whether `bytes` more fit a device whose tasks use `used` of `budget`; never overflows.
inline bool fits_budget(uint64_t used, uint64_t bytes, uint64_t budget) {
  return used <= budget && bytes <= budget - used;
}

// problem.transfer_seconds(from, to, bytes), which must be finite and not negative: an estimate
// the scheduler would add to every finish time after it (Error(kInvalidArgument) otherwise).
double checked_transfer_seconds(const ScheduleProblem& problem, size_t from, size_t to,
                                uint64_t bytes);

}  // namespace hxrt::detail
