// NonZero through the eager API: its output's extents come from the kernel
// (hx_kernel_args.output_extents), so the tensor returned has the count found, and the calls
// after it see that shape.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "cpu_test_support.hpp"

TEST_CASE("an eager NonZero returns the coordinates it found, of their count's shape",
          "[cpu][non_zero]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const float nan = std::numeric_limits<float>::quiet_NaN();
  const hxrt::Tensor x = rt.tensor<float>({2, 3}, {0, 1.5f, -0.0f, nan, 0, -2});
  const hxrt::Tensor found = rt.execute("NonZero", {x});
  CHECK(found.shape() == hxrt::Shape{2, 3});
  CHECK(found.dtype() == hxrt::DType::kI64);
  CHECK(found.to_vector<int64_t>() == std::vector<int64_t>{0, 1, 1, 1, 0, 2});

  // What reads it sees [2, 3]: the transposed coordinates, one row per element.
  const hxrt::Tensor rows = rt.execute("Transpose", {found});
  CHECK(rows.shape() == hxrt::Shape{3, 2});
  CHECK(rows.to_vector<int64_t>() == std::vector<int64_t>{0, 1, 1, 0, 1, 2});

  // The same kind of call again, with another count: the plan is kept, the extents are not.
  const hxrt::Tensor y = rt.tensor<float>({2, 3}, {0, 0, 0, 0, 7, 0});
  const hxrt::Tensor one = rt.execute("NonZero", {y});
  CHECK(one.shape() == hxrt::Shape{2, 1});
  CHECK(one.to_vector<int64_t>() == std::vector<int64_t>{1, 1});
  const hxrt::Tensor zeros = rt.tensor<float>({2, 3}, std::vector<float>(6));
  const hxrt::Tensor none = rt.execute("NonZero", {zeros});
  CHECK(none.shape() == hxrt::Shape{2, 0});
  CHECK(rt.execute("Transpose", {none}).shape() == hxrt::Shape{0, 2});
}

TEST_CASE("NonZero of a scalar gives one row, and of bool and integers their true elements",
          "[cpu][non_zero]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  CHECK(rt.execute("NonZero", {rt.tensor<int32_t>({}, {5})}).shape() == hxrt::Shape{1, 1});
  CHECK(rt.execute("NonZero", {rt.tensor<int32_t>({}, {0})}).shape() == hxrt::Shape{1, 0});
  const hxrt::Tensor flags = rt.tensor<bool>({4}, {true, false, false, true});
  CHECK(rt.execute("NonZero", {flags}).to_vector<int64_t>() == std::vector<int64_t>{0, 3});
  const hxrt::Tensor big = rt.tensor<int64_t>({3}, {int64_t{1} << 40, 0, -1});
  CHECK(rt.execute("NonZero", {big}).to_vector<int64_t>() == std::vector<int64_t>{0, 2});
}
