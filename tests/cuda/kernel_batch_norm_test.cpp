// BatchNormalization in inference mode on GPU:0 (cuDNN) against the CPU plugin, for f32, f16
// and bf16 (whose statistics the kernel widens to f32) and inputs of rank 2 to 6; the running
// statistics it returns are the given ones; training mode is declined.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <vector>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

const hxrt::Shape kBatchNormShapes[] = {
    {4, 3}, {2, 3, 5}, {2, 3, 4, 5}, {1, 2, 3, 4, 5}, {2, 3, 2, 2, 2, 2}, {0, 3, 4}, {8, 64, 7, 7}};

// X, scale, B, input_mean and input_var (positive), for X of `shape`.
std::vector<hxrt::Tensor> batch_norm_inputs(hxrt::DType dtype, const hxrt::Shape& shape,
                                            uint32_t seed) {
  const int64_t channels = shape[1];
  return {random_tensor(dtype, shape, seed, -3, 3), random_tensor(dtype, {channels}, seed + 1),
          random_tensor(dtype, {channels}, seed + 2), random_tensor(dtype, {channels}, seed + 3),
          random_tensor(dtype, {channels}, seed + 4, 0.5, 2)};
}

}  // namespace

TEST_CASE("GPU BatchNormalization matches the CPU and returns the given statistics",
          "[cuda][batch_norm]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 26000;
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    for (const hxrt::Shape& shape : kBatchNormShapes) {
      for (const double epsilon : {1e-5, 1e-2}) {
        INFO(hxrt::dtype_name(dtype) << ' ' << shape.to_string() << " epsilon " << epsilon);
        const std::vector<hxrt::Tensor> inputs = batch_norm_inputs(dtype, shape, seed += 5);
        const hxrt::Attrs attrs = {{"epsilon", epsilon}};
        const std::vector<hxrt::Tensor> got =
            runtime().execute_multi("BatchNormalization", inputs, attrs, kGpu0);
        REQUIRE(got.size() == 3);
        CHECK(got[0].device() == kGpu0);
        // The CPU's kernel takes every float dtype (and the op has three outputs, which
        // cpu_reference does not return).
        const hxrt::Tensor want =
            runtime().execute_multi("BatchNormalization", inputs, attrs, kCpu0).at(0);
        // (x - mean) * scale / sqrt(var + epsilon) + B: a few roundings in f32, then the
        // output's, of a value up to about 10 * 10 here.
        const double relative = 2 * relative_tolerance(dtype);
        check_elements(got[0], want,
                       [&](size_t, double w) { return relative * std::max(1.0, std::fabs(w)); });
        check_equal(got[1], inputs[3]);
        check_equal(got[2], inputs[4]);
      }
    }
  }
}

TEST_CASE("GPU BatchNormalization declines training mode", "[cuda][batch_norm]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  const std::vector<hxrt::Tensor> inputs = batch_norm_inputs(hxrt::DType::kF32, {2, 3, 4}, 27000);
  CHECK_THROWS_WITH(
      runtime().execute_multi("BatchNormalization", inputs, {{"training_mode", int64_t{1}}}, kGpu0),
      Catch::Contains("BatchNormalization on GPU: inference only"));
}

}  // namespace cuda_kernel_test
