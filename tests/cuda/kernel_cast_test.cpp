// Cast on GPU:0 against the CPU plugin between every pair of float dtypes. Both round once to
// nearest even, so the results must be equal, overflow, underflow and ties included.
#include <catch2/catch.hpp>

#include <limits>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {

TEST_CASE("GPU Cast matches the CPU between every pair of float dtypes", "[cuda][cast]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<double> special = {
      1e5,           -7e4,  // beyond f16's range
      1e-9,          6e-8,  // below f16's smallest subnormal, and near it
      1.0 + 0x1p-11,        // halfway between two f16 values: rounds to even
      1.0 + 0x1p-8,         // halfway between two bf16 values
      0.1 + 1e-17,          // only f64 tells it from 0.1
      3e38,                 // within f32 and bf16, beyond f16
      -0.0,          inf,  -inf, nan};
  uint32_t seed = 5000;
  for (const hxrt::DType from : kFloatDTypes) {
    const hxrt::Tensor inputs[] = {
        random_tensor(from, {13, 7}, ++seed, -1000, 1000),
        cpu_tensor(from, {static_cast<int64_t>(special.size())}, special),
        random_tensor(from, {}, ++seed), random_tensor(from, {0, 3}, ++seed)};
    for (const hxrt::DType to : kFloatDTypes) {
      for (const hxrt::Tensor& input : inputs) {
        INFO(hxrt::dtype_name(from)
             << " to " << hxrt::dtype_name(to) << ' ' << input.shape().to_string());
        const hxrt::Attrs attrs{{"dtype", to}};
        check_equal(run_on_gpu("Cast", {input}, attrs), cpu_reference("Cast", {input}, attrs));
      }
    }
  }
}

}  // namespace cuda_kernel_test
