// The asynchronous samples, run on the sim plugin's timed GPUs, with their printed figures,
// results and trace checked. No timing threshold beyond a sanity bound: machines are noisy.
#include <catch2/catch.hpp>

#include <cstdio>
#include <fstream>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "program_output.hpp"
#include "run_program.hpp"

using hxrt_test::built_program;
using hxrt_test::contains;
using hxrt_test::find_line;
using hxrt_test::find_line_starting_with;
using hxrt_test::joined;
using hxrt_test::kCleanEnvironment;
using hxrt_test::kNoLine;
using hxrt_test::Lines;
using hxrt_test::lines_of;
using hxrt_test::run_program;
using hxrt_test::shell_quote;

namespace {

// The number after `prefix` on the line that starts with it ("1 GPU: 81.2 ms" -> 81.2), or -1.
double figure_after(const Lines& lines, const std::string& prefix) {
  const size_t line = find_line_starting_with(lines, prefix);
  if (line == kNoLine) return -1;
  try {
    return std::stod(lines[line].substr(prefix.size()));
  } catch (const std::exception&) {
    return -1;
  }
}

}  // namespace

TEST_CASE("async_replication runs the replicas on one GPU and on four, prints both times, the "
          "ratio and the exact sum, and writes a trace of both runs") {
  const std::string trace = "async_replication_test_trace.json";
  std::remove(trace.c_str());
  const hxrt_test::ProgramResult result = run_program(
      kCleanEnvironment + built_program("async_replication") + " " +
      shell_quote(hxrt_test::source_file("samples/async/sim_4_timed_gpus.json")) + " " +
      shell_quote(trace) + " 2>&1");
  const Lines lines = lines_of(result.output);
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 0);

  const double one = figure_after(lines, "1 GPU: ");
  const double four = figure_after(lines, "4 GPUs: ");
  const double ratio = figure_after(lines, "4 GPUs / 1 GPU: ");
  // By the sim's model one GPU needs 80 ms for the four MatMuls; anything less means the
  // config's model was not applied.
  CHECK(one >= 75);
  CHECK(four > 0);
  // The ratio printed is the ratio of the times printed (each rounded to 0.1 ms).
  CHECK(ratio == Approx(four / one).epsilon(0.02));
  // Sanity only: four GPUs may not beat one on a loaded machine, but they never take three
  // times as long for the same work.
  CHECK(four <= 3 * one);

  CHECK(find_line(lines, "sum[0:2, 0:3] = [[256, 512, 768], [512, 1024, 1536]]") != kNoLine);
  CHECK(find_line(lines, "every element of the sum is 4 x the single product") != kNoLine);
  REQUIRE(find_line(lines, "trace: " + trace) != kNoLine);

  std::ifstream file(trace);
  REQUIRE(file.good());
  const nlohmann::json written = nlohmann::json::parse(file);
  // Both runs' MatMuls, four on GPU:0 then one on each GPU: eight ops on four devices.
  int matmuls = 0;
  std::set<std::string> devices;
  for (const nlohmann::json& event : written.at("traceEvents")) {
    if (event.value("cat", "") != "op" || event.value("name", "") != "MatMul") continue;
    ++matmuls;
    devices.insert(event.at("args").value("device", ""));
  }
  CHECK(matmuls == 8);
  CHECK(devices.size() == 4);
  std::remove(trace.c_str());
}

TEST_CASE("async_replication run without a config prints its usage line and exits 2") {
  const hxrt_test::ProgramResult result =
      run_program(kCleanEnvironment + built_program("async_replication") + " 2>&1");
  INFO("output:\n" << result.output);
  CHECK(result.exit_code == 2);
  CHECK(contains(result.output, "usage: async_replication CONFIG_FILE [TRACE_FILE]"));
}
