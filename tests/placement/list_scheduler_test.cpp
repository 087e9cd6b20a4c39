// The dynamic placer's list scheduler (placement/dynamic/list_scheduler.hpp): where it puts
// tasks, the estimates that explain it, the model's consistency, its errors, and how far it is
// from the best assignment on small random graphs.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "placement/dynamic/device_timeline.hpp"
#include "placement/dynamic/list_scheduler.hpp"
#include "schedule_problems.hpp"

using Catch::Matchers::Contains;
using hxrt::Error;
using hxrt::StatusCode;
using hxrt::detail::kNotAllowed;
using hxrt::detail::makespan_of;
using hxrt::detail::schedule;
using hxrt::detail::Schedule;
using hxrt::detail::ScheduleProblem;
using hxrt::detail::ScheduleTask;
using hxrt::detail::ScheduleTaskError;

namespace {

constexpr double kMs = 1e-3;
constexpr uint64_t kMegabyte = 1'000'000;
constexpr double kInf = kNotAllowed;
constexpr uint64_t kNoLimit = std::numeric_limits<uint64_t>::max();

// `devices` devices without memory limits, joined by links that move a megabyte in
// `ms_per_megabyte`.
ScheduleProblem problem_over(size_t devices, double ms_per_megabyte) {
  ScheduleProblem problem;
  problem.num_devices = devices;
  problem.transfer_seconds = [ms_per_megabyte](size_t, size_t, uint64_t bytes) {
    return static_cast<double>(bytes) / kMegabyte * ms_per_megabyte * kMs;
  };
  problem.memory_budget.assign(devices, kNoLimit);
  return problem;
}

// Adds a task taking `ms` on each device (kInf: not allowed) that reads `bytes` from each of
// `predecessors`; returns its index.
size_t add_task(ScheduleProblem& problem, const std::vector<double>& ms,
                std::vector<size_t> predecessors = {}, uint64_t bytes = kMegabyte) {
  ScheduleTask task;
  for (double each : ms) task.seconds.push_back(each * kMs);
  task.input_bytes.assign(predecessors.size(), bytes);
  task.predecessors = std::move(predecessors);
  problem.tasks.push_back(std::move(task));
  return problem.tasks.size() - 1;
}

std::vector<size_t> assignment_of(const Schedule& schedule) {
  std::vector<size_t> assignment;
  for (const auto& task : schedule.tasks) assignment.push_back(task.device);
  return assignment;
}

template <typename Call>
std::optional<Error> error_of(Call call) {
  try {
    call();
  } catch (const Error& error) {
    return error;
  }
  return std::nullopt;
}

template <typename Call>
std::optional<ScheduleTaskError> task_error_of(Call call) {
  try {
    call();
  } catch (const ScheduleTaskError& error) {
    return error;
  }
  return std::nullopt;
}

// Random problems of 5 to 20 tasks over 3 devices, the same every run.
std::vector<ScheduleProblem> random_problems(size_t count) {
  std::mt19937_64 random(2002);
  std::vector<ScheduleProblem> problems;
  for (size_t index = 0; index < count; ++index) {
    problems.push_back(hxrt_test::random_problem(random, 5 + index % 16, 3));
  }
  return problems;
}

}  // namespace

TEST_CASE("a chain stays on the fastest device when hopping would cost more in transfers") {
  // Device 1 runs every other task 0.2 ms faster (and the rest 0.4 ms slower), but a megabyte
  // takes 1 ms each way.
  ScheduleProblem problem = problem_over(2, 1.0);
  size_t last = add_task(problem, {1, 1.4});
  for (size_t step = 1; step < 10; ++step) {
    last = add_task(problem, {1, step % 2 == 1 ? 0.8 : 1.4}, {last});
  }
  const Schedule result = schedule(problem);
  for (const auto& task : result.tasks) {
    CHECK(task.device == 0);
    CHECK(task.transfer_in == 0);
  }
  CHECK(result.makespan == Approx(10 * kMs));
}

TEST_CASE("independent branches spread across equal devices") {
  hxrt_test::Links links;
  links.latency_seconds = 1e-6;
  links.bytes_per_second.assign(4, std::vector<double>(4, 1e9));
  // A source, four chains of five 1 ms tasks, a sink; 1 KB edges (about 2 us each).
  const ScheduleProblem problem =
      hxrt_test::branches_problem(4, 5, {kMs, kMs, kMs, kMs}, 1000, links);
  const Schedule result = schedule(problem);
  std::set<size_t> branch_devices;
  for (size_t branch = 0; branch < 4; ++branch) {
    const size_t device = result.tasks[1 + branch * 5].device;
    for (size_t step = 1; step < 5; ++step) {
      CHECK(result.tasks[1 + branch * 5 + step].device == device);
    }
    branch_devices.insert(device);
  }
  CHECK(branch_devices.size() == 4);
  CHECK(result.makespan < 7.1 * kMs);  // source, one branch, sink, two copies; 22 ms on one
}

