#include "placement/dynamic/makespan_evaluator.hpp"

#include <algorithm>
#include <string>

#include "placement/dynamic/upward_rank.hpp"

namespace hxrt::detail {
namespace {

const ScheduleProblem& validated(const ScheduleProblem& problem) {
  validate_problem(problem);
  return problem;
}

}  // namespace

MakespanEvaluator::MakespanEvaluator(const ScheduleProblem& problem)
    : problem_(validated(problem)),
      order_(upward_rank_order(problem)),
      simulation_(problem),
      used_(problem.num_devices, 0) {}

double MakespanEvaluator::operator()(const std::vector<size_t>& assignment) {
  if (assignment.size() != problem_.tasks.size()) {
    throw Error(StatusCode::kInvalidArgument,
                "list scheduler: the assignment has " + std::to_string(assignment.size()) +
                    " devices for " + std::to_string(problem_.tasks.size()) +
                    " tasks; give one per task");
  }
  for (size_t task = 0; task < assignment.size(); ++task) {
    if (assignment[task] >= problem_.num_devices) {
      throw ScheduleTaskError(StatusCode::kInvalidArgument, task,
                              "list scheduler: the assignment puts task " + std::to_string(task) +
                                  " on device " + std::to_string(assignment[task]) +
                                  "; the problem has " + std::to_string(problem_.num_devices));
    }
  }
  if (!can_run(assignment)) return kNotAllowed;
  simulation_.clear();
  for (size_t task : order_) {
    const size_t device = assignment[task];
    simulation_.place(task, device, simulation_.estimate(task, device));
  }
  return simulation_.makespan();
}

bool MakespanEvaluator::can_run(const std::vector<size_t>& assignment) {
  std::fill(used_.begin(), used_.end(), 0);
  for (size_t task = 0; task < assignment.size(); ++task) {
    const size_t device = assignment[task];
    const ScheduleTask& placed = problem_.tasks[task];
    if (!allowed_on(placed, device) ||
        !fits_budget(used_[device], placed.output_bytes, problem_.memory_budget[device])) {
      return false;
    }
    used_[device] += placed.output_bytes;
  }
  return true;
}

}  // namespace hxrt::detail
