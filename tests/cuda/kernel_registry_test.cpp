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

// The ops that move elements without computing, which take every dtype (Gather: every size
// it has a kernel for).
const char* const kMovingOps[] = {"Identity",  "Reshape", "Flatten", "Squeeze", "Unsqueeze",
                                  "Transpose", "Slice",   "Expand",  "Concat"};

bool moves_elements(const std::string& op) {
  return op == "Gather" || std::find(std::begin(kMovingOps), std::end(kMovingOps), op) !=
                               std::end(kMovingOps);
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
  // Gather's data: every dtype of 2, 4 or 8 bytes.
  const std::set<DType> gathered = {DType::kF32, DType::kF64, DType::kF16, DType::kBF16,
                                    DType::kI32, DType::kI64, DType::kI16, DType::kU16,
                                    DType::kU32, DType::kU64};
  std::map<std::string, std::set<DType>> expected = {
      {"MatMul", floats}, {"Fill", floats}, {"Cast", floats}, {"Gather", gathered}};
  // The ops that compute: f32, f16 and bf16.
  for (const char* op :
       {"Add", "Sub", "Mul", "Div", "Pow", "Min", "Max", "Equal", "Less", "Greater",
        "LessOrEqual", "GreaterOrEqual", "Relu", "Exp", "Log", "Sqrt", "Neg", "Abs",
        "Reciprocal", "Erf", "Tanh", "Sigmoid", "Floor", "Ceil", "Round", "Sign", "LeakyRelu",
        "HardSigmoid", "HardSwish", "Gelu", "Softmax", "LogSoftmax", "AddN", "Sum", "ReduceSum",
        "ReduceMean", "ReduceMax", "ReduceMin", "ReduceL2",
        // On cuDNN and cuBLASLt.
        "Conv", "FusedConv", "MaxPool", "AveragePool", "GlobalMaxPool", "GlobalAveragePool",
        "BatchNormalization", "FusedGemm", "MatMulBias"}) {
    expected[op] = elementwise;
  }
  for (const char* op : kMovingOps) expected[op] = every;
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
    if (moves_elements(op)) continue;  // copies, not arithmetic
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
