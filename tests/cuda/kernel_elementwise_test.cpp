// Add, Sub, Mul, Div and Relu on GPU:0 against the CPU plugin, for f32, f16 and bf16: equal
// shapes, a one-element operand on either side, scalars, NumPy broadcasting (the inputs arrive
// with stride 0 where they repeat, and take the strided launch), empty tensors, and one tensor
// larger than the kernels' grid so that the grid-stride loop wraps.
#include <catch2/catch.hpp>

#include <cmath>
#include <limits>

#include "kernel_test_support.hpp"

namespace cuda_kernel_test {
namespace {

const char* const kBinaryOps[] = {"Add", "Sub", "Mul", "Div"};

struct OperandShapes {
  hxrt::Shape x, y;
};

const OperandShapes kBinaryShapes[] = {
    {{7, 13}, {7, 13}},  // equal shapes, odd sizes
    {{1}, {5, 6}},       // a one-element x broadcast
    {{5, 6}, {}},        // a scalar y broadcast
    {{}, {}},            // scalars
    {{1, 1}, {1}},       // two one-element operands
    {{2, 3}, {3}},       // a row repeated down the rows
    {{2, 1}, {1, 3}},    // a column against a row: both repeat
    {{4, 1, 5}, {3, 1}}, // three dimensions, none merged
    {{3}, {2, 1, 3}},    // the lower rank on the left
    {{0, 5}, {0, 5}},    // empty
    {{3, 0}, {1}},       // empty against a broadcast one
    {{4097}, {4097}},    // more than one block
};

void check_binary(const char* op, hxrt::DType dtype, const OperandShapes& shapes, uint32_t seed) {
  INFO(op << ' ' << hxrt::dtype_name(dtype) << ' ' << shapes.x.to_string() << ", "
          << shapes.y.to_string());
  const hxrt::Tensor x = random_tensor(dtype, shapes.x, seed);
  // Divisors kept away from 0, where a quotient's magnitude says nothing about the kernel.
  const hxrt::Tensor y = std::string(op) == "Div"
                             ? random_tensor(dtype, shapes.y, seed + 1, 0.5, 10)
                             : random_tensor(dtype, shapes.y, seed + 1);
  check_close(run_on_gpu(op, {x, y}), cpu_reference(op, {x, y}));
}

}  // namespace

TEST_CASE("GPU Add, Sub, Mul and Div match the CPU", "[cuda][elementwise]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  uint32_t seed = 1000;
  for (const char* op : kBinaryOps) {
    for (const hxrt::DType dtype : kElementwiseDTypes) {
      for (const OperandShapes& shapes : kBinaryShapes) check_binary(op, dtype, shapes, seed += 2);
    }
  }
}

TEST_CASE("GPU Add covers tensors larger than one grid", "[cuda][elementwise]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  // 65536 blocks of 256 threads is the kernels' largest grid; three elements more wrap.
  const int64_t count = int64_t{65536} * 256 + 3;
  check_binary("Add", hxrt::DType::kF32, {{count}, {count}}, 2000);
  check_binary("Mul", hxrt::DType::kBF16, {{count}, {1}}, 2002);
  check_binary("Sub", hxrt::DType::kF32, {{count / 5 + 1, 5}, {5}}, 2004);  // strided
}

TEST_CASE("GPU Relu matches the CPU, NaN and infinities included", "[cuda][elementwise]") {
  CUDA_PLUGIN_TEST_REQUIRE_GPU(runtime());
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  uint32_t seed = 3000;
  for (const hxrt::DType dtype : kElementwiseDTypes) {
    INFO(hxrt::dtype_name(dtype));
    for (const hxrt::Shape& shape :
         {hxrt::Shape{9, 11}, hxrt::Shape{}, hxrt::Shape{1}, hxrt::Shape{0}, hxrt::Shape{70000}}) {
      const hxrt::Tensor x = random_tensor(dtype, shape, seed += 1);
      check_close(run_on_gpu("Relu", {x}), cpu_reference("Relu", {x}));
    }
    const hxrt::Tensor special = cpu_tensor(dtype, {6}, {-0.0, 0.0, -inf, inf, nan, -1e-3});
    check_equal(run_on_gpu("Relu", {special}), cpu_reference("Relu", {special}));
  }
}

}  // namespace cuda_kernel_test
