// The makespan of a given assignment (a device per task) under ListSimulation's model, tasks
// placed in upward-rank order: what schedule() estimates for its own assignment, and what every
// other assignment is compared by (the local search, the bench's exhaustive search). The problem
// is checked and ranked once, for many assignments.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "placement/dynamic/list_simulation.hpp"
#include "placement/dynamic/schedule_problem.hpp"

namespace hxrt::detail {

class MakespanEvaluator {
 public:
  // Validates `problem` (validate_problem's errors), which is borrowed and must outlive this.
  explicit MakespanEvaluator(const ScheduleProblem& problem);

  // +infinity for an assignment that cannot run: a task on a device it is not allowed on, or a
  // device over its memory budget. Error(kInvalidArgument) when it is not one device index per
  // task.
  double operator()(const std::vector<size_t>& assignment);

  const std::vector<size_t>& order() const { return order_; }  // upward_rank_order

 private:
  bool can_run(const std::vector<size_t>& assignment);

  const ScheduleProblem& problem_;
  std::vector<size_t> order_;
  ListSimulation simulation_;
  std::vector<uint64_t> used_;  // per device, scratch for can_run
};

}  // namespace hxrt::detail
