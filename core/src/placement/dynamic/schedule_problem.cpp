#include "placement/dynamic/schedule_problem.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

namespace hxrt::detail {
namespace {

[[noreturn]] void fail(const std::string& message) {
  throw Error(StatusCode::kInvalidArgument, "list scheduler: " + message);
}

[[noreturn]] void fail_task(size_t task, const std::string& message) {
  throw ScheduleTaskError(StatusCode::kInvalidArgument, task,
                          "list scheduler: task " + std::to_string(task) + " " + message);
}

void validate_task(const ScheduleProblem& problem, size_t index) {
  const ScheduleTask& task = problem.tasks[index];
  if (task.input_bytes.size() != task.predecessors.size()) {
    fail_task(index, "has " + std::to_string(task.predecessors.size()) + " predecessors but " +
                         std::to_string(task.input_bytes.size()) +
                         " input_bytes entries; give one per predecessor");
  }
  for (size_t predecessor : task.predecessors) {
    if (predecessor >= index) {
      fail_task(index, "lists task " + std::to_string(predecessor) +
                           " as a predecessor; tasks must come in a topological order, every "
                           "predecessor before its successors");
    }
  }
  std::vector<size_t> sorted = task.predecessors;
  std::sort(sorted.begin(), sorted.end());
  const auto repeated = std::adjacent_find(sorted.begin(), sorted.end());
  if (repeated != sorted.end()) {
    fail_task(index, "lists task " + std::to_string(*repeated) +
                         " twice as a predecessor; list it once, with the bytes of every input "
                         "read from it added up");
  }
  if (task.seconds.size() != problem.num_devices) {
    fail_task(index, "has seconds for " + std::to_string(task.seconds.size()) +
                         " devices; the problem has " + std::to_string(problem.num_devices));
  }
  bool runs_somewhere = false;
  for (size_t device = 0; device < task.seconds.size(); ++device) {
    const double seconds = task.seconds[device];
    if (std::isnan(seconds) || seconds < 0) {
      std::ostringstream message;
      message << "has " << seconds << " seconds on device " << device
              << "; give a time >= 0, or +infinity where it may not run";
      fail_task(index, message.str());
    }
    runs_somewhere = runs_somewhere || allowed_on(task, device);
  }
  if (!runs_somewhere) {
    fail_task(index, "may run on no device (+infinity seconds on every one); give it a device "
                     "with a kernel for it, or lift the constraint that excludes the others");
  }
}

}  // namespace

void validate_problem(const ScheduleProblem& problem) {
  if (problem.num_devices == 0) fail("the problem has no devices");
  if (problem.memory_budget.size() != problem.num_devices) {
    fail("memory_budget has " + std::to_string(problem.memory_budget.size()) +
         " entries for " + std::to_string(problem.num_devices) +
         " devices; give one per device (UINT64_MAX for no limit)");
  }
  if (problem.num_devices > 1 && !problem.transfer_seconds) {
    fail("transfer_seconds is empty; with " + std::to_string(problem.num_devices) +
         " devices the scheduler needs the cost of moving bytes between them");
  }
  for (size_t index = 0; index < problem.tasks.size(); ++index) validate_task(problem, index);
}

double checked_transfer_seconds(const ScheduleProblem& problem, size_t from, size_t to,
                                uint64_t bytes) {
  const double seconds = problem.transfer_seconds(from, to, bytes);
  if (!(seconds >= 0) || seconds == std::numeric_limits<double>::infinity()) {
    std::ostringstream message;
    message << "transfer_seconds(" << from << ", " << to << ", " << bytes << ") returned "
            << seconds << "; it must be a finite number of seconds >= 0";
    fail(message.str());
  }
  return seconds;
}

}  // namespace hxrt::detail
