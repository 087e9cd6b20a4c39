#include "placer_bench.hpp"

#include <benchmark/benchmark.h>

#include <algorithm>
#include <chrono>
#include <exception>
#include <random>
#include <vector>

#include "placement/dynamic/list_scheduler.hpp"
#include "schedule_problems.hpp"

namespace hxrt_bench {
namespace {

using hxrt::detail::ScheduleProblem;
using hxrt_test::Shape;
using Clock = std::chrono::steady_clock;

constexpr size_t kQualityGraphsPerSize = 100;  // of each size from 3 to 10 tasks
constexpr size_t kQualityDevices = 3;
constexpr size_t kBigGraphTasks = 10'000;
constexpr double kMs = 1e-3;
constexpr uint64_t kMegabyte = 1'000'000;

double ms_since(Clock::time_point start) {
  return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

hxrt_test::Links links_of(size_t devices, double bytes_per_second, double latency_seconds) {
  hxrt_test::Links links;
  links.latency_seconds = latency_seconds;
  links.bytes_per_second.assign(devices, std::vector<double>(devices, bytes_per_second));
  return links;
}

// One iteration: every graph, its optimum by exhaustive search and the schedule. The time of
// the iteration means nothing; the counters are the result (and the mean milliseconds of a
// schedule and of the exhaustive search, for scale).
void quality(benchmark::State& state) {
  double worst = 0;
  double sum = 0;
  size_t missed = 0;
  double schedule_ms = 0;
  double exhaustive_ms = 0;
  size_t graphs = 0;
  try {
    for (auto _ : state) {
      std::mt19937_64 random(2024);
      for (size_t tasks = 3; tasks <= 10; ++tasks) {
        for (size_t graph = 0; graph < kQualityGraphsPerSize; ++graph) {
          const ScheduleProblem problem = hxrt_test::random_problem(random, tasks, kQualityDevices);
          Clock::time_point start = Clock::now();
          const double best = hxrt_test::exhaustive_optimum(problem).makespan;
          exhaustive_ms += ms_since(start);
          start = Clock::now();
          const double makespan = hxrt::detail::schedule(problem).makespan;
          schedule_ms += ms_since(start);
          const double ratio = makespan / best;
          worst = std::max(worst, ratio);
          sum += ratio;
          missed += ratio > 1.10 ? 1 : 0;
          ++graphs;
        }
      }
    }
  } catch (const std::exception& error) {  // hxrt::Error
    state.SkipWithError(error.what());
    return;
  }
  state.counters[kWorstRatio] = worst;
  state.counters[kMeanRatio] = sum / static_cast<double>(graphs);
  state.counters["over_1.10"] = static_cast<double>(missed);
  state.counters["graphs"] = static_cast<double>(graphs);
  state.counters["schedule_ms"] = schedule_ms / static_cast<double>(graphs);
  state.counters["exhaustive_ms"] = exhaustive_ms / static_cast<double>(graphs);
}

// The makespan of the simple placer's assignment over the schedule's: what the schedule gains.
double over_simple(const ScheduleProblem& problem, double makespan) {
  return makespan /
         hxrt::detail::makespan_of(problem, hxrt_test::simple_placer_assignment(problem));
}

// Each iteration schedules the graph, built once: a fast device, two at half its speed and one
// at a quarter (a GPU, two smaller ones, a CPU), 1 MB along every edge over links of 1 GB/s
// (about a millisecond, as long as a task on the fast device).
void speed(benchmark::State& state, Shape shape) {
  const ScheduleProblem problem =
      hxrt_test::shaped_problem(shape, kBigGraphTasks, {1 * kMs, 2 * kMs, 2 * kMs, 4 * kMs},
                                kMegabyte, links_of(4, 1e9, 1e-5), 15);
  try {
    const Clock::time_point start = Clock::now();
    for (auto _ : state) {
      hxrt::detail::Schedule schedule = hxrt::detail::schedule(problem);
      // On the schedule, not its makespan: DoNotOptimize on a double read back a wrong value
      // here (GCC 12 at -O3, Debian's libbenchmark 1.7.1).
      benchmark::DoNotOptimize(schedule);
    }
    state.counters[kMsPerSchedule] = ms_since(start) / static_cast<double>(state.iterations());
    state.counters[kOverSimple] = over_simple(problem, hxrt::detail::schedule(problem).makespan);
  } catch (const std::exception& error) {  // hxrt::Error
    state.SkipWithError(error.what());
  }
}

// One iteration (the result does not change): the schedule's makespan over the simple
// placer's.
void versus_simple(benchmark::State& state, const ScheduleProblem& problem) {
  try {
    double makespan = 0;
    for (auto _ : state) makespan = hxrt::detail::schedule(problem).makespan;
    state.counters[kOverSimple] = over_simple(problem, makespan);
  } catch (const std::exception& error) {  // hxrt::Error
    state.SkipWithError(error.what());
  }
}

// 200 tasks of 1 ms (one, 198 that read it, one that reads them) on one device and 8 ms on three
// others, 1 KB edges: the slow devices together run 3/8 of what the fast one does, so the best
// split (144 tasks on the fast device, 18 on each slow one) takes 146 ms against 200 ms.
ScheduleProblem fast_and_slow() {
  return hxrt_test::branches_problem(198, 1, {1 * kMs, 8 * kMs, 8 * kMs, 8 * kMs}, 1000,
                                     links_of(4, 1e9, 1e-6));
}

// Four chains of 25 tasks of 1 ms from one task to one, over four equal devices, 1 KB edges:
// 27 ms at best against 102 ms on one device.
ScheduleProblem branches() {
  return hxrt_test::branches_problem(4, 25, {1 * kMs, 1 * kMs, 1 * kMs, 1 * kMs}, 1000,
                                     links_of(4, 1e9, 1e-6));
}

}  // namespace

void register_placer_benchmarks() {
  // The counters are the result: one deterministic pass is enough.
  benchmark::RegisterBenchmark(kPlacerQuality, quality)
      ->Iterations(1)
      ->Repetitions(1)
      ->Unit(benchmark::kMillisecond);
  for (const auto& [name, shape] : {std::pair{kPlacerChain, Shape::kChain},
                                    std::pair{kPlacerWide, Shape::kWide},
                                    std::pair{kPlacerRandomDag, Shape::kRandomDag},
                                    std::pair{kPlacerLayered, Shape::kLayered}}) {
    benchmark::RegisterBenchmark(name, speed, shape)->UseRealTime()->Unit(benchmark::kMillisecond);
  }
  benchmark::RegisterBenchmark(kFastAndSlow, versus_simple, fast_and_slow())
      ->Iterations(1)
      ->Repetitions(1)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(kBranches, versus_simple, branches())
      ->Iterations(1)
      ->Repetitions(1)
      ->Unit(benchmark::kMillisecond);
}

}  // namespace hxrt_bench
