#include "schedule_problems.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <utility>

#include "placement/dynamic/makespan_evaluator.hpp"

namespace hxrt_test {
namespace {

using hxrt::detail::kNotAllowed;
using hxrt::detail::ScheduleTask;

double log_uniform(std::mt19937_64& random, double low, double high) {
  std::uniform_real_distribution<double> exponent(std::log(low), std::log(high));
  return std::exp(exponent(random));
}

bool chance(std::mt19937_64& random, double probability) {
  return std::uniform_real_distribution<double>(0, 1)(random) < probability;
}

size_t pick(std::mt19937_64& random, size_t low, size_t high) {  // in [low, high]
  return std::uniform_int_distribution<size_t>(low, high)(random);
}

// `count` distinct tasks among [first, last), in increasing order.
std::vector<size_t> distinct_predecessors(std::mt19937_64& random, size_t first, size_t last,
                                          size_t count) {
  std::vector<size_t> candidates(last - first);
  std::iota(candidates.begin(), candidates.end(), first);
  std::shuffle(candidates.begin(), candidates.end(), random);
  candidates.resize(std::min(count, candidates.size()));
  std::sort(candidates.begin(), candidates.end());
  return candidates;
}

void read_from(ScheduleTask& task, std::vector<size_t> predecessors, uint64_t bytes) {
  task.input_bytes.assign(predecessors.size(), bytes);
  task.predecessors = std::move(predecessors);
}

}  // namespace

void set_links(ScheduleProblem& problem, Links links) {
  problem.transfer_seconds = [links = std::move(links)](size_t from, size_t to, uint64_t bytes) {
    return links.latency_seconds +
           static_cast<double>(bytes) / links.bytes_per_second[from][to];
  };
}

void unlimited_memory(ScheduleProblem& problem) {
  problem.memory_budget.assign(problem.num_devices, std::numeric_limits<uint64_t>::max());
}

ScheduleProblem random_problem(std::mt19937_64& random, size_t tasks, size_t devices) {
  ScheduleProblem problem;
  problem.num_devices = devices;
  std::vector<double> slowness(devices, 1.0);
  for (size_t device = 1; device < devices; ++device) {
    slowness[device] = log_uniform(random, 0.25, 4);
  }
  problem.tasks.resize(tasks);
  for (size_t index = 0; index < tasks; ++index) {
    ScheduleTask& task = problem.tasks[index];
    const double base = log_uniform(random, 1e-3, 1e-2);
    for (size_t device = 0; device < devices; ++device) {
      task.seconds.push_back(base * slowness[device] * log_uniform(random, 0.5, 2));
    }
    if (chance(random, 0.15)) {
      const size_t pinned = pick(random, 0, devices - 1);
      for (size_t device = 0; device < devices; ++device) {
        if (device != pinned) task.seconds[device] = kNotAllowed;
      }
    } else if (devices > 1 && chance(random, 0.1)) {
      task.seconds[pick(random, 0, devices - 1)] = kNotAllowed;
    }
    if (index > 0) {
      task.predecessors = distinct_predecessors(random, 0, index, pick(random, 0, 3));
      for (size_t input = 0; input < task.predecessors.size(); ++input) {
        task.input_bytes.push_back(
            chance(random, 0.1) ? 0 : static_cast<uint64_t>(log_uniform(random, 1e5, 1e7)));
      }
    }
    task.output_bytes = 1;
  }
  // A transfer of the median input (1 MB) costs `ratio` times the median task on device 0.
  const double ratio = log_uniform(random, 0.05, 20);
  Links links;
  links.latency_seconds = 1e-5;
  const double bytes_per_second = 1e6 / (ratio * std::sqrt(1e-3 * 1e-2));
  links.bytes_per_second.assign(devices, std::vector<double>(devices, 0.0));
  for (auto& row : links.bytes_per_second) {
    for (double& pair : row) pair = bytes_per_second * log_uniform(random, 0.5, 2);
  }
  set_links(problem, std::move(links));
  unlimited_memory(problem);
  return problem;
}

Optimum exhaustive_optimum(const ScheduleProblem& problem) {
  hxrt::detail::MakespanEvaluator evaluate(problem);
  std::vector<std::vector<size_t>> choices(problem.tasks.size());
  for (size_t task = 0; task < problem.tasks.size(); ++task) {
    for (size_t device = 0; device < problem.num_devices; ++device) {
      if (hxrt::detail::allowed_on(problem.tasks[task], device)) choices[task].push_back(device);
    }
  }
  // An odometer over each task's allowed devices.
  std::vector<size_t> digit(problem.tasks.size(), 0);
  std::vector<size_t> assignment(problem.tasks.size());
  Optimum best{std::numeric_limits<double>::infinity(), {}};
  for (;;) {
    for (size_t task = 0; task < digit.size(); ++task) {
      assignment[task] = choices[task][digit[task]];
    }
    const double makespan = evaluate(assignment);
    if (makespan < best.makespan) best = {makespan, assignment};
    size_t task = 0;
    while (task < digit.size() && ++digit[task] == choices[task].size()) digit[task++] = 0;
    if (task == digit.size()) return best;
  }
}

std::vector<size_t> simple_placer_assignment(const ScheduleProblem& problem) {
  std::vector<double> average(problem.num_devices, 0.0);
  for (size_t device = 0; device < problem.num_devices; ++device) {
    size_t count = 0;
    for (const ScheduleTask& task : problem.tasks) {
      if (!hxrt::detail::allowed_on(task, device)) continue;
      average[device] += task.seconds[device];
      ++count;
    }
    average[device] = count == 0 ? kNotAllowed : average[device] / static_cast<double>(count);
  }
  std::vector<size_t> fastest_first(problem.num_devices);
  std::iota(fastest_first.begin(), fastest_first.end(), size_t{0});
  std::stable_sort(fastest_first.begin(), fastest_first.end(),
                   [&average](size_t a, size_t b) { return average[a] < average[b]; });
  std::vector<size_t> assignment;
  for (const ScheduleTask& task : problem.tasks) {
    for (size_t device : fastest_first) {
      if (hxrt::detail::allowed_on(task, device)) {
        assignment.push_back(device);
        break;
      }
    }
  }
  return assignment;
}

ScheduleProblem shaped_problem(Shape shape, size_t tasks, const std::vector<double>& device_seconds,
                               uint64_t bytes, const Links& links, uint64_t seed) {
  std::mt19937_64 random(seed);
  constexpr size_t kWindow = 100;  // random_dag: how far back a task reads
  constexpr size_t kLayerWidth = 100;
  ScheduleProblem problem;
  problem.num_devices = device_seconds.size();
  problem.tasks.resize(tasks);
  for (size_t index = 0; index < tasks; ++index) {
    ScheduleTask& task = problem.tasks[index];
    for (double seconds : device_seconds) {
      task.seconds.push_back(seconds * log_uniform(random, 0.5, 2));
    }
    task.output_bytes = bytes;
    if (index == 0) continue;
    switch (shape) {
      case Shape::kChain:
        read_from(task, {index - 1}, bytes);
        break;
      case Shape::kWide:
        if (index + 1 < tasks) {
          read_from(task, {0}, bytes);
        } else {
          std::vector<size_t> all(tasks - 2);
          std::iota(all.begin(), all.end(), size_t{1});
          read_from(task, std::move(all), bytes);
        }
        break;
      case Shape::kRandomDag:
        read_from(task,
                  distinct_predecessors(random, index > kWindow ? index - kWindow : 0, index,
                                        pick(random, 1, 3)),
                  bytes);
        break;
      case Shape::kLayered:
        if (index >= kLayerWidth) {
          const size_t layer_start = index / kLayerWidth * kLayerWidth;
          read_from(task, distinct_predecessors(random, layer_start - kLayerWidth, layer_start, 2),
                    bytes);
        }
        break;
    }
  }
  set_links(problem, links);
  unlimited_memory(problem);
  return problem;
}

ScheduleProblem branches_problem(size_t branches, size_t length,
                                 const std::vector<double>& device_seconds, uint64_t bytes,
                                 const Links& links) {
  ScheduleProblem problem;
  problem.num_devices = device_seconds.size();
  problem.tasks.resize(2 + branches * length);
  for (ScheduleTask& task : problem.tasks) {
    task.seconds = device_seconds;
    task.output_bytes = bytes;
  }
  std::vector<size_t> branch_ends;
  for (size_t branch = 0; branch < branches; ++branch) {
    for (size_t step = 0; step < length; ++step) {
      const size_t index = 1 + branch * length + step;
      read_from(problem.tasks[index], {step == 0 ? 0 : index - 1}, bytes);
    }
    branch_ends.push_back((branch + 1) * length);
  }
  read_from(problem.tasks.back(), std::move(branch_ends), bytes);
  set_links(problem, links);
  unlimited_memory(problem);
  return problem;
}

}  // namespace hxrt_test
