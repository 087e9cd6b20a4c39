#include "placement/dynamic/upward_rank.hpp"

#include <algorithm>
#include <numeric>

namespace hxrt::detail {
namespace {

double mean_seconds(const ScheduleTask& task) {
  double sum = 0;
  size_t count = 0;
  for (size_t device = 0; device < task.seconds.size(); ++device) {
    if (!allowed_on(task, device)) continue;
    sum += task.seconds[device];
    ++count;
  }
  return sum / static_cast<double>(count);  // validate_problem: at least one
}

// The most devices of each side the mean of a transfer takes: on a cluster of hundreds of
// devices the mean over every pair would cost the square of that per edge, and a rank only
// orders the tasks, so devices spread evenly over the allowed ones stand for them all.
constexpr size_t kMeanSides = 32;

// The devices `task` may run on, at most kMeanSides of them, spread evenly.
std::vector<size_t> sampled_devices(const ScheduleTask& task, size_t num_devices) {
  std::vector<size_t> allowed;
  for (size_t device = 0; device < num_devices; ++device) {
    if (allowed_on(task, device)) allowed.push_back(device);
  }
  if (allowed.size() <= kMeanSides) return allowed;
  std::vector<size_t> sampled;
  for (size_t i = 0; i < kMeanSides; ++i) {
    sampled.push_back(allowed[i * allowed.size() / kMeanSides]);
  }
  return sampled;
}

double mean_transfer_seconds(const ScheduleProblem& problem, const ScheduleTask& producer,
                             const ScheduleTask& consumer, uint64_t bytes) {
  if (bytes == 0) return 0;
  double sum = 0;
  size_t pairs = 0;
  const std::vector<size_t> to_devices = sampled_devices(consumer, problem.num_devices);
  for (size_t from : sampled_devices(producer, problem.num_devices)) {
    for (size_t to : to_devices) {
      ++pairs;
      if (from != to) sum += checked_transfer_seconds(problem, from, to, bytes);
    }
  }
  return sum / static_cast<double>(pairs);
}

}  // namespace

std::vector<size_t> upward_rank_order(const ScheduleProblem& problem) {
  const size_t count = problem.tasks.size();
  // Successors come after their predecessors, so walking backwards every task's successors
  // are ranked before it, and each pushes its path length to its predecessors.
  std::vector<double> longest_after(count, 0.0);
  std::vector<double> rank(count, 0.0);
  for (size_t index = count; index-- > 0;) {
    const ScheduleTask& task = problem.tasks[index];
    rank[index] = mean_seconds(task) + longest_after[index];
    for (size_t input = 0; input < task.predecessors.size(); ++input) {
      const size_t predecessor = task.predecessors[input];
      const double path = mean_transfer_seconds(problem, problem.tasks[predecessor], task,
                                                task.input_bytes[input]) +
                          rank[index];
      longest_after[predecessor] = std::max(longest_after[predecessor], path);
    }
  }
  std::vector<size_t> order(count);
  std::iota(order.begin(), order.end(), size_t{0});
  std::sort(order.begin(), order.end(), [&rank](size_t a, size_t b) {
    return rank[a] != rank[b] ? rank[a] > rank[b] : a < b;
  });
  return order;
}

}  // namespace hxrt::detail