TEST_CASE("slow transfers keep all the work on one device") {
  hxrt_test::Links links;
  links.bytes_per_second.assign(4, std::vector<double>(4, 1e6));
  // The same graph, but a 1 MB edge takes a second: more than the whole graph on one device.
  const ScheduleProblem problem =
      hxrt_test::branches_problem(4, 5, {kMs, kMs, kMs, kMs}, kMegabyte, links);
  const Schedule result = schedule(problem);
  for (const auto& task : result.tasks) CHECK(task.device == result.tasks[0].device);
  CHECK(result.makespan == Approx(22 * kMs));
}

TEST_CASE("a task goes into an idle gap of its device before a task placed earlier") {
  ScheduleProblem problem = problem_over(2, 1.0);
  const size_t first = add_task(problem, {kInf, 5});
  const size_t waits = add_task(problem, {1, kInf}, {first});  // its input is there at 6 ms
  const size_t fills = add_task(problem, {0.5, kInf});  // ranked after it, fits before it
  const Schedule result = schedule(problem);
  CHECK(result.tasks[waits].start == Approx(6 * kMs));
  CHECK(result.tasks[fills].start == 0);
  CHECK(result.makespan == Approx(7 * kMs));
}

TEST_CASE("idle gaps hold the tasks that fit, and a task that takes no time splits none") {
  hxrt::detail::DeviceTimeline timeline;
  timeline.occupy(timeline.earliest(6, 1), 1);  // busy from 6 to 7
  CHECK(timeline.earliest(0, 6).start == 0);
  CHECK(timeline.earliest(1, 6).start == 7);  // from 1, six units do not fit before 6
  timeline.occupy(timeline.earliest(3, 0), 0);
  CHECK(timeline.earliest(0, 4).start == 0);
  timeline.occupy(timeline.earliest(2, 2), 2);  // busy from 2 to 4
  CHECK(timeline.earliest(0, 3).start == 7);
  CHECK(timeline.earliest(0, 2).start == 0);
  CHECK(timeline.earliest(3, 2).start == 4);
}

TEST_CASE("pinned tasks stay on their device and no task goes where it may not run") {
  ScheduleProblem problem = problem_over(2, 0.001);
  size_t last = add_task(problem, {1, 4});
  last = add_task(problem, {kInf, 4}, {last});  // pinned to the slow device
  add_task(problem, {1, 4}, {last});
  CHECK(schedule(problem).tasks[1].device == 1);

  for (const ScheduleProblem& random : random_problems(40)) {
    const Schedule result = schedule(random);
    for (size_t task = 0; task < random.tasks.size(); ++task) {
      CHECK(random.tasks[task].seconds[result.tasks[task].device] < kInf);
    }
  }
}

TEST_CASE("a memory budget moves tasks off a device that is too small for them") {
  ScheduleProblem problem = problem_over(2, 0.001);
  size_t last = add_task(problem, {1, 3});
  for (size_t step = 1; step < 6; ++step) last = add_task(problem, {1, 3}, {last});
  for (ScheduleTask& task : problem.tasks) task.output_bytes = 100;
  for (const auto& task : schedule(problem).tasks) CHECK(task.device == 0);

  problem.memory_budget[0] = 250;  // two of the six
  const Schedule result = schedule(problem);
  uint64_t on_fast = 0;
  for (const auto& task : result.tasks) {
    if (task.device == 0) {
      on_fast += 100;
    } else {
      CHECK(task.finish_on[0] == kInf);  // it would have pushed device 0 over its budget
    }
  }
  CHECK(on_fast == 200);
  CHECK(result.makespan == Approx(2 * 1 * kMs + 4 * 3 * kMs).epsilon(0.01));
}

TEST_CASE("a task that fits no device's memory budget is an error naming it") {
  ScheduleProblem problem = problem_over(2, 1.0);
  add_task(problem, {1, 1});
  add_task(problem, {1, 1}, {0});
  problem.tasks[1].output_bytes = 1000;
  problem.memory_budget = {500, 800};
  const std::optional<ScheduleTaskError> error = task_error_of([&] { schedule(problem); });
  REQUIRE(error);
  CHECK(error->code() == StatusCode::kOutOfMemory);
  CHECK(error->task() == 1);
  CHECK_THAT(error->what(), Contains("task 1 needs 1000 bytes") && Contains("device 1: 800"));

  // Each fits alone, but not beside the other on the one device it may run on.
  problem.tasks[0].output_bytes = 600;
  problem.tasks[1].output_bytes = 600;
  problem.tasks[1].seconds = {1 * kMs, kInf};
  problem.tasks[0].seconds = {1 * kMs, kInf};
  problem.memory_budget = {1000, kNoLimit};
  const std::optional<ScheduleTaskError> second = task_error_of([&] { schedule(problem); });
  REQUIRE(second);
  CHECK(second->code() == StatusCode::kOutOfMemory);
  CHECK(second->task() == 1);
}

