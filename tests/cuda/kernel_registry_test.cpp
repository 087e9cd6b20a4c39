// Which kernels the CUDA plugin registers for GPU devices. The core keeps the kernels of a
// plugin that loaded with zero devices, so the table is checked on every machine, with or
// without a GPU; the fallback of int32 ops to the CPU needs a GPU to be seen.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

using hxrt::DType;

// op -> dtypes of the CUDA plugin's GPU kernels.
std::map<std::string, std::set<DType>> gpu_kernels() {
  std::map<std::string, std::set<DType>> table;
  for (const hxrt::KernelInfo& kernel : runtime().kernels()) {
    if (kernel.plugin != "cuda") continue;
    CHECK(kernel.device_type == "GPU");
    table[kernel.op].insert(kernel.dtypes.begin(), kernel.dtypes.end());
  }
  return table;
}

std::string names(const std::set<DType>& dtypes) {
  std::string text;
  for (const DType dtype : dtypes) {
    text += std::string(text.empty() ? "" : ", ") + hxrt::dtype_name(dtype);
  }
  return text;
}

}  // namespace

TEST_CASE("the CUDA plugin registers its GPU kernels, also with no device", "[cuda][registry]") {
  const std::set<DType> floats = {DType::kF32, DType::kF64, DType::kF16, DType::kBF16};
  const std::set<DType> elementwise = {DType::kF32, DType::kF16, DType::kBF16};
  const std::set<DType> every(std::begin(hxrt::kAllDTypes), std::end(hxrt::kAllDTypes));
  const std::map<std::string, std::set<DType>> expected = {
      {"MatMul", floats},   {"Add", elementwise},  {"Sub", elementwise},  {"Mul", elementwise},
      {"Div", elementwise}, {"Relu", elementwise}, {"AddN", elementwise}, {"Sum", elementwise},
      {"Fill", floats},     {"Cast", floats},      {"Identity", every}};
  const std::map<std::string, std::set<DType>> registered = gpu_kernels();
  for (const auto& [op, dtypes] : expected) {
    INFO(op);
    REQUIRE(registered.count(op) == 1);
    CHECK(names(registered.at(op)) == names(dtypes));
  }
  CHECK(registered.size() == expected.size());
}

TEST_CASE("no GPU kernel does integer arithmetic", "[cuda][registry]") {
  for (const auto& [op, dtypes] : gpu_kernels()) {
    if (op == "Identity") continue;  // a copy, not arithmetic
    INFO(op);
    for (const DType dtype : dtypes) CHECK_FALSE(hxrt::is_integer(dtype));
  }
}

TEST_CASE("an int32 Add asked of GPU:0 runs on the CPU, and says so", "[cuda][registry]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  hxrt::Runtime fallback = cuda_plugin_test::make_runtime();  // missing kernels fall back
  std::vector<std::string> lines;
  fallback.set_log_sink(
      [&lines](hxrt::LogLevel, std::string_view line) { lines.emplace_back(line); });
  fallback.set_log_device_placement(true);

  const hxrt::Tensor x = fallback.tensor<int32_t>({3}, {1, 2, 3});
  const hxrt::Tensor sum = fallback.execute("Add", {x, x}, {}, "/GPU:0");
  CHECK(sum.device() == kCpu0);
  CHECK(sum.to_vector<int32_t>() == std::vector<int32_t>{2, 4, 6});
  CHECK(std::find(lines.begin(), lines.end(), "Executing op Add in device " + kCpu0) !=
        lines.end());

  const hxrt::Tensor f = fallback.tensor<float>({3}, {1, 2, 3});
  CHECK(fallback.execute("Add", {f, f}, {}, "/GPU:0").device() == kGpu0);
}

}  // namespace cuda_kernel_test
