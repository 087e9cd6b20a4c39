// The guide samples, run on the sim plugin configured as four GPUs, with their printed
// placement log and results checked line by line.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstddef>
#include <string>

#include "program_output.hpp"
#include "run_program.hpp"

using hxrt_test::built_program;
using hxrt_test::contains;
using hxrt_test::count_lines_starting_with;
using hxrt_test::device_name;
using hxrt_test::find_line;
using hxrt_test::joined;
using hxrt_test::kCleanEnvironment;
using hxrt_test::kNoLine;
using hxrt_test::Lines;
using hxrt_test::lines_of;
using hxrt_test::run_program;
using hxrt_test::SampleRun;
using hxrt_test::shell_quote;

namespace {

std::string sim_4_gpus_config() {
  return hxrt_test::source_file("config/examples/sim_4_gpus.json");
}

// The line after `executing`, which must say why the op left the device it asked for:
// "  requested <device>..." naming the device asked for and the one chosen.
void check_reason_line(const Lines& lines, size_t executing, const std::string& requested,
                       const std::string& placed_on) {
  REQUIRE(executing + 1 < lines.size());
  const std::string& reason = lines[executing + 1];
  INFO("reason line: " << reason);
  CHECK(reason.rfind("  requested ", 0) == 0);
  CHECK(contains(reason, requested));  // canonical or as spelled: "/GPU:7"
  CHECK(contains(reason, device_name(placed_on)));
}

std::string copy_line(int input, const std::string& op, const std::string& from,
                      const std::string& to) {
  return "Copying input " + std::to_string(input) + " of " + op + " from " + device_name(from) +
         " to " + device_name(to);
}

SampleRun run_guide_sample(const std::string& name) {
  const hxrt_test::ProgramResult result = run_program(
      kCleanEnvironment + built_program(name) + " " + shell_quote(sim_4_gpus_config()) + " 2>&1");
  return {result.exit_code, lines_of(result.output)};
}

const char* const kProduct = "[[22, 28], [49, 64]]";

}  // namespace

TEST_CASE("guide_priority makes its tensors and runs MatMul on GPU:0 by priority, copying "
          "nothing") {
  const SampleRun run = run_guide_sample("guide_priority");
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);
  CHECK(find_line(run.lines, "Executing op MatMul in device " + device_name("GPU:0")) != kNoLine);
  CHECK(count_lines_starting_with(run.lines, "Copying input ") == 0);
  // Nothing was requested, so there is nothing to explain.
  CHECK(count_lines_starting_with(run.lines, "  requested ") == 0);
  REQUIRE_FALSE(run.lines.empty());
  CHECK(run.lines.back() == kProduct);
}

TEST_CASE("guide_priority also finds its config through HXRT_CONFIG") {
  const hxrt_test::ProgramResult result = run_program(
      std::string(kCleanEnvironment) + "HXRT_CONFIG=" + shell_quote(sim_4_gpus_config()) + " " +
      built_program("guide_priority") + " 2>&1");
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 0);
  CHECK(find_line(lines_of(result.output),
                  "Executing op MatMul in device " + device_name("GPU:0")) != kNoLine);
}

TEST_CASE("guide_manual_placement runs MatMul on GPU:2, where its inputs already are") {
  const SampleRun run = run_guide_sample("guide_manual_placement");
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);
  CHECK(find_line(run.lines, "Executing op MatMul in device " + device_name("GPU:2")) != kNoLine);
  CHECK(count_lines_starting_with(run.lines, "Executing op ") == 1);
  CHECK(count_lines_starting_with(run.lines, "Copying input ") == 0);
  REQUIRE_FALSE(run.lines.empty());
  CHECK(run.lines.back() == kProduct);
}

TEST_CASE("guide_soft_placement reports GPU:7 as unknown, then soft placement runs it on GPU:0") {
  const SampleRun run = run_guide_sample("guide_soft_placement");
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);

  const auto error = std::find_if(run.lines.begin(), run.lines.end(), [](const std::string& line) {
    return contains(line, device_name("GPU:7") + " unknown device.");
  });
  REQUIRE(error != run.lines.end());
  const size_t error_line = static_cast<size_t>(error - run.lines.begin());
  const std::string executing = "Executing op MatMul in device " + device_name("GPU:0");
  const size_t soft_run = find_line(run.lines, executing, error_line);
  REQUIRE(soft_run != kNoLine);
  // The strict attempt ran nothing, and the error lists the devices that do exist.
  CHECK(find_line(run.lines, executing) == soft_run);
  const Lines error_text(run.lines.begin() + static_cast<std::ptrdiff_t>(error_line),
                         run.lines.begin() + static_cast<std::ptrdiff_t>(soft_run));
  CHECK(contains(joined(error_text), "GPU:3"));

  check_reason_line(run.lines, soft_run, "GPU:7", "GPU:0");
  // a and b were made on GPU:0, the highest-priority device: nothing to copy.
  CHECK(count_lines_starting_with(run.lines, "Copying input ") == 0);
  CHECK(run.lines.back() == kProduct);
}

TEST_CASE("guide_int32_fallback runs the int32 Add asked of GPU:0 on CPU:0 and says why") {
  const SampleRun run = run_guide_sample("guide_int32_fallback");
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);
  const size_t executing =
      find_line(run.lines, "Executing op Add in device " + device_name("CPU:0"));
  REQUIRE(executing != kNoLine);
  check_reason_line(run.lines, executing, "GPU:0", "CPU:0");
  CHECK(contains(run.lines[executing + 1], "int32"));
  CHECK(find_line(run.lines, copy_line(0, "Add", "GPU:0", "CPU:0")) != kNoLine);
  CHECK(find_line(run.lines, copy_line(1, "Add", "GPU:0", "CPU:0")) != kNoLine);
  CHECK(run.lines.back() == "[[11, 22], [33, 44]]");
}

TEST_CASE("guide_multi_gpu runs MatMul on each of the four GPUs and sums them on CPU:0") {
  const SampleRun run = run_guide_sample("guide_multi_gpu");
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);
  const size_t addn = find_line(run.lines, "Executing op AddN in device " + device_name("CPU:0"));
  REQUIRE(addn != kNoLine);
  CHECK(count_lines_starting_with(run.lines, "Executing op MatMul ") == 4);
  for (int gpu = 0; gpu < 4; ++gpu) {
    const std::string gpu_name = "GPU:" + std::to_string(gpu);
    const size_t matmul =
        find_line(run.lines, "Executing op MatMul in device " + device_name(gpu_name));
    CHECK(matmul < addn);
    CHECK(find_line(run.lines, copy_line(gpu, "AddN", gpu_name, "CPU:0")) != kNoLine);
  }
  REQUIRE_FALSE(run.lines.empty());
  CHECK(run.lines.back() == "[[88, 112], [196, 256]]");
}

TEST_CASE("a guide sample run without a config prints its usage line and exits 2") {
  for (const char* sample : {"guide_priority", "guide_manual_placement", "guide_soft_placement",
                             "guide_int32_fallback", "guide_multi_gpu"}) {
    const hxrt_test::ProgramResult result =
        run_program(kCleanEnvironment + built_program(sample) + " 2>&1");
    INFO(sample << " output:\n" << result.output);
    CHECK(result.exit_code == 2);
    CHECK(contains(result.output, std::string("usage: ") + sample + " CONFIG_FILE"));
  }
}