TEST_CASE("finish_on is +infinity exactly where the task may not run") {
  for (const ScheduleProblem& problem : random_problems(40)) {
    const Schedule result = schedule(problem);
    for (size_t task = 0; task < problem.tasks.size(); ++task) {
      const auto& placed = result.tasks[task];
      REQUIRE(placed.finish_on.size() == problem.num_devices);
      for (size_t device = 0; device < problem.num_devices; ++device) {
        CHECK(std::isinf(placed.finish_on[device]) ==
              std::isinf(problem.tasks[task].seconds[device]));
      }
      CHECK(placed.finish_on[placed.device] == placed.finish);
    }
  }
}

TEST_CASE("estimates follow the model: inputs before the start, one task at a time per device") {
  for (const ScheduleProblem& problem : random_problems(60)) {
    const Schedule result = schedule(problem);
    double latest = 0;
    std::map<size_t, std::vector<std::pair<double, double>>> busy;  // device: (start, finish)
    for (size_t task = 0; task < problem.tasks.size(); ++task) {
      const ScheduleTask& input = problem.tasks[task];
      const auto& placed = result.tasks[task];
      CHECK(placed.finish == placed.start + input.seconds[placed.device]);
      double transfers = 0;
      for (size_t edge = 0; edge < input.predecessors.size(); ++edge) {
        const auto& producer = result.tasks[input.predecessors[edge]];
        double arrival = producer.finish;
        if (producer.device != placed.device && input.input_bytes[edge] > 0) {
          const double copy = problem.transfer_seconds(producer.device, placed.device,
                                                       input.input_bytes[edge]);
          arrival += copy;
          transfers += copy;
        }
        CHECK(placed.start >= arrival);
      }
      CHECK(placed.transfer_in == Approx(transfers));
      busy[placed.device].emplace_back(placed.start, placed.finish);
      latest = std::max(latest, placed.finish);
    }
    for (auto& [device, intervals] : busy) {
      std::sort(intervals.begin(), intervals.end());
      for (size_t next = 1; next < intervals.size(); ++next) {
        CHECK(intervals[next].first >= intervals[next - 1].second);
      }
    }
    CHECK(result.makespan == latest);
  }
}

TEST_CASE("makespan_of an assignment agrees with the schedule that chose it") {
  for (const ScheduleProblem& problem : random_problems(60)) {
    const Schedule result = schedule(problem);
    CHECK(makespan_of(problem, assignment_of(result)) == result.makespan);
  }
}

TEST_CASE("makespan_of an assignment that cannot run is +infinity") {
  ScheduleProblem problem = problem_over(2, 1.0);
  add_task(problem, {1, kInf});
  add_task(problem, {1, 1}, {0});
  CHECK(makespan_of(problem, {0, 1}) == Approx(3 * kMs));
  CHECK(makespan_of(problem, {1, 1}) == kInf);  // task 0 may not run on device 1
  problem.tasks[0].output_bytes = 10;
  problem.tasks[1].output_bytes = 10;
  problem.memory_budget = {15, kNoLimit};
  CHECK(makespan_of(problem, {0, 0}) == kInf);
  CHECK(makespan_of(problem, {0, 1}) == Approx(3 * kMs));
}

TEST_CASE("the same problem gets the same schedule") {
  for (const ScheduleProblem& problem : random_problems(10)) {
    CHECK(assignment_of(schedule(problem)) == assignment_of(schedule(problem)));
  }
}

TEST_CASE("a problem without tasks gets an empty schedule") {
  const Schedule empty = schedule(problem_over(3, 1.0));
  CHECK(empty.tasks.empty());
  CHECK(empty.makespan == 0);
}

TEST_CASE("one device needs no transfer_seconds") {
  ScheduleProblem problem;
  problem.num_devices = 1;
  problem.memory_budget = {kNoLimit};
  add_task(problem, {2});
  add_task(problem, {3}, {0});
  CHECK(schedule(problem).makespan == Approx(5 * kMs));
}

