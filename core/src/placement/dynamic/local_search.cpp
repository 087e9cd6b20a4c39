#include "placement/dynamic/local_search.hpp"

#include <algorithm>
#include <cstdint>
#include <numeric>
#include <random>
#include <utility>

namespace hxrt::detail {
namespace {

// Kicks in a row that found nothing better before the search gives up: enough, on the bench's
// graphs of ten tasks over three devices, for the worst result to sit within a few percent of
// the optimum.
constexpr size_t kFruitlessKicks = 50;
constexpr size_t kMinKickedTasks = 2;
constexpr size_t kMaxKickedTasks = 4;

class AssignmentSearch {
 public:
  AssignmentSearch(const ScheduleProblem& problem, MakespanEvaluator& evaluate,
                   size_t max_evaluations)
      : problem_(problem),
        evaluate_(evaluate),
        max_evaluations_(max_evaluations),
        used_(problem.num_devices, 0) {}

  // Descends from each start that can run, the shortest first (a big graph's budget may allow
  // no more than measuring them), keeping the best result.
  void descend_from_each(const std::vector<std::vector<size_t>>& starts) {
    std::vector<std::pair<double, size_t>> measured;  // (makespan, start)
    for (size_t start = 0; start < starts.size() && !exhausted(); ++start) {
      measured.emplace_back(measure(starts[start]), start);
    }
    std::stable_sort(measured.begin(), measured.end());
    for (const auto& [makespan, start] : measured) descend(starts[start], makespan);
  }

  // Kicks alternate between a few tasks of the best assignment moved and a fresh random
  // assignment: the first explores near the best, the second escapes a basin that every small
  // kick leads back to.
  void kick_until_fruitless() {
    if (best_.empty()) return;  // the budget ran out before any start
    std::mt19937 random(1);  // fixed: the same problem gets the same schedule
    size_t fruitless = 0;
    for (size_t kick = 0; fruitless < kFruitlessKicks && !exhausted(); ++kick) {
      const double before = best_makespan_;
      const std::vector<size_t> start = kick % 2 == 0 ? near_best(random) : anywhere(random);
      descend(start, measure(start));
      fruitless = best_makespan_ < before ? 0 : fruitless + 1;
    }
  }

  const std::vector<size_t>& best() const { return best_; }

 private:
  bool exhausted() const { return evaluations_ >= max_evaluations_; }

  // A device `task` may run on, drawn at random.
  size_t random_device(size_t task, std::mt19937& random) const {
    const ScheduleTask& drawn = problem_.tasks[task];
    size_t allowed = 0;
    for (size_t device = 0; device < problem_.num_devices; ++device) {
      allowed += allowed_on(drawn, device) ? 1 : 0;
    }
    for (size_t device = 0, skip = random() % allowed;; ++device) {
      if (allowed_on(drawn, device) && skip-- == 0) return device;
    }
  }

  std::vector<size_t> near_best(std::mt19937& random) const {
    std::vector<size_t> kicked = best_;
    const size_t count = kMinKickedTasks + random() % (kMaxKickedTasks - kMinKickedTasks + 1);
    for (size_t kick = 0; kick < count; ++kick) {
      const size_t task = random() % kicked.size();
      kicked[task] = random_device(task, random);
    }
    return kicked;
  }

  std::vector<size_t> anywhere(std::mt19937& random) const {
    std::vector<size_t> drawn(best_.size());
    for (size_t task = 0; task < drawn.size(); ++task) drawn[task] = random_device(task, random);
    return drawn;
  }

  double measure(const std::vector<size_t>& assignment) {
    ++evaluations_;
    return evaluate_(assignment);
  }

  void keep_if_best() {
    if (best_.empty() || makespan_ < best_makespan_) {
      best_ = current_;
      best_makespan_ = makespan_;
    }
  }

  // From `start`, whose makespan is `makespan`: each kind of move, tried until one shortens the
  // makespan; then again from the first kind, until none does. Nothing when `start` cannot run.
  void descend(const std::vector<size_t>& start, double makespan) {
    if (makespan == kNotAllowed) return;
    current_ = start;
    makespan_ = makespan;
    std::fill(used_.begin(), used_.end(), 0);
    for (size_t task = 0; task < current_.size(); ++task) {
      used_[current_[task]] += problem_.tasks[task].output_bytes;
    }
    keep_if_best();
    while (single_task_moves() || group_moves() || device_swaps()) {
    }
    keep_if_best();
  }

  bool can_move(size_t task, size_t to) const {
    const ScheduleTask& moving = problem_.tasks[task];
    return to != current_[task] && allowed_on(moving, to) &&
           fits_budget(used_[to], moving.output_bytes, problem_.memory_budget[to]);
  }

  void move(size_t task, size_t to) {
    const uint64_t bytes = problem_.tasks[task].output_bytes;
    used_[current_[task]] -= bytes;
    used_[to] += bytes;
    current_[task] = to;
  }

  // Evaluates the current assignment: true (and it stays) when it is shorter than before.
  bool shorter() {
    const double makespan = measure(current_);
    if (makespan < makespan_) {
      makespan_ = makespan;
      return true;
    }
    return false;
  }

