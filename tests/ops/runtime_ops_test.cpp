// Runtime::ops() and hxrt-info --ops on loaded plugins: the core's ops with their kernels, and
// a plugin's custom ops with their owner.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "hxrt/runtime.hpp"
#include "run_program.hpp"

using hxrt::DType;
using hxrt::OpInfo;
using Catch::Contains;

namespace {

hxrt::Runtime runtime_with(const std::vector<std::string>& plugins) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  for (const std::string& plugin : plugins) options.plugin_paths.push_back(plugin);
  return hxrt::Runtime::create(options);
}

const std::string kCpuPlugin = std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so";
const std::string kCustomOpsPlugin =
    std::string(HXRT_TEST_FIXTURE_DIR) + "/libhx_fixture_huge_output.so";

const OpInfo& find_op(const std::vector<OpInfo>& ops, const std::string& name) {
  const auto at = std::find_if(ops.begin(), ops.end(),
                               [&](const OpInfo& op) { return op.name == name; });
  REQUIRE(at != ops.end());
  return *at;
}

}  // namespace

TEST_CASE("Runtime::ops lists the core's ops with their specification and kernels") {
  const hxrt::Runtime runtime = runtime_with({kCpuPlugin});
  const std::vector<OpInfo> ops = runtime.ops();
  REQUIRE(ops.size() == hxrt::core_ops().size());
  for (size_t i = 1; i < ops.size(); ++i) CHECK(ops[i - 1].name < ops[i].name);
  const OpInfo& matmul = find_op(ops, "MatMul");
  CHECK(matmul.owner == "core");
  CHECK_FALSE(matmul.summary.empty());
  REQUIRE(matmul.inputs.size() == 2);
  CHECK(matmul.inputs[0].name == "a");
  REQUIRE_FALSE(matmul.kernels.empty());
  CHECK(matmul.kernels[0].device_type == "CPU");
  const std::vector<DType>& dtypes = matmul.kernels[0].dtypes;
  CHECK(std::find(dtypes.begin(), dtypes.end(), DType::kF32) != dtypes.end());
  CHECK(std::is_sorted(dtypes.begin(), dtypes.end()));
  CHECK(find_op(ops, "Add").broadcasts);
}

TEST_CASE("Runtime::ops lists a plugin's custom ops with their owner and T") {
  const hxrt::Runtime runtime = runtime_with({kCustomOpsPlugin});
  const std::vector<OpInfo> ops = runtime.ops();
  const OpInfo& huge = find_op(ops, "HugeOutput");
  CHECK(huge.owner == "fixture_huge_output");
  CHECK(huge.type_parameter.source == hxrt::TypeParameter::Source::kOutput);
  REQUIRE(huge.kernels.size() == 1);
  CHECK(huge.kernels[0].device_type == "HUGEOUT");
  CHECK(find_op(ops, "MatMul").kernels.empty());
}

TEST_CASE("hxrt-info --ops prints every op, its T and its kernels") {
  const std::string command = "env HXRT_PLUGIN_PATH=" + kCpuPlugin + " HXRT_CONFIG= " +
                              std::string(HXRT_TEST_BIN_DIR) + "/hxrt-info --ops --no-probe";
  const hxrt_test::ProgramResult text = hxrt_test::run_program(command);
  INFO(text.output);
  CHECK(text.exit_code == 0);
  CHECK_THAT(text.output,
             Contains("Ops: " + std::to_string(hxrt::core_ops().size()) + " "));
  CHECK_THAT(text.output, Contains("\nMatMul (core, 2 inputs, 1 output)\n"));
  CHECK_THAT(text.output, Contains("  T: the dtype of input 0 (a)\n"));
  CHECK_THAT(text.output, Contains("  kernels: CPU (float32"));
  const hxrt_test::ProgramResult markdown = hxrt_test::run_program(command + " --markdown");
  CHECK(markdown.exit_code == 0);
  CHECK_THAT(markdown.output, Contains("# hxrt ops reference\n"));
  CHECK_THAT(markdown.output, Contains("\n## Sum\n"));
}

TEST_CASE("hxrt::core_ops() lists, without a runtime, the core's ops as Runtime::ops() does") {
  const std::vector<OpInfo> core = hxrt::core_ops();
  std::vector<std::string> listed;
  for (const OpInfo& op : core) {
    CHECK(op.owner == "core");
    CHECK(op.kernels.empty());
    listed.push_back(op.name);
  }
  CHECK(std::is_sorted(listed.begin(), listed.end()));
  std::vector<std::string> from_runtime;
  for (const OpInfo& op : runtime_with({kCpuPlugin, kCustomOpsPlugin}).ops()) {
    if (op.owner == "core") from_runtime.push_back(op.name);
  }
  CHECK(listed == from_runtime);
  CHECK(std::find(listed.begin(), listed.end(), "MatMul") != listed.end());
}
