// The memory samples, run as a user would, with their printed figures checked line by line.
#include <catch2/catch.hpp>

#include <cstdio>
#include <string>
#include <vector>

#include "program_output.hpp"
#include "run_program.hpp"

using hxrt_test::built_program;
using hxrt_test::contains;
using hxrt_test::device_name;
using hxrt_test::ends_with;
using hxrt_test::find_line;
using hxrt_test::find_line_starting_with;
using hxrt_test::joined;
using hxrt_test::kCleanEnvironment;
using hxrt_test::kNoLine;
using hxrt_test::Lines;
using hxrt_test::lines_of;
using hxrt_test::run_program;
using hxrt_test::SampleRun;
using hxrt_test::shell_quote;
using hxrt_test::starts_with;

namespace {

SampleRun run_memory_sample(const std::string& name, const std::string& arguments = {}) {
  const hxrt_test::ProgramResult result =
      run_program(kCleanEnvironment + built_program(name) + arguments + " 2>&1");
  return {result.exit_code, lines_of(result.output)};
}

// One line of memory_growth: "<when>:   in use <A> MiB, reserved <B> MiB".
struct Figures {
  std::string when;
  double in_use_mib = -1;
  double reserved_mib = -1;
};

Figures figures_of(const std::string& line) {
  Figures figures;
  const size_t colon = line.find(':');
  if (colon == std::string::npos) return figures;
  figures.when = line.substr(0, colon);
  std::sscanf(line.c_str() + colon + 1, " in use %lf MiB, reserved %lf MiB", &figures.in_use_mib,
              &figures.reserved_mib);
  return figures;
}

// The figures line that starts with `when`; its fields stay -1 when there is none.
Figures figures_at(const Lines& lines, const std::string& when) {
  const size_t line = find_line_starting_with(lines, when + ":");
  return line == kNoLine ? Figures{} : figures_of(lines[line]);
}

}  // namespace

TEST_CASE("memory_growth reserves nothing at first, grows with the tensors and gives it back") {
  const SampleRun run = run_memory_sample("memory_growth");
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);
  REQUIRE_FALSE(run.lines.empty());
  CHECK(run.lines.front() == "GPU:0 memory policy: growth, limit 256.00 MiB");

  const Figures start = figures_at(run.lines, "at start");
  CHECK(start.in_use_mib == 0);
  CHECK(start.reserved_mib == 0);

  // Growth takes memory as the tensors need it: at least what they use, never less than before.
  double in_use = 0;
  double reserved = 0;
  for (int mib : {1, 4, 16, 64}) {
    const Figures after = figures_at(run.lines, "after a " + std::to_string(mib) + " MiB tensor");
    INFO("after the " << mib << " MiB tensor");
    in_use += mib;
    CHECK(after.in_use_mib == in_use);
    CHECK(after.reserved_mib >= after.in_use_mib);
    CHECK(after.reserved_mib >= reserved);
    reserved = after.reserved_mib;
  }

  // Freed tensors leave their regions cached; release_unused_memory() gives them all back.
  const Figures freed = figures_at(run.lines, "after freeing the tensors");
  CHECK(freed.in_use_mib == 0);
  CHECK(freed.reserved_mib == reserved);
  char released[64];
  std::snprintf(released, sizeof released, "release_unused_memory() gave back %.2f MiB", reserved);
  CHECK(find_line(run.lines, released) != kNoLine);
  const Figures released_figures = figures_at(run.lines, "after release_unused_memory()");
  CHECK(released_figures.in_use_mib == 0);
  CHECK(released_figures.reserved_mib == 0);
}

