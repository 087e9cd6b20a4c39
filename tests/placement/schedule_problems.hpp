// Scheduling problems for the list scheduler's tests and for bench/placer_bench: random small
// graphs with an exhaustive search for their best assignment, the big shapes the speed budget
// is stated on, and the simple placer's assignment to compare against. Free of Catch2, for the
// bench too.
#pragma once

#include <cstddef>
#include <cstdint>
#include <random>
#include <vector>

#include "placement/dynamic/schedule_problem.hpp"

namespace hxrt_test {

using hxrt::detail::ScheduleProblem;

// Transfers over links of a latency and a per-pair bandwidth: latency + bytes / bandwidth.
struct Links {
  double latency_seconds = 0;
  std::vector<std::vector<double>> bytes_per_second;  // [from][to]
};
void set_links(ScheduleProblem& problem, Links links);

// Every device without a memory limit.
void unlimited_memory(ScheduleProblem& problem);

// A random graph of `tasks` tasks over `devices` devices: per-device speeds from a quarter to
// four times device 0's, each task's time varied per device (from half to twice), one to three
// predecessors per task or none, a transfer cost from a twentieth of a task's time to twenty
// times it (one scale per graph), some tasks pinned to one device or without a kernel on one.
ScheduleProblem random_problem(std::mt19937_64& random, size_t tasks, size_t devices);

// The best makespan over every assignment (through MakespanEvaluator), and one that reaches it.
struct Optimum {
  double makespan;
  std::vector<size_t> assignment;
};
Optimum exhaustive_optimum(const ScheduleProblem& problem);

// The simple placer's choice: every task on the device fastest on average over the tasks, or
// the next fastest where the task may not run there.
std::vector<size_t> simple_placer_assignment(const ScheduleProblem& problem);

// The big shapes, `tasks` tasks over the devices whose kernel times are `device_seconds` (one
// entry per device; each task's time there is that, varied from half to twice per task),
// `bytes` read along every edge, links of `links`:
//  - chain: each task reads the one before;
//  - wide: one task, then tasks - 2 that each read it, then one that reads all of them;
//  - random_dag: each task reads one to three of the 100 tasks before it;
//  - layered: layers of 100 tasks, each reading two of the layer before.
enum class Shape { kChain, kWide, kRandomDag, kLayered };
ScheduleProblem shaped_problem(Shape shape, size_t tasks, const std::vector<double>& device_seconds,
                               uint64_t bytes, const Links& links, uint64_t seed);

// `branches` independent chains of `length` tasks from one source task to one sink task that
// reads the last of each, every task taking `device_seconds` (one entry per device).
ScheduleProblem branches_problem(size_t branches, size_t length,
                                 const std::vector<double>& device_seconds, uint64_t bytes,
                                 const Links& links);

}  // namespace hxrt_test
