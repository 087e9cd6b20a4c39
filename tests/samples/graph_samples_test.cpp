// The graph samples, run on the sim plugin configured as four GPUs, with their whole printed
// output checked: the device mapping and placement log of compile, then the results.
#include <catch2/catch.hpp>

#include <string>

#include "program_output.hpp"
#include "run_program.hpp"

using hxrt_test::built_program;
using hxrt_test::contains;
using hxrt_test::device_name;
using hxrt_test::ends_with;
using hxrt_test::joined;
using hxrt_test::kCleanEnvironment;
using hxrt_test::Lines;
using hxrt_test::lines_of;
using hxrt_test::run_program;
using hxrt_test::SampleRun;
using hxrt_test::shell_quote;
using hxrt_test::starts_with;

namespace {

std::string placed(const std::string& node, const std::string& op,
                   const std::string& short_device) {
  return node + ": (" + op + "): " + device_name(short_device);
}

// The device mapping compile logs for the CPU plugin and four sim GPUs. The CPU's line names
// the host's processor, which differs between machines: it is checked by its two ends.
const char* const kCpuLine = "(the CPU's line)";

Lines device_mapping() {
  Lines lines = {"Device mapping:", kCpuLine};
  for (int gpu = 0; gpu < 4; ++gpu) {
    lines.push_back(device_name("GPU:" + std::to_string(gpu)) + " -> device: " +
                    std::to_string(gpu) + ", name: hxrt simulated accelerator, plugin: sim");
  }
  return lines;
}

// The sample's output, without the device mapping's line for the OpenCL plugin's device,
// which the build has where the OpenCL loader and a platform (PoCL) are installed.
SampleRun run_graph_sample(const std::string& name) {
  const hxrt_test::ProgramResult result = run_program(
      kCleanEnvironment + built_program(name) + " " +
      shell_quote(hxrt_test::source_file("config/examples/sim_4_gpus.json")) + " 2>&1");
  Lines lines;
  for (std::string& line : lines_of(result.output)) {
    if (starts_with(line, device_name("OPENCL:")) && ends_with(line, ", plugin: opencl")) continue;
    lines.push_back(std::move(line));
  }
  return {result.exit_code, lines};
}

// `lines` equal `expected` line by line, but for the CPU's line of the device mapping.
void check_output(const Lines& lines, const Lines& expected) {
  REQUIRE(lines.size() == expected.size());
  for (size_t i = 0; i < lines.size(); ++i) {
    INFO("line " << i);
    if (expected[i] == kCpuLine) {
      CHECK(starts_with(lines[i], device_name("CPU:0") + " -> device: 0, name: "));
      CHECK(ends_with(lines[i], ", plugin: cpu"));
    } else {
      CHECK(lines[i] == expected[i]);
    }
  }
}

}  // namespace

TEST_CASE("graph_replication logs a MatMul on each GPU and AddN on the CPU, then prints the sum") {
  const SampleRun run = run_graph_sample("graph_replication");
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);
  Lines expected = device_mapping();
  // The inputs go with their first consumer, MatMul_0.
  expected.push_back(placed("a", "Placeholder", "GPU:0"));
  expected.push_back(placed("b", "Placeholder", "GPU:0"));
  for (int gpu = 0; gpu < 4; ++gpu) {
    const std::string index = std::to_string(gpu);
    expected.push_back(placed("MatMul_" + index, "MatMul", "GPU:" + index));
  }
  expected.push_back(placed("AddN", "AddN", "CPU:0"));
  expected.push_back("[[88, 112], [196, 256]]");
  check_output(run.lines, expected);
}

TEST_CASE("graph_perceptron places its hidden layer on the CPU and its output layer on GPU:0, "
          "and its output matches eager execution") {
  const SampleRun run = run_graph_sample("graph_perceptron");
  INFO("output:\n" << joined(run.lines));
  CHECK(run.exit_code == 0);
  Lines expected = device_mapping();
  expected.push_back(placed("x", "Placeholder", "CPU:0"));
  for (const auto& [layer, on] : {std::pair{"hidden", "CPU:0"}, std::pair{"output", "GPU:0"}}) {
    const std::string name = layer;
    expected.push_back(placed(name + "/weights", "Placeholder", on));
    expected.push_back(placed(name + "/bias", "Placeholder", on));
    if (name == "hidden") {
      // The CPU computes the layer as one fused MatMulBias node, named as its last node; the
      // sim GPU has no such kernel, so its layer keeps its three nodes.
      expected.push_back(placed(name + "/Relu", "MatMulBias", on));
      continue;
    }
    for (const char* op : {"MatMul", "Add", "Relu"}) {
      expected.push_back(placed(name + "/" + op, op, on));
    }
  }
  // relu(relu(x . W1 + b1) . W2 + b2) worked by hand for the sample's values.
  expected.push_back("graph:  [[5, 0], [0, 12]]");
  expected.push_back("eager:  [[5, 0], [0, 12]]");
  expected.push_back("the graph's output matches eager execution");
  check_output(run.lines, expected);
}

TEST_CASE("a graph sample run without a config prints its usage line and exits 2") {
  for (const char* sample : {"graph_replication", "graph_perceptron"}) {
    const hxrt_test::ProgramResult result =
        run_program(kCleanEnvironment + built_program(sample) + " 2>&1");
    INFO(sample << " output:\n" << result.output);
    CHECK(result.exit_code == 2);
    CHECK(contains(result.output, std::string("usage: ") + sample + " CONFIG_FILE"));
  }
}