TEST_CASE("memory_hard_limit prints the out-of-memory error and goes on with its tensors intact") {
  const SampleRun run = run_memory_sample("memory_hard_limit");
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);
  REQUIRE_FALSE(run.lines.empty());
  CHECK(run.lines.front() == "GPU:0 memory policy: growth, limit 64.00 MiB");

  // 24 MiB tensors under a 64 MiB limit: two fit, the third does not.
  CHECK(find_line(run.lines, "tensor 0: 24 MiB filled with 1, in use 24.00 MiB") == 1);
  CHECK(find_line(run.lines, "tensor 1: 24 MiB filled with 2, in use 48.00 MiB") == 2);
  const size_t failed = find_line(run.lines, "tensor 2 does not fit: OUT_OF_MEMORY");
  REQUIRE(failed == 3);

  // The message names the device, the request and the allocator's figures.
  REQUIRE(failed + 1 < run.lines.size());
  const std::string& message = run.lines[failed + 1];
  CHECK(contains(message, device_name("GPU:0")));
  CHECK(contains(message, "24.00 MiB"));
  CHECK(contains(message, "in use 48.00 MiB"));
  CHECK(contains(message, "limit 64.00 MiB"));

  const size_t intact = find_line(run.lines, "tensor 0 still holds 1 in every element", failed);
  CHECK(intact != kNoLine);
  CHECK(find_line(run.lines, "tensor 1 still holds 2 in every element", intact) != kNoLine);
  CHECK(run.lines.back() == "an 8 MiB tensor still fits: in use 56.00 MiB");
}

TEST_CASE("memory_logical_gpus splits one sim GPU in two, runs MatMul on each, shows each limit") {
  const SampleRun run = run_memory_sample(
      "memory_logical_gpus",
      " " + shell_quote(hxrt_test::source_file("config/examples/logical_gpus.json")));
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);

  const size_t physical = find_line(run.lines, "Physical devices:");
  const size_t logical = find_line(run.lines, "Logical devices:");
  REQUIRE(physical != kNoLine);
  REQUIRE(logical != kNoLine);
  CHECK(physical < logical);
  const size_t gpu =
      find_line(run.lines, "  /physical_device:GPU:0 (sim, 2048.00 MiB) -> GPU:0, GPU:1");
  CHECK((gpu > physical && gpu < logical));
  const size_t cpu = find_line_starting_with(run.lines, "  /physical_device:CPU:0 (cpu, ");
  CHECK((cpu > physical && cpu < logical));
  CHECK((cpu != kNoLine && ends_with(run.lines[cpu], ") -> CPU:0")));

  size_t previous = logical;
  for (const std::string gpu_name : {"GPU:0", "GPU:1"}) {
    INFO(gpu_name);
    const size_t listed =
        find_line(run.lines, "  " + device_name(gpu_name) +
                                 " on physical GPU:0, memory policy: growth, limit 1.00 GiB");
    REQUIRE(listed != kNoLine);
    CHECK(listed > logical);
    const size_t executed =
        find_line(run.lines, "Executing op MatMul in device " + device_name(gpu_name));
    REQUIRE(executed != kNoLine);
    CHECK(executed > previous);
    CHECK(find_line(run.lines, gpu_name + ": [[22, 28], [49, 64]]") == executed + 1);
    REQUIRE(executed + 2 < run.lines.size());
    CHECK(starts_with(run.lines[executed + 2], gpu_name + " memory: limit 1024.00 MiB, in use "));
    previous = executed;
  }
}

TEST_CASE("memory_logical_gpus also reads its config from HXRT_CONFIG, and without one exits 2") {
  const std::string config = hxrt_test::source_file("config/examples/logical_gpus.json");
  const hxrt_test::ProgramResult with_environment =
      run_program(std::string(kCleanEnvironment) + "HXRT_CONFIG=" + shell_quote(config) + " " +
                  built_program("memory_logical_gpus") + " 2>&1");
  INFO("output:\n" << with_environment.output);
  CHECK(with_environment.exit_code == 0);
  CHECK(contains(with_environment.output, "GPU:1: [[22, 28], [49, 64]]"));

  const SampleRun without = run_memory_sample("memory_logical_gpus");
  INFO("output without a config:\n" << joined(without.lines));
  CHECK(without.exit_code == 2);
  CHECK(find_line_starting_with(without.lines, "usage: memory_logical_gpus CONFIG_FILE") !=
        kNoLine);
}
