// The CPU plugin's identity, options, device and kernel registrations, as the runtime
// reports them.
#include <catch2/catch.hpp>

#include <algorithm>
#include <iterator>
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
  // oneDNN's kernels: f32, and f16 and bf16 computed in it.
  const std::vector<DType> dnnl_floating = {DType::kF32, DType::kF16, DType::kBF16};
  const std::vector<DType> any_floating = {DType::kF32, DType::kF64, DType::kF16, DType::kBF16};
  const std::vector<DType> integers = {DType::kI32, DType::kI64, DType::kI8,  DType::kU8,
                                       DType::kI16, DType::kU16, DType::kU32, DType::kU64};
  std::vector<DType> arithmetic = {DType::kF32, DType::kF64};
  arithmetic.insert(arithmetic.end(), integers.begin(), integers.end());
  std::vector<DType> numeric = any_floating;
  numeric.insert(numeric.end(), integers.begin(), integers.end());
  const std::vector<DType> max_pool = {DType::kF32, DType::kF16, DType::kBF16, DType::kI8,
                                       DType::kU8};
  const std::vector<DType> all(std::begin(hxrt::kAllDTypes), std::end(hxrt::kAllDTypes));
  std::vector<DType> valued;  // every dtype but the 8-bit floats, which only Cast converts
  std::copy_if(all.begin(), all.end(), std::back_inserter(valued),
               [](DType dtype) { return !hxrt::is_float8(dtype); });
  const std::vector<DType> bool_only = {DType::kBool};
  const std::map<std::string, std::vector<DType>> expected = {
      {"MatMul", any_floating}, {"Gemm", any_floating}, {"FusedGemm", any_floating},
      {"MatMulBias", any_floating}, {"MultiHeadAttention", {DType::kF32}},
      {"Einsum", any_floating},
      {"Conv", dnnl_floating}, {"FusedConv", dnnl_floating},
      {"ConvTranspose", dnnl_floating},
      {"MaxPool", max_pool}, {"AveragePool", dnnl_floating},
      {"GlobalMaxPool", dnnl_floating}, {"GlobalAveragePool", dnnl_floating},
      {"BatchNormalization", any_floating}, {"LayerNormalization", any_floating},
      {"InstanceNormalization", any_floating},
      {"Add", numeric},     {"Sub", numeric},    {"Mul", numeric},
      {"Div", numeric},      {"Pow", numeric},     {"AddN", arithmetic}, {"Relu", numeric},
      {"AllReduce", arithmetic}, {"ReduceScatter", arithmetic}, {"AllGather", all},
      {"Broadcast", all},
      {"Sum", arithmetic},   {"Cast", all},        {"Fill", valued},       {"Identity", all},
      {"Exp", any_floating}, {"Log", any_floating}, {"Sqrt", any_floating},
      {"Reciprocal", any_floating}, {"Erf", any_floating}, {"Tanh", any_floating},
      {"Sigmoid", any_floating},    {"Floor", any_floating}, {"Ceil", any_floating},
      {"Round", any_floating},      {"Neg", numeric},        {"Abs", numeric},
      {"Sign", numeric},            {"Min", numeric},        {"Max", numeric},
      {"Where", valued},               {"Equal", valued},          {"Less", numeric},
      {"Greater", numeric},         {"LessOrEqual", numeric}, {"GreaterOrEqual", numeric},
      {"Not", bool_only},           {"And", bool_only},      {"Or", bool_only},
      {"LeakyRelu", any_floating},  {"Gelu", any_floating},  {"HardSigmoid", any_floating},
      {"HardSwish", any_floating},  {"Clip", numeric},       {"Dropout", any_floating},
      {"ReduceSum", numeric},       {"ReduceMean", numeric},   {"ReduceProd", numeric},
      {"ReduceMax", valued},           {"ReduceMin", valued},        {"ReduceL1", numeric},
      {"ReduceL2", numeric},        {"ReduceSumSquare", numeric},
      {"ReduceLogSumExp", numeric}, {"ArgMax", numeric},       {"ArgMin", numeric},
      {"Softmax", any_floating},    {"LogSoftmax", any_floating}, {"CumSum", numeric},
      {"Reshape", all},     {"Flatten", all},   {"Squeeze", all},
      {"Unsqueeze", all},    {"Transpose", all},   {"Expand", all},    {"Tile", all},
      {"Concat", all},       {"Split", all},       {"Slice", all},     {"Gather", all},
      {"GatherElements", all}, {"TopK", numeric},
      {"ScatterElements", valued}, {"Pad", valued},      {"DepthToSpace", all},
      {"SpaceToDepth", all}, {"Shape", all},       {"Size", all},      {"Range", numeric},
      {"NonZero", all},
      {"Resize", valued},       {"Upsample", valued}};
  // The ops of blocked channels, where oneDNN runs AVX-512 (16 floats a register): its
  // avx512_core, AVX-512 F, BW, VL and DQ.
  const bool wide_vectors =
      __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
      __builtin_cpu_supports("avx512vl") && __builtin_cpu_supports("avx512dq");
  std::map<std::string, std::vector<DType>> expected_here = expected;
  if (wide_vectors) {
    for (const char* op : {"BlockedConv", "BlockedMaxPool", "BlockedGlobalAveragePool"}) {
      expected_here[op] = {DType::kF32};
    }
  }

  std::map<std::string, std::vector<DType>> registered;
  for (const hxrt::KernelInfo& kernel : cpu_test::runtime().kernels()) {
    if (kernel.plugin != "cpu") continue;
    CHECK(kernel.device_type == "CPU");
    CHECK(kernel.priority == 0);
    std::vector<DType>& dtypes = registered[kernel.op];
    dtypes.insert(dtypes.end(), kernel.dtypes.begin(), kernel.dtypes.end());
  }
  for (auto& [op, dtypes] : registered) std::sort(dtypes.begin(), dtypes.end());
  REQUIRE(registered == expected_here);
}
