// The CPU plugin's identity, options, device and kernel registrations, as the runtime
// reports them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "cpu_test_support.hpp"
#include "error_from.hpp"

TEST_CASE("The CPU plugin loads with one CPU device", "[cpu][plugin]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const auto& report = rt.load_report();
  const auto cpu = std::find_if(report.begin(), report.end(),
                                [](const hxrt::PluginReport& r) { return r.name == "cpu"; });
  REQUIRE(cpu != report.end());
  CHECK(cpu->loaded);
  CHECK(cpu->version == "0.1.0");
  CHECK(cpu->device_type == "CPU");
  CHECK(cpu->device_count == 1);

  const std::vector<hxrt::DeviceInfo> devices = rt.devices();
  REQUIRE(devices.size() == 1);
  const hxrt::DeviceInfo& device = devices[0];
  CHECK(device.name == "/job:localhost/replica:0/task:0/device:CPU:0");
  CHECK(device.type == "CPU");
  CHECK(device.plugin == "cpu");
  CHECK(device.compute_units > 0);
  CHECK(device.memory_total > 0);
  CHECK(device.memory_free > 0);
  CHECK(device.memory_free <= device.memory_total);
  CHECK(!device.arch.empty());
}

namespace {

const hxrt::PluginReport& only_report(const hxrt::Runtime& rt) {
  REQUIRE(rt.load_report().size() == 1);
  return rt.load_report().front();
}

hxrt::Runtime runtime_with_options(const std::string& cpu_options) {
  hxrt::RuntimeOptions options;
  options.use_installed_plugins = false;
  options.plugin_paths = {std::string(HXRT_TEST_PLUGIN_DIR) + "/libhx_cpu.so"};
  options.plugin_options = {{"cpu", cpu_options}};
  return hxrt::Runtime::create(options);
}

}  // namespace

TEST_CASE("The CPU plugin accepts an empty options object", "[cpu][plugin]") {
  const std::string empty = GENERATE("{}", "  { }\n");
  const hxrt::Runtime rt = runtime_with_options(empty);
  CHECK(only_report(rt).loaded);
}

TEST_CASE("The CPU plugin refuses options it does not know, naming them", "[cpu][plugin]") {
  const auto error = hxrt_test::error_from([] { runtime_with_options(R"({"threads": 4})"); });
  REQUIRE(error);
  CHECK(error->code() == hxrt::StatusCode::kInvalidArgument);
  CHECK_THAT(error->what(), Catch::StartsWith("API: /plugins/options/cpu/threads: plugin ") &&
                                Catch::Contains("INVALID_ARGUMENT: ") &&
                                Catch::Contains("unknown option 'threads'"));
}

TEST_CASE("The CPU plugin registers each op for the documented dtypes", "[cpu][plugin]") {
  using hxrt::DType;
  const std::vector<DType> floating = {DType::kF32, DType::kF64};
  const std::vector<DType> any_floating = {DType::kF32, DType::kF64, DType::kF16, DType::kBF16};
  const std::vector<DType> arithmetic = {DType::kF32, DType::kF64, DType::kI32, DType::kI64};
  const std::vector<DType> numeric = {DType::kF32,  DType::kF64, DType::kF16,
                                      DType::kBF16, DType::kI32, DType::kI64};
  const std::vector<DType> all(std::begin(hxrt::kAllDTypes), std::end(hxrt::kAllDTypes));
  const std::map<std::string, std::vector<DType>> expected = {
      {"MatMul", floating},  {"Add", arithmetic},  {"Sub", arithmetic}, {"Mul", arithmetic},
      {"Div", arithmetic},   {"AddN", arithmetic}, {"Relu", arithmetic}, {"Sum", arithmetic},
      {"Cast", all},         {"Fill", all},        {"Identity", all},
      {"Exp", any_floating}, {"Log", any_floating}, {"Sqrt", any_floating},
      {"Reciprocal", any_floating}, {"Erf", any_floating}, {"Tanh", any_floating},
      {"Sigmoid", any_floating},    {"Floor", any_floating}, {"Ceil", any_floating},
      {"Round", any_floating},      {"Neg", numeric},        {"Abs", numeric},
      {"Sign", numeric},     {"Reshape", all},     {"Flatten", all},   {"Squeeze", all},
      {"Unsqueeze", all},    {"Transpose", all},   {"Expand", all},    {"Tile", all},
      {"Concat", all},       {"Slice", all},       {"Gather", all},    {"GatherElements", all},
      {"ScatterElements", all}, {"Pad", all},      {"DepthToSpace", all},
      {"SpaceToDepth", all}, {"Shape", all},       {"Size", all},      {"Range", numeric}};

  std::map<std::string, std::vector<DType>> registered;
  for (const hxrt::KernelInfo& kernel : cpu_test::runtime().kernels()) {
    if (kernel.plugin != "cpu") continue;
    CHECK(kernel.device_type == "CPU");
    CHECK(kernel.priority == 0);
    std::vector<DType>& dtypes = registered[kernel.op];
    dtypes.insert(dtypes.end(), kernel.dtypes.begin(), kernel.dtypes.end());
  }
  for (auto& [op, dtypes] : registered) std::sort(dtypes.begin(), dtypes.end());
  REQUIRE(registered == expected);
}
