// Pow, Min, Max and the comparisons on GPU:0, for f32, f16 and bf16: against the CPU plugin
// over the broadcasting shapes of kernel_elementwise_test.cpp, and against values worked out by
// hand for NaN (Min and Max propagate it, comparisons are false for it), -0 and infinities. The
// comparisons' outputs are bool, one byte 0 or 1, whatever the operands' dtype.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

const double kNan = std::numeric_limits<double>::quiet_NaN();
const double kInf = std::numeric_limits<double>::infinity();

const std::pair<hxrt::Shape, hxrt::Shape> kCompareShapes[] = {
    {{7, 13}, {7, 13}}, {{1}, {5, 6}}, {{5, 6}, {}},     {{}, {}},
    {{2, 3}, {3}},      {{2, 1}, {1, 3}}, {{4, 1, 5}, {3, 1}}, {{0, 5}, {0, 5}},
};

hxrt::Tensor as_f32(const hxrt::Tensor& tensor) {
  return runtime().execute("Cast", {tensor}, {{"dtype", hxrt::DType::kF32}}, kCpu0);
}

// The CPU's answer on the operands widened to f32, which is exact: bool, whatever their dtype.
hxrt::Tensor cpu_comparison(const char* op, const hxrt::Tensor& x, const hxrt::Tensor& y) {
  return runtime().execute(op, {as_f32(x), as_f32(y)}, {}, kCpu0);
}

// Integers from -3 to 3, so that Equal and the others' ties happen often.
hxrt::Tensor small_integers(hxrt::DType dtype, const hxrt::Shape& shape, uint32_t seed) {
  std::vector<double> values =
      random_values(static_cast<size_t>(shape.num_elements()), seed, -3, 4);
  for (double& value : values) value = std::floor(value);
  return cpu_tensor(dtype, shape, values);
}

std::vector<bool> compare_on_gpu(const char* op, const hxrt::Tensor& x,
                                 const hxrt::Tensor& y) {
  const hxrt::Tensor result = run_on_gpu(op, {x, y});
  REQUIRE(result.dtype() == hxrt::DType::kBool);
  return result.to_vector<bool>();
}

}  // namespace

TEST_CASE("GPU Pow, Min and Max match the CPU, broadcasting included", "[cuda][binary]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 11000;
  for (const char* op : {"Pow", "Min", "Max"}) {
    for (const hxrt::DType dtype : kElementwiseDTypes) {
      for (const auto& [x_shape, y_shape] : kCompareShapes) {
        INFO(op << ' ' << hxrt::dtype_name(dtype) << ' ' << x_shape.to_string() << ", "
                << y_shape.to_string());
        // Pow: positive bases, so that fractional exponents stay real.
        const bool pow = std::string(op) == "Pow";
        const hxrt::Tensor x = random_tensor(dtype, x_shape, ++seed, pow ? 0.1 : -10, 10);
        const hxrt::Tensor y = random_tensor(dtype, y_shape, ++seed, pow ? -3 : -10, pow ? 3 : 10);
        check_close(run_on_gpu(op, {x, y}), cpu_reference(op, {x, y}));
      }
    }
  }
}

TEST_CASE("GPU Pow, Min and Max on NaN, negative bases and infinities", "[cuda][binary]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    INFO(hxrt::dtype_name(dtype));
    const hxrt::Tensor x = cpu_tensor(dtype, {4}, {-2, 1, kNan, -kInf});
    const hxrt::Tensor y = cpu_tensor(dtype, {4}, {3, kNan, 2, 5});
    const std::vector<double> pow = values_of(run_on_gpu("Pow", {x, y}));
    CHECK(pow[0] == -8);  // a negative base to an integer power
    CHECK(std::isnan(pow[2]));
    CHECK(pow[3] == -kInf);
    const std::vector<double> min = values_of(run_on_gpu("Min", {x, y}));
    const std::vector<double> max = values_of(run_on_gpu("Max", {x, y}));
    CHECK(min[0] == -2);
    CHECK(max[0] == 3);
    for (size_t i : {1, 2}) {  // NaN on either side wins
      CHECK(std::isnan(min[i]));
      CHECK(std::isnan(max[i]));
    }
    CHECK(min[3] == -kInf);
    CHECK(max[3] == 5);
    const hxrt::Tensor half = cpu_tensor(dtype, {}, {0.5});
    CHECK(std::isnan(values_of(run_on_gpu("Pow", {x, half}))[0]));  // (-2)^0.5
  }
}

TEST_CASE("GPU comparisons write bool, NaN unequal to everything", "[cuda][binary]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    INFO(hxrt::dtype_name(dtype));
    const hxrt::Tensor x = cpu_tensor(dtype, {6}, {1, 2, kNan, -0.0, kInf, 3});
    const hxrt::Tensor y = cpu_tensor(dtype, {6}, {2, 2, kNan, 0.0, kInf, kNan});
    CHECK(compare_on_gpu("Equal", x, y) ==
          std::vector<bool>{false, true, false, true, true, false});
    CHECK(compare_on_gpu("Less", x, y) ==
          std::vector<bool>{true, false, false, false, false, false});
    CHECK(compare_on_gpu("Greater", x, y) ==
          std::vector<bool>{false, false, false, false, false, false});
    CHECK(compare_on_gpu("LessOrEqual", x, y) ==
          std::vector<bool>{true, true, false, true, true, false});
    CHECK(compare_on_gpu("GreaterOrEqual", x, y) ==
          std::vector<bool>{false, true, false, true, true, false});
  }
}

TEST_CASE("GPU comparisons match the CPU, broadcasting included", "[cuda][binary]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 12000;
  for (const char* op : {"Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"}) {
    for (const hxrt::DType dtype : kElementwiseDTypes) {
      for (const auto& [x_shape, y_shape] : kCompareShapes) {
        INFO(op << ' ' << hxrt::dtype_name(dtype) << ' ' << x_shape.to_string() << ", "
                << y_shape.to_string());
        const hxrt::Tensor x = small_integers(dtype, x_shape, ++seed);
        const hxrt::Tensor y = small_integers(dtype, y_shape, ++seed);
        const hxrt::Tensor got = run_on_gpu(op, {x, y});
        const hxrt::Tensor want = cpu_comparison(op, x, y);
        REQUIRE(got.shape() == want.shape());
        CHECK(got.to_vector<bool>() == want.to_vector<bool>());
      }
    }
  }
}

}  // namespace cuda_kernel_test
