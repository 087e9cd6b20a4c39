// The CPU plugin's pools where oneDNN's pooling does not serve (direct_pool.hpp): MaxPool's
// Indices in both storage orders, and AveragePool's count_include_pad divisor for a ceil_mode
// window past the end padding, against values worked by hand.
#include <catch2/catch.hpp>

#include <vector>

#include "cpu_test_support.hpp"

using PoolInts = std::vector<int64_t>;

TEST_CASE("MaxPool's Indices flatten X's axes row-major, or column-major with storage_order 1",
          "[cpu]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  // Plane 0 is 1..9, plane 1 is -1..-9: each window's largest is its last, then its first.
  std::vector<float> values;
  for (int i = 1; i <= 9; ++i) values.push_back(static_cast<float>(i));
  for (int i = 1; i <= 9; ++i) values.push_back(static_cast<float>(-i));
  const hxrt::Tensor x = rt.tensor<float>({1, 2, 3, 3}, values);
  hxrt::Attrs attrs{{"kernel_shape", PoolInts{2, 2}}, {"num_outputs", int64_t{2}}};
  std::vector<hxrt::Tensor> pooled = rt.execute_multi("MaxPool", {x}, attrs);
  REQUIRE(pooled.size() == 2);
  CHECK(pooled[0].to_vector<float>() == std::vector<float>{5, 6, 8, 9, -1, -2, -4, -5});
  CHECK(pooled[1].to_vector<int64_t>() == PoolInts{4, 5, 7, 8, 9, 10, 12, 13});
  attrs.set("storage_order", int64_t{1});
  pooled = rt.execute_multi("MaxPool", {x}, attrs);
  // (h, w) is h + 3 * w within a plane.
  CHECK(pooled[1].to_vector<int64_t>() == PoolInts{4, 7, 5, 8, 9, 12, 10, 13});
}

TEST_CASE("AveragePool with count_include_pad counts no tap past the end padding", "[cpu]") {
  hxrt::Runtime& rt = cpu_test::runtime();
  const hxrt::Tensor x = rt.tensor<float>({1, 1, 4}, {1, 2, 3, 4});
  // Windows from -1, 1 and 3 (ceil_mode's third): the last covers x[3], the end pad and a tap
  // beyond it, so it divides by 2.
  const hxrt::Tensor y = rt.execute(
      "AveragePool", {x},
      {{"kernel_shape", PoolInts{3}}, {"strides", PoolInts{2}}, {"pads", PoolInts{1, 1}},
       {"ceil_mode", int64_t{1}}, {"count_include_pad", int64_t{1}}});
  CHECK(y.to_vector<float>() == std::vector<float>{1, 3, 2});
}
