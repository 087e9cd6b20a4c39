#include "placement/dynamic/list_scheduler.hpp"

#include <sstream>

#include "placement/dynamic/list_simulation.hpp"
#include "placement/dynamic/local_search.hpp"
#include "placement/dynamic/makespan_evaluator.hpp"

namespace hxrt::detail {
namespace {

// What the local search may spend, in task and edge visits of the simulation (one evaluation
// visits every task and edge once): more than it needs on small graphs, where it stops when its
// kicks stop paying; a few milliseconds on any graph (a dozen evaluations of a 10,000-task one,
// where HEFT's choices stand mostly as they are).
constexpr size_t kLocalSearchVisits = 400'000;

[[noreturn]] void fail_out_of_memory(const ScheduleProblem& problem, size_t task,
                                     const std::vector<uint64_t>& used) {
  const ScheduleTask& homeless = problem.tasks[task];
  std::ostringstream message;
  message << "list scheduler: task " << task << " needs " << homeless.output_bytes
          << " bytes for its outputs, more than any device it may run on has left of its memory "
             "budget (";
  const char* separator = "";
  for (size_t device = 0; device < problem.num_devices; ++device) {
    if (!allowed_on(homeless, device)) continue;
    message << separator << "device " << device << ": "
            << problem.memory_budget[device] - used[device] << " of "
            << problem.memory_budget[device] << " bytes left";
    separator = "; ";
  }
  message << "); raise a memory limit, or let the task run on another device";
  throw ScheduleTaskError(StatusCode::kOutOfMemory, task, message.str());
}

// HEFT's pass: each task, in rank order, on the allowed device with room in its budget where it
// finishes first (the lowest index among equals).
std::vector<size_t> earliest_finish_assignment(const ScheduleProblem& problem,
                                               const std::vector<size_t>& order) {
  ListSimulation simulation(problem);
  std::vector<uint64_t> used(problem.num_devices, 0);
  std::vector<size_t> assignment(problem.tasks.size(), 0);
  for (size_t task : order) {
    const ScheduleTask& placing = problem.tasks[task];
    bool found = false;
    size_t best_device = 0;
    ListSimulation::Estimate best;
    for (size_t device = 0; device < problem.num_devices; ++device) {
      if (!allowed_on(placing, device) ||
          !fits_budget(used[device], placing.output_bytes, problem.memory_budget[device])) {
        continue;
      }
      const ListSimulation::Estimate estimate = simulation.estimate(task, device);
      if (!found || estimate.finish < best.finish) {
        found = true;
        best_device = device;
        best = estimate;
      }
    }
    if (!found) fail_out_of_memory(problem, task, used);
    simulation.place(task, best_device, best);
    used[best_device] += placing.output_bytes;
    assignment[task] = best_device;
  }
  return assignment;
}

// The schedule of an assignment that can run, with what each task would have finished at on
// every other device when it was placed (+infinity where not allowed, or where it would push
// the device over its budget beside the final assignment's other tasks there).
Schedule describe(const ScheduleProblem& problem, const std::vector<size_t>& order,
                  const std::vector<size_t>& assignment) {
  std::vector<uint64_t> used(problem.num_devices, 0);
  for (size_t task = 0; task < assignment.size(); ++task) {
    used[assignment[task]] += problem.tasks[task].output_bytes;  // fits: it can run
  }
  ListSimulation simulation(problem);
  Schedule schedule;
  schedule.tasks.resize(problem.tasks.size());
  for (size_t task : order) {
    const ScheduleTask& placing = problem.tasks[task];
    const size_t chosen = assignment[task];
    TaskPlacement& placement = schedule.tasks[task];
    placement.device = chosen;
    placement.finish_on.assign(problem.num_devices, kNotAllowed);
    ListSimulation::Estimate chosen_estimate;
    for (size_t device = 0; device < problem.num_devices; ++device) {
      const uint64_t others = used[device] - (device == chosen ? placing.output_bytes : 0);
      if (!allowed_on(placing, device) ||
          !fits_budget(others, placing.output_bytes, problem.memory_budget[device])) {
        continue;
      }
      const ListSimulation::Estimate estimate = simulation.estimate(task, device);
      placement.finish_on[device] = estimate.finish;
      if (device == chosen) chosen_estimate = estimate;
    }
    simulation.place(task, chosen, chosen_estimate);
    placement.start = chosen_estimate.start;
    placement.finish = chosen_estimate.finish;
    placement.transfer_in = chosen_estimate.transfer_in;
  }
  schedule.makespan = simulation.makespan();
  return schedule;
}

size_t local_search_evaluations(const ScheduleProblem& problem) {
  size_t visits = problem.tasks.size() + 1;
  for (const ScheduleTask& task : problem.tasks) visits += task.predecessors.size();
  return kLocalSearchVisits / visits;
}

}  // namespace

Schedule schedule(const ScheduleProblem& problem) {
  MakespanEvaluator evaluate(problem);
  std::vector<size_t> assignment = earliest_finish_assignment(problem, evaluate.order());
  assignment = improve_assignment(problem, evaluate, std::move(assignment),
                                  local_search_evaluations(problem));
  return describe(problem, evaluate.order(), assignment);
}

double makespan_of(const ScheduleProblem& problem, const std::vector<size_t>& assignment) {
  MakespanEvaluator evaluate(problem);
  return evaluate(assignment);
}

}  // namespace hxrt::detail