TEST_CASE("an inconsistent problem is an error that says what is wrong") {
  const auto invalid = [](const ScheduleProblem& problem, const std::string& words) {
    const std::optional<Error> error = error_of([&] { schedule(problem); });
    REQUIRE(error);
    CHECK(error->code() == StatusCode::kInvalidArgument);
    CHECK_THAT(error->what(), Contains(words));
  };
  const auto invalid_task = [](const ScheduleProblem& problem, size_t task,
                               const std::string& words) {
    const std::optional<ScheduleTaskError> error = task_error_of([&] { schedule(problem); });
    REQUIRE(error);
    CHECK(error->code() == StatusCode::kInvalidArgument);
    CHECK(error->task() == task);
    CHECK_THAT(error->what(), Contains("task " + std::to_string(task)) && Contains(words));
  };
  ScheduleProblem valid = problem_over(2, 1.0);
  add_task(valid, {1, 1});
  add_task(valid, {1, 1}, {0});
  REQUIRE_NOTHROW(schedule(valid));

  ScheduleProblem problem = valid;
  problem.num_devices = 0;
  invalid(problem, "no devices");
  problem = valid;
  problem.memory_budget = {kNoLimit};
  invalid(problem, "memory_budget has 1 entries for 2 devices");
  problem = valid;
  problem.transfer_seconds = nullptr;
  invalid(problem, "transfer_seconds is empty");

  problem = valid;
  problem.tasks[1].input_bytes = {};
  invalid_task(problem, 1, "1 predecessors but 0 input_bytes");
  problem = valid;
  problem.tasks[1].predecessors = {1};
  invalid_task(problem, 1, "topological order");
  problem = valid;
  problem.tasks[0].predecessors = {1};
  problem.tasks[0].input_bytes = {0};
  invalid_task(problem, 0, "topological order");
  problem = valid;
  problem.tasks[1].predecessors = {0, 0};
  problem.tasks[1].input_bytes = {1, 1};
  invalid_task(problem, 1, "twice");
  problem = valid;
  problem.tasks[1].seconds = {1};
  invalid_task(problem, 1, "seconds for 1 devices");
  problem = valid;
  problem.tasks[0].seconds[1] = -1;
  invalid_task(problem, 0, "-1 seconds on device 1");
  problem = valid;
  problem.tasks[0].seconds[0] = std::nan("");
  invalid_task(problem, 0, "nan seconds on device 0");
  problem = valid;
  problem.tasks[1].seconds = {kInf, kInf};
  invalid_task(problem, 1, "may run on no device");

  for (double bad : {-1.0, std::nan(""), kInf}) {
    problem = valid;
    problem.transfer_seconds = [bad](size_t, size_t, uint64_t) { return bad; };
    invalid(problem, "transfer_seconds(");
  }
}

TEST_CASE("makespan_of an assignment that is not one device per task is an error") {
  ScheduleProblem problem = problem_over(2, 1.0);
  add_task(problem, {1, 1});
  add_task(problem, {1, 1}, {0});
  const std::optional<Error> short_one = error_of([&] { makespan_of(problem, {0}); });
  REQUIRE(short_one);
  CHECK(short_one->code() == StatusCode::kInvalidArgument);
  CHECK_THAT(short_one->what(), Contains("1 devices for 2 tasks"));
  const std::optional<ScheduleTaskError> beyond =
      task_error_of([&] { makespan_of(problem, {0, 2}); });
  REQUIRE(beyond);
  CHECK(beyond->code() == StatusCode::kInvalidArgument);
  CHECK(beyond->task() == 1);
  problem.num_devices = 3;  // and the rest no longer matches
  CHECK_THROWS_AS(makespan_of(problem, {0, 0}), Error);
}

TEST_CASE("on small random graphs the schedule is close to the best assignment") {
  // Exhaustive search over every assignment of 120 graphs of 3 to 8 tasks over 3 devices. The
  // schedule reaches the optimum on every one of them. The bar is the issue's, 10%, and a mean
  // within 1%: on 12,000 graphs of 4 to 10 tasks the worst ratio measured was 1.104 (one graph
  // above 1.10) and the mean 1.0001. HEFT alone (no local search) misses 10% on 36 of these
  // 120 graphs (worst 63x, mean 2.9).
  std::mt19937_64 random(15);
  double worst = 0;
  double sum = 0;
  constexpr size_t kGraphs = 120;
  for (size_t graph = 0; graph < kGraphs; ++graph) {
    const ScheduleProblem problem = hxrt_test::random_problem(random, 3 + graph % 6, 3);
    const double best = hxrt_test::exhaustive_optimum(problem).makespan;
    const Schedule result = schedule(problem);
    const double ratio = result.makespan / best;
    CHECK(ratio <= 1.10);
    worst = std::max(worst, ratio);
    sum += ratio;
  }
  INFO("worst " << worst << ", mean " << sum / kGraphs);
  CHECK(sum / kGraphs <= 1.01);
}