  // Every task, in rank order, to every other device; true when a pass kept one.
  bool single_task_moves() {
    bool kept = false;
    for (size_t task : evaluate_.order()) {
      const size_t from = current_[task];
      for (size_t to = 0; to < problem_.num_devices && !exhausted(); ++to) {
        if (!can_move(task, to)) continue;
        move(task, to);
        if (shorter()) {
          kept = true;
          break;
        }
        move(task, from);
      }
    }
    return kept;
  }

  // The tasks joined by edges that carry data within one device, moved together (those that
  // may run there): a group split in two pays its transfers, so no single move finds this.
  bool group_moves() {
    const std::vector<std::vector<size_t>> groups = data_groups();
    for (const std::vector<size_t>& group : groups) {
      const size_t from = current_[group.front()];
      for (size_t to = 0; to < problem_.num_devices && !exhausted(); ++to) {
        if (to == from) continue;
        std::vector<size_t> moved;
        for (size_t task : group) {
          if (!can_move(task, to)) continue;
          move(task, to);
          moved.push_back(task);
        }
        if (moved.empty()) continue;
        if (shorter()) return true;
        for (size_t task : moved) move(task, from);
      }
    }
    return false;
  }

  // The groups of two tasks or more, each in rank order, by their first task's rank.
  std::vector<std::vector<size_t>> data_groups() const {
    const size_t count = current_.size();
    std::vector<size_t> root(count);
    std::iota(root.begin(), root.end(), size_t{0});
    const auto find = [&root](size_t task) {
      while (root[task] != task) task = root[task] = root[root[task]];
      return task;
    };
    for (size_t task = 0; task < count; ++task) {
      const ScheduleTask& reader = problem_.tasks[task];
      for (size_t input = 0; input < reader.predecessors.size(); ++input) {
        const size_t producer = reader.predecessors[input];
        if (reader.input_bytes[input] > 0 && current_[producer] == current_[task]) {
          root[find(producer)] = find(task);
        }
      }
    }
    std::vector<std::vector<size_t>> members(count);
    std::vector<size_t> firsts;
    for (size_t task : evaluate_.order()) {
      std::vector<size_t>& group = members[find(task)];
      if (group.empty()) firsts.push_back(find(task));
      group.push_back(task);
    }
    std::vector<std::vector<size_t>> groups;
    for (size_t first : firsts) {
      if (members[first].size() > 1) groups.push_back(std::move(members[first]));
    }
    return groups;
  }

  // Two devices' tasks exchanged (those that may run on the other): the right split on the
  // wrong devices, when their speeds differ.
  bool device_swaps() {
    for (size_t a = 0; a < problem_.num_devices; ++a) {
      for (size_t b = a + 1; b < problem_.num_devices && !exhausted(); ++b) {
        const std::vector<size_t> before = current_;
        const std::vector<uint64_t> used_before = used_;
        for (size_t task = 0; task < current_.size(); ++task) {
          const size_t to = current_[task] == a ? b : current_[task] == b ? a : current_[task];
          if (to != current_[task] && can_move(task, to)) move(task, to);
        }
        if (current_ != before && shorter()) return true;
        current_ = before;
        used_ = used_before;
      }
    }
    return false;
  }

  const ScheduleProblem& problem_;
  MakespanEvaluator& evaluate_;
  const size_t max_evaluations_;
  size_t evaluations_ = 0;
  std::vector<size_t> current_;
  double makespan_ = 0;
  std::vector<uint64_t> used_;  // per device, by current_
  std::vector<size_t> best_;
  double best_makespan_ = 0;
};

// Every task on `device`, or where it may not run there, on the device where it is fastest.
std::vector<size_t> all_on(const ScheduleProblem& problem, size_t device) {
  std::vector<size_t> assignment;
  for (const ScheduleTask& task : problem.tasks) {
    size_t chosen = device;
    if (!allowed_on(task, device)) {
      for (size_t other = 0; other < problem.num_devices; ++other) {
        if (allowed_on(task, other) &&
            (!allowed_on(task, chosen) || task.seconds[other] < task.seconds[chosen])) {
          chosen = other;
        }
      }
    }
    assignment.push_back(chosen);
  }
  return assignment;
}

}  // namespace

std::vector<size_t> improve_assignment(const ScheduleProblem& problem,
                                       MakespanEvaluator& evaluate, std::vector<size_t> heft,
                                       size_t max_evaluations) {
  if (problem.tasks.empty() || problem.num_devices == 1 || max_evaluations == 0) return heft;
  std::vector<std::vector<size_t>> starts = {heft};
  for (size_t device = 0; device < problem.num_devices; ++device) {
    std::vector<size_t> start = all_on(problem, device);
    if (std::find(starts.begin(), starts.end(), start) == starts.end()) {
      starts.push_back(std::move(start));
    }
  }
  AssignmentSearch search(problem, evaluate, max_evaluations);
  search.descend_from_each(starts);
  search.kick_until_fruitless();
  return search.best().empty() ? heft : search.best();
}

}  // namespace hxrt::detail
